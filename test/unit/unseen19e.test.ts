// Regressions from the nineteenth sweep of unseen kernels, helper E: NVIDIA cuda-samples, a fourth batch (FDTD3d,
// fastWalshTransform, sortingNetworks, convolutionSeparable, dwtHaar1D, histogram64, eigenvalues, mergeSort, dxtc),
// written from scratch in their style. Figures from a brute-force lane oracle of the bank model
// (scratch/o_fix.py of helper h19e, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen19e.cu';

test('a launch whose blockDim.x is known and blockDim.y is not keeps x: FDTD3d\'s 16-wide tile is two rows a warp (was: 32x1x1 assumed, lanes 16..31 past the row, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const launch = lineOf(text, 'FiniteDifferencesKernel<<<dimGrid, dimBlock>>>') + 1;
  // rows of 24 words: lanes 0..15 at 24 (ty + 4) + tx + 4, lanes 16..31 one row on; banks 4..11 twice
  const centre = accessAt(result, text, 'tile[ty][tx] = current;', 'store', 'tile');
  figures(centre, 'conflict', 2, 2, 32, 32);
  assert.equal(centre.worst!.banksUsed, 24);
  assert.deepEqual(centre.block, [16, 2, 1]);
  assert.ok(centre.assumptions.includes(`the block shape \`dimBlock\` of the launch at line ${launch} could not be evaluated: blockDim.x = 16, blockDim.z = 1 from it, blockDim.y not known: assumed a block of 16x2x1 (the least that fills one warp)`), centre.assumptions.join('\n'));
  for (const snippet of ['tile[ltidy][tx] = input[inputIndex - RADIUS * stride_y];', 'tile[ltidy + worky + RADIUS][tx] = input[inputIndex + worky * stride_y];'])
    figures(accessAt(result, text, snippet, 'store', 'tile'), 'conflict', 2, 2, 32, 32);
  // the side halo: 4 lanes of each of the two rows
  figures(accessAt(result, text, 'tile[ty][ltidx] = input[inputIndex - RADIUS];', 'store', 'tile'), 'conflict-free', 1, 1, 8, 8);
  for (const expr of ['tile[ty - i][tx]', 'tile[ty + i][tx]', 'tile[ty][tx - i]', 'tile[ty][tx + i]']) {
    const l = accessAt(result, text, 'value += tile[ty - i][tx] + tile[ty + i][tx]', 'load', expr);
    figures(l, 'conflict', 2, 2, 32, 32);
    assert.equal(l.outOfBounds, undefined);
  }
});

test('a partly known block shape: x = 64 with y unknown is 64x1x1, not 32 threads; x unknown still takes the one-warp default', () => {
  const text = [
    'int rows();',
    '__global__ void k(float *d)',
    '{',
    '    __shared__ float s[256];',
    '    if (threadIdx.x >= 32) s[2 * threadIdx.x] = d[threadIdx.x];',
    '}',
    '__global__ void j(float *d)',
    '{',
    '    __shared__ float t[32][32];',
    '    t[threadIdx.x][threadIdx.y] = d[0];',
    '}',
    'int main() { float *d; dim3 b(64, rows()); k<<<1, b>>>(d); j<<<1, dim3(rows(), 8)>>>(d); return 0; }',
  ].join('\n');
  const result = analyzeText(text);
  const a = accessAt(result, text, 'if (threadIdx.x >= 32) s[2 * threadIdx.x]', 'store', 's');
  // lanes 32..63: words 64..126 even, two per bank
  figures(a, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  const b = accessAt(result, text, 't[threadIdx.x][threadIdx.y] = d[0];', 'store', 't');
  assert.deepEqual(b.block, [32, 1, 1]);
  figures(b, 'conflict', 32, 32, 32, 32);
});

test('a host loop before the launch that steps its counters in its header is run (was: fastWalshTransform\'s `N / 4` after `for (; log2N > 11; log2N -= 2, N >>= 2)` not evaluated: 32 threads assumed, the butterfly unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const launch = lineOf(text, 'fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>') + 1;
  const i0 = accessAt(result, text, 'float D0 = s_data[i0];', 'load', 's_data');
  // log2N 23 from main, six passes: 11; N = 2048, a block of 512; quarters 512, 128, 32 are clean, 8 and 2 are 4-way
  figures(i0, 'conflict', 4, 4, 32, 32);
  assert.equal(i0.worst!.banksUsed, 8);
  assert.deepEqual(i0.block, [512, 1, 1]);
  assert.deepEqual(i0.cases.map((c) => [c.context.stride, c.degree]), [[2048, 1], [512, 1], [128, 1], [32, 4], [8, 4]]);
  assert.ok(i0.assumptions.includes(`\`log2N\` = 11 from the launch at line ${launch}`), i0.assumptions.join('\n'));
  for (const snippet of ['T = D0; s_data[i0] = D0 + D1; s_data[i1] = T - D1;', 'T = D2; s_data[i2] = D2 + D3; s_data[i3] = T - D3;'])
    for (const a of result.accesses.filter((x) => x.range.start.line === lineOf(text, snippet))) figures(a, 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'float D3 = s_data[i3];', 'load', 's_data'), 'conflict', 4, 4, 32, 32);
  // log2N is odd: the radix-2 tail at stride 2, two passes of the block
  const odd = result.accesses.filter((a) => a.range.start.line === lineOf(text, 's_data[i0] = D0 + D1;', lineOf(text, 'if (log2N & 1)')));
  assert.equal(odd.length, 1);
  figures(odd[0], 'conflict', 2, 2, 32, 32);
  assert.equal(odd[0].worst!.banksUsed, 16);
});

