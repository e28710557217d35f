// Regressions from the sixth sweep of unseen kernels, sweep B (sample-style code; scratch/samplesB/NOTES.md):
// figures from a brute-force lane oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('a variable declared without a value and set under a guard is exact for the lanes that set it', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const a = accessAt(result, text, 'edge[slot] = in[threadIdx.x];', 'store');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 4);
  assert.equal(a.worst!.activeLanes, 16);
  const b = accessAt(result, text, 'edge[row * 40 + col] = in[col];', 'store');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.worst!.activeLanes, 32);
  // set on both branches of an `if`: each lane has its own branch's value (lane 0 reads word 0, lane 31 word 32)
  const p = accessAt(result, text, 'out[threadIdx.x] = edge[pick];', 'load');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 2);
  // read by lanes that never set it: unknown, never a guess
  const s = accessAt(result, text, 'out[threadIdx.x] += edge[slot];', 'load');
  assert.equal(s.status, 'unknown');
  assert.equal(s.reason, '`slot` is read on a lane that has not assigned it');
});
