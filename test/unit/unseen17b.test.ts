// Regressions from the seventeenth sweep of unseen kernels, helper B (modern CUDA C++): cooperative groups' block
// coordinates, grid and cluster ranks and coalesced groups, thread block clusters (`__cluster_dims__` and distributed
// shared memory), `cuda::std::array`, structured bindings and braced struct values, `cuda::std` type traits and
// attributed statements. Figures from a brute-force lane oracle of the bank model (scratch/helper-h17b/oracle.py,
// not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen17b.cu';

test('a thread block\'s thread_index(), group_index() and dim_threads() are threadIdx, blockIdx and blockDim (was: unknown, the result of `block.thread_index()`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 16x16: words 16 * ty + tx, 32 banks
  const s = accessAt(result, text, 'tile[ti.y][ti.x] = in[', 'store', 'tile');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  // words 16 * tx + ty: banks 0, 1, 16, 17, eight words each
  figures(accessAt(result, text, '= tile[ti.x][ti.y];', 'load', 'tile'), 'conflict', 8, 8, 32, 32);
  // called on the temporary, through a using-directive: red[tx % 8][meta_group_size() = 8], 8 words in 8 banks
  figures(accessAt(result, text, 'out[this_thread_block().thread_index().y] = red[', 'load', 'red'), 'conflict-free', 1, 1, 8, 32);
});

test('a kernel whose head holds __cluster_dims__ through a macro is analysed (was: CLUSTER_DIMS(2) read as the kernel\'s name, every access left out)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.equal(result.accesses.filter((a) => a.kernel === 'cluster_hist').length, 4);
  figures(accessAt(result, text, 'hist[threadIdx.x] = 0;', 'store', 'hist'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, '= hist[threadIdx.x];', 'load', 'hist'), 'conflict-free', 1, 1, 32, 32);
  // a direct __cluster_dims__(...) and one through an object-like macro too
  const direct = [
    '#define CD __cluster_dims__(2, 1, 1)',
    '__global__ void __cluster_dims__(2, 1, 1) k2(int *o) { __shared__ int h[64]; h[2 * threadIdx.x] = 0; }',
    '__global__ void CD k3(int *o) { __shared__ int h[64]; h[2 * threadIdx.x] = 0; }',
  ].join('\n');
  const r = analyzeText(direct, { budgetMs: 60_000 });
  assert.deepEqual(r.accesses.map((a) => [a.kernel, a.status, a.degree]), [['k2', 'conflict', 2], ['k3', 'conflict', 2]]);
});

test('an access through cluster.map_shared_rank() is unknown, saying the bank model has no rule for distributed shared memory (was: the kernel lost)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const p = accessAt(result, text, 'peer[threadIdx.x * 2 % 256] = 1;', 'store', 'peer');
  assert.equal(p.status, 'unknown');
  assert.match(p.reason ?? '', /`cluster\.map_shared_rank\(hist, \(rank \+ 1\) % 2\)` at line \d+ points into the shared memory of a block of the thread block cluster \(distributed shared memory\): the bank model has no rule for its accesses/);
  assert.equal(accessAt(result, text, 'atomicAdd(&peer[in[threadIdx.x] & 255], 1);', 'atomic').status, 'unknown');
});

test('cluster.block_rank() is one value per block: an offset of it keeps the degree (was: unknown, the result of `cluster.block_rank(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'part[cluster.block_rank()][threadIdx.x] = 1.0f;', 'store', 'part');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.ok(s.assumptions.some((a) => /cluster\.block_rank\(\)\)?` adds the same offset to every lane/.test(a)), s.assumptions.join('\n'));
  // words 32 * (t % 4) + rank: four words, all in one bank, whatever the rank
  figures(accessAt(result, text, '= part[threadIdx.x % 4][cluster.block_rank()];', 'load', 'part'), 'conflict', 4, 4, 4, 32);
});

test('grid.thread_rank() is the block\'s rank times its size plus the thread\'s: its % 32 is the lane (was: unknown, the result of `grid.thread_rank(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'lane_buf[g % 32][0] = 1.0f;', 'store', 'lane_buf'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'lane_buf[0][g % 32] = 2.0f;', 'store', 'lane_buf'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, '= lane_buf[g % 32][g % 32];', 'load', 'lane_buf'), 'conflict-free', 1, 1, 32, 32);
});

