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
