// Regressions from the fourteenth sweep of unseen kernels, helper A (rendering, graphics and geometry: GVDB's volume
// operators, whose apron tile is declared and filled by a statement macro continued over `\` lines; point-cloud and
// pixel kernels that build coordinates with `make_int2` / `make_uint3`). Figures from a brute-force lane oracle of the
// bank model (scratch/unseen14a_oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen14a.cu';

test('a statement macro continued over `\\` lines declares its shared tile where it is used (its kernel was lost: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const mine = result.accesses.filter((a) => a.kernel === 'vol_smooth');
  assert.ok(mine.every((a) => a.status !== 'unknown'), mine.map((a) => a.reason).join('\n'));
  // block 8x8x4; words 100 * (x + 1) + 10 * (y + 1) + (z + 1): banks 4x + 10y (+ c) mod 32, two words a bank
  const stores = mine.filter((a) => a.kind === 'store');
  assert.equal(stores.length, 2); // the tile's fill and the z == 0 lanes' apron face, both at the macro's use
  for (const s of stores) {
    figures(s, 'conflict', 2, 2, 32, 32);
    assert.deepEqual(s.block, [8, 8, 4]);
  }
  figures(accessAt(result, text, 'float v = w * vtile[ndx.x][ndx.y][ndx.z];', 'load', 'vtile'), 'conflict', 2, 2, 32, 32);
  const row = 'v += vtile[ndx.x - 1][ndx.y][ndx.z] + vtile[ndx.x + 1][ndx.y][ndx.z];';
  const loads = result.accesses.filter((a) => a.kernel === 'vol_smooth' && a.kind === 'load' && a.range.start.line === text.split('\n').findIndex((l) => l.includes(row)));
  assert.equal(loads.length, 2);
  for (const l of loads) figures(l, 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'v += vtile[ndx.x][ndx.y][ndx.z - 1];', 'load', 'vtile'), 'conflict', 2, 2, 32, 32);
});

test('a one-line statement macro that only declares a shared array: the accesses after it are analysed (they were not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // s_bins[4][33], block 128: words 33 * warp + lane
  figures(accessAt(result, text, 's_bins[cell.y][cell.x] = 0;', 'store', 's_bins'), 'conflict-free', 1, 1, 32, 32);
  // 33 * warp + (4 * lane mod 32): 8 words, 4 lanes on each
  figures(accessAt(result, text, 'atomicAdd(&s_bins[cell.y][(cell.x * 4) & 31], 1u);', 'atomic'), 'conflict-free', 1, 1, 8, 32);
  // 33 * (lane & 3) + 8 * warp: 4 words in 4 banks
  figures(accessAt(result, text, 'counts[threadIdx.x] = s_bins[cell.x & 3][cell.y * 8];', 'load', 's_bins'), 'conflict-free', 1, 1, 4, 32);
});

test('make_int2 / make_uint2 / make_uint3 give their arguments as components (was: unknown, "the result of `make_int2(...)`")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // d[16][16], block 16x16: d[y][x] is 16y + x, two rows a warp
  figures(accessAt(result, text, 'd[p.y][p.x] = depth[p.y * width + p.x];', 'store', 'd'), 'conflict-free', 1, 1, 32, 32);
  // d[x][y]: 16x + y, 4 banks holding 8 words each
  figures(accessAt(result, text, '- d[p.y][(p.x + 1) & 15];', 'load', 'd[q.y]'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, '- d[p.y][(p.x + 1) & 15];', 'load', 'd[p.y]'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('the whole threadIdx / blockDim copied into a local gives its components (was: unknown, "`threadIdx` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows[8][32], block 32x8: rows[y][x] is one row of 32 words a warp
  figures(accessAt(result, text, 'rows[t.y][t.x] = sdf[t.y * bd.x + t.x];', 'store', 'rows'), 'conflict-free', 1, 1, 32, 32);
  // rows[x % 8][y]: 32 * (x % 8) + y, 8 words all in bank y
  figures(accessAt(result, text, 'out[t.y * bd.x + t.x] = rows[t.x % bd.y][t.y];', 'load', 'rows'), 'conflict', 8, 8, 8, 32);
});

test('%lanemask_lt / %lanemask_ge read with inline PTX are each lane\'s mask (was: unknown, "`r` is set by the inline asm")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes 3k keep: slot k, words 64 * warp + 4k: 11 words, banks 0, 4 and 8 hold two
  figures(accessAt(result, text, 'if (keep) s_queue[warp][__popc(m & laneMaskLt()) * 4] = lane;', 'store', 's_queue'), 'conflict', 2, 2, 11, 11);
  // lanes counted from the top: 12 slots 0..11 at stride 2
  figures(accessAt(result, text, 'out[threadIdx.x] = s_queue[warp][fromTop * 2]', 'load', 's_queue'), 'conflict-free', 1, 1, 12, 32);
});

test('__float2int_rd / __float2int_rz convert in their rounding mode (was: unknown, "the result of `__float2int_rz(...)`")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // c[16][17], block 16x16: c[tx][floor(tx / 2)] is 17tx + tx / 2, 16 words two a bank; both rows of a warp read them
  figures(accessAt(result, text, 'out[ty * 16 + tx] = c[tx][hx] + c[hy][tx];', 'load', 'c[tx]'), 'conflict', 2, 2, 16, 32);
  // c[trunc((ty + 0.5) / 2)][tx]: one row a warp
  figures(accessAt(result, text, 'out[ty * 16 + tx] = c[tx][hx] + c[hy][tx];', 'load', 'c[hy]'), 'conflict-free', 1, 1, 16, 32);
});

test('an array type named with `using` keeps its extent (was: the array read as floats, its accesses not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows[32][32], block 32x8: rows[tx][ty] is 32tx + ty, 32 words in one bank
  figures(accessAt(result, text, 'rows[threadIdx.x][threadIdx.y] = in[threadIdx.y * 32 + threadIdx.x];', 'store', 'rows'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.y * 32 + threadIdx.x] = rows[threadIdx.y][threadIdx.x];', 'load', 'rows'), 'conflict-free', 1, 1, 32, 32);
});

test('an array declared in a statement macro\'s expansion is placed at the macro\'s use, and gets no padding fix (its place was a column of the expansion, past the end of the line)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen14a.cu');
  const lines = text.split('\n');
  for (const [name, macro] of [['vtile', 'LOAD_VOXEL_TILE'], ['s_bins', 'DECLARE_BINS']]) {
    const a = result.arrays.find((x) => x.name === name)!;
    const line = lines.findIndex((l) => l.trim() === macro);
    assert.deepEqual(a.declRange, { start: { line, character: lines[line].indexOf(macro) }, end: { line, character: lines[line].indexOf(macro) + macro.length } });
    assert.equal(a.fix, undefined);
    const its = result.accesses.filter((x) => x.array === name);
    assert.ok(its.length >= 3, `${its.length} accesses of ${name}`);
    for (const acc of its) assert.deepEqual(acc.declRange, a.declRange);
  }
  assert.equal(result.arrays.find((x) => x.name === 'vtile')!.noFixReason, '`vtile` is declared in the expansion of the macro `LOAD_VOXEL_TILE`: no padding fix edits a macro');
});
