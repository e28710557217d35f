// Regressions from the eighteenth sweep of unseen kernels, helper F: NVIDIA's own documentation and blog kernels as
// people copy them (the Programming Guide's Matrix-struct multiply, the Best Practices Guide's multiplies, Mark
// Harris's reversals, transposes and finite differences, Kepler shuffle reductions, cooperative groups, CUDA by
// Example, PMPP listings), written from scratch in their style. Figures from a brute-force lane oracle of the bank
// model (scratch/helper-h18f/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen18f.cu';

test('a macro in parentheses before `- 2 * (R)` is a subtraction, not a cast of -2 (was: PMPP\'s OUT_TILE_DIM read as -4, so `tileCol < OUT_TILE_DIM` held for no lane: unknown, no lane reaches this access)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // OUT_TILE_DIM = 32 - 2 * 2 = 28: lanes tx 2..29 of rows ty 2..29 read words 32 * (ty - 2 + fRow) + tx - 2 + fCol
  const l = accessAt(result, text, 'Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];', 'load', 'N_s');
  figures(l, 'conflict-free', 1, 1, 28, 28);
  assert.deepEqual(l.block, [32, 32, 1]);
  // and the guard on the global column names the coefficient 28, not -4
  const s = accessAt(result, text, 'N_s[threadIdx.y][threadIdx.x] = N[row * width + col];', 'store', 'N_s');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.ok(!s.assumptions.some((a) => /-4 \* blockIdx/.test(a)), s.assumptions.join('\n'));
});

test('a shared extent written `((THREADS_1D) + 2 * (RADIUS))` is 134 elements (was: 6, every lane past the sixth reported out of bounds)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const stencil = result.accesses.filter((a) => a.kernel === 'stencil_1d');
  assert.equal(stencil.length, 4);
  assert.ok(stencil.every((a) => !a.outOfBounds), stencil.map((a) => a.outOfBounds?.message).join('\n'));
  assert.equal(result.arrays.find((a) => stencil[0].declRange.start.line === a.declRange.start.line)?.typeText, 'int[134]');
  // block 128: temp[t + 3 + offset], 32 consecutive words for each offset; the halo: 3 lanes
  figures(accessAt(result, text, 'result += temp[lindex + offset];', 'load', 'temp'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'temp[lindex + THREADS_1D] = in[gindex + THREADS_1D];', 'store', 'temp'), 'conflict-free', 1, 1, 3, 3);
});

