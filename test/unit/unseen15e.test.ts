// Regressions from the fifteenth sweep of unseen kernels, helper E (computer vision beyond filters: FAST/ORB corner
// tests, libSGM's census transform, CudaSift, Horn-Schunck optical flow): a local table with a braced initializer
// (`const int offsetX[27] = {...}`) read at an index known on every lane, and a kernel's pixel type deduced from an
// image's row pointer (`src.ptr<uint8_t>()`). Figures from a brute-force lane oracle of the bank model
// (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen15e.cu';

test('a local table of circle offsets with a braced initializer is read element by element (was: unknown, `oy[i]` is a value loaded from memory that is not shared)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bytes 32 * (tx + 3 + ox[i]) + ty + 3 + oy[i]: lanes tx 0..15 eight words apart, 4 banks, two rows of ty per warp
  const l = accessAt(result, text, 's += tile[tx + R + ox[i]][ty + R + oy[i]];', 'load');
  figures(l, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(l.block, [16, 16, 1]);
  figures(accessAt(result, text, 'tile[tx + R][ty + R] = img[', 'store'), 'conflict', 4, 4, 32, 32);
});

test('a table whose extent is its initializer\'s, one whose initializer leaves elements out (zero) and one of braced rows are known (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // step[] = {1, 2, 4}: words 40k + (t * step[k]) % 40 for the 32 lanes with t < 32
  const s = accessAt(result, text, 'ring[k][(t * step[k]) % 40] = s;', 'store');
  figures(s, 'conflict', 2, 2, 20, 32);
  const cases = (s.cases ?? []).map((c) => [c.context.k, c.degree, c.wavefronts]);
  assert.deepEqual(cases, [[0, 1, 1], [1, 2, 2], [2, 2, 2]]);
  // pad[0] = 5 and pad[3] = 0: one row of 32 words either way
  figures(accessAt(result, text, 'ring[3][t + pad[0]] = 1.0f;', 'store'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'ring[4][t + pad[3]] = 2.0f;', 'store'), 'conflict-free', 1, 1, 32, 32);
  // quad[1][0] = 16: words 216 + (t & 7), eight words shared by four lanes each
  figures(accessAt(result, text, 'ring[5][quad[1][0] + (t & 7)] = 3.0f;', 'store'), 'conflict-free', 1, 1, 8, 32);
  assert.ok(!result.accesses.some((a) => a.status === 'unknown' && a.kernel === 'ring_score'),
    result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a kernel launched with an image\'s row pointer (`src.ptr<uint16_t>()`) is bound to that pixel type (was: unknown, the size of `T` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bytes 128 r + 4 tid * sizeof(T): uint8_t words tid (conflict-free), uint16_t words 2 tid (2-way)
  const s = accessAt(result, text, 'lines[r][tid * 4] = src[', 'store');
  warpFigures(s, 'conflict', 2, 2, 32, 32);
  const byType = new Map((s.cases ?? []).map((c) => [`${c.context.T}/${c.context.r}`, c.degree]));
  for (let r = 0; r < 4; r++) {
    assert.equal(byType.get(`uint16_t/${r}`), 2);
    assert.equal(byType.get(`uint8_t/${r}`), 1);
  }
  warpFigures(accessAt(result, text, 'f = (f << 1) | (lines[r][tid * 4] > lines[0][tid * 4]);', 'load', 'lines[0]'), 'conflict', 2, 2, 32, 32);
});

test('a call with template arguments runs the full specialization they name (`put_costs<8u>`), not the first one the file defines (was: a 4-byte store, 8-way, and a 2-byte load, 2-way, a false alarm)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 16-byte stores at bytes 1024 warp + 32 lane: each quarter-warp's 8 lanes need two words of each of 16 banks
  const s = accessAt(result, text, '*reinterpret_cast<uint4 *>(dst) = q;', 'store');
  assert.equal(s.kernel, 'sum_costs');
  assert.equal(s.elementBytes, 16);
  figures(s, 'conflict', 2, 8, 128, 32);
  assert.deepEqual(s.block, [128, 1, 1]);
  // PER_LANE = 128 / 32 = 4: 8-byte loads at bytes 1024 warp + 8 lane, each half-warp 32 words in 32 banks
  const l = accessAt(result, text, 'const ushort4 c = *reinterpret_cast<const ushort4 *>(src);', 'load');
  assert.equal(l.elementBytes, 8);
  figures(l, 'conflict-free', 1, 2, 64, 32);
  // the specializations the calls do not name are not run
  for (const snippet of ['*reinterpret_cast<ushort2 *>(dst) = p;', 'd[0] = src[0];'])
    assert.ok(!result.accesses.some((a) => a.kernel === 'sum_costs' && a.range.start.line === text.split('\n').findIndex((x) => x.includes(snippet))), snippet);
});

