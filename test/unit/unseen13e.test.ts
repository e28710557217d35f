// Regressions from the thirteenth sweep of unseen kernels, helper E (dense linear algebra, solvers and physics:
// MAGMA's BLAS, transpose and factorization kernels, seismic finite-difference stencils, Monte Carlo transport):
// MAGMA's complex types, which its kernels keep in shared memory, a device function's parameter declared with the
// tile's row extent (`float t[][SW]`) or a reference to one row (`float (&row)[RW]`), and a header class's member
// function given shared memory.
// Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13e.cu';

test('magmaDoubleComplex is cuDoubleComplex, 16 bytes: a 16x16 tile transpose is evaluated (was: unknown, the size of `magmaDoubleComplex` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const [snippet, name] of [['sA[j][i] = *a;', 'sA'], ['sB[j][i] = *a;', 'sB']]) {
    const s = accessAt(result, text, snippet, 'store', name);
    assert.equal(s.elementBytes, 16);
    figures(s, 'conflict-free', 1, 4, 128, 32);
    assert.deepEqual(s.block, [16, 16, 1]);
  }
  // rows of 17 elements: each quarter-warp's 8 lanes cover 32 distinct banks
  figures(accessAt(result, text, 'a[0] = sA[i][j];', 'load', 'sA'), 'conflict-free', 1, 4, 128, 32);
  // rows of 16 elements (256 bytes): the 8 lanes of a quarter-warp need 8 words from each of the same 4 banks
  figures(accessAt(result, text, 'a[lda] = sB[i][j];', 'load', 'sB'), 'conflict', 8, 32, 128, 32);
  const sB = result.arrays.find((a) => a.name === 'sB')!;
  assert.ok(sB.fix && /\[NB\]\[NB \+ 1\]/.test(sB.fix.title), sB.fix?.title ?? sB.noFixReason);
});

test('magmaFloatComplex is cuFloatComplex, 8 bytes: a gemv column reduction is evaluated (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const p = accessAt(result, text, 'part[tx] = res;', 'store', 'part');
  assert.equal(p.elementBytes, 8);
  figures(p, 'conflict-free', 1, 2, 64, 32);
  // 16 bytes apart: in each half-warp lanes t and t + 8 need two words of one bank
  figures(accessAt(result, text, 'pairs[2 * tx] = res;', 'store', 'pairs'), 'conflict', 2, 4, 64, 32);
  figures(accessAt(result, text, 'part[tx] = cuCaddf(part[tx], part[tx + 64]);', 'store', 'part'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, 'part[tx] = cuCaddf(part[tx], part[tx + 64]);', 'load', 'part[tx + 64]'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, 'y[blockIdx.y] = cuCaddf(part[0], pairs[1]);', 'load', 'pairs'), 'conflict-free', 1, 1, 2, 1);
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('magmaHalf is __half, 2 bytes: a panel four elements apart puts two lanes in each bank (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'hs[tx * 4] = A[blockIdx.x * 32 + tx];', 'store', 'hs');
  assert.equal(s.elementBytes, 2);
  figures(s, 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'B[blockIdx.x * 32 + tx] = hs[(31 - tx) * 4];', 'load', 'hs'), 'conflict', 2, 2, 32, 32);
});

test('a tile passed to a parameter declared `float t[][SW]` gets no padding fix (was: "Pad tile to [..][SW + 24]", which nvcc rejects)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows of 24 floats: the two rows of threadIdx.y in a warp share 8 banks
  figures(accessAt(result, text, 't[ty + HALO][tx + HALO] = g[gy * nx + gx];', 'store', 't'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 't[ty + HALO][tx] = g[gy * nx + gx - HALO];', 'store', 't'), 'conflict-free', 1, 1, 8, 8);
  figures(accessAt(result, text, 'tile[ty + HALO][tx + HALO - 1]', 'load', 'tile[ty + HALO][tx + HALO - 1]'), 'conflict', 2, 2, 32, 32);
  const tile = result.arrays.find((a) => a.name === 'tile')!;
  assert.equal(tile.fix, undefined, tile.fix?.title);
  assert.equal(tile.noFixReason, 'no padding fix: `tile` is passed at line 74 to `t` of `fill_tile`, a pointer to `float[24]`, which assumes the current row length of `tile`');
});

test('a row bound to a parameter `float (&row)[RW]` gets no padding fix (was: "Pad rows to [RH][RW + 1]", which nvcc rejects)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // row tx % 8 at column 4 * ty: 8 distinct words, all in one bank
  figures(accessAt(result, text, 'row[i] = 0.5f * row[i] + f;', 'store', 'row'), 'conflict', 8, 8, 8, 32);
  figures(accessAt(result, text, 'row[i] = 0.5f * row[i] + f;', 'load', 'row'), 'conflict', 8, 8, 8, 32);
  figures(accessAt(result, text, 'rows[ty][tx] = f[ty * RW + tx];', 'store', 'rows'), 'conflict-free', 1, 1, 32, 32);
  const rows = result.arrays.find((a) => a.name === 'rows')!;
  assert.equal(rows.fix, undefined, rows.fix?.title);
  assert.equal(rows.noFixReason, 'no padding fix: `rows` is bound at line 93 to `row` of `relax_row`, a reference to `float[32]`, which assumes the current row length of `rows`');
});

test('a member function of a header\'s class given shared memory (`tally.score(bins, ...)`) is a notice at the call (was: left out without a word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = text.split('\n').findIndex((l) => l.includes('tally.score(bins,'));
  const n = result.notices.filter((x) => x.range.start.line === line);
  assert.deepEqual(n.map((x) => x.message), ['`tally.score(...)` is not defined in this file: what it reads or writes in shared memory through `bins` is not analysed']);
  // the kernel's own accesses are still reported: words t, one per bank
  figures(accessAt(result, text, 'bins[t] = 0.0f;', 'store', 'bins'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[blockIdx.x * BINS + t] = bins[t];', 'load', 'bins'), 'conflict-free', 1, 1, 32, 32);
});
