// Regressions from the sixteenth sweep of unseen kernels, helper D (launch styles and portability layers): HIP's
// `hipLaunchKernelGGL` (and `HIP_KERNEL_NAME`) in CUDA files, the driver API's `cuLaunchKernel` with a handle looked up
// by `cuModuleGetFunction`, a launch-configuration macro for editors (`k KERNEL_ARGS2(grid, block)(args)`), and
// branches on HIP's AMD platform macros, which nvcc never defines. Figures from a brute-force lane oracle of the bank
// model (scratch/unseen16d/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen16d.cu';

test('hipLaunchKernelGGL gives the kernel its block (was: no launch, 32 threads assumed, 16-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 16x16: a warp holds tx 0..15 of two rows; words 16 * tx + ty, eight per bank
  const s = accessAt(result, text, 'tile[threadIdx.x][threadIdx.y] = in[y * width + x];', 'store', 'tile');
  figures(s, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  assert.ok(s.assumptions.some((a) => /block 16x16x1 from the launch at line/.test(a)), s.assumptions.join('\n'));
  // words 16 * ty + tx: 32 banks
  figures(accessAt(result, text, 'out[y * width + x] = tile[threadIdx.y][threadIdx.x];', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
});

test('HIP_KERNEL_NAME(k<T>) is the instance launched, and the arguments after the stream are the kernel\'s (was: unknown, `stride` not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // TILE 32, stride 4, block 32x4: words 32 * ty + 4 * tx, four per bank
  const s = accessAt(result, text, 'buf[threadIdx.y * TILE + threadIdx.x * stride] = out[threadIdx.x];', 'store', 'buf');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.block, [32, 4, 1]);
  assert.ok(s.assumptions.some((a) => /`stride` = 4 from the launch/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, '= buf[threadIdx.x * stride + 1];', 'load', 'buf'), 'conflict', 4, 4, 32, 32);
});

test('cuLaunchKernel of a handle cuModuleGetFunction looked up by name gives that kernel its block and grid (was: 32 threads assumed, 32-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 16x4 from `bx, by, 1`: words 32 * ty + 2 * tx, two rows per warp on the same 16 banks
  const s = accessAt(result, text, 'plane[threadIdx.y][threadIdx.x * 2] = out[threadIdx.x];', 'store', 'plane');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [16, 4, 1]);
  // gridDim.x = 2: words 32 * tx + 2 for tx 0..15, both rows on the same words: 16 words in bank 2
  const l = accessAt(result, text, '= plane[threadIdx.x][gridDim.x];', 'load', 'plane');
  figures(l, 'conflict', 16, 16, 16, 32);
  assert.ok(l.assumptions.some((a) => /grid 2x1x1 from the launch at line/.test(a)), l.assumptions.join('\n'));
});

test('a launch-configuration macro after the kernel name (`k KERNEL_ARGS2(g, b)(args)`) launches it (was: 32 threads assumed, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // float cols[16][17], block 16x16: words 17 * ty + tx run 0..15 and 17..32, word 32 shares bank 0 with word 0
  const s = accessAt(result, text, 'cols[threadIdx.y][threadIdx.x] = out[threadIdx.x];', 'store', 'cols');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  assert.ok(s.assumptions.some((a) => /KERNEL_ARGS2/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, '= cols[threadIdx.x][threadIdx.y];', 'load', 'cols'), 'conflict', 2, 2, 32, 32);
});

test('a branch on __HIP_PLATFORM_AMD__ is decided as nvcc decides it (was: the last definition, WAVE 64, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // WAVE 32: lds[2 * tx], two words per bank in 16 banks
  figures(accessAt(result, text, 'lds[threadIdx.x * (64 / WAVE)] = out[threadIdx.x];', 'store', 'lds'), 'conflict', 2, 2, 32, 32);
  // and a -D that defines it is believed
  const amd = analyzeFile(FIXTURE, { defines: { __HIP_PLATFORM_AMD__: '1' } });
  figures(accessAt(amd.result, amd.text, 'lds[threadIdx.x * (64 / WAVE)] = out[threadIdx.x];', 'store', 'lds'), 'conflict-free', 1, 1, 32, 32);
});

test('a branch on __DEVICE_EMULATION__ is decided as nvcc decides it since CUDA 3.0 (was: the cutil bank checker read, every access dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const reduce = result.accesses.filter((a) => a.kernel === 'emu_reduce');
  assert.equal(reduce.length, 5, reduce.map((a) => `${a.kind} ${a.range.start.line + 1}`).join(', '));
  figures(accessAt(result, text, 'SDATA(tid) = g_idata[', 'store', 'SDATA'), 'conflict-free', 1, 1, 32, 32);
  // block 128: index = 2 * s * tid; per s 2, 4, 4, 4, 4, 2, 1; the worst with the most lanes is s = 2 (32 words, 32 lanes)
  const l = accessAt(result, text, 'if (index < blockDim.x) SDATA(index) += SDATA(index + s);', 'store');
  figures(l, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(l.cases?.map((c) => c.degree), [2, 4, 4, 4, 4, 2, 1]);
});

