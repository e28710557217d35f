// Regressions from the nineteenth sweep of unseen kernels, helper D: machine-generated CUDA C (TVM / Ansor / Relay
// `default_function_kernel` sources, Halide's casts of a `char` shared buffer, TensorRT plugin kernels), kernels
// whose only block shape is `__launch_bounds__(N)` or a `bank-lens: block` comment. Written from scratch in their
// style. Figures from a brute-force lane oracle of the bank model (scratch/oracle.py of the sweep, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen19d.cu';

test('TensorRT\'s `copy<Bytes>` reads its own `using T = typename BytesToType<Bytes>::type`, not the kernel\'s `T` (was: the store through `T* out` counted as a 2-byte half at 16-byte strides, a false 4-way conflict)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // stageKernel<half, 128, 8>: copy<16> stores one float4 per lane at 16 t: 4 quarter-warps of 32 distinct words
  const s = accessAt(result, text, '*out = *in;', 'store', '*out');
  figures(s, 'conflict-free', 1, 4, 128, 32);
  assert.equal(s.elementBytes, 16);
  assert.equal(s.idealWavefronts, 4);
  assert.deepEqual(s.block, [128, 1, 1]);
  // the transposed read back, smem[it * TPB + t]: halves, 16 words for 32 lanes
  figures(accessAt(result, text, 'out_local[it] = smem[it * TPB + threadIdx.x];', 'load', 'smem'), 'conflict-free', 1, 1, 16, 32);
});