test('a host loop before the launch is not run where its body could change the trip count or a counter', () => {
  const text = [
    'int pick();',
    '__global__ void k(float *d)',
    '{',
    '    __shared__ float s[2048];',
    '    s[threadIdx.x * 2] = d[threadIdx.x];',
    '}',
    'void a(float *d) { int n = 1024; for (; n > 64; n /= 2) { if (pick()) break; } k<<<1, n>>>(d); }',
    'void b(float *d) { int n = 1024; for (; n > 64; n /= 2) n = pick(); k<<<1, n>>>(d); }',
    'void c(float *d) { int n = 1024; for (; n > 64; n /= 2) ; k<<<1, n>>>(d); }',
    'int main() { float *d; a(d); b(d); return 0; }',
  ].join('\n');
  const s = analyzeText(text).accesses[0];
  // only `c` gives a shape: n = 64
  assert.deepEqual(s.block, [64, 1, 1]);
  figures(s, 'conflict', 2, 2, 32, 32);
  const only = analyzeText(text.replace(/void c.*\n/, '')).accesses[0];
  assert.deepEqual(only.block, [32, 1, 1]);
  assert.match(only.assumptions[0], /^the block shape `n` of the launch at line 7 could not be evaluated; the block shape `n` of the launch at line 8 could not be evaluated: assumed a one-dimensional block of 32 threads/);
});

test('an operand of `&&` skipped for every thread says so in a sentence that the block shape can follow (was: "... so `(data[newPos - 1] > val)` is not evaluated of block 512x1x1")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const launch = lineOf(text, 'mergeSortSharedKernel<1U><<<blockCount, threadCount>>>') + 1;
  const line = lineOf(text, 'if ((sortDir && (data[newPos - 1] < val))') + 1;
  const all = result.accesses.filter((a) => a.range.start.line === line - 1);
  const never = all.find((a) => a.status === 'unknown')!;
  assert.equal(never.reason, `no thread runs this access: \`(data[newPos - 1] > val)\` is not evaluated: \`!sortDir\` at line ${line} is false for every thread of block 512x1x1 (sortDir = 1; from the launch at line ${launch})`);
  // the first probe of each search is exact (a 2-way conflict at stride 1); the later ones follow loaded keys
  const probe = all.find((a) => a.status !== 'unknown')!;
  figures(probe, 'conflict', 2, 2, 32, 32);
  assert.ok(probe.assumptions.some((a) => /other contexts? the access could not be evaluated: `pos` is set under the guard/.test(a)), probe.assumptions.join('\n'));
  const store = accessAt(result, text, 'baseKey[posA] = keyA;', 'store', 'baseKey');
  assert.equal(store.status, 'unknown');
  figures(accessAt(result, text, 'uint keyA = baseKey[lPos + 0];', 'load', 'baseKey'), 'conflict', 2, 2, 32, 32);
});

