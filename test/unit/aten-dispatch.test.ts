// PyTorch extension code: kernels launched inside ATen's dispatch macros (`AT_DISPATCH_FLOATING_TYPES(t, "n", [&] {
// k<scalar_t><<<...>>>(...); })`), which no file of a project defines, and ATen's accumulate types. Figures from the
// bank model: a warp's wavefronts are the most distinct words any one bank holds (per phase of 16 lanes for 8 bytes).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const cases = (a: { cases: { context: Record<string, unknown>; degree: number | null }[] }) => a.cases.map((c) => [c.context, c.degree]);

test('a launch in AT_DISPATCH_FLOATING_TYPES_AND_HALF is one instance per type; at::acc_type<T, true> is float or double', () => {
  const src = `#include <torch/extension.h>
template <typename scalar_t, typename acc_t>
__global__ void cols(const scalar_t *x, scalar_t *y) {
  __shared__ acc_t buf[32 * 32];
  buf[threadIdx.x * 32] = static_cast<acc_t>(x[threadIdx.x]);
  __syncthreads();
  y[threadIdx.x] = static_cast<scalar_t>(buf[threadIdx.x]);
}
void run(torch::Tensor x, torch::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "cols", [&] {
    using acc_t = at::acc_type<scalar_t, true>;
    cols<scalar_t, acc_t><<<1, 32>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
  });
}
`;
  const [store, load] = analyzeText(src).accesses;
  // 32 float words 128 bytes apart: one bank, 32-way; doubles 256 bytes apart: 16 lanes a phase on banks 0-1, 16-way
  assert.deepEqual([store.status, store.degree, store.block], ['conflict', 32, [32, 1, 1]]);
  assert.deepEqual(cases(store), [
    [{ scalar_t: 'double', acc_t: 'double' }, 16],
    [{ scalar_t: 'float', acc_t: 'float' }, 32],
    [{ scalar_t: 'at::Half', acc_t: 'float' }, 32],
  ]);
  assert.ok(store.assumptions.includes('block 32x1x1 from the launch at line 12 with `scalar_t` = float (`AT_DISPATCH_FLOATING_TYPES_AND_HALF` at line 10)'), store.assumptions.join('\n'));
  assert.deepEqual([load.status, load.degree], ['conflict-free', 1]);
  // a file that defines the macro itself is read as written: nothing is dispatched
  const own = analyzeText(src.replace('#include <torch/extension.h>', '#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(t, n, f) f()'));
  assert.ok(!own.accesses[0].assumptions.some((a) => a.includes('AT_DISPATCH')), own.accesses[0].assumptions.join('\n'));
});

test('the extra types of AT_DISPATCH_..._AND2 and a nested AT_DISPATCH_INDEX_TYPES each give instances', () => {
  const src = `template <typename scalar_t, typename index_t>
__global__ void gather(const scalar_t *x, const index_t *ix, scalar_t *y) {
  __shared__ scalar_t vals[64];
  __shared__ index_t ids[32 * 32];
  vals[threadIdx.x * 2] = x[threadIdx.x];
  ids[threadIdx.x * 32] = ix[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = vals[threadIdx.x] + (scalar_t)ids[threadIdx.x];
}
void run(const at::Tensor &x, const at::Tensor &ix, at::Tensor &y) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::kBFloat16, x.scalar_type(), "gather", [&] {
    AT_DISPATCH_INDEX_TYPES(ix.scalar_type(), "gather_idx", [&] {
      gather<scalar_t, index_t><<<1, 32>>>(x.data_ptr<scalar_t>(), ix.data_ptr<index_t>(), y.data_ptr<scalar_t>());
    });
  });
}
`;
  const r = analyzeText(src);
  const vals = r.accesses.find((a) => a.kind === 'store' && a.range.start.line === 4)!;
  const ids = r.accesses.find((a) => a.kind === 'store' && a.range.start.line === 5)!;
  // stride 2 elements: 2-way for 4 and 8 bytes, conflict-free for 2 (each lane its own word), with either index type
  assert.deepEqual(vals.cases.map((c) => `${c.context.scalar_t} ${c.context.index_t}: ${c.degree}`).sort(), [
    'at::BFloat16 int: 1', 'at::BFloat16 long long: 1', 'at::Half int: 1', 'at::Half long long: 1',
    'double int: 2', 'double long long: 2', 'float int: 2', 'float long long: 2',
  ]);
  // int 32-way, 8-byte int64_t 16-way, whatever scalar_t is
  assert.deepEqual([...new Set(ids.cases.map((c) => `${c.context.index_t}: ${c.degree}`))].sort(), ['int: 32', 'long long: 16']);
  assert.equal(ids.cases.length, 8);
});

test('an extra type the dispatch names that is not laid out here (a complex type) dispatches nothing', () => {
  const src = `template <typename scalar_t>
__global__ void k(scalar_t *y) {
  __shared__ scalar_t s[64];
  s[threadIdx.x * 2] = y[threadIdx.x];
}
void run(at::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES_AND(at::kComplexFloat, y.scalar_type(), "k", [&] { k<scalar_t><<<1, 32>>>(y.data_ptr<scalar_t>()); });
}
`;
  const [a] = analyzeText(src).accesses;
  assert.equal(a.status, 'unknown');
  assert.match(a.reason!, /scalar_t/);
});

test('a host function template called in a dispatch, with `<scalar_t>` or deducing it from `x.data_ptr<scalar_t>()`, is one instance per type', () => {
  const src = `template <typename scalar_t>
__global__ void cols(const scalar_t *x, scalar_t *y) {
  __shared__ scalar_t buf[32 * 32];
  buf[threadIdx.x * 32] = x[threadIdx.x];
}
template <typename T>
void launch_cols(const T *x, T *y) {
  cols<T><<<1, 32>>>(x, y);
}
void run(at::Tensor x, at::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "cols", [&] {
    launch_cols<scalar_t>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
  });
}
`;
  const expected = [[{ scalar_t: 'double' }, 16], [{ scalar_t: 'float' }, 32]];
  const [explicit] = analyzeText(src).accesses;
  assert.deepEqual([explicit.degree, cases(explicit)], [32, expected]);
  assert.ok(explicit.assumptions.includes('block 32x1x1 from the launch at line 8 in `launch_cols<scalar_t>` (the call at line 12) with `scalar_t` = float (`AT_DISPATCH_FLOATING_TYPES` at line 11)'), explicit.assumptions.join('\n'));
  // T deduced from the tensors' data pointers
  const [deduced] = analyzeText(src.replace('launch_cols<scalar_t>(', 'launch_cols(')).accesses;
  assert.deepEqual([deduced.degree, cases(deduced)], [32, expected]);
  // and a kernel launched directly, its template argument deduced the same way
  const [direct] = analyzeText(src.replace('launch_cols<scalar_t>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());', 'cols<<<1, 32>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());')).accesses;
  assert.deepEqual([direct.degree, cases(direct)], [32, expected]);
});
