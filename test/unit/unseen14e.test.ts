// Regressions from the fourteenth sweep of unseen kernels, helper E (hobbyist simulations: heat and wave solvers,
// red-black Poisson relaxation, Game of Life): a guard that one global index equals one value (`if (gx == 0)`,
// `if (gx == n - 1)`, a point source at `gx == src`), not known per lane because of `blockIdx`, was assumed true for
// every lane; in any block only the lanes sharing one value of `threadIdx.x` pass it. Figures from a brute-force
// lane oracle over every block of the launch (scratch/oracle/unseen14e.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen14e.cu';

test('a periodic boundary loaded under `gx == 0` / `gx == n - 1` is two lanes of a 16x16 block per warp (was: 2-way, 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // only block 0's threadIdx.x == 0 passes `gx == 0`: words 18 * (y + 1), y = 2w, 2w + 1: two banks
  const left = accessAt(result, text, 'if (gx == 0) t[ty][tx - 1]', 'store', 't');
  figures(left, 'conflict-free', 1, 1, 2, 2);
  assert.deepEqual(left.block, [16, 16, 1]);
  assert.ok(left.assumptions.some((a) => /share one value of its per-lane part/.test(a) && /1 of 16 groups/.test(a)), left.assumptions.join('\n'));
  // n = 512 from the launch: 16 * blockIdx.x + threadIdx.x == 511 only for threadIdx.x == 15
  figures(accessAt(result, text, 'if (gx == n - 1) t[ty][tx + 1]', 'store', 't'), 'conflict-free', 1, 1, 2, 2);
  // the halo columns under a guard known per lane, and the tile itself, are unchanged: 18 floats a row, two rows a warp
  figures(accessAt(result, text, 'if (threadIdx.x == 0 && gx > 0)', 'store', 't'), 'conflict-free', 1, 1, 2, 2);
  figures(accessAt(result, text, 't[ty][tx] = u[gy * n + gx];', 'store', 't'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'out[gy * n + gx] = c + alpha', 'load', 't[ty][tx - 1]'), 'conflict', 2, 2, 32, 32);
});

test('a point source at `gx == src`, `src` a launch argument, is one column of lanes (was: 2-way, 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // src = 100: block 6's threadIdx.x == 4; words 18 * y + 5 for two rows y: conflict-free
  figures(accessAt(result, text, 'if (gx == src)', 'load', 't'), 'conflict-free', 1, 1, 2, 2);
  figures(accessAt(result, text, 'if (gx == src)', 'store', 't'), 'conflict-free', 1, 1, 2, 2);
  figures(accessAt(result, text, 'next[gy * n + gx] = t[threadIdx.y][threadIdx.x + 1];', 'load', 't'), 'conflict', 2, 2, 32, 32);
});

test('the wrap-around column of a 32x8 Game of Life tile under `gx == w - 1` is one lane per warp (was: a broadcast to 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const wrap = accessAt(result, text, 'if (gx == w - 1)', 'store', 'cells');
  figures(wrap, 'conflict-free', 1, 1, 1, 1);
  assert.deepEqual(wrap.block, [32, 8, 1]);
  figures(accessAt(result, text, 'cells[threadIdx.y][threadIdx.x + 1] = in[gy * w + gx];', 'store', 'cells'), 'conflict-free', 1, 1, 32, 32);
});

test('Dirichlet walls under `gx == 0 || gx == n - 1`, a corner under `gx == 0 && gy == 0` and the else of `gx != 0` are the lanes that can pass (were: 2-way, 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // one block holds one wall at most (n = 512): two lanes, words 18 * (y + 1) + 1 or + 16
  const walls = accessAt(result, text, 'if (gx == 0 || gx == n - 1)', 'store', 't');
  figures(walls, 'conflict-free', 1, 1, 2, 2);
  assert.ok(walls.assumptions.some((a) => /for one value of `16 \* blockIdx.x`: 2 such values/.test(a)), walls.assumptions.join('\n'));
  // only thread (0, 0) of block (0, 0): one lane, not a broadcast
  figures(accessAt(result, text, 'if (gx == 0 && gy == 0)', 'store', 't'), 'conflict-free', 1, 1, 1, 1);
  // `gx != 0`: every lane but one column, still 2-way; its else branch is block 0's threadIdx.x == 0
  figures(accessAt(result, text, 'if (gx != 0) west', 'load', 't'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'else west = t[ty][tx + 1];', 'load', 't'), 'conflict-free', 1, 1, 2, 2);
});
