// Struct layouts with member functions declared but not defined in the class (`T &operator[](int i);`, as a header's
// declarations keep them, see syntax/header-decls.ts), a pointer-to-function member, and a header's typedef chosen in
// an `#if` the file cannot decide. Figures worked by hand: 32 banks of 4 bytes, one warp of 32 threads.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { IncludeReader } from '../../server/engine';
import { analyzeText } from '../../server/engine';
import { ready, accessAt, figures } from './helpers/engine';

before(() => ready);

test('member functions declared in a struct take no room; a pointer-to-function member takes 8 bytes (was: a reference-returning declaration counted as a member, a function pointer as none)', () => {
  const text = [
    'struct alignas(16) Packed {',
    '  __device__ float &operator[](int i);',
    '  __device__ const float &at(int i) const;',
    '  __device__ float *data();',
    '  float payload[4];',
    '};',
    'struct WithFn { float (*fp)(float); float v; };',
    '__global__ void k(float *o) {',
    '  __shared__ Packed p[32];',
    '  __shared__ WithFn f[32];',
    '  o[0] = p[threadIdx.x].payload[0];',
    '  o[1] = f[threadIdx.x].v;',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000 });
  // Packed is 16 bytes: payload[0] of lane t is word 4 t, banks 0, 4, ..., 28, four lanes each (was: 32 bytes, 8-way)
  figures(accessAt(result, text, 'o[0] = p[threadIdx.x].payload[0]', 'load'), 'conflict', 4, 4, 32, 32);
  // WithFn is 16 bytes (an 8-byte pointer, the float at 8): word 4 t + 2, 4-way (was: 4 bytes, word t, conflict-free)
  figures(accessAt(result, text, 'o[1] = f[threadIdx.x].v', 'load'), 'conflict', 4, 4, 32, 32);
});

test('a header typedef in an #if the file cannot decide: the last branch stands, as in the file itself, and a notice says so (was: not known)', () => {
  const files: Record<string, string> = {
    '/src/common.h': [
      '#pragma once',
      'template <class E> struct alignas(16) Packed128 {',
      '  __device__ E &operator[](int index) { return payload[index]; }',
      '  static constexpr const int size = sizeof(int4) / sizeof(E);',
      '  E payload[size];',
      '};',
      '#if defined(ENABLE_BF16)',
      'typedef __nv_bfloat16 floatX;',
      '#elif defined(ENABLE_FP16)',
      'typedef half floatX;',
      '#else',
      'typedef float floatX;',
      '#endif',
      'typedef Packed128<floatX> x128;',
    ].join('\n'),
  };
  const includes: IncludeReader = (spec, from) => {
    const p = path.posix.normalize(path.posix.join(from ? path.posix.dirname(from) : '/src', spec));
    return p in files ? { path: p, text: files[p] } : null;
  };
  const text = [
    '#include "common.h"',
    '__global__ void k(int C) {',
    '  extern __shared__ char params[];',
    '  x128 *s_in = reinterpret_cast<x128 *>(params);',
    '  for (int c = threadIdx.x * x128::size; c < C; c += 32 * x128::size) {',
    '    x128 d;',
    '    s_in[c / x128::size] = d;',
    '  }',
    '}',
    'void run(int C) { k<<<1, 32, 4096>>>(C); }',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000, includes, path: '/src/k.cu' });
  // floatX = float: x128 is 16 bytes, size 4; s_in[t + 32 passes]: 512 consecutive bytes, 4 phases of 8 lanes, one
  // wavefront each
  const a = accessAt(result, text, 's_in[c / x128::size] = d', 'store');
  figures(a, 'conflict-free', 1, 4, 128, 32);
  assert.equal(a.elementBytes, 16);
  // said at the include; `floatX` matters here (x128 names it)
  assert.deepEqual(result.notices.map((n) => [n.range.start.line, n.message]), [[0,
    '`floatX` is declared differently in the branches of the `#if` at line 7 of common.h, which is not decided here: the last, `typedef float floatX;`, is the one analysed (give the macros its condition reads with -D, or the defines setting, to analyse another)']]);
  // with ENABLE_FP16 given, `half` (x128 of 8 halves, still 16 bytes, size 8)
  const fp16 = analyzeText(text, { budgetMs: 60_000, includes, path: '/src/k.cu', defines: { ENABLE_FP16: '1' } });
  figures(accessAt(fp16, text, 's_in[c / x128::size] = d', 'store'), 'conflict-free', 1, 4, 128, 32);
});
