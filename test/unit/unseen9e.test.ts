// Regressions from the ninth sweep of unseen kernels, helper E (the 3D Gaussian splatting rasterizer and ggml CUDA
// patterns): figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen9e.cu';

test('`#if __has_include(<...>)` is no syntax error: no notice, and the kernels after it are analysed', () => {
  const { result } = analyzeFile(FIXTURE);
  assert.deepEqual(result.notices.filter((n) => /syntax error/.test(n.message)), []);
  assert.ok(result.accesses.length >= 6);
});

test('a kernel template named (not launched) in a host function template takes each binding of that template', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `stage_rows<T>` passed to a launcher defined elsewhere, from `stage_rows_cuda<float>` and `stage_rows_cuda<short>`;
  // block 32x8 from the comment: one row of `threadIdx.y` per warp
  const st = accessAt(result, text, 'row[threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 1);
  assert.deepEqual(st.block, [32, 8, 1]);
  assert.ok(!st.assumptions.some((a) => a.includes('is not bound')), st.assumptions.join('\n'));
  // float: 32 distinct words; short: two lanes a word, 16
  assert.ok(st.worst!.distinctWords === 32 || st.worst!.distinctWords === 16);
  // reading a column of rows of 32 words: every lane on one bank, for both types
  const ld = accessAt(result, text, 'out[threadIdx.y * 32 + threadIdx.x] = col[threadIdx.y];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 32);
  assert.equal(ld.wavefronts, 32);
  assert.equal(ld.worst!.distinctWords, 32);
  assert.ok(!ld.assumptions.some((a) => a.includes('is not bound')));
});

test('a type template parameter is deduced from a cast argument: `(const float *)p` and `static_cast<const double *>(p)`', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = float: stride 2 words, 2-way in 2 wavefronts; T = double: 2-way in each half-warp, 4 wavefronts (the worst)
  const st = accessAt(result, text, 'buf[threadIdx.x * 2] = src[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 4);
  assert.equal(st.idealWavefronts, 2);
  assert.equal(st.elementBytes, 8);
  assert.equal(st.worst!.distinctWords, 64);
  assert.ok(st.assumptions.some((a) => a.startsWith('block 32x1x1 from the launch at line 59 in `pair_gather_cuda(...)`')), st.assumptions.join('\n'));
  const ld = accessAt(result, text, 'dst[threadIdx.x] = buf[threadIdx.x * 2 + 1];', 'load');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 4);
  assert.equal(ld.elementBytes, 8);
});

test('a block shape that cannot be evaluated, in a launcher template read once per binding, is said once', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'cells[threadIdx.x * 4 % 128] = dst[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 4);
  assert.equal(st.wavefronts, 4);
  const said = st.assumptions.join('\n').split('the block shape `threads_for(n)` of the launch at line 86 could not be evaluated').length - 1;
  assert.equal(said, 1, st.assumptions.join('\n'));
  assert.equal(accessAt(result, text, 'dst[threadIdx.x] = cells[threadIdx.x];', 'load').status, 'conflict-free');
});

test('through a `T *` with T not known, an access is reported unknown: never dropped, never read as steps of one byte', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // was not reported at all
  const st = accessAt(result, text, 'view[threadIdx.x] = T();', 'store');
  assert.equal(st.status, 'unknown');
  assert.equal(st.degree, null);
  assert.equal(st.reason, 'the size of `T` is not known');
  // was an exact 2-way conflict (`view + threadIdx.x * 8` read as 8 bytes a lane): 2-way for a 1-byte T, 8-way for float
  const sl = accessAt(result, text, '*slot = in[threadIdx.x];', 'store');
  assert.equal(sl.status, 'unknown');
  assert.equal(sl.degree, null);
  assert.equal(sl.reason, 'the size of `T` is not known');
});

test('a qualifier macro between `*` and the declared name (`const float * RESTRICT p`) is no syntax error', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.deepEqual(result.notices.map((n) => n.message), []);
  // N = 32 from `state_scan<128, 32>` (the template line was swallowed: `N` was not known); block 128
  const st = accessAt(result, text, 'coef[threadIdx.x * 3 % N] = in[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.activeLanes, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  const ld = accessAt(result, text, 'acc += coef[n] * hist[threadIdx.x % N][n];', 'load', 'hist');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.wavefronts, 1);
  assert.equal(ld.worst!.distinctWords, 32);
});

test('an access of a called __device__ function that no thread reaches is reported unknown, as in the kernel itself', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `rows_sum` has no launch here: one warp, `threadIdx.y > 0` false for every thread (the store was not reported)
  const st = accessAt(result, text, 'partial[threadIdx.y - 1][threadIdx.x] = v;', 'store');
  assert.equal(st.status, 'unknown');
  assert.equal(st.kernel, 'rows_sum');
  assert.match(st.reason!, /^no thread runs this access: the condition `threadIdx\.y > 0` at line 133 is false for every thread of block 32x1x1 /);
  const ld = accessAt(result, text, 'v += partial[l][threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict-free');
  // reached by `quads_four` (four warps) and not by `quads_one`: the figures of the kernel that reaches it, alone
  const q = accessAt(result, text, 'quads[threadIdx.y - 1][threadIdx.x] = v;', 'store');
  assert.equal(q.status, 'conflict-free');
  assert.equal(q.kernel, 'quads_four');
  assert.deepEqual(q.block, [32, 4, 1]);
  assert.equal(q.wavefronts, 1);
  assert.ok(!q.assumptions.some((a) => /no thread runs|could not be evaluated/.test(a)), q.assumptions.join('\n'));
});