test('sortingNetworks: `pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1))` is 2-way at strides 1..16, clean from 32 on (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = lineOf(text, 'Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);');
  const sites = result.accesses.filter((a) => a.range.start.line === line);
  assert.equal(sites.length, 8);
  for (const a of sites) {
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.equal(a.worst!.banksUsed, 16);
  }
  const first = sites.find((a) => a.kind === 'load' && a.array === 's_key')!;
  assert.deepEqual(first.cases[0].context, { size: 2, stride: 1, call: `line ${line + 1}` });
  // the merge's `pos - stride` under `offset >= stride`: worst at size 128, stride 16
  const oe = accessAt(result, text, 'Comparator(s_key[pos - stride], s_val[pos - stride], s_key[pos + 0], s_val[pos + 0], dir);', 'load', 's_key[pos - stride]');
  figures(oe, 'conflict', 2, 2, 32, 32);
  assert.equal(oe.message.includes('size = 128, stride = 16'), true, oe.message);
  assert.ok(oe.assumptions.some((a) => a.startsWith('the guard `(keyA > keyB) == dir`')) === false);
  const st = accessAt(result, text, 'Comparator(s_key[pos - stride], s_val[pos - stride], s_key[pos + 0], s_val[pos + 0], dir);', 'store', 's_key[pos - stride]');
  assert.ok(st.assumptions.some((a) => a.startsWith('the guard `(keyA > keyB) == dir` at line')), st.assumptions.join('\n'));
});

test('convolutionSeparable: rows of 160 words put both half-warps on the same banks, rows of 81 collide once (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const rows = accessAt(result, text, 'sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];', 'load', 's_Data');
  figures(rows, 'conflict', 2, 2, 32, 32);
  assert.equal(rows.worst!.banksUsed, 16);
  assert.deepEqual(rows.block, [16, 4, 1]);
  const cols = accessAt(result, text, 'sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];', 'load', 's_Data');
  figures(cols, 'conflict', 2, 2, 32, 32);
  assert.equal(cols.worst!.banksUsed, 31);
  assert.deepEqual(cols.block, [16, 8, 1]);
});

test('dwtHaar1D, histogram64, eigenvalues and dxtc keep their exact figures (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // one padding word per 16: lanes 0 and 31 meet in bank 0
  const atid = accessAt(result, text, 'shared[atid] = (data0 + data1) * INV_SQRT_2;', 'store', 'shared');
  figures(atid, 'conflict', 2, 2, 32, 32);
  assert.equal(atid.worst!.banksUsed, 31);
  const level = accessAt(result, text, 'data1 = shared[c_idata1];', 'load', 'shared');
  figures(level, 'conflict', 2, 2, 32, 32);
  assert.equal(level.worst!.banksUsed, 18);
  assert.deepEqual(level.cases.map((c) => c.degree), [2, 2, 2, 1, 1, 1, 1, 1]);
  // byte counters: two lanes a word, 16 words
  const inc = result.accesses.filter((a) => a.range.start.line === lineOf(text, 's_Hist[threadPos + bin * HISTOGRAM64_THREADBLOCK_SIZE]++;'));
  assert.deepEqual(inc.map((a) => a.kind).sort(), ['load', 'store']);
  for (const a of inc) figures(a, 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 'sum += s_Hist[pos + threadIdx.x * HISTOGRAM64_THREADBLOCK_SIZE + 0];', 'load', 's_Hist'), 'conflict', 2, 2, 32, 32);
  // the up-sweep one word past the start: 8-way at offset 4
  const bi = accessAt(result, text, 's_compaction_list_exc[bi] = s_compaction_list_exc[bi] + s_compaction_list_exc[ai];', 'store', 's_compaction_list_exc');
  figures(bi, 'conflict', 8, 8, 32, 32);
  assert.equal(bi.worst!.banksUsed, 4);
  assert.deepEqual(bi.cases.map((c) => c.degree), [2, 4, 8, 8, 8, 4, 2, 1]);
  assert.equal(accessAt(result, text, 'if (threadIdx.x < MAX_THREADS_BLOCK / 2) s_left[addr] = g_left[threadIdx.x];', 'store', 's_left').status, 'unknown');
  // float3 sums: stride 3 words, 16 lanes
  for (const expr of ['sums[idx ^ 8]', 'sums[idx ^ 4]'])
    figures(accessAt(result, text, `sums[idx] += ${expr};`, 'load', expr), 'conflict-free', 1, 1, 16, 16);
});