test('coalesced_threads() under a guard ranks the active lanes of each warp (was: unknown, the result of `active.thread_rank(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // odd lanes active: ranks 0..15, 16 words in 16 banks
  figures(accessAt(result, text, 'packed[threadIdx.x / 32][active.thread_rank()] =', 'store', 'packed'), 'conflict-free', 1, 1, 16, 16);
  figures(accessAt(result, text, 'packed[threadIdx.x / 32][active.thread_rank() * 2] =', 'store', 'packed'), 'conflict-free', 1, 1, 16, 16);
});

test('a __shared__ cuda::std::array is an array: its subscripts are accesses and size() reads no memory (was: every access left out, size() reported unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.equal(result.accesses.filter((a) => a.kernel === 'std_array_rows').length, 4);
  figures(accessAt(result, text, 'plain[t * 32 + r] = 1.0f;', 'store', 'plain'), 'conflict', 32, 32, 32, 32);
  // cuda::std::array<cuda::std::array<float, 33>, 32> is float[32][33]
  figures(accessAt(result, text, 'padded[t][r] = 1.0f;', 'store', 'padded'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[t] = plain[r * 32 + t] + padded[r][t]', 'load', 'padded'), 'conflict-free', 1, 1, 32, 32);
  // its extents are its type's: no padding fix, said so
  const plain = result.arrays.find((a) => a.name === 'plain')!;
  assert.match(plain.noFixReason ?? '', /is written in its type \(`float\[1024\]`\), not in its declaration/);
  // a member of a templated storage struct: SharedStorage<float, 32>::c after a[32][33] and b[32]
  figures(accessAt(result, text, 'smem.c[threadIdx.x % N] = T(3);', 'store', 'smem'), 'conflict-free', 1, 1, 32, 32);
  // a range-for over it by thread 0, += on it per instance, and data()[i]: double bins[t % 64] in two half-warps
  figures(accessAt(result, text, 'for (T &b : bins) b = T(0);', 'store', 'b'), 'conflict-free', 1, 1, 1, 1);
  figures(accessAt(result, text, 'bins[(threadIdx.x * 2) % 64] += T(1);', 'store', 'bins'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'bins[threadIdx.x % 64] += T(1);', 'load', 'bins'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, '= bins.data()[threadIdx.x % 64];', 'load', 'bins'), 'conflict-free', 1, 2, 64, 32);
});

test('structured bindings name the members of a struct a function returns in braces (was: unknown, the subscript is not a number)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // r = t / 8, c = t % 8, block 64: words 8c + r (and 9c + r), two lanes per bank in some banks
  figures(accessAt(result, text, 'grid8[c][r] = 1.0f;', 'store', 'grid8'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'grid9[c][r] = 1.0f;', 'store', 'grid9'), 'conflict', 2, 2, 32, 32);
  // bound by reference to a compound literal RowCol{t % 8, t / 8}
  figures(accessAt(result, text, 'out[threadIdx.x] = grid8[rr][cc]', 'load', 'grid8'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = grid8[rr][cc]', 'load', 'grid9'), 'conflict', 2, 2, 32, 32);
  // the same values without bindings: a braced return and a compound literal were not evaluated either
  const plain = [
    'struct RC { int r; int c; };',
    '__device__ RC split(int t) { return {t / 8, t % 8}; }',
    '__global__ void k(float *o) {',
    '  __shared__ float g[8][8];',
    '  RC p = split(threadIdx.x);',
    '  g[p.c][p.r] = 1.f;',
    '  RC w = RC{(int)threadIdx.x % 8, (int)threadIdx.x / 8};',
    '  g[w.c][w.r] = 2.f;',
    '}',
  ].join('\n');
  const r = analyzeText(plain, { budgetMs: 60_000 });
  figures(accessAt(r, plain, 'g[p.c][p.r] = 1.f;', 'store', 'g'), 'conflict', 2, 2, 32, 32);
  // words 8 * (t / 8) + t % 8 = t
  figures(accessAt(r, plain, 'g[w.c][w.r] = 2.f;', 'store', 'g'), 'conflict-free', 1, 1, 32, 32);
});

test('cuda::std::is_same_v picks a stride per instance (was: unknown, the condition of `cuda::std::is_same_v<T, double> ? 1 : 2` could not be evaluated)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'buf[threadIdx.x * step] = T(0);', 'store', 'buf');
  // float: step 2, 2-way; double: step 1, 8-byte lanes, two half-warps of 32 words
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.cases?.map((c) => [c.context, c.degree, c.wavefronts]), [[{ T: 'float' }, 2, 2], [{ T: 'double' }, 1, 2]]);
  const traits = [
    'template <typename T> __global__ void k(T *o) {',
    '  __shared__ T s[1024];',
    '  s[threadIdx.x * (std::is_same<T, float>::value ? 4 : 1)] = T(0);',
    '  s[threadIdx.x * (cuda::std::is_floating_point_v<T> ? 2 : 8)] = T(0);',
    '}',
    'template __global__ void k<float>(float *);',
  ].join('\n');
  const r = analyzeText(traits, { budgetMs: 60_000 });
  assert.deepEqual(r.accesses.map((a) => [a.status, a.degree]), [['conflict', 4], ['conflict', 2]]);
});

