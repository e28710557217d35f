// Regressions from the sixth sweep of unseen kernels, helper A (NVIDIA cuda-samples patterns, scratch/samplesA/NOTES.md):
// figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen6a.cu';

test('`uint` and `ushort` are the glibc typedefs nvcc always sees: 4 and 2 bytes, not an unknown type', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 's[4 * threadIdx.x] = threadIdx.x;', 'store');
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 4);
  assert.equal(s.wavefronts, 4);
  const h = accessAt(result, text, 'h[threadIdx.x] = 1;', 'store');
  assert.equal(h.status, 'conflict-free');
  assert.equal(h.worst!.distinctWords, 16);
  const h2 = accessAt(result, text, 'out[threadIdx.x] = h[2 * threadIdx.x];', 'load');
  assert.equal(h2.status, 'conflict-free');
  assert.equal(h2.worst!.distinctWords, 32);
});

test('`case 256:` of `switch (threads)` gives the launch `dim3 block(threads, 1, 1)` its shape, and says where from', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'red[threadIdx.x] = 1.f;', 'store');
  assert.deepEqual(st.block, [256, 1, 1]);
  assert.ok(st.assumptions.some((a) => a.startsWith('block 256x1x1 from the launch at line 37 (inside `case 256:` of `switch (threads)` at line 36)')), st.assumptions.join(' | '));
  const two = accessAt(result, text, 'if (threadIdx.x < N / 2) red[2 * threadIdx.x] = 2.f;', 'store');
  assert.equal(two.status, 'conflict');
  assert.equal(two.degree, 2);
  assert.equal(two.worst!.activeLanes, 32);
});

test('a case that another case falls into binds nothing; a switch on a variable assigned before it binds the case\'s value there (was: nothing, 32 threads assumed)', () => {
  const text = [
    'template <int N> __global__ void k(float *o) {',
    '  __shared__ float s[64];',
    '  s[threadIdx.x] = 0.f;',
    '}',
    'void go(float *o, int t) {',
    '  switch (t) {',
    '    case 8:',
    '    case 16:',
    '      k<16><<<1, t>>>(o);',
    '      break;',
    '  }',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  assert.equal(r.accesses.length, 1);
  assert.deepEqual(r.accesses[0].block, [32, 1, 1]);
  assert.ok(r.accesses[0].assumptions.some((a) => a.startsWith('the block shape `t` of the launch at line 9 could not be evaluated')), r.accesses[0].assumptions.join(' | '));
  const { text: f, result } = analyzeFile(FIXTURE);
  // `threads *= 2; switch (threads) { case 256: k<<<1, threads>>>` : threads is 256 at that launch, whatever was passed
  const z = accessAt(result, f, 'z[threadIdx.x] = 0.f;', 'store');
  assert.deepEqual(z.block, [256, 1, 1]);
  assert.ok(z.assumptions.includes('block 256x1x1 from the launch at line 60 (inside `case 256:` of `switch (threads)` at line 59)'), z.assumptions.join(' | '));
});

test('`if (n == 16)` gives its launch a 16x16 block; the else branch\'s instance is still analysed, on the stated fallback shape', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'a[threadIdx.y][threadIdx.x] = 0.f;', 'store');
  assert.deepEqual(st.block, [16, 16, 1]);
  assert.ok(st.assumptions.includes('block 16x16x1 from the launch at line 77 (inside `if (n == 16)` at line 76)'), st.assumptions.join(' | '));
  const col = accessAt(result, text, 'out[threadIdx.y * T + threadIdx.x] = a[threadIdx.x][threadIdx.y];', 'load');
  assert.deepEqual(col.cases.map((c) => [c.context.T, c.block, c.degree]), [[16, [16, 16, 1], 8], [32, [32, 1, 1], 32]]);
  assert.ok(col.assumptions.some((a) => a.startsWith('the block shape `threads` of the launch at line 79 could not be evaluated')), col.assumptions.join(' | '));
});

test('`(blockIdx.x * blockDim.x + threadIdx.x) % 32`, `/ 32` and `& 31`: the block offset drops out when it is a multiple', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'g[lane * 32] = warp;', 'store');
  assert.equal(w.status, 'conflict');
  assert.equal(w.degree, 32);
  assert.equal(w.worst!.activeLanes, 32);
  assert.equal(accessAt(result, text, 'out[id] = g[lane * 33];', 'load').status, 'conflict-free');
  const m = accessAt(result, text, 'g[(id & 31) * 2] = 0;', 'store');
  assert.equal(m.degree, 2);
  // a mask is exact whatever the sign of the unknown; a remainder of a value that may be negative is not
  assert.equal(accessAt(result, text, 'out[id] += g[k & 31];', 'load').status, 'conflict-free');
  const r = accessAt(result, text, 'out[id] += g[k % 32];', 'load');
  assert.equal(r.status, 'unknown');
  assert.equal(r.reason, '`k % 32`: `32 * n` may be negative, and `%` of a negative value is negative: where the lanes wrap is not known');
  // the quotient keeps the block offset: 8 * blockIdx.x + threadIdx.x / 32
  const q = accessAt(result, text, 'out[id] += g[(warp - 8 * blockIdx.x) * 32 + lane];', 'load');
  assert.equal(q.status, 'conflict-free');
  assert.equal(q.worst!.distinctWords, 32);
});

