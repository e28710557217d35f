// Regressions from the tenth sweep of unseen kernels, helper C (Parboil, SHOC, the PMPP textbook, CUDA by Example):
// figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf, figures } from './helpers/engine';
import type { AccessFinding, FileAnalysis } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen10c.cu';

/** Every access of `kind` on the line containing `snippet` (a statement macro's accesses are all reported at its use). */
function accessesAt(r: FileAnalysis, text: string, snippet: string, kind: AccessFinding['kind']): AccessFinding[] {
  const line = lineOf(text, snippet);
  return r.accesses.filter((a) => a.range.start.line === line && a.kind === kind);
}

test('a statement macro whose body is `do { ... } while (0)` or an `if` is run where it is used: its accesses are reported', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // were not reported at all (Parboil histo's `SUM(stride)`: `if (threadIdx.x < stride__) { ... }`); block 256
  const clear = accessesAt(result, text, 'CLEAR_ODD(0.0f);', 'store');
  assert.equal(clear.length, 1);
  figures(clear[0], 'conflict', 2, 2, 32, 32); // part[2t + 1]
  assert.deepEqual(clear[0].block, [256, 1, 1]);
  // a macro defined inside the kernel, over several lines: part[4t] and part[4t + 2] for t < 64
  const fold = accessesAt(result, text, 'FOLD_QUAD(64);', 'load');
  assert.equal(fold.length, 2);
  for (const a of fold) figures(a, 'conflict', 4, 4, 32, 32);
  const foldSt = accessesAt(result, text, 'FOLD_QUAD(64);', 'store');
  assert.equal(foldSt.length, 1);
  figures(foldSt[0], 'conflict', 4, 4, 32, 32);
  // part[2t] += part[2(t + 128)] for t < 128: 2-way
  const halve = accessesAt(result, text, 'HALVE_PAIR(128);', 'load');
  assert.equal(halve.length, 2);
  for (const a of halve) figures(a, 'conflict', 2, 2, 32, 32);
  figures(accessesAt(result, text, 'HALVE_PAIR(128);', 'store')[0], 'conflict', 2, 2, 32, 32);
});

test('an integer read from global memory at one address per warp is a warp-uniform unknown in a subscript', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `first = row_start[blockIdx.x]`: row[2 * (first + t)] is 2-way whatever `first` is (was unknown)
  const st = accessAt(result, text, 'row[2 * (first + threadIdx.x)] = vals[threadIdx.x];', 'store');
  figures(st, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  assert.ok(st.assumptions.some((a) => a.startsWith('`8 * row_start[blockIdx.x]` adds the same offset to every lane')), st.assumptions.join('\n'));
  // read by one lane (`if (threadIdx.x == 0)`): one word, one wavefront, whatever the key is (was unknown)
  const one = accessAt(result, text, 'if (threadIdx.x == 0) tally[keys[blockIdx.x]] += 1u;', 'store');
  figures(one, 'conflict-free', 1, 1, 1, 1);
  figures(accessAt(result, text, 'if (threadIdx.x == 0) tally[keys[blockIdx.x]] += 1u;', 'load'), 'conflict-free', 1, 1, 1, 1);
  // a key each lane reads at its own address stays unknown
  const per = accessAt(result, text, 'atomicAdd(&tally[keys[blockIdx.x * 128 + threadIdx.x]], 1u);', 'atomic');
  assert.equal(per.status, 'unknown');
  assert.equal(per.degree, null);
  assert.equal(per.reason, '`keys[blockIdx.x * 128 + threadIdx.x]` is a value loaded from memory that is not shared');
  // a thread's own local array read at one index, through a pointer parameter of a helper: each lane its own value
  // (2t here), never one value a warp
  const own = accessAt(result, text, 'out[threadIdx.x + 256] = row[nth(own, 1)];', 'load');
  assert.equal(own.status, 'unknown');
  assert.equal(own.reason, '`list[i]` is a value loaded from memory that is not shared');
});