test('a statement with attributes ([[likely]] { ... }) runs (was: left out, with its accesses)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // t < 64 of block 128: words 32t + t % 32, 32 banks
  figures(accessAt(result, text, 's[threadIdx.x][threadIdx.x % 32] = 1.0f;', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = s[threadIdx.x % 64][0];', 'load', 's'), 'conflict', 32, 32, 32, 32);
});

test('the sweep\'s other shapes keep their figures: if constexpr, constexpr swizzles and log2, traits, aligned buffers of structs, a tile of 16', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'acc[col][row] = col;', 'store', 'acc'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'flat[col][row] = row;', 'store', 'flat'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'int sum = cg::reduce(warp, vals[', 'load', 'vals'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'v = tile[threadIdx.x][threadIdx.y];', 'load', 'tile'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'v = tile[threadIdx.y][threadIdx.x];', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 's[swizzle(threadIdx.x, threadIdx.y)] = 1.0f;', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = s[swizzle(threadIdx.x, 0)] + s[threadIdx.x * st];', 'load', 's[threadIdx.x * st]'), 'conflict', 2, 2, 32, 32);
  const gemm = accessAt(result, text, 'As[threadIdx.x * Tr::kLd + threadIdx.y] = 0.f;', 'store', 'As');
  assert.deepEqual(gemm.cases?.map((c) => c.degree), [32, 1]);
  figures(accessAt(result, text, 'pairs[threadIdx.x].key = 1.0f;', 'store', 'pairs'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = quads[threadIdx.x].y', 'load', 'quads'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'rows[(threadIdx.x << kShift) / 32 + threadIdx.y] = 1.0f;', 'store', 'rows'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'st.b[threadIdx.x][threadIdx.y] = 1.0f;', 'store', 'st'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'st.a[threadIdx.x][threadIdx.y] = 1.0f;', 'store', 'st'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'lanes[0][(warp.thread_rank() * warp.size()) % 128 / 4]', 'load', 'lanes[0]'), 'conflict-free', 1, 1, 4, 32);
});

test('a tile cut from a warp tile counts its meta_group_rank() and meta_group_size() within the warp (was: 4-way, 16 words, ranks counted over the block)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // quarter[8][4][9], tiled_partition<8>(warp): rank (t % 32) / 8 in 0..3, size 4
  figures(accessAt(result, text, 'quarter[warp.meta_group_rank()][oct.meta_group_rank()][oct.thread_rank()] = 1.0f;', 'store', 'quarter'), 'conflict', 2, 2, 32, 32);
  // words 36w + 9 * (r % 4) + 4m: 16 words in 16 banks
  figures(accessAt(result, text, '= quarter[warp.meta_group_rank()][oct.thread_rank() % 4]', 'load', 'quarter'), 'conflict-free', 1, 1, 16, 32);
  // a group the analysis does not know is partitioned into tiles it does not know either
  const text2 = [
    '#include <cooperative_groups.h>',
    'namespace cg = cooperative_groups;',
    '__device__ void part(cg::thread_group g, float *s) { auto t = cg::tiled_partition(g, 8); s[t.meta_group_rank()] = 1.f; }',
    '__global__ void k() {',
    '  __shared__ float s[64];',
    '  if (threadIdx.x % 2) part(cg::coalesced_threads(), s);',
    '}',
  ].join('\n');
  const r = analyzeText(text2, { budgetMs: 60_000 });
  assert.equal(r.accesses.length, 1);
  assert.equal(r.accesses[0].status, 'unknown');
  assert.match(r.accesses[0].reason ?? '', /the group `g` that `cg::tiled_partition` partitions is not known here/);
});

test('cuda::atomic_ref bound to a shared element is an atomic there, reported at the element (was: left out)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'slot(counts[threadIdx.x][threadIdx.y]);', 'atomic', 'counts');
  // words 33 * tx + ty: 32 banks
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.ok(a.assumptions.some((s) => /a shared-memory atomic is treated as a store/.test(s)), a.assumptions.join('\n'));
  figures(accessAt(result, text, 'atomicAdd_block(&counts[threadIdx.x][threadIdx.y + 1], 1);', 'atomic'), 'conflict-free', 1, 1, 32, 32);
  // braced, with += (one atomic) and load() (a load)
  const braced = [
    '__global__ void k(int *o) {',
    '  __shared__ int c[32][32];',
    '  cuda::std::atomic_ref<int> r{c[threadIdx.x][0]};',
    '  r += 1;',
    '  o[0] = r.load();',
    '}',
  ].join('\n');
  const r = analyzeText(braced, { budgetMs: 60_000 });
  assert.deepEqual(r.accesses.map((x) => [x.kind, x.status, x.degree]).sort(), [['atomic', 'conflict', 32], ['load', 'conflict', 32]]);
});

