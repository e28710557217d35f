// Regressions from the twenty-first sweep of unseen kernels, helper A: modern C++ inside kernels (lambdas with init
// captures, traits structs, `if constexpr`, constexpr helpers, `std::integral_constant` tags and tag dispatch, folds
// over parameter packs, structured bindings, range-for, functors passed as braced temporaries, alias templates).
// Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped): per lane byte address ->
// words -> phases of 32, 16 or 8 lanes -> wavefronts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen21a.cu';

test('a lambda with an init capture (`[ld = TILE_DIM]`) computes the index with the captured value: the transposed read 32-way (was: unknown, "`ld` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'buf[idx(ty + j, tx)] = in[', 'store', 'buf');
  figures(st, 'conflict-free', 1, 1, 32, 32);
  assert.equal(st.reason, undefined);
  assert.deepEqual(st.block, [32, 8, 1]);
  // word 32 tx + ty + j: every lane in bank ty + j
  const ld = accessAt(result, text, '= buf[idx(tx, ty + j)];', 'load', 'buf');
  figures(ld, 'conflict', 32, 32, 32, 32);
  assert.equal(ld.worst!.banksUsed, 1);
  assert.equal(ld.message, 'buf: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)');
});

test('a lambda\'s init captures by copy and by reference (`[s = stride]`, `[&st = stride]`) hold the stride they are given (was: unknown, "`s` is not known here")', () => {
  const text = [
    '__global__ void k(float *out)',
    '{',
    '    __shared__ float sm[1024];',
    '    int stride = 4;',
    '    auto byCopy = [s = stride * 2](int i) { return i * s; };',
    '    auto byRef = [&st = stride](int i) { return i * st; };',
    '    out[threadIdx.x] = sm[byCopy(threadIdx.x)];',
    '    stride = 3;',
    '    out[threadIdx.x] = sm[byRef(threadIdx.x)];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  // stride 8: 8-way over 4 banks; the reference sees the 3 written after it was made: conflict-free
  const c = accessAt(r, text, 'sm[byCopy(threadIdx.x)]', 'load', 'sm');
  figures(c, 'conflict', 8, 8, 32, 32);
  assert.equal(c.worst!.banksUsed, 4);
  figures(accessAt(r, text, 'sm[byRef(threadIdx.x)]', 'load', 'sm'), 'conflict-free', 1, 1, 32, 32);
});

test('tag dispatch on std::true_type / std::false_type picks the overload the tag names: the unswizzled instance 32-way (was: conflict-free, the first overload taken for both)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, '= tile[tx][tileCol(tx, ty + j, Tag{})];', 'load', 'tile');
  figures(ld, 'conflict', 32, 32, 32, 32);
  assert.equal(ld.worst!.banksUsed, 1);
  const byWay = new Map<number | string, number[]>();
  for (const c of ld.cases) byWay.set(c.context.kSwizzle, [...(byWay.get(c.context.kSwizzle) ?? []), c.degree!]);
  // swizzled: bank (ty + j) ^ tx, 32 banks; plain: word 32 tx + ty + j, one bank
  assert.deepEqual(byWay.get(1), [1, 1, 1, 1]);
  assert.deepEqual(byWay.get(0), [32, 32, 32, 32]);
  assert.match(ld.message, /\(worst case: kSwizzle = 0, j = 0\)$/);
  figures(accessAt(result, text, 'tile[ty + j][tileCol(ty + j, tx, Tag{})] = in[', 'store', 'tile'), 'conflict-free', 1, 1, 32, 32);
});

