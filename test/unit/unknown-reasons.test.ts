// The reason an access is unknown names the unknown that makes it so.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, accessAt } from './helpers/engine';

before(() => ready);

test('a per-lane value divided by an unknown names the divisor, not the uniform part of the per-lane value', () => {
  // mmcv's carafe: `c` runs from the lane by 32 up to a parameter, `shared[c / groups]`
  // (was: the reason named `32 * (passes of c@4)`, the part of `c` that is the same on every lane)
  const text = [
    '__global__ void k(float *out, int channels, int groups)',
    '{',
    '  __shared__ float s[1024];',
    '  for (int c = threadIdx.x; c < channels; c += 32)',
    '    out[c] = s[c / groups];',
    '}',
  ].join('\n');
  const a = accessAt(analyzeText(text, { budgetMs: 60_000 }), text, 'out[c] = s[c / groups]', 'load');
  assert.equal(a.status, 'unknown');
  assert.equal(a.message, 's: unknown: `c / groups` combines the unknown warp-uniform value `groups` with per-lane values');
});

test('an access known in some contexts and not in others is unknown unless a known one is a conflict', () => {
  // (was: conflict-free from the first pass alone, the loaded index of the second noted in an assumption)
  const text = [
    '__global__ void k(float *out, const int *idx)',
    '{',
    '  __shared__ float s[1024];',
    '  int i = threadIdx.x, j = threadIdx.x * 2;',
    '  for (int hop = 0; hop < 2; ++hop) {',
    '    out[hop * 32 + threadIdx.x] = s[i];',
    '    out[threadIdx.x] += s[j];',
    '    i = idx[i];',
    '    j = idx[j];',
    '  }',
    '}',
    'int main() { k<<<1, 32>>>(0, 0); }',
  ].join('\n');
  const r = analyzeText(text, { budgetMs: 60_000 });
  // hop 0: s[t], conflict-free; hop 1: s[idx[t]]: not known
  const plain = accessAt(r, text, '= s[i];', 'load');
  assert.equal(plain.status, 'unknown');
  assert.equal(plain.reason, '`idx[i]` is a value loaded from memory that is not shared');
  assert.ok(plain.assumptions.includes('in 1 context it is evaluated: conflict-free, 1 wavefront (ideal 1); in 1 other context it is not'), plain.assumptions.join('\n'));
  // hop 0: s[2 t], 2-way: a conflict all the same
  const strided = accessAt(r, text, '+= s[j];', 'load');
  assert.equal(strided.status, 'conflict');
  assert.equal(strided.degree, 2);
  assert.ok(strided.assumptions.includes('in 1 other context the access could not be evaluated: `idx[j]` is a value loaded from memory that is not shared'), strided.assumptions.join('\n'));
});
