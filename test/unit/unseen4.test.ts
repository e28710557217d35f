// Regressions from the fourth sweep of unseen kernels (scratch/unseen4/NOTES.md): figures from a brute-force oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

test('a `#pragma unroll` between a `for (...)` and its body leaves the body inside the loop', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen4.cu');
  const p = accessAt(result, text, 'float v = patch[', 'load');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 2);
  const c = accessAt(result, text, 'colsT[tid][ky * KS + kx] = v;', 'store');
  assert.equal(c.status, 'conflict-free');
  assert.equal(c.degree, 1);
  assert.deepEqual(c.cases ?? [], []);
});