test('a tag in the middle of a parameter list: each named parameter takes its own argument, the column-major panel 32-way (was: unknown, "`std::bool_constant<kColMajor>{}` is not evaluated")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'panel[panelOffset(i, std::bool_constant<kColMajor>{}, tx, 32)] = A[', 'store', 'panel');
  figures(st, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(st.block, [32, 4, 1]);
  assert.deepEqual([...new Set(st.cases.filter((c) => c.context.kColMajor === 0).map((c) => c.degree))], [1]);
  const ld = accessAt(result, text, '= panel[panelOffset(ty, std::bool_constant<kColMajor>{}, tx, 32)];', 'load', 'panel');
  figures(ld, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(ld.cases.map((c) => [c.context.kColMajor, c.degree]), [[1, 32], [0, 1]]);
  assert.equal(ld.reason, undefined);
});

test('a kernel parameter left unnamed takes its own launch argument: `ld` is the third argument, 33, conflict-free (was: 32-way with "`ld` = 32 from the launch", the unnamed parameter\'s argument: a false alarm)', () => {
  const text = [
    'struct ColMajor {};',
    '__global__ void k(float *out, int /* n, unused */, int ld)',
    '{',
    '    __shared__ float s[32 * 33];',
    '    out[threadIdx.x] = s[threadIdx.x * ld];',
    '}',
    'template <class Tag>',
    '__global__ void k2(float *out, Tag, int ld)',
    '{',
    '    __shared__ float s2[32 * 33];',
    '    out[threadIdx.x] = s2[threadIdx.x * ld];',
    '}',
    'int main() { k<<<1, 32>>>(0, 32, 33); k2<<<1, 32>>>(0, ColMajor{}, 32); }',
  ].join('\n');
  const r = analyzeText(text);
  const a = accessAt(r, text, 's[threadIdx.x * ld]', 'load', 's');
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.ok(a.assumptions.includes('`ld` = 33 from the launch at line 13'), a.assumptions.join('\n'));
  const b = accessAt(r, text, 's2[threadIdx.x * ld]', 'load', 's2');
  figures(b, 'conflict', 32, 32, 32, 32);
  assert.ok(b.assumptions.includes('`ld` = 32 from the launch at line 13'), b.assumptions.join('\n'));
});

test('a stride passed as a tag `Int<N>{}` of an alias template deduces the kernel\'s type parameter: `Stride::value` is 3 and 4 (was: unknown, "`Stride::value` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, 's[(t * Stride::value) % 256];', 'load', 's');
  // stride 3: 32 banks; stride 4: 8 banks, 4 words each
  figures(ld, 'conflict', 4, 4, 32, 32);
  assert.equal(ld.worst!.banksUsed, 8);
  assert.deepEqual(ld.cases.map((c) => [c.context.Stride, c.degree]), [['std::integral_constant<int, 3>', 1], ['std::integral_constant<int, 4>', 4]]);
  assert.match(ld.message, /\(worst case: Stride = std::integral_constant<int, 4>\)$/);
});

test('std::integral_constant, bool_constant, true_type and false_type: `::value`, sizes and overloads, with the tag first or last (was: unknown, "`std::false_type{}` is not evaluated")', () => {
  const text = [
    '#include <type_traits>',
    '__device__ int pick(std::true_type, int r, int c) { return c ^ r; }',
    '__device__ int pick(std::false_type, int r, int c) { return c; }',
    '__global__ void k(float *out)',
    '{',
    '    __shared__ float tile[32][32];',
    '    const int t = threadIdx.x;',
    '    out[t] = tile[t][pick(std::false_type{}, t, 5)];',
    '    out[t] = tile[t][pick(std::true_type{}, t, 5)];',
    '    out[t] = tile[t][std::integral_constant<int, 7>::value];',
    '    out[t] = tile[0][t * std::bool_constant<true>::value + std::true_type::value + sizeof(std::false_type) - 2];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  figures(accessAt(r, text, 'pick(std::false_type{}, t, 5)', 'load', 'tile'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(r, text, 'pick(std::true_type{}, t, 5)', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(r, text, 'std::integral_constant<int, 7>::value', 'load', 'tile'), 'conflict', 32, 32, 32, 32);
  // words t (1 + 1 - 2 added): 32 banks
  const w = accessAt(r, text, 'std::bool_constant<true>::value', 'load', 'tile');
  figures(w, 'conflict-free', 1, 1, 32, 32);
  assert.equal(w.outOfBounds, undefined);
});

test('a fold over a pack of paddings (`(0 + ... + Pads)`, `(Dims * ... * 1)`) gives the row stride of each instance: 32-way, conflict-free, 2-way (was: unknown, "`fold expression` is not evaluated")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, 'out[threadIdx.x] = rows[lane * kLd + warp];', 'load', 'rows');
  figures(ld, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(ld.cases.map((c) => [c.context.Pads, c.degree]), [['<>', 32], ['<1>', 1], ['<1, 1>', 2]]);
  assert.equal(ld.reason, undefined);
  assert.ok(!ld.assumptions.some((s) => s.includes('could not be evaluated')), ld.assumptions.join('\n'));
  figures(accessAt(result, text, 'rows[r * kLd + lane] = out[', 'store', 'rows'), 'conflict-free', 1, 1, 32, 32);
  // the extent (of the first instance): 32 rows of 32 floats, `Extents<32, 32>::size` a fold too
  const line = lineOf(text, '__shared__ float rows[');
  assert.deepEqual(result.arrays.filter((a) => a.declRange.start.line === line).map((a) => a.typeText), ['float[1024]']);
});

test('folds: left and right, unary and binary, over an empty pack, and sizeof... (was: unknown, "`fold expression` is not evaluated")', () => {
  const text = [
    'template <int... Ks> __host__ __device__ constexpr int rsub() { return (Ks - ...); }',
    'template <int... Ks> __host__ __device__ constexpr int lsub() { return (... - Ks); }',
    'template <int... Ks> __host__ __device__ constexpr int lsub0() { return (100 - ... - Ks); }',
    'template <int... Ks> __host__ __device__ constexpr bool all() { return (Ks && ...); }',
    'template <int... Ks> __host__ __device__ constexpr int count() { return sizeof...(Ks); }',
    '__global__ void k(float *out)',
    '{',
    '    __shared__ float s[1024];',
    '    const int t = threadIdx.x;',
    '    out[t] = s[t * rsub<8, 4, 2>()];',
    '    out[t] = s[t * (lsub<8, 4, 2>() + 6)];',
    '    out[t] = s[t * (lsub0<50, 46>() + 2 * all<>())];',
    '    out[t] = s[t * count<1, 2, 3, 4>()];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  // 8 - (4 - 2) = 6: 2-way; (8 - 4) - 2 + 6 = 8: 8-way; 100 - 50 - 46 + 2 = 6: 2-way; 4: 4-way
  figures(accessAt(r, text, 'rsub<8, 4, 2>()', 'load', 's'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(r, text, 'lsub<8, 4, 2>()', 'load', 's'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(r, text, 'lsub0<50, 46>()', 'load', 's'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(r, text, 'count<1, 2, 3, 4>()', 'load', 's'), 'conflict', 4, 4, 32, 32);
});

test('a layout functor passed as a braced temporary (`Pitched{33}`, `Pitched{32}`) gives its member to the kernel: the transposed read conflict-free and 32-way (was: unknown, "`r * ld` combines the unknown warp-uniform value `layout.ld` with per-lane values")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, '= s[layout(threadIdx.x, threadIdx.y)];', 'load', 's');
  figures(ld, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(ld.block, [32, 32, 1]);
  assert.deepEqual(ld.cases.map((c) => [c.context['layout.ld'], c.degree]), [[33, 1], [32, 32]]);
  const launch = lineOf(text, 'Pitched{32});') + 1;
  assert.ok(ld.assumptions.includes(`\`layout.ld\` = 32 from the launch at line ${launch}`), ld.assumptions.join('\n'));
  figures(accessAt(result, text, 's[layout(threadIdx.y, threadIdx.x)] = in[', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
});

test('a braced argument gives only the members it names: a designated one, and a member left out stays unknown (was: unknown, "`r * ld` combines the unknown warp-uniform value `lay.ld` with per-lane values")', () => {
  const text = [
    'struct Lay { int ld; int off; __device__ int operator()(int r, int c) const { return r * ld + c + off; } };',
    'template <class L> __global__ void k(float *out, L lay)',
    '{',
    '    __shared__ float s[32 * 40];',
    '    out[threadIdx.x] = s[lay(threadIdx.x, 0)];',
    '}',
    'template <class L> __global__ void k2(float *out, L lay)',
    '{',
    '    __shared__ float s2[32 * 40];',
    '    out[threadIdx.x] = s2[threadIdx.x * lay.ld];',
    '}',
    'int main() { k<<<1, 32>>>(0, Lay{.ld = 36}); k2<<<1, 32>>>(0, Lay{36, 1}); }',
  ].join('\n');
  const r = analyzeText(text);
  // `off` is not given: a warp-uniform unknown added to every lane, the degree that of ld = 36 (4-way)
  const a = accessAt(r, text, 's[lay(threadIdx.x, 0)]', 'load', 's');
  figures(a, 'conflict', 4, 4, 32, 32);
  figures(accessAt(r, text, 's2[threadIdx.x * lay.ld]', 'load', 's2'), 'conflict', 4, 4, 32, 32);
});

test('arrays of a class template named through alias templates (`Pack4<float>`, `Pack2<float>`): 16-byte and 8-byte elements with their alignas (was: unknown, "the size of `Pack4<float>`, the element type of `q`, is not known")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const q = accessAt(result, text, 'q[t] = in4[t];', 'store', 'q');
  figures(q, 'conflict-free', 1, 4, 128, 32);
  assert.equal(q.elementBytes, 16);
  assert.equal(q.idealWavefronts, 4);
  const pv = accessAt(result, text, 'p[t].v[0] = q[t].v[1];', 'store', 'p');
  figures(pv, 'conflict', 2, 2, 32, 32);
  assert.equal(pv.worst!.banksUsed, 16);
  const qv = accessAt(result, text, 'p[t].v[0] = q[t].v[1];', 'load', 'q');
  figures(qv, 'conflict', 4, 4, 32, 32);
  assert.equal(qv.worst!.banksUsed, 8);
  const p = accessAt(result, text, 'out2[t] = p[t ^ 1];', 'load', 'p');
  figures(p, 'conflict-free', 1, 2, 64, 32);
  assert.equal(p.elementBytes, 8);
  assert.deepEqual(result.arrays.map((a) => a.typeText).filter((t) => t.startsWith('Packed')), ['Packed<float, 4>[64]', 'Packed<float, 2>[64]']);
});

test('guards: a capturing lambda, a traits struct through a host launcher, if constexpr, constexpr helpers, structured bindings, range-for over a shared row, a functor in the interleaved reduction', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, '= tile[at(threadIdx.x, threadIdx.y + j)];', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
  // Traits32: word 32 tx + c in bank c; Traits32Pad: 33 tx + c, 32 banks
  const cs = accessAt(result, text, 'acc += buf[tx * Traits::kLd + c];', 'load', 'buf');
  figures(cs, 'conflict', 32, 32, 32, 32);
  assert.deepEqual([...new Set(cs.cases.map((c) => `${c.context.Traits}:${c.degree}`))], ['SmemTraits<32, 1, float>:1', 'SmemTraits<32, 0, float>:32']);
  figures(accessAt(result, text, 'stage[2 * t] = src[', 'store', 'stage'), 'conflict', 2, 4, 64, 32);
  figures(accessAt(result, text, 'stage[2 * t + 1] = src[', 'store', 'stage'), 'conflict', 2, 2, 32, 32);
  // paddedLd(32, 4) = 36: 4-way down a column; the swizzled B read one word per warp
  const a = accessAt(result, text, 'acc += aTile[lane][k]', 'load', 'aTile');
  figures(a, 'conflict', 4, 4, 32, 32);
  assert.equal(a.worst!.banksUsed, 8);
  figures(accessAt(result, text, 'acc += aTile[lane][k]', 'load', 'bTile'), 'broadcast', 1, 1, 1, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = frag[col][row]', 'load', 'frag[col]'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'out[threadIdx.x] = frag[col][row]', 'load', 'frag[qx'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'for (float v : tile[t])', 'load', 'tile'), 'conflict', 32, 32, 32, 32);
  const row = accessAt(result, text, 'for (const float &v : myRow)', 'load');
  figures(row, 'conflict-free', 1, 1, 32, 32);
  assert.equal(row.array, 'myRow');
  const red = accessAt(result, text, 'red[index] = op(red[index], red[index + s]);', 'store', 'red');
  assert.deepEqual(red.cases.map((c) => c.degree), [2, 4, 8, 8, 8, 4, 2, 1]);
});
