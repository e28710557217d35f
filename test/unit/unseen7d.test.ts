// Regressions from the seventh sweep of unseen kernels, helper D (Rodinia benchmark patterns, scratch/rodinia/NOTES.md):
// figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen7d.cu';

test('a type named by an object-like macro (`#define real_t double`) has that type\'s size, alone and as struct members', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const m = accessAt(result, text, 'mass[threadIdx.x] = 1.0;', 'store');
  assert.equal(m.status, 'conflict-free');
  assert.equal(m.wavefronts, 2);
  assert.equal(m.worst!.distinctWords, 64);
  // a 32-byte struct of four doubles: `.px` lanes 32 bytes apart, 4 words per bank in each half-warp
  const b = accessAt(result, text, 'bodies[threadIdx.x].px = 2.0;', 'store');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 8);
  const p = accessAt(result, text, 'pairs[threadIdx.x].hi = 3.0;', 'store');
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 4);
  const h = accessAt(result, text, 'hits[2 * threadIdx.x] = 1;', 'store');
  assert.equal(h.degree, 2);
  assert.equal(h.wavefronts, 2);
});
