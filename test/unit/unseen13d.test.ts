// Regressions from the thirteenth sweep of unseen kernels, helper D (deep-learning framework kernels: darknet's
// batch-norm statistics, LeetCUDA's PyTorch bindings, Paddle's tiled transpose): a counter set again under a guard
// after a loop of unknown trip count, launches in binding macros (at file scope, with `##`; nested in a dispatch
// `switch`; in a body of one macro use), and a typedef of a pointer to rows over a `char` buffer. Figures from a
// brute-force lane oracle of the bank model (scratch/o_fixture.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13d.cu';

test('a counter left unknown by a loop of unknown trip count and set again by the lanes of a guard is known on them (was: unknown, `k` is changed by the loop)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 16 lanes, words 4t + 64k: two words in each of 8 banks
  const p = accessAt(result, text, 's += part[tid * 4 + k * 64];', 'load');
  figures(p, 'conflict', 2, 2, 16, 16);
  assert.deepEqual(p.block, [256, 1, 1]);
  // lane 0 alone, one word per pass
  figures(accessAt(result, text, 'total += part[k];', 'load'), 'conflict-free', 1, 1, 1, 1);
});

test('a binding macro used at file scope defines the host function that launches; `tile_##tag##_kernel` is pasted (was: 32 threads, the naive load 16-way, the padded store conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const naive = result.accesses.filter((a) => a.kernel === 'tile_naive_kernel');
  const padded = result.accesses.filter((a) => a.kernel === 'tile_padded_kernel');
  assert.equal(naive.length, 2);
  assert.equal(padded.length, 2);
  for (const a of [...naive, ...padded]) {
    assert.deepEqual(a.block, [16, 16, 1]);
    assert.ok(a.assumptions.some((s) => /block 16x16x1 from the launch in the macro `BIND_TILE_TRANSPOSE\((naive|padded)\)`/.test(s)), a.assumptions.join('\n'));
  }
  // a warp holds two rows of 16: buf[tx][ty] is words 16tx + ty, eight per bank
  figures(naive.find((a) => a.kind === 'store')!, 'conflict-free', 1, 1, 32, 32);
  figures(naive.find((a) => a.kind === 'load')!, 'conflict', 8, 8, 32, 32);
  // rows of 17: words 0..15 and 17..32 of a warp's two rows put words 0 and 32 in bank 0
  figures(padded.find((a) => a.kind === 'store')!, 'conflict', 2, 2, 32, 32);
  figures(padded.find((a) => a.kind === 'load')!, 'conflict', 2, 2, 32, 32);
  assert.ok(text.includes('tile_##tag##_kernel'));
});