test('a callee\'s local type alias hides the caller\'s template parameter, its own template parameter does not (was: the caller\'s `T` won over `typedef double T;` in the callee)', () => {
  const text = [
    '__device__ void wide(float *s) { typedef double T; T *d = (T *)s; d[threadIdx.x * 2] = 1.0; }',
    '__device__ void narrow(float *s) { using T = float; T *d = (T *)s; d[threadIdx.x * 2] = 1.f; }',
    'template <typename T> __device__ void own(float *s) { T *d = (T *)s; d[threadIdx.x] = 1; }',
    'template <typename T>',
    '__global__ void k(float *o)',
    '{',
    '    __shared__ float s[4096];',
    '    wide(s);',
    '    narrow(s);',
    '    own<double>(s);',
    '    o[0] = ((T *)s)[threadIdx.x];',
    '}',
    'int main() { k<short><<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  // doubles at 16-byte strides: two half-warps, each 16 lanes on 8 banks pairs: 2-way, 4 wavefronts
  const w = accessAt(r, text, 'typedef double T;', 'store', 'd');
  figures(w, 'conflict', 2, 4, 64, 32);
  assert.equal(w.elementBytes, 8);
  // floats at stride 2: 2-way (not the caller's 2-byte short: conflict-free at 4-byte strides)
  const n = accessAt(r, text, 'using T = float;', 'store', 'd');
  figures(n, 'conflict', 2, 2, 32, 32);
  assert.equal(n.elementBytes, 4);
  // own<double>: its own parameter, 8-byte lanes: 2 wavefronts, conflict-free
  const o = accessAt(r, text, 'template <typename T> __device__ void own', 'store', 'd');
  figures(o, 'conflict-free', 1, 2, 64, 32);
  // the kernel's own T (short): 2-byte lanes, 16 words
  figures(accessAt(r, text, 'o[0] = ((T *)s)[threadIdx.x];', 'load', '((T *)s)'), 'conflict-free', 1, 1, 16, 32);
});

test('a kernel over threadIdx.z/y/x whose only shape is `__launch_bounds__(256)` says that the assumed 256x1x1 block makes them 0 (was: a one-dimensional block assumed without a word that the kernel reads threadIdx.y and .z)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const l = accessAt(result, text, '= pad_temp_shared[(((((int)threadIdx.y) * 36) + (((int)threadIdx.x) * 2)))];', 'load', 'pad_temp_shared');
  // the figures of the assumed block (words 2 t: 2-way), and the note
  figures(l, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(l.block, [256, 1, 1]);
  assert.ok(l.assumptions.some((a) => a.includes('the kernel reads `threadIdx.y` and `threadIdx.z`, but the assumed block 256x1x1 has one thread along y and z') && a.includes('bank-lens: block=')), l.assumptions.join('\n'));
  // with the shape given by the comment (8x8x4) the same loads are exact, 4-way, and carry no such note
  const d = accessAt(result, text, 'conv2d_nchw_local[0] = (conv2d_nchw_local[0] + (pad_temp_shared[', 'load', 'pad_temp_shared');
  figures(d, 'conflict', 4, 4, 32, 32);
  assert.equal(d.worst!.banksUsed, 14);
  assert.deepEqual(d.block, [8, 8, 4]);
  assert.ok(!d.assumptions.some((a) => a.includes('the kernel reads')), d.assumptions.join('\n'));
  figures(accessAt(result, text, 'kernel_shared[((((((int)threadIdx.z) * 144)', 'load', 'kernel_shared'), 'broadcast', 1, 1, 1, 32);
  // a kernel that reads threadIdx.x only gets no note
  const dense = accessAt(result, text, 'T_dense_local[j_c] = (T_dense_local[j_c] + (A_shared[', 'load', 'A_shared');
  assert.ok(!dense.assumptions.some((a) => a.includes('the kernel reads')), dense.assumptions.join('\n'));
});

test('the one-warp default block names `blockDim.y` too, and a launch with rows gives no note (was: 16-way under an assumed 32x1x1 with no word that the kernel reads threadIdx.y)', () => {
  const text = [
    '__global__ void k(float *o)',
    '{',
    '    __shared__ float s[1024];',
    '    s[threadIdx.x * 16 + threadIdx.y] = 1.f;',
    '    o[0] = s[threadIdx.x * blockDim.y];',
    '}',
    '__global__ void g(float *o)',
    '{',
    '    __shared__ float s[1024];',
    '    s[threadIdx.x * 16 + threadIdx.y] = 1.f;',
    '}',
    'int main() { g<<<1, dim3(2, 16)>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  const a = r.accesses.find((x) => x.kernel === 'k' && x.kind === 'store')!;
  // the assumed 32x1x1: words 16 t, 16-way, as the assumption says
  figures(a, 'conflict', 16, 16, 32, 32);
  assert.ok(a.assumptions.some((x) => x.startsWith('the kernel reads `blockDim.y` and `threadIdx.y`, but the assumed block 32x1x1 has one thread along y;')), a.assumptions.join('\n'));
  // launched 2x16: lanes (x, y) at 16 x + y, words 0..31: conflict-free, no note
  const b = r.accesses.find((x) => x.kernel === 'g')!;
  figures(b, 'conflict-free', 1, 1, 32, 32);
  assert.ok(!b.assumptions.some((x) => x.includes('the kernel reads')), b.assumptions.join('\n'));
});

test('Ansor\'s dense kernel: float4 staging, an ax0_ax1 loop and the inner reads under `__launch_bounds__(256)` (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, '((float4*)(A_shared + (((int)threadIdx.x) * 4)))[0] = ((float4*)(A + ', 'store', '((float4*)(A_shared'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, 'B_shared[((ax0_ax1_fused_outer_outer * 256) + ((int)threadIdx.x))] = B[', 'store', 'B_shared'), 'conflict-free', 1, 1, 32, 32);
  // (t >> 3) * 32 + k: four rows of 32 words, one bank; (t & 7) * 256 + ...: eight words of one bank
  const a = accessAt(result, text, 'T_dense_local[j_c] = (T_dense_local[j_c] + (A_shared[', 'load', 'A_shared');
  figures(a, 'conflict', 4, 4, 4, 32);
  assert.equal(a.worst!.banksUsed, 1);
  assert.deepEqual(a.block, [256, 1, 1]);
  figures(accessAt(result, text, 'T_dense_local[j_c] = (T_dense_local[j_c] + (A_shared[', 'load', 'B_shared'), 'conflict', 8, 8, 8, 32);
});

test('half2 and uint4 copies of half arrays, TVM\'s red_buf0 reduction and its transposes (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, '((uint4*)(A_shared + (((int)threadIdx.x) * 8)))[0] =', 'store', '((uint4*)(A_shared'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, '((half2*)(B_shared + (((int)threadIdx.x) * 2)))[0] =', 'store', '((half2*)(B_shared'), 'conflict-free', 1, 1, 32, 32);
  // half2 at 128 (t >> 2) + 8 k bytes: 8 rows of one bank; at 64 k + 4 (t & 3): 4 words, multicast
  figures(accessAt(result, text, 'acc = __hadd2(acc, __hmul2(', 'load', '((half2*)(A_shared'), 'conflict', 8, 8, 8, 32);
  figures(accessAt(result, text, 'acc = __hadd2(acc, __hmul2(', 'load', '((half2*)(B_shared'), 'conflict-free', 1, 1, 4, 32);
  // ((volatile float*)red_buf0)[t + 16] by the 32 lanes of warp 0
  const line = '((volatile float*)red_buf0)[((int)threadIdx.x)] = (((volatile float*)red_buf0)[((int)threadIdx.x)] + ((volatile float*)red_buf0)[(((int)threadIdx.x) + 16)]);';
  const red = result.accesses.filter((a) => a.kernel === 'tvm_reduce_kernel' && text.split('\n')[a.range.start.line].includes(line));
  assert.equal(red.length, 3);
  for (const a of red) figures(a, 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, '= A_shared[(((((int)threadIdx.x) & 31) * 33) + (((int)threadIdx.x) >> 5))];', 'load', 'A_shared'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, '= A_shared[((((((int)threadIdx.x) & 31) * 32) + (((int)threadIdx.x) >> 5)))];', 'load', 'A_shared'), 'conflict', 32, 32, 32, 32);
});

test('TVM\'s cp.async and ldmatrix through `cvta.to.shared` in inline asm, its buf_dyn_shmem, Halide\'s char buffer (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const lines = text.split('\n');
  const inKernel = (k: string) => result.accesses.filter((a) => a.kernel === k).sort((a, b) => a.range.start.line - b.range.start.line);
  const [cp, ldPadded, ldFlat] = inKernel('tvm_cp_async_ldmatrix_kernel');
  // 16-byte cp.async rows of 40 halves: rows 2 r, 2 r + 1 of a quarter-warp overlap in 4 banks
  figures(cp, 'conflict', 2, 8, 128, 32);
  assert.equal(cp.kind, 'store');
  assert.ok(lines[cp.range.start.line].includes('"r"(addr)'));
  // ldmatrix .x4: rows of 80 bytes are in distinct 16-byte groups; rows of 64 bytes, 4 per group
  figures(ldPadded, 'conflict-free', 1, 4, 128, 32);
  figures(ldFlat, 'conflict', 4, 16, 64, 32);
  figures(accessAt(result, text, '*(uint4*)(((half*)buf_dyn_shmem) + (((int)threadIdx.x) * 8)) =', 'store', '*(uint4*)'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, 'C[((((int)blockIdx.x) * 256) + ((int)threadIdx.x))] = ((float*)buf_dyn_shmem)', 'load', '((float*)buf_dyn_shmem)'), 'conflict', 8, 8, 32, 32);
  // Halide: rows of 34 floats over a char buffer, read transposed in a 32x8 block: 2-way
  figures(accessAt(result, text, '((float *)_shared)[_1] = _3;', 'store', '((float *)_shared)'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'float _6 = ((float *)_shared)[_5];', 'load', '((float *)_shared)'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'uint16_t _8 = ((uint16_t *)(_shared + 512))[_g_s0_x_x___thread_id_x];', 'load', '((uint16_t *)(_shared'), 'conflict-free', 1, 1, 16, 32);
});