test('HIP\'s first spelling of the built-ins (`hipThreadIdx_x`, `hipGridDim_x`), from a header the file includes, is threadIdx.x, gridDim.x (was: unknown, `hipThreadIdx_x` is not known here)', () => {
  const text = [
    '#include <hip/hip_runtime.h>',
    '__global__ void hipified(float *o) {',
    '  __shared__ float s[64][33];',
    '  __shared__ float t[64][32];',
    '  s[hipThreadIdx_y][hipThreadIdx_x] = o[hipBlockIdx_x * hipBlockDim_x];',
    '  o[1] = s[hipThreadIdx_x][hipThreadIdx_y + hipGridDim_x];',
    '  o[2] = t[hipThreadIdx_x][hipGridDim_x];',
    '}',
    'void run(float *d) { hipLaunchKernelGGL(hipified, dim3(3), dim3(32, 4), 0, 0, d); }',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000 });
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.map((a) => a.reason ?? '').join('\n'));
  const s = accessAt(result, text, 's[hipThreadIdx_y][hipThreadIdx_x] =', 'store', 's');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [32, 4, 1]);
  figures(accessAt(result, text, 'o[1] = s[hipThreadIdx_x]', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
  // gridDim.x = 3 from the launch: words 32 * tx + 3, all in bank 3
  const t = accessAt(result, text, 'o[2] = t[hipThreadIdx_x][hipGridDim_x];', 'load', 't');
  figures(t, 'conflict', 32, 32, 32, 32);
  assert.ok(t.assumptions.some((a) => /grid 3x1x1 from the launch/.test(a)), t.assumptions.join('\n'));
});

test('HIP\'s `HIP_DYNAMIC_SHARED(float, sdata)`, with or without its `;`, declares the dynamic shared array (was: every access of the kernel lost, nothing said)', () => {
  const text = [
    '#include <hip/hip_runtime.h>',
    '__global__ void reduce(const float *in, float *out)',
    '{',
    '    HIP_DYNAMIC_SHARED(float, sdata)',
    '    unsigned int tid = hipThreadIdx_x;',
    '    sdata[tid] = in[tid];',
    '    __syncthreads();',
    '    for (unsigned int s = hipBlockDim_x / 2; s > 0; s >>= 1) {',
    '        if (tid < s) sdata[tid] += sdata[tid + s];',
    '        __syncthreads();',
    '    }',
    '    if (tid == 0) out[hipBlockIdx_x] = sdata[0];',
    '}',
    '__global__ void copy2(float *out)',
    '{',
    '    HIP_DYNAMIC_SHARED(float, buf);',
    '    buf[2 * threadIdx.x] = out[threadIdx.x];',
    '    out[threadIdx.x] = buf[threadIdx.x];',
    '}',
    'int main()',
    '{',
    '    hipLaunchKernelGGL(reduce, dim3(4), dim3(256), 256 * sizeof(float), 0, (const float *)0, (float *)0);',
    '    hipLaunchKernelGGL(copy2, dim3(1), dim3(32), 64 * sizeof(float), 0, (float *)0);',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  assert.deepEqual(r.arrays.map((a) => [a.name, a.typeText, a.declRange.start.line]), [['sdata', 'float[]', 3], ['buf', 'float[]', 15]]);
  assert.equal(r.accesses.filter((a) => a.kernel === 'reduce').length, 5);
  // sequential addressing over 256 threads: conflict-free at every step; the final read a broadcast of one lane
  const step = accessAt(r, text, 'if (tid < s) sdata[tid] += sdata[tid + s];', 'load', 'sdata[tid + s]');
  figures(step, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(step.block, [256, 1, 1]);
  // buf[2t] of 32 lanes: 2-way; buf[t]: conflict-free (64 floats given by the launch)
  figures(accessAt(r, text, 'buf[2 * threadIdx.x] = out[threadIdx.x];', 'store', 'buf'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(r, text, 'out[threadIdx.x] = buf[threadIdx.x];', 'load', 'buf'), 'conflict-free', 1, 1, 32, 32);
  // a file that defines the name itself keeps its own definition
  const own = analyzeText(`#define HIP_DYNAMIC_SHARED(t, v) extern __shared__ t v[];\n${text.split('\n').slice(1).join('\n')}`);
  assert.equal(own.accesses.filter((a) => a.kernel === 'copy2').length, 2);
});
