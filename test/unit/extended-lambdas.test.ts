// An extended lambda's execution space (`[] __device__ (float x)`, `[] GPU_LAMBDA (T a)`) in host code
// (test/fixtures/extended-lambdas.cu, as PyTorch's group_norm_kernel.cu passes `[] GPU_LAMBDA (...)` lambdas).
// (was: the grammar's error reached back over the namespace, its `constexpr int kTile` was lost, and every access of
// `s[kTile][kTile]` was unknown, with a notice at the namespace)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, warpFigures } from './helpers/engine';

before(() => ready);

test('a __device__ or macro-spelled lambda in host code leaves the constants and kernels of its namespace known', () => {
  const { text, result } = analyzeFile('test/fixtures/extended-lambdas.cu');
  // s[t][0]: word 32 t, bank 0 for every lane: 32-way
  warpFigures(accessAt(result, text, 's[threadIdx.x][0] = 1.0f', 'store'), 'conflict', 32, 32, 32, 32);
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = s[0][threadIdx.x]', 'load'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(!result.notices.some((n) => /is not closed/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});