test('an integer read from one shared word by every lane of a warp is a warp-uniform unknown in a subscript', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // row[lens[63] + 4t]: 4-way (was unknown: "`lens[63]` is a value loaded from shared memory")
  const ld = accessAt(result, text, 'out[threadIdx.x] = row[lens[63] + 4 * threadIdx.x];', 'load', 'row');
  figures(ld, 'conflict', 4, 4, 32, 32);
  assert.ok(ld.assumptions.some((a) => a.startsWith('`4 * lens[63]` adds the same offset to every lane')), ld.assumptions.join('\n'));
  figures(accessAt(result, text, 'out[threadIdx.x] = row[lens[63] + 4 * threadIdx.x];', 'load', 'lens'), 'broadcast', 1, 1, 1, 32);
  // tally[row[0] + t]: 32 consecutive words
  figures(accessAt(result, text, 'out[threadIdx.x + 128] = (int)tally[row[0] + threadIdx.x];', 'load', 'tally'), 'conflict-free', 1, 1, 32, 32);
});

test('through a pointer into shared memory (a helper\'s parameter, a local), an access no thread runs is reported unknown, not dropped', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `fold_tail<64>(acc)`: `if (N > 64)` is false for every thread; the three accesses were missing
  const launch = lineOf(text, 'fold_block<64><<<n, 64>>>(out);') + 1;
  const why = `no thread runs this access: the condition \`N > 64\` at line ${lineOf(text, 'if (N > 64) buf[threadIdx.x]') + 1} is false for every thread of block 64x1x1 (N = 64; from the launch at line ${launch})`;
  const off = accessesAt(result, text, 'if (N > 64) buf[threadIdx.x] += buf[threadIdx.x + 64];', 'load');
  assert.equal(off.length, 2);
  for (const a of [...off, ...accessesAt(result, text, 'if (N > 64) buf[threadIdx.x] += buf[threadIdx.x + 64];', 'store')]) {
    assert.equal(a.status, 'unknown');
    assert.equal(a.degree, null);
    assert.equal(a.reason, why);
    assert.equal(a.kernel, 'fold_block');
    assert.equal(a.sharedArray, 'acc');
  }
  // `N > 32` holds: buf[t] += buf[t + 32] for t < 32, 32 consecutive words
  for (const a of accessesAt(result, text, 'if (N > 32) buf[threadIdx.x] += buf[threadIdx.x + 32];', 'load')) figures(a, 'conflict-free', 1, 1, 32, 32);
  // `float *upper = acc + 64;` under the same false condition in the kernel itself
  const up = accessAt(result, text, 'if (N > 64) upper[threadIdx.x] = 0.0f;', 'store');
  assert.equal(up.status, 'unknown');
  assert.equal(up.reason, `no thread runs this access: the condition \`N > 64\` at line ${lineOf(text, 'if (N > 64) upper[threadIdx.x]') + 1} is false for every thread of block 64x1x1 (N = 64; from the launch at line ${launch})`);
  assert.equal(up.sharedArray, 'acc');
});

test('of warps that tie on degree and wavefronts, the figures are those of the one with the most active lanes', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 64, `threadIdx.x >= 24`: warp 0 has 8 lanes, warp 1 all 32 (was 8 lanes, 8 distinct words: warp 0's)
  const st = accessAt(result, text, 'if (threadIdx.x >= 24) stage[threadIdx.x] = in[threadIdx.x];', 'store');
  figures(st, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(st.block, [64, 1, 1]);
});

test('two reads of the same shared word with a store between are two values: their difference is not 0', async () => {
  const { analyzeText } = await import('../../server/engine');
  const src = `
__global__ void k(int *o) {
  __shared__ int w[2];
  __shared__ float s[1024];
  if (threadIdx.x == 0) w[0] = o[0];
  __syncthreads();
  int a = w[0];
  __syncthreads();
  if (threadIdx.x == 0) w[0] = a + o[1];
  __syncthreads();
  int b = w[0];
  s[(b - a) * threadIdx.x] = 1.0f;
  s[b + threadIdx.x] = 2.0f;
}
void run(int *o) { k<<<1, 32>>>(o); }
`;
  const r = analyzeText(src);
  const stride = r.accesses.find((x) => x.range.start.line === 11)!;
  // (b - a) is one value on the warp but not known: it multiplies the lane, so the access is unknown (it was a
  // broadcast, as if b - a were 0)
  assert.equal(stride.status, 'unknown');
  assert.match(stride.reason!, /combines the unknown warp-uniform value .* with per-lane values/);
  // b alone only moves every lane alike (rule 6): 32 consecutive words
  const offset = r.accesses.find((x) => x.range.start.line === 12)!;
  assert.equal(offset.status, 'conflict-free');
  assert.equal(offset.wavefronts, 1);
});