test('a call whose template argument is not known runs no specialization: what they do there is unknown, saying why (was: the first one the file defines, `d[0] = src[0]`, a 2-byte load reported 2-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = text.split('\n').findIndex((x) => x.includes('d[0] = src[0];'));
  const open = result.accesses.filter((a) => a.kernel === 'sum_costs_open' && a.range.start.line === line);
  assert.equal(open.length, 1);
  assert.equal(open[0].status, 'unknown');
  assert.equal(open[0].reason, `which specialization of \`get_costs\` the call \`get_costs<K>\` at line ${text.split('\n').findIndex((x) => x.includes('get_costs<K>(r,')) + 1} runs is not known (its template arguments could not be evaluated)`);
  // the kernel's own store is exact: 2-byte elements at bytes 1024 warp + 2 lane, 16 words
  figures(accessAt(result, text, 'rows[warp][lane] = static_cast<uint16_t>(lane);', 'store'), 'conflict-free', 1, 1, 16, 32);
});

test('file-scope tables are read element by element: a `__constant__` one the file never copies into, a `__device__ const` one (was: unknown, a value loaded from memory that is not shared)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 36 t + 2 + c_ring_x[i]: stride 36, 4-way, whatever the offset
  warpFigures(accessAt(result, text, 's += patch[t][2 + c_ring_x[i]];', 'load'), 'conflict', 4, 4, 32, 32);
  // c_ring_x[t & 7] + 2 per lane: rows 4, 4, 3, 2, 1, 0, 0, 1 of 36 words, the lanes' columns t: 2-way
  const l = accessAt(result, text, 's += patch[c_ring_x[t & 7] + 2][t];', 'load');
  warpFigures(l, 'conflict', 2, 2, 32, 32);
  assert.ok(l.assumptions.some((a) => a.includes('`c_ring_x` is a `__constant__` table this file never copies into')), l.assumptions.join('\n'));
  // kBands[1][1] = 12: one row of 32 words
  warpFigures(accessAt(result, text, 's += bands[kBands[1][1]][t]', 'load', 'bands[kBands'), 'conflict-free', 1, 1, 32, 32);
});

test('a `__constant__` table the host fills, read at an index the same on every lane, is one value per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // row c_band_row[2], not known; columns (2t) & 31: 16 words, two lanes on each
  const l = accessAt(result, text, 'bands[c_band_row[2]][(t * 2) & 31]', 'load', 'bands[c_band_row');
  warpFigures(l, 'conflict-free', 1, 1, 16, 32);
  assert.ok(l.assumptions.some((a) => a.includes('`c_band_row` is a `__constant__` variable')), l.assumptions.join('\n'));
});

test('the body of a range-based `for` runs once per element of a braced list, a local table or a shared array (its accesses were not reported at all)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `for (float &b : bins) b = 0.0f;` on lane 0: nine one-word stores, reported where the loop names the array
  const b = accessAt(result, text, 'for (float &b : bins)', 'store');
  assert.equal(b.array, 'bins');
  assert.deepEqual([b.status, b.degree, b.wavefronts, b.worst!.distinctWords, b.worst!.activeLanes], ['conflict-free', 1, 1, 1, 1]);
  // strides 1, 2, 4 over rows of 33 words: 1, 2, 2 wavefronts
  const g = accessAt(result, text, 's += grad[(t * stride) & 63][0];', 'load');
  figures(g, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(g.block, [64, 1, 1]);
  assert.deepEqual((g.cases ?? []).map((c) => [c.context.stride, c.degree, c.wavefronts]), [[1, 1, 1], [2, 2, 2], [4, 2, 2]]);
  // columns 0, 1, 32 of rows of 33 words: conflict-free each
  figures(accessAt(result, text, 's += grad[t][c];', 'load'), 'conflict-free', 1, 1, 32, 32);
});
