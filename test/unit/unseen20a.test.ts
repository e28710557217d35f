// Regressions from the twentieth sweep of unseen kernels, helper A: shared memory as the books teach it
// ("Professional CUDA C Programming", "Programming Massively Parallel Processors", "CUDA by Example", and the CUDA
// samples' matrixMul), written from scratch in their style. Figures from a brute-force lane oracle of the bank model
// (scratch/oracle.py of the sweep, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen20a.cu';

test('a launch under `case 1024:` of `switch (blocksize)` has a 1024-thread block although `if (argc > 1) blocksize = atoi(argv[1]);` set it before the switch (was: `block` not evaluated, 32 threads assumed, the neighbored reduction\'s 32-way conflict reported conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const c1024 = lineOf(text, 'case 1024:') + 1;
  // index = 2 * stride * tid, index < blockDim.x: with 1024 threads, stride 16 puts 32 lanes on bank 0
  const l = accessAt(result, text, 'if (index < blockDim.x) nsmem[index] += nsmem[index + stride];', 'load', 'nsmem[index]');
  figures(l, 'conflict', 32, 32, 32, 32);
  assert.equal(l.worst!.banksUsed, 1);
  assert.deepEqual(l.block, [1024, 1, 1]);
  assert.ok(l.assumptions.includes(`block 1024x1x1 from the launch at line ${c1024 + 2} (inside \`case 1024:\` of \`switch (blocksize)\` at line ${c1024})`), l.assumptions.join('\n'));
  // each instance with its own block: 512 threads peak at 16-way (stride 8 and 16), 1024 at 32-way (stride 16); none on 32 threads
  const worstOf = (b: number) => Math.max(...l.cases.filter((c) => c.block[0] === b).map((c) => c.degree));
  assert.equal(worstOf(512), 16);
  assert.equal(worstOf(1024), 32);
  assert.ok(l.cases.every((c) => c.block[0] === 512 || c.block[0] === 1024), JSON.stringify(l.cases.map((c) => c.context)));
  assert.deepEqual(l.cases.filter((c) => c.block[0] === 1024).map((c) => c.degree), [2, 4, 8, 16, 32, 16, 8, 4, 2, 1]);
  // the complete unroll: three instances, each on its case's block; `smem[tid + 512]` runs only in the 1024 one
  const st = accessAt(result, text, 'smem[tid] = idata[tid];', 'store', 'smem');
  figures(st, 'conflict-free', 1, 1, 32, 32);
  assert.ok(st.assumptions.includes('3 contexts evaluated (block shapes, loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), st.assumptions.join('\n'));
  const top = accessAt(result, text, 'if (iBlockSize >= 1024 && tid < 512) smem[tid] += smem[tid + 512];', 'load', 'smem[tid + 512]');
  figures(top, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(top.block, [1024, 1, 1]);
});

test('the `else` of `if (block_size == 16)` is not read with block_size 16 (was: matrixMul<32> also analysed on a 16x16 block, a false 2-way conflict on `As[ty][tx]`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block_size = major < 2 ? 16 : 32, passed to the launcher: <16> on 16x16, <32> on 32x32 only
  const as = accessAt(result, text, 'As[ty][tx] = A[ty * wA + tx];', 'store', 'As');
  figures(as, 'conflict-free', 1, 1, 32, 32);
  const bs = accessAt(result, text, 'Bs[tx][ty] = B[ty * wB + tx];', 'store', 'Bs');
  figures(bs, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(bs.cases.map((c) => [c.context.BLOCK_SIZE, c.block[0], c.block[1], c.degree]), [[16, 16, 16, 8], [32, 32, 32, 32]]);
  // As[ty][k]: two rows of 16 in a warp are two words in two banks; rows of 32, one word
  const rd = accessAt(result, text, 'for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];', 'load', 'As');
  figures(rd, 'conflict-free', 1, 1, 2, 32);
});

test('branch facts: `if (n == 256)` after a run-time write holds; a write inside the case leaves no fact; a dim3 made before a write keeps the value it was made with (was: `dim3 b3(m); m = 64;` read as a 64-thread block)', () => {
  const text = [
    '#include <cstdlib>',
    '__global__ void k1(float *o) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.f; o[0] = s[0]; }',
    '__global__ void k2(float *o) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.f; o[0] = s[0]; }',
    '__global__ void k3(float *o) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.f; o[0] = s[0]; }',
    'int main(int argc, char **argv) {',
    '  int n = 512;',
    '  if (argc > 1) n = atoi(argv[1]);',
    '  dim3 block(n, 1);',
    '  float *d;',
    '  if (n == 256) k1<<<1, block>>>(d);',
    '  switch (n) { case 64: n = 128; k2<<<1, n>>>(d); break; }',
    '  int m = 512;',
    '  dim3 b3(m);',
    '  m = 64;',
    '  if (m == 64) k3<<<1, b3>>>(d);',
    '  return 0;',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  const k1 = r.accesses.find((a) => a.kernel === 'k1' && a.kind === 'store')!;
  assert.deepEqual(k1.block, [256, 1, 1]);
  assert.ok(k1.assumptions.includes('block 256x1x1 from the launch at line 10 (inside `if (n == 256)` at line 10)'), k1.assumptions.join('\n'));
  figures(k1, 'conflict', 2, 2, 32, 32);
  // `case 64: n = 128;`: n is written inside the case, so the case says nothing of it at the launch
  const k2 = r.accesses.find((a) => a.kernel === 'k2' && a.kind === 'store')!;
  assert.ok(!k2.assumptions.some((a) => a.includes('`case 64:`')), k2.assumptions.join('\n'));
  // b3 was made from m = 512 before `m = 64;`: neither that write nor the `if (m == 64)` changes it
  const k3 = r.accesses.find((a) => a.kernel === 'k3' && a.kind === 'store')!;
  assert.deepEqual(k3.block, [512, 1, 1]);
  assert.ok(k3.assumptions.includes('block 512x1x1 from the launch at line 15'), k3.assumptions.join('\n'));
});

test('a host function that declares `dim3 gridDim(...)` (PMPP\'s launcher) does not make every kernel read the grid (was: the reductions split by `gridDim.x` = 16384 and 32768, which they never read)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const l = accessAt(result, text, 'if (index < blockDim.x) nsmem[index] += nsmem[index + stride];', 'load', 'nsmem[index]');
  assert.ok(l.cases.every((c) => !('gridDim.x' in c.context)), JSON.stringify(l.cases.map((c) => c.context)));
  assert.ok(!l.assumptions.some((a) => a.startsWith('grid ')), l.assumptions.join('\n'));
  // a kernel that reads gridDim itself still gets its launch's grid
  const bm = accessAt(result, text, 'ptr[offset * 4 + 1] = shared[15 - threadIdx.x][15 - threadIdx.y];', 'load', 'shared');
  assert.ok(bm.assumptions.some((a) => a.startsWith('grid 64x64x1 from the launch at line')), bm.assumptions.join('\n'));
});

test('the books\' main tile patterns (already right): column reads of square, rectangular, padded and dynamic tiles', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const col = accessAt(result, text, 'out[idx] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(col, 'conflict', 32, 32, 32, 32);
  assert.equal(col.worst!.banksUsed, 1);
  // icol * 34 + irow on a 32x16 block: 16 columns x 2 rows in 32 banks
  const rect = accessAt(result, text, 'out[g_idx] = rtile[col_idx];', 'load', 'rtile');
  figures(rect, 'conflict-free', 1, 1, 32, 32);
  assert.equal(rect.worst!.banksUsed, 32);
  // rows of 65: icol + irow over 17 banks, 2-way
  const t = accessAt(result, text, 'out[to] = ttile[col_idx];', 'load', 'ttile');
  figures(t, 'conflict', 2, 2, 32, 32);
  assert.equal(t.worst!.banksUsed, 17);
  // CUDA by Example's bitmap: shared[tx][ty] on 16x16, 8-way over 4 banks, the reversed read too
  for (const [snippet, kind] of [['shared[threadIdx.x][threadIdx.y] = 255', 'store'], ['ptr[offset * 4 + 1] = shared[15 - threadIdx.x][15 - threadIdx.y];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'shared');
    figures(a, 'conflict', 8, 8, 32, 32);
    assert.equal(a.worst!.banksUsed, 4);
  }
  // the heat tile's rows of 18 on a 16x16 block: 2-way over 30 banks
  const h = accessAt(result, text, 'htile[threadIdx.y + 1][threadIdx.x + 1] = inSrc[offset];', 'store', 'htile');
  figures(h, 'conflict', 2, 2, 32, 32);
  assert.equal(h.worst!.banksUsed, 30);
  figures(accessAt(result, text, 'if (threadIdx.x == 0) htile[threadIdx.y + 1][0] = inSrc[offset - 1];', 'store', 'htile'), 'conflict-free', 1, 1, 2, 2);
  figures(accessAt(result, text, 'if (threadIdx.y == blockDim.y - 1) htile[blockDim.y + 1][threadIdx.x + 1]', 'store', 'htile'), 'conflict-free', 1, 1, 16, 16);
});

test('PMPP\'s scans and convolution layer (already right): Brent-Kung per stride, coarsened subsections, X_shared halos', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const up = accessAt(result, text, 'if (index < SECTION_SIZE) XY[index] += XY[index - stride];', 'load', 'XY[index]');
  figures(up, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(up.cases.map((c) => c.degree), [2, 4, 8, 16, 32, 16, 8, 4, 2, 1]);
  const down = accessAt(result, text, 'if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];', 'load', 'XY[index + stride]');
  figures(down, 'conflict', 31, 31, 31, 31);
  assert.deepEqual(down.cases.map((c) => c.degree), [1, 3, 7, 15, 31, 16, 8, 4, 2]);
  // the double buffer's swapped pointers stay on their arrays
  figures(accessAt(result, text, 'dst[threadIdx.x] = src[threadIdx.x] + src[threadIdx.x - stride];', 'load', 'src[threadIdx.x - stride]'), 'conflict-free', 1, 1, 32, 32);
  // thread-coarsened phase 1: stride 4 words, 4-way over 8 banks
  const c = accessAt(result, text, 'XY_s[threadIdx.x * COARSE + j] += XY_s[threadIdx.x * COARSE + j - 1];', 'load', 'XY_s[threadIdx.x * COARSE + j - 1]');
  figures(c, 'conflict', 4, 4, 32, 32);
  assert.equal(c.worst!.banksUsed, 8);
  // h0 = threadIdx.x strides rows of 20: 2-way over 16 banks; the filter read is one word
  const x = accessAt(result, text, 'acc = acc + X_s(h0 + p, w0 + q) * W_s(p, q);', 'load', 'X_s');
  figures(x, 'conflict', 2, 2, 32, 32);
  assert.equal(x.worst!.banksUsed, 16);
  figures(accessAt(result, text, 'acc = acc + X_s(h0 + p, w0 + q) * W_s(p, q);', 'load', 'W_s'), 'broadcast', 1, 1, 1, 32);
  figures(accessAt(result, text, 'W_s(h0, w0) = W[', 'store', 'W_s'), 'conflict-free', 1, 1, 10, 10);
});

test('a switch fact says nothing of a read before a write no assignment shows (was: `dim3 b(t); scanf("%d", &t); switch (t) { case 512: k<<<1, b>>>` read as 512 threads)', () => {
  const text = [
    '#include <cstdio>',
    '__global__ void k1(float *o) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.f; }',
    '__global__ void k2(float *o) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.f; }',
    'void init(int &v) { v = 64; }',
    'int main() {',
    '  float *d;',
    '  int t = 256;',
    '  dim3 b(t);',
    '  scanf("%d", &t);',
    '  switch (t) { case 512: k1<<<1, b>>>(d); break; }',
    '  int u;',
    '  scanf("%d", &u);',
    '  dim3 c(u);',
    '  switch (u) { case 128: k2<<<1, c>>>(d); break; }',
    '  return 0;',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  const k1 = r.accesses.find((a) => a.kernel === 'k1')!;
  assert.notDeepEqual(k1.block, [512, 1, 1]);
  assert.ok(!k1.assumptions.some((a) => a.includes('`case 512:`')), k1.assumptions.join('\n'));
  // read after the scanf, `dim3 c(u)` is what the case says
  const k2 = r.accesses.find((a) => a.kernel === 'k2')!;
  assert.deepEqual(k2.block, [128, 1, 1]);
  figures(k2, 'conflict', 2, 2, 32, 32);
});

test('an access that `if (blockDim.x >= 1024 && tid < 512)` skips in a smaller block names the part that decides it (was: only "no lane of block 128x1x1 reaches this access")', () => {
  const text = [
    '__global__ void reduceSmem(int *g_idata, int *g_odata)',
    '{',
    '    __shared__ int smem[128];',
    '    unsigned int tid = threadIdx.x;',
    '    smem[tid] = g_idata[tid];',
    '    __syncthreads();',
    '    if (blockDim.x >= 1024 && tid < 512) smem[tid] += smem[tid + 512];',
    '    __syncthreads();',
    '    if (tid < 32 || blockDim.x < 64) g_odata[tid] = smem[tid];',
    '    if (tid < 32 && tid > 40) g_odata[tid] = smem[tid + 1];',
    '}',
    'int main() { int *d; reduceSmem<<<64, 128>>>(d, d); }',
  ].join('\n');
  const r = analyzeText(text);
  const skipped = r.accesses.filter((a) => a.range.start.line === 6);
  assert.equal(skipped.length, 3);
  for (const a of skipped)
    assert.equal(a.reason, 'no thread runs this access: the condition `blockDim.x >= 1024` at line 7 is false for every thread of block 128x1x1 (from the launch at line 12)');
  // a guard some lanes pass is evaluated as before: 32 lanes
  figures(accessAt(r, text, 'if (tid < 32 || blockDim.x < 64) g_odata[tid] = smem[tid];', 'load', 'smem'), 'conflict-free', 1, 1, 32, 32);
  // no part alone is false for every thread: the reason names the shape only
  const none = accessAt(r, text, 'if (tid < 32 && tid > 40) g_odata[tid] = smem[tid + 1];', 'load', 'smem');
  assert.equal(none.status, 'unknown');
  assert.ok(!/the condition/.test(none.reason ?? ''), none.reason);
});
