// Regressions from the nineteenth sweep of unseen kernels, helper A: research code around deep-learning frameworks
// (PyTorch C++/CUDA extensions with ATen's dispatch macros, CuPy RawKernel sources), written from scratch in their
// style. Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped): per warp, each
// lane's byte address to words and banks, wavefronts per phase (32 lanes for 4 bytes, 16 for 8).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen19a.cu';
const degrees = (a: { cases: { context: Record<string, unknown>; degree: number | null }[] }) => a.cases.map((c) => [c.context, c.degree]);

test('`tid < s && best[tid + s].v > best[tid].v` reads the partner only on the lanes where `tid < s` (was: every lane read it, a false out-of-bounds at index 256 of `best[256]`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const snippet = 'if (tid < s && best[tid + s].v > best[tid].v) best[tid] = best[tid + s];';
  const partner = accessAt(result, text, snippet, 'load', 'best[tid + s].v');
  assert.equal(partner.outOfBounds, undefined, partner.outOfBounds?.message);
  // 4-byte `.v` of 8-byte structs: 32 words on the 16 even banks, 2-way while a warp is full (s = 128, 64, 32), then
  // s = 16 .. 1: at most 16 lanes on distinct even banks
  figures(partner, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(partner.cases.map((c) => [c.context.s, c.degree]), [[128, 2], [64, 2], [32, 2], [16, 1], [8, 1], [4, 1], [2, 1], [1, 1]]);
  figures(accessAt(result, text, snippet, 'load', 'best[tid].v'), 'conflict', 2, 2, 32, 32);
  // the struct copied whole: 8 bytes a lane, 64 words in 2 phases of 16 lanes, conflict-free
  const line = partner.range.start.line;
  const copies = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load' && a.elementBytes === 8);
  assert.equal(copies.length, 1);
  const copy = copies[0];
  figures(copy, 'conflict-free', 1, 2, 64, 32);
  assert.equal(copy.outOfBounds, undefined);
  // and no error anywhere in the kernel
  assert.ok(result.accesses.filter((a) => a.kernel === 'argmax_kernel').every((a) => !a.outOfBounds));
});

