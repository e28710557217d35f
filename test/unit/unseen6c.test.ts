// Regressions from the sixth sweep of unseen kernels, tutorial code (scratch/tutorials/NOTES.md): figures from a
// brute-force lane oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('a vector-access macro applied to shared memory (`AS_F4(s[r][c]) = v`) is the 16-byte access it expands to, not a 4-byte load of its argument', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const rows = accessAt(result, text, 'AS_F4(rows[t / 2][(t % 2) * 4]) =', 'store');
  assert.equal(rows.elementBytes, 16);
  assert.equal(rows.status, 'conflict-free');
  assert.equal(rows.wavefronts, 4);
  assert.equal(rows.idealWavefronts, 4);
  // reported at the array's name inside the macro's argument
  assert.equal(text.split('\n')[rows.range.start.line].slice(rows.range.start.character, rows.range.end.character), 'rows');
  assert.equal(result.accesses.filter((a) => a.range.start.line === rows.range.start.line).length, 1);
  const cols = accessAt(result, text, 'AS_F4(cols[t / 32][(t % 32) * 4]) =', 'store');
  assert.equal(cols.status, 'conflict-free');
  assert.equal(cols.elementBytes, 16);
  // a macro that expands to another
  const again = accessAt(result, text, 'AS_F4_AGAIN(cols[0][t * 4 % 128])', 'load');
  assert.equal(again.elementBytes, 16);
  assert.equal(again.status, 'conflict-free');
  const b = accessAt(result, text, 'float4 b = AS_F4(rows[t][0]);', 'load');
  assert.equal(b.elementBytes, 16);
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 2);
  assert.equal(b.wavefronts, 8);
  // a macro naming its argument twice loads it twice, as a 4-byte value
  const twice = accessAt(result, text, 'SUM_TWICE(cols[1][2 * t % 128])', 'load');
  assert.equal(twice.elementBytes, 4);
  assert.equal(twice.degree, 2);
});

test('half2 and dereferenced float2 macros on a half array: widths 4 and 8', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const st = accessAt(result, text, 'AS_H2(h[t * 2]) =', 'store');
  assert.equal(st.elementBytes, 4);
  assert.equal(st.status, 'conflict-free');
  const ld = accessAt(result, text, 'half2 v = AS_H2(h[t * 4]);', 'load');
  assert.equal(ld.elementBytes, 4);
  assert.equal(ld.degree, 2);
  const f2 = accessAt(result, text, 'AS_F2_DEREF(h[t * 8]) =', 'store');
  assert.equal(f2.elementBytes, 8);
  assert.equal(f2.degree, 2);
  assert.equal(f2.wavefronts, 4);
  assert.equal(f2.idealWavefronts, 2);
});

test('a cast inside a macro names the line of the macro call in the padding fix refusal', () => {
  const text = [
    '#define V4(x) (reinterpret_cast<float4 *>(&(x))[0])',
    '__global__ void k(float *o) {',
    // columns 4..7 of a 6-wide row: past its end (a float4 inside its row reads the same with the rows padded)
    '  __shared__ float s[64][6];',
    '  V4(s[2 * threadIdx.x][4]) = make_float4(0.f, 0.f, 0.f, 0.f);',
    '  o[threadIdx.x] = s[2 * threadIdx.x][1];',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  const arr = r.arrays.find((a) => a.name === 's');
  assert.ok(arr);
  assert.equal(arr!.noFixReason, 'no padding fix: a cast of `s` to `float4*` at line 4, which assumes the current row length of `s`');
});

test('ldmatrix with `.x4.m8n8` / `.x2.trans.m8n8` qualifier order, through asm statement macros, and a swizzle using `int(...)` casts', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const a = accessAt(result, text, 'LDSM_X4(r[0], r[1], r[2], r[3], pa);', 'load');
  assert.equal(a.sharedArray, 'a');
  assert.equal(a.elementBytes, 16);
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.wavefronts, 4);
  assert.ok(a.assumptions.some((s) => s.startsWith('`ldmatrix .x4` at line 54: lanes 0-31 each give the address of one 16-byte row')), a.assumptions.join(' | '));
  const b = accessAt(result, text, 'LDSM_X2_T(q[0], q[1], pb);', 'load');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.wavefronts, 2);
  assert.equal(b.worst!.activeLanes, 16);
  // the same rows without the swizzle: rows 0 and 4 of each 8-row matrix share banks
  const p = accessAt(result, text, 'LDSM_X4(p[0], p[1], p[2], p[3], pp);', 'load');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 8);
});