test('a variable template of the file is evaluated with its arguments (was: unknown, the extent `padded_v<32>` of `tile` could not be evaluated)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // tile[cfg::kRows][padded_v<32>] is float[16][33], block 32x16, a __grid_constant__ parameter beside it
  const s = result.accesses.filter((a) => a.kernel === 'grid_const' && a.kind === 'store');
  assert.equal(s.length, 1);
  figures(s[0], 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s[0].block, [32, 16, 1]);
  // words 33 * (tx % 16) + 2 * ty: 16 words in 16 banks
  figures(accessAt(result, text, 'out[threadIdx.x] = tile[threadIdx.x % cfg::kRows][threadIdx.y * kStep]', 'load', 'tile'), 'conflict-free', 1, 1, 16, 32);
});

test('the last shapes keep their figures: a reference to a 2-D tile cast from bytes, half2 and bfloat16 tiles, 16-byte pipeline copies', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'plain[threadIdx.x][threadIdx.y] = 1.0f;', 'store', 'plain'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = pad[threadIdx.x][threadIdx.y];', 'load', 'pad'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'bf[threadIdx.y][threadIdx.x * 2] = ', 'store', 'bf'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, '= __low2float(h2[threadIdx.x][threadIdx.y])', 'load', 'h2'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, '= __low2float(h2[threadIdx.x][threadIdx.y])', 'load', 'bf'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = buf[threadIdx.y][col];', 'load', 'buf'), 'conflict-free', 1, 4, 128, 32);
});

test('a cuda::std::span over shared memory indexes as its pointer (was: its accesses left out)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'row[threadIdx.x] = 1.0f;', 'store', 'row'), 'conflict-free', 1, 1, 32, 32);
  // words 33 * ty + (2 * tx) % 33: 0 and 32 share bank 0
  figures(accessAt(result, text, 'out[threadIdx.x] = row[(threadIdx.x * 2) % 33];', 'load', 'row'), 'conflict', 2, 2, 32, 32);
});

test('a braced return from a function with a trailing return type builds the struct (was: unknown, `c` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // r = t / 8, c = t % 8: words 32c + r, banks 0..3 with eight words each
  figures(accessAt(result, text, 'cols[c * 32 + r] = 2.0f;', 'store', 'cols'), 'conflict', 8, 8, 32, 32);
});

test('a constexpr dim3 of the file scope gives the launch its block (was: could not be evaluated, 32 threads assumed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'stage8[threadIdx.y][threadIdx.x] = 1.0f;', 'store', 'stage8');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [32, 8, 1]);
  assert.ok(s.assumptions.some((a) => /block 32x8x1 from the launch at line/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, 'out[threadIdx.x] = stage8[threadIdx.x % 8][threadIdx.y];', 'load', 'stage8'), 'conflict', 8, 8, 8, 32);
  // braced and `= {...}` forms, and extents made of constants
  for (const decl of ['constexpr dim3 kB{32, 8};', 'static constexpr dim3 kB = {32, 8, 1};', 'constexpr int W = 32; constexpr dim3 kB(W, W / 4);']) {
    const src = `${decl}\n__global__ void k(float *o) { __shared__ float s[8][32]; s[threadIdx.y][threadIdx.x] = 1.f; }\nvoid go(float *f) { k<<<1, kB>>>(f); }\n`;
    assert.deepEqual(analyzeText(src, { budgetMs: 60_000 }).accesses[0].block, [32, 8, 1], decl);
  }
});