test('`t >= 200 || s[t + 56] == 0.f` reads `s` only on the lanes below 200 (was: lanes 200..255 read past the end of `s[256]`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const guard = accessAt(result, text, 'if (t >= 200 || s[t + 56] == 0.f) return;', 'load', 's');
  assert.equal(guard.outOfBounds, undefined, guard.outOfBounds?.message);
  figures(guard, 'conflict-free', 1, 1, 32, 32);
  // what the right side alone reads, and `&&` / `||` whose left side is false (true) on every lane reads nothing
  const src = [
    '__global__ void k(float *o, int n)',
    '{',
    '    __shared__ float s[64];',
    '    int t = threadIdx.x;',
    '    o[0] = (t < 8 && s[t * 2] > 0.f) ? 1.f : 0.f;',
    '    o[1] = (t >= 0 || s[t + 100] > 0.f) ? 1.f : 0.f;',
    '    o[2] = (n > 0 && s[t + 1] > 0.f) ? 1.f : 0.f;',
    '}',
    'int main() { k<<<1, 32>>>(0, 4); }',
  ].join('\n');
  const r = analyzeText(src, { budgetMs: 60_000 });
  // 8 lanes at stride 2: 8 words on 8 banks
  figures(accessAt(r, src, 'o[0] =', 'load', 's'), 'conflict-free', 1, 1, 8, 8);
  // `t >= 0` holds on every lane: s[t + 100] is never read, so nothing is past the end of `s[64]`
  const never = accessAt(r, src, 'o[1] =', 'load', 's');
  assert.equal(never.outOfBounds, undefined, never.outOfBounds?.message);
  assert.notEqual(never.status, 'conflict');
  // `n > 0` with the n = 4 the launch passes: every lane reads s[t + 1]
  figures(accessAt(r, src, 'o[2] =', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
});

test('a kernel variant picked by `n >= (1 << 20) ? block_sum<1024> : block_sum<32>` runs with the block the same condition picks (was: BLOCK = 32 with 1024 threads, a false out-of-bounds; the condition said as `n >= (1 << 20`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const store = accessAt(result, text, 's[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];', 'store', 's');
  assert.equal(store.outOfBounds, undefined, store.outOfBounds?.message);
  figures(store, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(store.block, [1024, 1, 1]);
  assert.ok(store.assumptions.includes('block 1024x1x1 from the launch at line 63 where `n >= (1 << 20)` (line 62) holds, as where the kernel is picked (line 61)'), store.assumptions.join('\n'));
  assert.ok(!result.accesses.some((a) => a.kernel === 'block_sum' && a.outOfBounds));
});

test('a `?:` on a size not known inside an AT_DISPATCH lambda gives one launch per way (was: the block `threads` not evaluated, 32 threads assumed)', () => {
  const src = `#include <torch/extension.h>
template <typename scalar_t, int BLOCK>
__global__ void block_sum(const scalar_t* x, float* out) {
  __shared__ float s[BLOCK];
  s[(threadIdx.x * 2) % BLOCK] = (float)x[threadIdx.x];
  out[0] = s[threadIdx.x];
}
void launch_sum(torch::Tensor x, torch::Tensor out) {
  const int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "block_sum", [&] {
    auto kernel = n >= (1 << 20) ? block_sum<scalar_t, 512> : block_sum<scalar_t, 64>;
    const int threads = n >= (1 << 20) ? 512 : 64;
    kernel<<<(n + threads - 1) / threads, threads>>>(x.data_ptr<scalar_t>(), out.data_ptr<float>());
  });
}
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  const store = accessAt(r, src, 's[(threadIdx.x * 2) % BLOCK]', 'store', 's');
  // (2 t) % BLOCK: 32 words at stride 2 in every warp, 2-way; both instances with their own block, nothing past the end
  figures(store, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(store.block, [512, 1, 1]);
  assert.ok(store.assumptions.some((a) => a.startsWith('block 512x1x1 from the launch at line 13 with `scalar_t` = double (`AT_DISPATCH_FLOATING_TYPES` at line 10) where `n >= (1 << 20)` (line 12) holds')), store.assumptions.join('\n'));
  const load = accessAt(r, src, 'out[0] = s[threadIdx.x];', 'load', 's');
  figures(load, 'conflict-free', 1, 1, 32, 32);
  assert.equal(load.outOfBounds, undefined, load.outOfBounds?.message);
});

test('ATen\'s AT_DISPATCH_SWITCH of AT_DISPATCH_CASEs binds each case\'s type (was: `scalar_t` unknown, both accesses unknown)', () => {
  const src = `#include <torch/extension.h>
template <typename scalar_t>
__global__ void col_sum_kernel(const scalar_t* x, scalar_t* out, int R, int C) {
  __shared__ scalar_t part[8][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  scalar_t acc = 0;
  for (int r = ty; r < R; r += 8) acc += x[r * C + blockIdx.x * 32 + tx];
  part[ty][tx] = acc;
  __syncthreads();
  if (ty == 0) {
    for (int k = 1; k < 8; ++k) acc += part[k][tx];
    out[blockIdx.x * 32 + tx] = part[tx % 8][0] + acc;
  }
}
void col_sum(torch::Tensor x, torch::Tensor out) {
  dim3 block(32, 8);
  AT_DISPATCH_SWITCH(x.scalar_type(), "col_sum",
    AT_DISPATCH_CASE(at::ScalarType::Float, [&] {
      col_sum_kernel<scalar_t><<<x.size(1) / 32, block>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), x.size(0), x.size(1));
    })
    AT_DISPATCH_CASE(at::kHalf, [&] {
      col_sum_kernel<scalar_t><<<x.size(1) / 32, block>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), x.size(0), x.size(1));
    }));
}
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  const store = accessAt(r, src, 'part[ty][tx] = acc;', 'store', 'part');
  // float: 32 words on 32 banks; at::Half: 16 words
  figures(store, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(store.block, [32, 8, 1]);
  assert.deepEqual(degrees(store), []);
  // part[tx % 8][0]: 8 rows of 32 elements, one word each: float 8-way (rows 128 bytes apart); half rows 64 bytes
  // apart, banks 0 and 16, 4 words each: 4-way
  const col = accessAt(r, src, 'part[tx % 8][0] + acc', 'load', 'part');
  figures(col, 'conflict', 8, 8, 8, 32);
  assert.deepEqual(degrees(col), [[{ scalar_t: 'float' }, 8], [{ scalar_t: 'at::Half' }, 4]]);
  assert.ok(col.assumptions.some((a) => a.includes('with `scalar_t` = float (`AT_DISPATCH_CASE` at line 18)')), col.assumptions.join('\n'));
  // ATen's case-list macro, AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF, inside the switch: double, float, half
  const list = src.replace(/AT_DISPATCH_CASE\(at::ScalarType::Float, \[&\] \{[^]*?\}\)\n {4}AT_DISPATCH_CASE\(at::kHalf, /, 'AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(');
  const rl = analyzeText(list, { budgetMs: 60_000 });
  assert.deepEqual(degrees(accessAt(rl, list, 'part[tx % 8][0] + acc', 'load', 'part')), [[{ scalar_t: 'double' }, 8], [{ scalar_t: 'float' }, 8], [{ scalar_t: 'at::Half' }, 4]]);
});

