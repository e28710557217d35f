// Regressions from the sixth sweep of unseen kernels, helper A (NVIDIA cuda-samples patterns, scratch/samplesA/NOTES.md):
// figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

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
