// Regressions from the fifteenth sweep of unseen kernels, helper G (numerical solvers: cyclic reduction and PCR
// tridiagonal solvers, a Barnes-Hut traversal, batched small dense elimination). The sweep found no wrong figure in
// these shapes; the tests pin them: cyclic reduction in place on doubles (half-warp phases, a stride that doubles
// per level and a guard that halves the lanes), one Thomas system per thread (padded and not), Gauss-Jordan on a
// 16x16 block (two rows of threadIdx.y per warp) and a per-warp stack (one lane stores, the warp reads it back).
// Figures from a brute-force lane oracle of the bank model (scratch/oracle15g.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen15g.cu';

test('cyclic reduction in place on doubles: each level its own degree, the worst with the most lanes reported', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 4t, 4t+1 per lane; each half-warp phase puts lanes t and t+8 in one bank: 2 wavefronts per phase
  warpFigures(accessAt(result, text, 'd[2 * t] = g[2 * t];', 'store', 'd'), 'conflict', 2, 4, 64, 32);
  warpFigures(accessAt(result, text, 'd[2 * t + 1] = g[2 * t + 1];', 'store', 'd'), 'conflict', 2, 4, 64, 32);
  // stride s: lanes t < 64/s at words 2(s-1+ts): 2, 4, 4, 4, 2, 1-way; stride 4 is the worst with the most lanes
  for (const expr of ['d[i] =', 'd[i] -', 'd[i - stride / 2]']) {
    const kind = expr === 'd[i] =' ? 'store' : 'load';
    const a = accessAt(result, text, 'd[i] = d[i] - 0.5 * d[i - stride / 2];', kind, expr.replace(/ [=-]$/, ''));
    warpFigures(a, 'conflict', 4, 4, 32, 16);
    assert.deepEqual(a.cases!.map((c) => [c.context.stride, c.degree]), [[2, 2], [4, 4], [8, 4], [16, 4], [32, 2], [64, 1]]);
  }
  warpFigures(accessAt(result, text, 'g[t] = d[t];', 'load', 'd'), 'conflict-free', 1, 2, 64, 32);
});

test('one Thomas system per thread: rows of 16 floats are 16-way, rows padded to 17 conflict-free', () => {
  const { text, result } = analyzeFile(FIXTURE);
  warpFigures(accessAt(result, text, 'c[t * TH_N + k] = rhs[t * TH_N + k];', 'store', 'c'), 'conflict', 16, 16, 32, 32);
  warpFigures(accessAt(result, text, 'cp[t * (TH_N + 1) + k] = c[t * TH_N + k]', 'store', 'cp'), 'conflict-free', 1, 1, 32, 32);
  warpFigures(accessAt(result, text, 'cp[t * (TH_N + 1) + k] = c[t * TH_N + k]', 'load', 'c[t * TH_N + k - 1]'), 'conflict', 16, 16, 32, 32);
  warpFigures(accessAt(result, text, 'x[t] = cp[t * (TH_N + 1) + TH_N - 1];', 'load', 'cp'), 'conflict-free', 1, 1, 32, 32);
});

test('Gauss-Jordan on a 16x16 block: a column read is 8-way, the pivot row and column multicast', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 16 tx + k: 16 words in 2 banks, 8 each; the two rows of a warp read the same words
  const col = accessAt(result, text, 'float col = A[tx][k];', 'load', 'A');
  figures(col, 'conflict', 8, 8, 16, 32);
  assert.deepEqual(col.block, [16, 16, 1]);
  const line = 'A[ty][tx] -= A[ty][k] * A[k][tx] + 0.0f * col;';
  figures(accessAt(result, text, line, 'load', 'A[ty][k]'), 'conflict-free', 1, 1, 2, 32);
  figures(accessAt(result, text, line, 'load', 'A[k][tx]'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, line, 'store', 'A[ty][tx]'), 'conflict-free', 1, 1, 32, 32);
});

test('a per-warp traversal stack: lane 0 pushes one word, the whole warp reads it back as a broadcast', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const push = accessAt(result, text, 'stack[base] = child[blockIdx.x];', 'store', 'stack');
  figures(push, 'conflict-free', 1, 1, 1, 1);
  assert.deepEqual(push.block, [128, 1, 1]);
  figures(accessAt(result, text, 'int top = stack[base];', 'load', 'stack'), 'broadcast', 1, 1, 1, 32);
});
