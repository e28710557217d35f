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
