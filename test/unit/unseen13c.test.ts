// Regressions from the thirteenth sweep of unseen kernels, helper C (image and signal processing: OpenCV's separable
// row and column filters, the DCT 8x8 samples, GPUJPEG, ArrayFire's filters, AstroAccelerate's polyphase filter
// bank and FIR): block shapes held in `const dim3 block(BX, BY)` with sizes set under an undecided `if`, a block
// size passed to a header's ceiling division (`divUp(n, threads)`) before the launch, values returned under an `if`
// not decided, launchers with a template template parameter, and OpenCV's `TypeVec<T, N>::vec_type`. Figures from a brute-force lane
// oracle of the bank model (scratch/oracle/unseen13c.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13c.cu';

test('`const dim3 block(BX, BY)` whose sizes an undecided `if` sets is one shape per way (was: 32 threads assumed, the 2-way store missed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 16x16: words 32 * ty + tx, two rows of 16 per warp: 2 words in each of 16 banks; 32x4: one row: conflict-free
  const s = accessAt(result, text, 'tile[threadIdx.y][threadIdx.x] = src[y * cols + x];', 'store', 'tile');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  assert.deepEqual((s.cases ?? []).map((c) => [c.context.block, c.degree, c.wavefronts]).sort(), [['16x16x1', 2, 2], ['32x4x1', 1, 1]]);
  assert.ok(s.assumptions.some((a) => /block 16x16x1 from the launch at line \d+ where `cc >= 20` \(line \d+\) holds/.test(a)), s.assumptions.join('\n'));
  // words 32 * tx + ty: 16x16 puts 16 words in each of banks ty, ty + 1; 32x4 puts 32 words in bank ty
  const l = accessAt(result, text, 'dst[y * cols + x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(l, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(l.block, [32, 4, 1]);
  assert.deepEqual((l.cases ?? []).map((c) => [c.context.block, c.degree, c.wavefronts]).sort(), [['16x16x1', 16, 16], ['32x4x1', 32, 32]]);
});

test('a block size passed to a header\'s `divUp` keeps its value: `k<<<util::divUp(n, threads), threads>>>` is 128 threads (was: 32 assumed, the 4-way store reported conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 128 threads, per = 16: words 16 * (t % 8) + t / 8: 8 banks per warp, 4 distinct words each
  const s = accessAt(result, text, 'phases[(t % 8) * per + t / 8] = in[blockIdx.x * blockDim.x + t];', 'store', 'phases');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.block, [128, 1, 1]);
  assert.ok(s.assumptions.some((a) => /block 128x1x1 from the launch at line \d+/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, 'out[blockIdx.x * blockDim.x + t] = phases[t];', 'load', 'phases'), 'conflict-free', 1, 1, 32, 32);
});

test('a tile size a host function returns under an `if` it cannot decide is one binding per way: 16 and 32 (was: the last `return`, 32, taken as the value, the 2-way 16x16 case missed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // tile 16: words tx + 17 ty, two rows per warp: word 17 + 15 = 32 lands in bank 0 with word 0: 2-way; tile 32: stride 33
  for (const [snippet, kind] of [['sums[threadIdx.x + threadIdx.y * (tile + 1)] = (a + b) * 0.70710678f;', 'store'], ['out[x * width + y] = sums[threadIdx.y + threadIdx.x * (tile + 1)];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'sums');
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.deepEqual(a.block, [16, 16, 1]);
    assert.deepEqual((a.cases ?? []).map((c) => [c.context.block, c.context.tile, c.degree]).sort(), [['16x16x1', 16, 2], ['32x32x1', 32, 1]]);
    assert.ok(a.assumptions.some((x) => /block 16x16x1 from the launch at line \d+ where `major <= 2 \|\| sms <= 2` \(line \d+\) holds/.test(x)), a.assumptions.join('\n'));
  }
});

test('a device function that returns one of two per-lane values under a guard on a parameter is unknown, said why (was: the last `return`, stride 3, taken: conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'out[t] = taps[tap_index(scale, t)];', 'load', 'taps');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.match(a.reason ?? '', /what `tap_index` returns depends on the guard `scale > 2` at line \d+, which could not be evaluated per lane/);
});

test('a launcher with a template template parameter (`template <typename> class B`, the border) binds the kernel it launches through a table of its instances (was: unknown, the size of `T` not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // float2 lanes at words 192 ty + 2 (tx + 32 i): 64 words, two half-warp phases of one wavefront each
  const s = accessAt(result, text, 'row[threadIdx.y][j] = src[y * cols + brd.at(x0 + j)];', 'store', 'row');
  figures(s, 'conflict-free', 1, 2, 64, 32);
  assert.equal(s.elementBytes, 8);
  assert.deepEqual(s.block, [32, 8, 1]);
  // words 192 ty + 4 tx + 2 k: each half-warp puts 2 words in 16 banks: 2 wavefronts per phase, 4 in all (ideal 2)
  const l = accessAt(result, text, 'const T v = row[threadIdx.y][2 * threadIdx.x + k];', 'load', 'row');
  figures(l, 'conflict', 2, 4, 64, 32);
  assert.ok(l.assumptions.some((a) => /in `decimate_caller<\d, T, Brd(Clamp|Wrap)>` \(the reference at line \d+\) in `decimate<float2>` \(the explicit instantiation at line \d+\)/.test(a)), l.assumptions.join('\n'));
});

