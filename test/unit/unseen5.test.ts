// Regressions from the fifth sweep of unseen kernels (scratch/unseen5/NOTES.md): figures from a brute-force oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('a launch-bounds macro between the return type and the name (`C10_LAUNCH_BOUNDS_1(256)`) leaves the kernel found', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen5.cu');
  const s = accessAt(result, text, 'out[threadIdx.x] = s[2 * threadIdx.x];', 'load');
  assert.equal(s.kernel, 'lb_stride');
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 2);
  assert.deepEqual(s.block, [256, 1, 1]);
  const t = accessAt(result, text, 'out[threadIdx.x] = t[8 * threadIdx.x];', 'load');
  assert.equal(t.kernel, 'lb_two');
  assert.equal(t.degree, 8);
  assert.equal(t.wavefronts, 8);
  assert.deepEqual(t.block, [128, 1, 1]);
});

test('a use too long to be spelled `__launch_bounds__(...)` in place is blanked, and the kernel is still found', () => {
  const text = '#define LB(n) __launch_bounds__(n, 2)\n__global__ void LB(256) k(float *o) {\n  __shared__ float s[64];\n  o[threadIdx.x] = s[2 * threadIdx.x];\n}\n';
  const r = analyzeText(text);
  assert.equal(r.accesses.length, 1);
  assert.equal(r.accesses[0].kernel, 'k');
  assert.equal(r.accesses[0].degree, 2);
});

test('a grid-stride loop macro (`CUDA_KERNEL_LOOP(i, n) { ... }`, two levels deep) runs its block as the loop body', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen5.cu');
  const g = accessAt(result, text, 'y[idx] = g[4 * threadIdx.x];', 'load');
  assert.equal(g.status, 'conflict');
  assert.equal(g.degree, 4);
  assert.equal(g.wavefronts, 4);
  assert.ok(g.assumptions.some((a) => a.includes('the loop at line 30 has a trip count that cannot be computed (`_i_n_d_e_x < (n)`')), g.assumptions.join(' | '));
  // the use the grammar reads as a call missing its `;`, then a block
  const k = accessAt(result, text, 'g[k] = 0.f;', 'store');
  assert.equal(k.status, 'conflict-free');
  assert.equal(k.worst!.activeLanes, 32);
});

test('a macro that expands to an `if` header guards its block; one that is no header is said, not dropped silently', () => {
  const text = [
    '#define LANE0(x) if ((x) % 32 == 0)',
    '#define NOT_A_LOOP(a, b) ((a) + (b))',
    '__global__ void k(float *o) {',
    '  __shared__ float s[1024];',
    '  LANE0(threadIdx.x) {',
    '    s[threadIdx.x] = 0.f;',
    '  }',
    '  NOT_A_LOOP(i, float x) {',
    '    s[threadIdx.x] = 1.f;',
    '  }',
    '}',
    'void go(float *o) { k<<<1, 256>>>(o); }',
  ].join('\n');
  const r = analyzeText(text);
  const st = r.accesses.filter((a) => a.range.start.line === 5);
  assert.equal(st.length, 1);
  assert.equal(st[0].worst!.activeLanes, 1);
  assert.equal(st[0].status, 'conflict-free');
  const never = r.accesses.filter((a) => a.range.start.line === 8);
  assert.equal(never.length, 1);
  assert.equal(never[0].status, 'unknown');
  assert.equal(never[0].reason, 'the block after `NOT_A_LOOP(...)` at line 8 is not analysed: its expansion `((i) + ((float x)))` is not a loop or `if` header');
});

test('a pointer into shared memory at an offset read from shared memory (`keys + aCount`) makes its subscripts access sites', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen5.cu');
  // `aCount = s_part[1] - s_part[0]`: every lane reads the same two words, a warp-uniform offset (was unknown)
  const b = accessAt(result, text, '__device__ int lookup(const int *b, int i) { return b[i]; }', 'load');
  assert.deepEqual([b.status, b.degree, b.wavefronts, b.worst!.distinctWords, b.worst!.activeLanes], ['conflict-free', 1, 1, 32, 32]);
  assert.ok(b.assumptions.includes('`4 * s_part[1] + -4 * s_part[0]` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), b.assumptions.join('\n'));
});
