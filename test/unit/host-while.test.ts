// A block size stepped by a `while` or `do` loop before the launch (`int t = 32; while (t < n) t <<= 1;
// k<<<g, t>>>()`): the loop is run on the host, as a `for` that steps a counter in its header already was.
// Figures: `s[threadIdx.x * 2]` of floats is 2-way on every full warp (lanes t and t + 16 share a bank).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, figures } from './helpers/engine';

before(() => ready);

const kernel = `__global__ void k(float *out)
{
  __shared__ float s[2048];
  s[threadIdx.x * 2] = out[threadIdx.x];
}
`;
const launchedAs = (host: string) => analyzeText(`${kernel}int main(int argc, char **argv)\n{\n  float *d = nullptr;\n${host}\n  return 0;\n}\n`).accesses[0];

test('`while (t < 128) { t <<= 1; }` before `k<<<1, t>>>` gives the block 128x1x1 (was: not evaluated, the 32-thread default assumed)', () => {
  const a = launchedAs('  int t = 32;\n  while (t < 128) { t <<= 1; }\n  k<<<1, t>>>(d);');
  assert.deepEqual(a.block, [128, 1, 1]);
  assert.ok(a.assumptions.includes('block 128x1x1 from the launch at line 11'), a.assumptions.join('\n'));
  figures(a, 'conflict', 2, 2, 32, 32);
});

test('a `while` whose body steps two names, and a `do` loop, whose body runs before the condition is read', () => {
  assert.deepEqual(launchedAs('  int b = 1, n = 0;\n  while (b < 100) { b *= 2; n++; }\n  k<<<1, b>>>(d);').block, [128, 1, 1]);
  // 64 doubles once before `t < 64` is first read: 128
  assert.deepEqual(launchedAs('  int t = 64;\n  do t *= 2; while (t < 64);\n  k<<<1, t>>>(d);').block, [128, 1, 1]);
  // the same as a `while`: never runs, 64
  assert.deepEqual(launchedAs('  int t = 64;\n  while (t < 64) t *= 2;\n  k<<<1, t>>>(d);').block, [64, 1, 1]);
});

test('a `while` with anything but steps in its body, or a condition on a run-time value, stays not evaluated', () => {
  const withCall = launchedAs('  int t = 32;\n  while (t < 128) { t <<= 1; printf("%d", t); }\n  k<<<1, t>>>(d);');
  assert.match(withCall.assumptions[0], /^the block shape `t` of the launch at line 11 could not be evaluated/);
  const runtime = launchedAs('  int t = 32;\n  while (t < argc) t *= 2;\n  k<<<1, t>>>(d);');
  assert.match(runtime.assumptions[0], /^the block shape `t` of the launch at line 11 could not be evaluated/);
});