test('`(TILE) + 1 * PAD` in an extent and `(TILE) - 2 * t` in a subscript are read as the compiler reads them (was: extent 1, a false out-of-bounds error on `tile[0][t]`)', () => {
  const text = [
    '#define TILE 32',
    '#define PAD 1',
    '#define HALO 2',
    '__global__ void k(float *P)',
    '{',
    '    __shared__ float tile[TILE][(TILE) + 1 * PAD];',
    '    __shared__ float buf[(TILE) + 2 * HALO];',
    '    int t = threadIdx.x;',
    '    tile[t][0] = P[t];',
    '    P[1] = tile[0][t];',
    '    P[2] = buf[(TILE) - 2 * t];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  assert.deepEqual(result.arrays.map((a) => a.typeText), ['float[32][33]', 'float[36]']);
  // rows of 33: tile[t][0] at words 33 t, conflict-free; tile[0][t] in row 0
  figures(accessAt(result, text, 'tile[t][0] = P[t];', 'store', 'tile'), 'conflict-free', 1, 1, 32, 32);
  const row = accessAt(result, text, 'P[1] = tile[0][t];', 'load', 'tile');
  figures(row, 'conflict-free', 1, 1, 32, 32);
  assert.equal(row.outOfBounds, undefined);
  // 32 - 2 t: 2-way, and lane 17 really is at -2
  const b = accessAt(result, text, 'P[2] = buf[(TILE) - 2 * t];', 'load', 'buf');
  figures(b, 'conflict', 2, 2, 32, 32);
  assert.equal(b.outOfBounds?.index, -2);
  assert.equal(b.outOfBounds?.lane, 17);
  assert.equal(b.outOfBounds?.extent, 36);
});

test('a type in parentheses before `- 2 * x` is still a cast, and a variable in parentheses is a value, also after another operand (was: `100 - (w) - 2 * t` read as 100 + 2 t, out of bounds)', () => {
  const text = [
    'typedef int idx_t;',
    '__global__ void k(float *P, int m)',
    '{',
    '    __shared__ float s[2048];',
    '    int t = threadIdx.x;',
    '    int w = 33;',
    '    P[0] = s[(idx_t) + 2 * t];',
    '    P[1] = s[64 + (w) - 2 * t];',
    '    __shared__ float r[80];',
    '    int i = 100 - (w) - 2 * t;',
    '    P[2] = r[i];',
    '}',
    'int main() { k<<<1, 32>>>(0, 1); }',
  ].join('\n');
  const result = analyzeText(text);
  // (idx_t)(+2) * t = 2 t: 2-way
  figures(accessAt(result, text, 'P[0] = s[(idx_t) + 2 * t];', 'load', 's'), 'conflict', 2, 2, 32, 32);
  // 64 + 33 - 2 t: 2-way, all in the extent
  const l = accessAt(result, text, 'P[1] = s[64 + (w) - 2 * t];', 'load', 's');
  figures(l, 'conflict', 2, 2, 32, 32);
  assert.equal(l.outOfBounds, undefined);
  // 100 - 33 - 2 t = 67 - 2 t: 67 down to 5, in the extent of 80; 2-way
  const r = accessAt(result, text, 'P[2] = r[i];', 'load', 'r');
  figures(r, 'conflict', 2, 2, 32, 32);
  assert.equal(r.outOfBounds, undefined);
});

test('NVIDIA\'s documented figures hold for the guides\' and blogs\' kernels (unchanged: checked against the oracle and the documents)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // Programming Guide, Matrix struct passed by value: As[row][e] two words (two rows per warp), Bs[e][col] 16 words
  const as = accessAt(result, text, 'Cvalue += As[row][e] * Bs[e][col];', 'load', 'As');
  figures(as, 'conflict-free', 1, 1, 2, 32);
  assert.deepEqual(as.block, [16, 16, 1]);
  figures(accessAt(result, text, 'Cvalue += As[row][e] * Bs[e][col];', 'load', 'Bs'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 'As[row][col] = GetElement(Asub, row, col);', 'store', 'As'), 'conflict-free', 1, 1, 32, 32);
  // Best Practices: the transposed tile's column store is 32-way, padded conflict-free; aTile[ty][i] a broadcast
  const lines = text.split('\n');
  const stores = result.accesses.filter((a) => a.kind === 'store' && lines[a.range.start.line].includes('transposedTile[threadIdx.x][threadIdx.y] ='));
  assert.deepEqual(stores.map((a) => [a.kernel, a.status, a.degree, a.wavefronts]),
    [['coalescedMultiply', 'conflict', 32, 32], ['paddedMultiply', 'conflict-free', 1, 1]]);
  const fix = result.arrays.find((a) => a.name === 'transposedTile' && a.fix)?.fix;
  assert.equal(fix?.newShape, '[TILE_DIM][TILE_DIM + 1]');
  // Harris's reversal: s[n - t - 1] with n = 64
  figures(accessAt(result, text, 'd[t] = s[tr];', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
  // PMPP Brent-Kung: 2, 4, 8, 8, 8, 4, 2, 1 up the tree; 1, 3, 7, 8, 8, 4, 2 down
  const up = accessAt(result, text, 'XY[index] += XY[index - stride];', 'store', 'XY');
  assert.deepEqual(up.cases.map((c) => c.degree), [2, 4, 8, 8, 8, 4, 2, 1]);
  const down = accessAt(result, text, 'XY[index + stride] += XY[index];', 'store', 'XY');
  assert.deepEqual(down.cases.map((c) => c.degree), [1, 3, 7, 8, 8, 4, 2]);
  figures(down, 'conflict', 8, 8, 31, 31);
  // CUDA by Example's bitmap: shared[threadIdx.x][threadIdx.y] of 16 x 16 on a 16x16 block: 8-way
  figures(accessAt(result, text, 'shared[threadIdx.x][threadIdx.y] = 255 *', 'store', 'shared'), 'conflict', 8, 8, 32, 32);
  // rows of 17 leave it 2-way (17 * 15 + 1 = 256 shares bank 0 with word 0); rows of 18 clear both accesses
  assert.equal(result.arrays.find((a) => a.name === 'shared' && a.typeText === 'float[16][16]')?.fix?.newShape, '[16][18]');
  // "Using Shared Memory": floatData starts nI = 64 ints in; floatData[2 * t] 2-way
  figures(accessAt(result, text, 'floatData[2 * t] = (float)d[t];', 'store', 'floatData'), 'conflict', 2, 2, 32, 32);
  // Programming Guide: struct of two floats copied whole: two 4-byte reads at stride 2, 2-way; of three: conflict-free
  figures(accessAt(result, text, 'struct type2 d2 = s2[BaseIndex + tid];', 'load', 's2'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'struct type3 d3 = s3[BaseIndex + tid];', 'load', 's3'), 'conflict-free', 1, 1, 32, 32);
  // Pro Tip, private arrays in shared memory: the naive layout is 8-way, the thread-fastest one conflict-free
  figures(accessAt(result, text, 'naive_shared[threadIdx.x * ARRAY_SIZE + i] = 0.0f;', 'store', 'naive_shared'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'dyn_shared[threadIdx.x + i * THREADBLOCK_SIZE] = 0.0f;', 'store', 'dyn_shared'), 'conflict-free', 1, 1, 32, 32);
});

test('a block shape in a file-scope array of arrays set once by a setup function (`dim3 grid[3][2], block[3][2];`) is read (was: 32 threads assumed, derivative_y\'s halo 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // Harris's x derivative: block (mx, sPencils) = 64x4, a warp is half a pencil row of 72 floats
  const x = accessAt(result, text, 's_f[sj][si] = f[globalIdx];', 'store', 's_f');
  figures(x, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(x.block, [64, 4, 1]);
  assert.ok(x.assumptions.some((a) => /`block\[0\]\[0\]` as `block\[0\]\[0\] = dim3\(mx, sPencils, 1\)` in `setDerivativeParameters`/.test(a)), x.assumptions.join('\n'));
  // the y derivative: block (sPencils, my) = 4x64, eight rows of 4 per warp; `j < 4` lets the first four rows through
  const lines = text.split('\n');
  const y = result.accesses.filter((a) => a.kernel === 'derivative_y');
  assert.ok(y.length > 0 && y.every((a) => a.block?.join('x') === '4x64x1'), y.map((a) => a.block?.join('x')).join(', '));
  const halo = y.find((a) => a.kind === 'store' && lines[a.range.start.line].includes('s_f[sj - 4][si] = s_f[sj + my - 5][si];'))!;
  figures(halo, 'conflict-free', 1, 1, 16, 16);
  // a kernel's own variable of the same name (`cg::thread_block block`, passed to `tiled_partition`) is not the array
  assert.ok(text.includes('cg::tiled_partition(block, 32)'));
});

test('a kernel\'s local `block` passed to a function does not hide the file-scope `block[]` the launch reads (was: 32 threads assumed, conflict-free)', () => {
  const text = [
    '#include <cooperative_groups.h>',
    'namespace cg = cooperative_groups;',
    'dim3 block[3];',
    '__global__ void kx(float *o) { __shared__ float s[64][33]; o[0] = s[threadIdx.x][threadIdx.y]; }',
    '__global__ void kz(float *o) { auto block = cg::this_thread_block(); cg::sync(block); }',
    'void setp() { block[1] = dim3(4, 64, 1); }',
    'int main() { float *o = 0; setp(); kx<<<1, block[1]>>>(o); }',
  ].join('\n');
  const result = analyzeText(text);
  // block 4x64: words 33 tx + ty for tx 0..3 and eight ty, in bank tx + ty: four words in the middle banks, 4-way
  const l = accessAt(result, text, 'o[0] = s[threadIdx.x][threadIdx.y]; }', 'load', 's');
  figures(l, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(l.block, [4, 64, 1]);
  assert.ok(l.assumptions.some((a) => /`block\[1\]` as `block\[1\] = dim3\(4, 64, 1\)` in `setp`/.test(a)), l.assumptions.join('\n'));
});

test('a shared counter read again in a loop bound is named as written (was: `numCurrFrontier_s@NN#2`, an internal key, in the assumption)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // PMPP's privatized BFS frontier, copied out by a block-stride loop: t + 256 per pass, conflict-free
  const l = accessAt(result, text, 'currFrontier[currFrontierIdx] = currFrontier_s[currFrontierIdx_s];', 'load', 'currFrontier_s');
  figures(l, 'conflict-free', 1, 1, 32, 32);
  assert.ok(l.assumptions.some((a) => /depends on the unknown warp-uniform value `numCurrFrontier_s`\)/.test(a)), l.assumptions.join('\n'));
  assert.ok(!l.assumptions.some((a) => /numCurrFrontier_s@|#\d/.test(a)), l.assumptions.join('\n'));
  // the slot an atomicAdd returns is not known
  const s = accessAt(result, text, 'currFrontier_s[currFrontierIdx_s] = neighbor;', 'store', 'currFrontier_s');
  assert.equal(s.status, 'unknown');
  assert.match(s.message, /the result of `atomicAdd`/);
});

test('`p + (r) - 2 * t` on a shared pointer is read as the compiler reads it, not as a cast of -2 to `r` (was: the lanes at p - 2t, a false 2-way conflict; words below the array in the bank map)', () => {
  const text = [
    '#define W 64',
    '__global__ void k(float *o)',
    '{',
    '  __shared__ float s[256];',
    '  float *p = s + 64;',
    '  const int t = threadIdx.x;',
    '  const int r = threadIdx.x;',
    '  float *q = p + (r) - 2 * t;',
    '  o[t] = *q;',
    '  o[t + 32] = *(s + (W) - 2 * t);',
    '  o[t + 64] = *(p + (W) - 2 * t + (&s[0] - s));',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  const wordsOf = (a: { worst: { worstPhase: { banks: { words: { word: number; lanes: number[] }[] }[] } } | null }) =>
    a.worst!.worstPhase.banks.flatMap((b) => b.words).sort((x, y) => x.lanes[0] - y.lanes[0]).map((w) => w.word);
  // q = s + 64 + t - 2t: lane t at word 64 - t, one per bank
  const q = accessAt(r, text, 'o[t] = *q;', 'load');
  figures(q, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(wordsOf(q).slice(0, 3), [64, 63, 62]);
  // s + 64 - 2t: words 64, 62, ..., 2, two lanes to a bank
  const w = accessAt(r, text, 'o[t + 32] = *(s + (W) - 2 * t);', 'load');
  figures(w, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(wordsOf(w).slice(0, 3), [64, 62, 60]);
  // with an access in the expression, it keeps the grammar's reading (its accesses stay where the text has them): the
  // README says so; the degree is the same either way here (W adds the same offset to every lane)
  assert.equal(accessAt(r, text, 'o[t + 64] = *(p + (W) - 2 * t + (&s[0] - s));', 'load', '*').degree, 2);
});