test('a functional cast to a built-in type (`int(x)`, `unsigned(x)`, `uint32_t(x)`) converts the value', () => {
  const text = [
    '#include <cstdint>',
    '__global__ void k(float *o) {',
    '  __shared__ float s[32 * 33];',
    '  o[threadIdx.x] = s[int(threadIdx.x / 2) * 33];',
    '  o[threadIdx.x] += s[uint32_t(threadIdx.x) * 2u];',
    '  o[threadIdx.x] += s[unsigned(float(threadIdx.x) * 0.5f)];',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  const at = (line: number) => r.accesses.find((a) => a.range.start.line === line)!;
  assert.equal(at(3).status, 'conflict-free');
  assert.equal(at(3).worst!.distinctWords, 16);
  assert.equal(at(4).degree, 2);
  assert.equal(at(5).status, 'conflict-free');
  assert.equal(at(5).worst!.distinctWords, 16);
});

test('a shared address made with PTX `cvta.to.shared.u64` in a helper (`smem_u32addr`) keeps pointing into its array for ld/st.shared helpers', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const st = accessAt(result, text, 'asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\\n" : : "r"(a)', 'store');
  assert.equal(st.elementBytes, 16);
  // the worst of its two calls: `wide + t * 8` (32-byte stride), 2-way; the panel's column of rows is conflict-free
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 8);
  assert.equal(st.idealWavefronts, 4);
  const ld = accessAt(result, text, 'asm volatile("ld.shared.f32 %0, [%1];\\n" : "=f"(x) : "r"(a));', 'load');
  assert.equal(ld.elementBytes, 4);
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.worst!.activeLanes, 32);
});

test('cp.async with a `.L2::128B` qualifier and its size as an immediate operand (`%2`, `"n"(16)`) is a store of that size', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const a = accessAt(result, text, 'ASYNC_COPY_16(d0, g + t * 4);', 'store');
  assert.equal(a.elementBytes, 16);
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.wavefronts, 4);
  assert.ok(a.message.endsWith('(uncertain for cp.async writes: treated as a store)'), a.message);
  const b = accessAt(result, text, 'ASYNC_COPY_N(d1, g + 1024 + t * 4, 8);', 'store');
  assert.equal(b.elementBytes, 8);
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 16);
  assert.equal(b.wavefronts, 32);
  assert.equal(b.idealWavefronts, 2);
});

test('a template kernel named only where its address is taken (`{strided_fill<kWidth>}` in a table launched through a pointer) is bound by that name', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const st = accessAt(result, text, 'lanes[threadIdx.x * WIDTH] = 1.f;', 'store');
  assert.equal(st.kernel, 'strided_fill');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 4);
  assert.equal(st.wavefronts, 4);
  const ld = accessAt(result, text, 'out[threadIdx.x] = lanes[threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict-free');
  assert.ok(!ld.assumptions.some((a) => a.includes('is not bound')), ld.assumptions.join(' | '));
});

test('cuda::memcpy_async and cooperative_groups::memcpy_async into shared memory are access sites, unknown with the reason', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const per = accessAt(result, text, 'cuda::memcpy_async(&stage[threadIdx.x * 4]', 'store');
  assert.equal(per.status, 'unknown');
  assert.equal(per.reason, '`cuda::memcpy_async` copies with instructions libcu++ chooses from the alignment it can prove (cp.async of 4, 8 or 16 bytes, or a plain copy): the width of each write is not known');
  const group = accessAt(result, text, 'cooperative_groups::memcpy_async(block, whole,', 'store');
  assert.equal(group.status, 'unknown');
  assert.equal(group.reason, '`cooperative_groups::memcpy_async` with a group: which lane writes which bytes is not documented');
});

test('a shared address whose bits are flipped (`a ^= 512`) stays a pointer into its array: below the array\'s alignment (`__align__(1024)`) the flip is exact', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6c.cu');
  const st = accessAt(result, text, 'asm volatile("st.shared.f32 [%0], %1;\\n" : : "r"(a), "f"(x));', 'store');
  assert.equal(st.kernel, 'flipped_window');
  // twin[0][t] ^ 512 bytes is twin[1][t]: one word per lane, stride 1 (unseen8b.test.ts has the unaligned case)
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.activeLanes, 32);
});
