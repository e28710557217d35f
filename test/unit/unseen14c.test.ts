// Regressions from the fourteenth sweep of unseen kernels, helper C (course assignments and lecture code: ECE408's
// tiled convolution, histogram and scan labs and its project's input-tile loads, CMU 15-418 / Stanford CS149's
// renderer and its shared-memory scan, Caltech CS179, Stanford CS193G, CSCS summer school and Oxford practicals):
// a comparison of two sums that hold the same block offset (`gx >= base` with `gx = base + threadIdx.x - R`,
// `i < h_base + W` with `i = h_base + threadIdx.y`) is a comparison of what is left once the offset cancels.
// Figures from a brute-force lane oracle of the bank model (scratch/unseen14c/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen14c.cu';

test('a guard comparing a per-lane index with the same block offset plus a constant keeps only the lanes it selects (was: assumed true for every lane, 32 words for 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes 4..27 store words 2 * (t - 4) = 0, 2, .., 46: words 0..14 and 32..46 share the even banks 0..14
  const s = accessAt(result, text, 'core[(gx - base) * 2] = v;', 'store');
  figures(s, 'conflict', 2, 2, 24, 24);
  assert.deepEqual(s.block, [32, 1, 1]);
  assert.ok(!s.assumptions.some((a) => /could not be evaluated per lane/.test(a)), s.assumptions.join('\n'));
  // `gx == base + 5` holds on lane 9 only: one lane reads one word (was: a broadcast to 32 lanes)
  figures(accessAt(result, text, 'out[blockIdx.x] = core[10];', 'load'), 'conflict-free', 1, 1, 1, 1);
});

test('a tile loop bounded by the same block offset plus the tile width is enumerated pass by pass (was: one symbolic pass, no cases)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 16x16, xw = 20: words 20 * ii + jj; rows ty and ty + 1 of a warp put words 0..3 and 32..35 in banks 0..3
  const s = accessAt(result, text, 'xs[ii * xw + jj] = x[i * width + j];', 'store');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  // the second pass of columns runs on tx < 4 only: 8 lanes of a warp, one bank each
  const cases = (s.cases ?? []).map((c) => [c.context['iteration (line 33)'], c.context['iteration (line 34)'], c.degree, c.wavefronts]);
  assert.deepEqual(cases, [[0, 0, 2, 2], [0, 1, 1, 1], [1, 0, 2, 2], [1, 1, 1, 1]]);
  assert.ok(!s.assumptions.some((a) => /trip count that cannot be computed/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, 'y[(h_base + h0) * width + w_base + w0] = xs[(h0 + 2) * xw + w0 + 2];', 'load'), 'conflict', 2, 2, 32, 32);
});

test('in warp mode, a row loop bounded by the block offset plus ten rows cancels the offset and keeps the thread row (was: trip count not computed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // one row of 32 lanes per warp, words 33 * (ty + 8p) + tx; the second pass on the warps of rows 0 and 1 only
  const s = accessAt(result, text, 'rows[r - row0][threadIdx.x] = in[r * 32 + threadIdx.x];', 'store');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [32, 8, 1]);
  assert.ok(!s.assumptions.some((a) => /trip count that cannot be computed/.test(a)), s.assumptions.join('\n'));
  assert.ok(s.assumptions.some((a) => /^2 contexts evaluated/.test(a)), s.assumptions.join('\n'));
  // words 33 * (tx % 10) + ty: ten words in ten banks
  figures(accessAt(result, text, 'out[(row0 + threadIdx.y) * 32 + threadIdx.x] = rows[threadIdx.x % 10][threadIdx.y];', 'load'), 'conflict-free', 1, 1, 10, 32);
});

test('an unsigned loop bounded by the same offset stays a loop of unknown trip count: unsigned sums may wrap', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'stage[i - ubase] = in[i];', 'store');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.ok(s.assumptions.some((a) => /trip count that cannot be computed \(`i < ubase \+ 80`/.test(a)), s.assumptions.join('\n'));
});

test('an unsigned equality with the same block offset on both sides is decided: it holds modulo 2^32 (was: assumed true for every lane, a broadcast to 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `idx == blockIdx.x * blockDim.x` holds on lane 0 only: one lane, one word
  figures(accessAt(result, text, 'stage[95] = stage[64];', 'load'), 'conflict-free', 1, 1, 1, 1);
  figures(accessAt(result, text, 'stage[95] = stage[64];', 'store'), 'conflict-free', 1, 1, 1, 1);
});