test('a file\'s dispatch macro made of AT_DISPATCH_SWITCH and AT_DISPATCH_CASEs (vLLM\'s style) runs its lambda once per case type (was: `scalar_t` unknown)', () => {
  const src = `#include <torch/extension.h>
#define MY_DISPATCH_CASE_FLOATING_TYPES(...)              \\
  AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)   \\
  AT_DISPATCH_CASE(at::ScalarType::Half, __VA_ARGS__)    \\
  AT_DISPATCH_CASE(at::ScalarType::BFloat16, __VA_ARGS__)
#define MY_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \\
  AT_DISPATCH_SWITCH(TYPE, NAME, MY_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))

template <typename scalar_t>
__global__ void cols(const scalar_t* x, scalar_t* out) {
  __shared__ scalar_t part[32 * 32];
  part[threadIdx.x * 32] = x[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = part[threadIdx.x];
}
void run(torch::Tensor x, torch::Tensor out) {
  MY_DISPATCH_FLOATING_TYPES(x.scalar_type(), "cols", [&] {
    cols<scalar_t><<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>());
  });
}
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  // t * 32 elements: float 32 words in bank 0, 32-way; 2-byte types 64 bytes apart, banks 0 and 16: 16-way
  const store = accessAt(r, src, 'part[threadIdx.x * 32] = x[threadIdx.x];', 'store', 'part');
  figures(store, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(degrees(store), [[{ scalar_t: 'float' }, 32], [{ scalar_t: 'at::Half' }, 16], [{ scalar_t: 'at::BFloat16' }, 16]]);
  assert.ok(store.assumptions.includes('block 32x1x1 from the launch at line 18 with `scalar_t` = float (`MY_DISPATCH_FLOATING_TYPES` at line 17)'), store.assumptions.join('\n'));
  figures(accessAt(r, src, 'out[threadIdx.x] = part[threadIdx.x];', 'load', 'part'), 'conflict-free', 1, 1, 32, 32);
  // a case of a type not laid out here (a complex type): nothing is dispatched, the type stays unknown
  const complex = src.replace('AT_DISPATCH_CASE(at::ScalarType::BFloat16, __VA_ARGS__)', 'AT_DISPATCH_CASE(at::ScalarType::ComplexFloat, __VA_ARGS__)');
  const rc = analyzeText(complex, { budgetMs: 60_000 });
  assert.equal(accessAt(rc, complex, 'part[threadIdx.x * 32] = x[threadIdx.x];', 'store', 'part').status, 'unknown');
});

test('the family\'s main patterns keep their figures (unchanged: checked against the oracle)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // softmax: warp partials `red[wid]` one lane a warp, read back by 8 lanes (`tid < BLOCK / 32`), red[0] broadcast
  figures(accessAt(result, text, 'm = (tid < BLOCK / 32) ? red[tid] : -INFINITY;', 'load', 'red'), 'conflict-free', 1, 1, 8, 8);
  figures(accessAt(result, text, 'const float rowmax = red[0];', 'load', 'red'), 'broadcast', 1, 1, 1, 32);
  // __half2 reads of __half rows of 72: Ks[n][d], n = tid % 32, rows 36 words apart, 8 banks: 4-way; Qs[m][d] broadcast
  figures(accessAt(result, text, '__half2 k = *reinterpret_cast<const __half2 *>(&Ks[n][d]);', 'load'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, '__half2 q = *reinterpret_cast<const __half2 *>(&Qs[m][d]);', 'load'), 'broadcast', 1, 1, 1, 32);
  // rotary pairs buf[2 t]: float 2-way, double 2-way in each half-warp (4 wavefronts), __half one word a lane
  const rope = accessAt(result, text, 'buf[2 * t] = row[2 * t];', 'store', 'buf');
  figures(rope, 'conflict', 2, 4, 64, 32);
  assert.deepEqual(degrees(rope), [[{ scalar_t: 'float', kBlock: 128 }, 2], [{ scalar_t: 'double', kBlock: 128 }, 2], [{ scalar_t: '__half', kBlock: 128 }, 1]]);
  // CuPy raw kernels: the interleaved reduction, block 128 from the comment: 2, 4, 4, 4, 4, 2, 1 for s = 1 .. 64
  const inter = accessAt(result, text, 'if (index < blockDim.x) sdata[index] += sdata[index + s];', 'store', 'sdata');
  figures(inter, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(inter.cases.map((c) => [c.context.s, c.degree]), [[1, 2], [2, 4], [4, 4], [8, 4], [16, 4], [32, 2], [64, 1]]);
  assert.deepEqual(inter.block, [128, 1, 1]);
  // 16x16 doubles: tile[tx][ty] 16-way in each half-warp (32 wavefronts); tile[k][tx] two rows of 16, conflict-free
  const cov = accessAt(result, text, 'out[(blockIdx.x * 16 + ty) * 16 + tx] = tile[tx][ty] + acc;', 'load', 'tile');
  figures(cov, 'conflict', 16, 32, 64, 32);
  assert.deepEqual(cov.block, [16, 16, 1]);
  figures(accessAt(result, text, 'acc += tile[k][tx] * tile[k][ty];', 'load', 'tile[k][tx]'), 'conflict-free', 1, 2, 32, 32);
});
