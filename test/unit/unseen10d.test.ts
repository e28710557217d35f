// Regressions from the tenth sweep of unseen kernels, helper D (LLM inference kernels: vLLM's MoE block alignment,
// AWQ's ldmatrix GEMM tiles): figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen10d.cu';

test('a launch through `auto fn = ns::kernel<T>;` is found, and a `threads` declared in a closed block is another variable', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // two launches: 64 threads (the inner `threads`) and 256 (the outer one); counts[t * (blockDim.x / 32)] is stride
  // 2 words (2-way) at 64 and stride 8 (8-way) at 256: the worst is 8-way in 8 wavefronts
  const a = accessAt(result, text, 'counts[threadIdx.x * (blockDim.x / 32)] = 0;', 'store');
  assert.equal(a.kernel, 'tally');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 8);
  assert.equal(a.wavefronts, 8);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [256, 1, 1]);
  assert.ok(a.assumptions.some((s) => /block 256x1x1 from the launch at line 30/.test(s)), a.assumptions.join('\n'));
  assert.ok(!a.assumptions.some((s) => /no launch of|could not be evaluated/.test(s)), a.assumptions.join('\n'));
  assert.ok(a.cases?.some((c) => c.degree === 2), JSON.stringify(a.cases));
  const b = accessAt(result, text, 'out[threadIdx.x] = counts[warp * 32 + threadIdx.x % 32]', 'load', 'counts');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.wavefronts, 1);
  assert.equal(b.worst!.distinctWords, 32);
});

test('a loop whose trip count is unknown, run by one lane, steps its counter on that lane only: its accesses are one lane\'s', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const [kind, expr] of [['store', 'sums[i]'], ['load', 'sums[i - 1]'], ['load', 'cnt[i - 1]']] as const) {
    const a = accessAt(result, text, 'for (int i = 1; i <= n; ++i) sums[i] = sums[i - 1] + cnt[i - 1];', kind, expr);
    assert.equal(a.status, 'conflict-free', `${expr}: ${a.message}`);
    assert.equal(a.degree, 1);
    assert.equal(a.wavefronts, 1);
    assert.equal(a.worst!.distinctWords, 1);
    assert.equal(a.worst!.activeLanes, 1);
    assert.deepEqual(a.block, [256, 1, 1]);
    assert.ok(a.assumptions.some((s) => /trip count that cannot be computed/.test(s)), a.assumptions.join('\n'));
  }
});

test('PTX written as adjacent string literals is one instruction: ldmatrix, ld.shared.v4 and ld.shared are recorded', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows of 40 halves (80 bytes): the 8 rows of each matrix fall in 8 distinct 16-byte bank groups
  const a = accessAt(result, text, ': "r"(a));', 'load');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.elementBytes, 16);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.idealWavefronts, 4);
  assert.equal(a.worst!.distinctWords, 128);
  assert.deepEqual(a.block, [32, 1, 1]);
  // rows of 32 halves (64 bytes): 4 rows of each matrix share a bank group: 4-way, 16 wavefronts
  const b = accessAt(result, text, ': "r"(b));', 'load');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 16);
  assert.equal(b.worst!.distinctWords, 128);
  // float4 at stride 2: 2-way in each quarter-warp, 8 wavefronts
  const c = accessAt(result, text, ': "r"(c));', 'load');
  assert.equal(c.degree, 2);
  assert.equal(c.wavefronts, 8);
  assert.equal(c.elementBytes, 16);
  assert.equal(c.worst!.distinctWords, 128);
  // a float at stride 4 words: 4-way
  const d = accessAt(result, text, ': "r"(d));', 'load');
  assert.equal(d.degree, 4);
  assert.equal(d.wavefronts, 4);
  assert.equal(d.elementBytes, 4);
  assert.equal(d.worst!.distinctWords, 32);
});

test('a launch through the pointer a host function returns (`gather_fn kernel = pick_gather(s);`) launches each kernel it returns', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // instances STRIDE = 2 (2-way) and STRIDE = 4 (4-way), block 128 from the launch: the worst is 4-way
  const a = accessAt(result, text, 'buf[threadIdx.x * STRIDE] = in[threadIdx.x];', 'store');
  assert.equal(a.kernel, 'strided_gather');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 4);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
  assert.ok(a.cases?.some((c) => c.degree === 2), JSON.stringify(a.cases));
  assert.ok(!a.assumptions.some((s) => /no launch of|is not bound/.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'out[threadIdx.x] = buf[(threadIdx.x * STRIDE + 1) % (128 * STRIDE)];', 'load', 'buf');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 4);
});

test('an explicit instantiation that deduces its arguments (`template void f(half *, ...);`) binds the launcher\'s and the kernel\'s T', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = float: tile[x][y] of a [32][33] tile is conflict-free; T = half: 66-byte rows, 2-way in 2 wavefronts
  const a = accessAt(result, text, 'tile[threadIdx.x][threadIdx.y] = src[threadIdx.y * 32 + threadIdx.x];', 'store');
  assert.equal(a.kernel, 'pad_transpose');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.elementBytes, 2);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [32, 32, 1]);
  assert.ok(a.cases?.some((c) => c.degree === 1), JSON.stringify(a.cases));
  assert.ok(!a.assumptions.some((s) => /is not bound|not known/.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'dst[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];', 'load', 'tile');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.wavefronts, 1);
  // a kernel instantiated `template __global__ void pair_copy(double *);`: s[2t] of doubles, 2-way per half-warp
  for (const [snippet, kind] of [['s[threadIdx.x * 2] = out[threadIdx.x];', 'store'], ['out[threadIdx.x] = s[threadIdx.x * 2 + 1];', 'load']] as const) {
    const c = accessAt(result, text, snippet, kind, kind === 'load' ? 's[' : undefined);
    assert.equal(c.kernel, 'pair_copy');
    assert.equal(c.elementBytes, 8);
    assert.equal(c.degree, 2);
    assert.equal(c.wavefronts, 4);
    assert.equal(c.idealWavefronts, 2);
    assert.equal(c.worst!.distinctWords, 64);
    assert.deepEqual(c.block, [32, 1, 1]);
  }
});