test('a dispatch macro whose cases use a launching macro, in a body of that one use, gives one instance per case (was: no launch, `NT` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * NT / 128: strides 1, 2 and 4
  const s = accessAt(result, text, 'stage[tid * (NT / 128)] = x[blockIdx.x * k + tid];', 'store');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.block, [512, 1, 1]);
  const cases = (s.cases ?? []).map((c) => [c.context.NT, c.degree, c.wavefronts]).sort((a, b) => Number(a[0]) - Number(b[0]));
  assert.deepEqual(cases, [[128, 1, 1], [256, 2, 2], [512, 4, 4]]);
  figures(accessAt(result, text, 'y[blockIdx.x * k + tid] = stage[tid];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('a typedef of a pointer to rows over a char buffer, and the same declared with a template type parameter, index shared memory (was: not reported at all)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const sites = result.accesses.filter((a) => a.kernel === 'swap_tile');
  assert.equal(sites.length, 3, sites.map((a) => a.message).join('\n'));
  // rows of 17 floats: a warp's two rows of 16 put words 0 and 32 in bank 0
  const st = accessAt(result, text, 'tile[t / COLS][t % COLS] = in[t];', 'store');
  figures(st, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(st.block, [512, 1, 1]);
  assert.equal(st.sharedArray, 'raw');
  // words 17 (t % 32) + t / 32: an odd stride
  figures(accessAt(result, text, 'out[t] = tile[t % ROWS][t / ROWS];', 'load'), 'conflict-free', 1, 1, 32, 32);
  // words 34 (t % 16) + t / 32: lanes t and t + 16 share a word, 16 words in 16 banks
  figures(accessAt(result, text, 'out[ROWS * COLS + t] = rows[(t % 16) * 2][t / 32];', 'load'), 'conflict-free', 1, 1, 16, 32);
});

test('kernel traits named through a launcher\'s local alias keep their members in the kernel (was: unknown, the size of `Kt::elem_t` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // float: rows of 36 words, 8 threads per row; a warp's four rows overlap in banks 4..31, two words each
  const st = accessAt(result, text, 'rows[tid / kPerRow][tid % kPerRow] = elem_t(in[tid]);', 'store');
  figures(st, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  // words 36 (t % 64): stride 4 for float (4-way), halves of rows of 68 (words 34 t: 2-way)
  const ld = accessAt(result, text, 'out[tid] = float(rows[tid % 64][tid / 64]);', 'load');
  figures(ld, 'conflict', 4, 4, 32, 32);
  const cases = (ld.cases ?? []).map((c) => [c.context.Kt, c.degree, c.wavefronts]).sort();
  assert.deepEqual(cases, [['RowTraits<128, __half>', 2, 2], ['RowTraits<128, float>', 4, 4]]);
});

test('a shared buffer cast to a pointer type not known here is still an access site, unknown with the reason (was: not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'out[t] = rows[t][1];', 'load');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.equal(a.sharedArray, 'raw');
  assert.match(a.reason ?? '', /the size of `add_pointer_t<float\[9\]>` is not known/);
});

test('a table of kernel instances written with a function-like macro binds each instance (was: 32 threads, `ITEMS` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bytes ITEMS * t + i: 8, 16, 32 words in distinct banks for 1, 2, 4 items; 8 items put two words in each of 16 banks
  const s = accessAt(result, text, 'keep[idx] = scores[blockIdx.x * n + idx] > T(0);', 'store');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [256, 1, 1]);
  const byItems = new Map<number, number>();
  for (const c of s.cases ?? []) byItems.set(Number(c.context.ITEMS), Math.max(byItems.get(Number(c.context.ITEMS)) ?? 0, c.degree!));
  assert.deepEqual([...byItems].sort((a, b) => a[0] - b[0]), [[1, 1], [2, 1], [4, 1], [8, 2]]);
  figures(accessAt(result, text, 'out[blockIdx.x * n + threadIdx.x] = keep[threadIdx.x];', 'load'), 'conflict-free', 1, 1, 8, 32);
});

test('one lane of each warp at an address not known asks for one element: conflict-free whatever it is (was: unknown, size of `ScanStorage` is not known); the reason names the type without the parentheses of `sizeof(ScanStorage)`', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // a float2 of one lane: two words in two banks, one pass
  const l = accessAt(result, text, 'float2 run = chunk > 0 && threadIdx.x % 32 == 0 ? prefix[s] : make_float2(1.f, 0.f);', 'load');
  figures(l, 'conflict-free', 1, 1, 2, 1);
  assert.deepEqual(l.block, [128, 1, 1]);
  assert.ok(l.assumptions.some((a) => /the address is not known \(size of `ScanStorage` is not known\), but one lane of each warp asks for it/.test(a)), l.assumptions.join('\n'));
  figures(accessAt(result, text, 'prefix[s] = run;', 'store'), 'conflict-free', 1, 1, 2, 1);
  // every lane: the banks depend on the offset, still unknown
  const all = accessAt(result, text, 'x[threadIdx.x] = prefix[threadIdx.x];', 'load');
  assert.equal(all.status, 'unknown');
  assert.match(all.reason ?? '', /size of `ScanStorage` is not known/);
});