test('`Scratch<T> sc; T *buf = sc.get();` calls the member function of the specialization for T, not the primary template\'s', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'buf[threadIdx.x] = out[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  const ld = accessAt(result, text, 'out[threadIdx.x] = buf[2 * threadIdx.x];', 'load');
  // the worst instance is T = double: 8-byte lanes at a stride of 16 bytes, two half-warp phases of 2 wavefronts
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.elementBytes, 8);
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 4);
  assert.equal(ld.idealWavefronts, 2);
});

test('`if (n > 0 && threadIdx.x < 16)`: the per-lane part of a guard still picks the lanes; only `n > 0` is assumed true', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'if (n > 0 && threadIdx.x < 16) m[2 * threadIdx.x] = 1.f;', 'store');
  assert.equal(a.status, 'conflict-free'); // 16 lanes at stride 2: 16 banks, one word each (all 32 lanes would be 2-way)
  assert.equal(a.worst!.activeLanes, 16);
  assert.ok(a.assumptions.includes('the guard `n > 0 && threadIdx.x < 16` at line 136 could not be evaluated per lane (`n > 0` depends on the unknown warp-uniform value `n`); `n > 0` assumed true for every lane, `threadIdx.x < 16` evaluated per lane'), a.assumptions.join(' | '));
  const b = accessAt(result, text, 'm[threadIdx.x / 32] = 2.f;', 'store');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.worst!.activeLanes, 1);
  // `||`: either part alone lets a lane in, so every lane is still assumed to run it
  const c = accessAt(result, text, 'm[2 * (threadIdx.x % 32)] = 3.f;', 'store');
  assert.equal(c.degree, 2);
  assert.equal(c.worst!.activeLanes, 32);
  // a part that loads memory is not evaluated again; the per-lane part still narrows to 8 lanes
  const d = accessAt(result, text, 'm[4 * threadIdx.x] = 4.f;', 'store');
  assert.equal(d.status, 'conflict-free');
  assert.equal(d.worst!.activeLanes, 8);
});

test('`if (n <= 0 || threadIdx.x >= 16) return;` retires the lanes its per-lane part names; a `?:` on `n > 0 && tid < 16` reads 16 lanes', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const q = accessAt(result, text, 'out[threadIdx.x] = (n > 0 && threadIdx.x < 16) ? e[2 * threadIdx.x] : 0.f;', 'load');
  assert.equal(q.status, 'conflict-free'); // all 32 lanes at stride 2 would be 2-way
  assert.equal(q.worst!.activeLanes, 16);
  assert.ok(q.assumptions[0].startsWith('the condition `n > 0 && threadIdx.x < 16` of the `?:` at line 150 could not be evaluated per lane'), q.assumptions.join(' | '));
  const c = accessAt(result, text, 'e[4 * threadIdx.x] += 1.f;', 'store');
  assert.equal(c.status, 'conflict-free');
  assert.equal(c.worst!.activeLanes, 8);
  const r = accessAt(result, text, 'e[2 * threadIdx.x + 1] = 1.f;', 'store');
  assert.equal(r.status, 'conflict-free');
  assert.equal(r.worst!.activeLanes, 16);
  assert.ok(r.assumptions.includes('the guard `n <= 0 || threadIdx.x >= 16` at line 155 could not be evaluated per lane (`n <= 0` depends on the unknown warp-uniform value `n`); the lanes where `threadIdx.x >= 16` holds leave at its `return`, every other lane is assumed to go on past it'), r.assumptions.join(' | '));
});

test('`while (true) { ...; if (done) break; }` with `done` in shared memory runs symbolically after one iteration, not to the cap', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'work[2 * threadIdx.x] = out[threadIdx.x];', 'store');
  assert.equal(w.status, 'conflict');
  assert.equal(w.degree, 2);
  const d = accessAt(result, text, 'if (done) break;', 'load');
  assert.equal(d.status, 'broadcast');
  const st = accessAt(result, text, 'if (threadIdx.x == 0) done = out[0];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.worst!.activeLanes, 1);
  const all = result.accesses.filter((a) => a.kernel === 'flag_loop');
  assert.ok(all.every((a) => a.status !== 'unknown'), all.map((a) => a.reason).join(' | '));
  // before: `the loop at line 168 runs more than 1,024 iterations`, and every access above unknown
  assert.ok(!JSON.stringify(result).includes('the loop at line 168 runs more than'));
});

test('a counted loop with a break under an unknown guard is still enumerated: every iteration may run, so each is a case', () => {
  const text = [
    '__global__ void k(float *g) {',
    '  __shared__ float s[2048];',
    '  for (int k = 1; k < 8; k++) {',
    '    s[threadIdx.x * k] = 1.f;',
    '    if (g[k] > 0.f) break;',
    '  }',
    '}',
    'void go(float *g) { k<<<1, 32>>>(g); }',
  ].join('\n');
  const r = analyzeText(text);
  assert.equal(r.accesses.length, 1);
  assert.equal(r.accesses[0].degree, 4); // k = 4: stride 4 words
  assert.deepEqual(r.accesses[0].cases.map((c) => [c.context.k, c.degree]), [[1, 1], [2, 2], [3, 1], [4, 4], [5, 1], [6, 2], [7, 1]]);
});