test('OpenCV\'s `TypeVec<float, VecTraits<T>::cn>::vec_type`, where the file does not declare it, is float for a scalar T and float4 for uchar4 (was: unknown, its size not known)', () => {
  // a header's types (opencv2/core/cuda/vec_traits.hpp): written inline, as the file does not compile without them
  const src = `#include "opencv2/core/cuda/vec_traits.hpp"
template <typename T>
__global__ void row_sum(const T *src, float *dst)
{
    typedef typename TypeVec<float, VecTraits<T>::cn>::vec_type sum_t;
    __shared__ sum_t smem[8][32];
    smem[threadIdx.y][threadIdx.x] = sum_t();
}
void run_u8(const unsigned char *s, float *d) { row_sum<unsigned char><<<1, dim3(32, 8)>>>(s, d); }
void run_u8c4(const uchar4 *s, float *d) { row_sum<uchar4><<<1, dim3(32, 8)>>>(s, d); }
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  assert.equal(r.accesses.length, 1);
  const a = r.accesses[0];
  // float4: quarter-warp phases of 8 lanes, 32 consecutive words each: 4 wavefronts (ideal 4); float: 1
  assert.equal(a.status, 'conflict-free', a.message);
  assert.equal(a.elementBytes, 16);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.worst!.distinctWords, 128);
  // the scalar instance alone: float, one wavefront
  const u8 = analyzeText(src.replace(/void run_u8c4.*\n/, ''), { budgetMs: 60_000 }).accesses[0];
  figures(u8, 'conflict-free', 1, 1, 32, 32);
  assert.equal(u8.elementBytes, 4);
  // declared in the file, the file's own wins (here: a TypeVec that does not define vec_type)
  const own = analyzeText(`template <typename T, int N> struct TypeVec { };\n${src}`, { budgetMs: 60_000 });
  assert.equal(own.accesses[0].status, 'unknown');
});

test('OpenCV\'s `uchar` (a header\'s typedef, where the file does not declare it) is a byte: an instance `<float, uchar>` is no longer dropped for a type not known (was: unknown, `T` not known)', () => {
  const src = `#include "opencv2/core/cuda/common.hpp"
template <typename T, typename D>
__global__ void to_bytes(const T *src, D *dst)
{
    __shared__ D out[8][128];
    out[threadIdx.y][threadIdx.x] = (D)src[threadIdx.x];
    dst[threadIdx.x] = out[threadIdx.y][threadIdx.x * 4];
}
template <typename T, typename D>
void run(const T *s, D *d) { to_bytes<T, D><<<1, dim3(32, 8)>>>(s, d); }
template void run<float, uchar>(const float *, uchar *);
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  const [store, load] = r.accesses;
  // bytes t of a 128-byte row: 8 words, 4 lanes on each (rule 1); bytes 4t: 32 words, one per bank
  figures(store, 'conflict-free', 1, 1, 8, 32);
  assert.equal(store.elementBytes, 1);
  figures(load, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(load.block, [32, 8, 1]);
  // the file's own `uchar` wins
  const own = analyzeText(`typedef unsigned short uchar;\n${src}`, { budgetMs: 60_000 });
  assert.equal(own.accesses[0].elementBytes, 2);
});

test('more instances of a host template than are read (a table of 70 launcher instances) is said with each one read (was: the rest dropped silently)', () => {
  const entries = Array.from({ length: 70 }, (_, i) => `caller<${i + 1}>`).join(', ');
  const src = `template <int K>
__global__ void taps(float *o)
{
    __shared__ float s[32 * 72];
    s[threadIdx.x * 2 + K] = o[threadIdx.x];
}
template <int K>
void caller(float *o) { taps<K><<<1, 32>>>(o); }
template <typename T>
void pick(float *o, int k)
{
    typedef void (*caller_t)(float *);
    static const caller_t callers[71] = { 0, ${entries} };
    callers[k](o);
}
template void pick<float>(float *, int);
`;
  const a = analyzeText(src, { budgetMs: 60_000 }).accesses[0];
  // words 2t + K: two lanes on each of 16 banks, whatever K
  figures(a, 'conflict', 2, 2, 32, 32);
  assert.ok(a.assumptions.some((x) => /only 64 of the instances of `caller` this file names are read/.test(x)), a.assumptions.join('\n'));
});

test('a comment among a launch\'s template arguments (`rotate_tiles<uint2, /*WARPS=*/8>`) or its configuration is not an argument (was: unknown, "`comment` is not evaluated"; the block shape the comment)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // uint2 lanes at words 64 r + 2 ((tx + r) & 31): a rotation of one row, 64 words, 2 wavefronts (ideal 2)
  const s = accessAt(result, text, 'tile[r * 32 + ((threadIdx.x + r) & 31)] = data[base + r * width + threadIdx.x];', 'store', 'tile');
  figures(s, 'conflict-free', 1, 2, 64, 32);
  assert.equal(s.elementBytes, 8);
  // so is one among its launch configuration (`<<<grid, /* 8 warps */ threads>>>`) and among the arguments of
  // `const dim3 threads(32, /* warps */ 8)` (was: 32 threads assumed)
  assert.deepEqual(s.block, [32, 8, 1]);
  // words 2 ((r + tx) & 31) + 64 tx: banks 2 (r + tx) + 0..1 mod 32 in each half-warp: distinct
  const l = accessAt(result, text, 'data[base + r * width + threadIdx.x] = tile[((r + threadIdx.x) & 31) + threadIdx.x * 32];', 'load', 'tile');
  figures(l, 'conflict-free', 1, 2, 64, 32);
  assert.ok(!l.assumptions.some((a) => /comment/.test(a)), l.assumptions.join('\n'));
});
