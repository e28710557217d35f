// Regressions from the seventeenth sweep of unseen kernels, helper C (quantization and low-precision kernels): the
// packed low-precision types of cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (`__nv_fp8x4_e4m3`, `__nv_fp8x2_e4m3`, ...),
// CUDA's SIMD intrinsics on lane-known words (`__vsub4`, `__vabsdiffu4`, `__vsadu4`, ...), and the sub-word figures
// of byte and 2-byte tiles, lookup tables, packed 4-bit weights, group scales and 16-byte loads of byte tiles, which
// were right and are kept so. Figures from a brute-force lane oracle of the bank model (scratch/helper-h17c/oracle.py,
// not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen17c.cu';

test('__nv_fp8x4_e4m3 is a 4-byte element (was: unknown, the size of `__nv_fp8x4_e4m3` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 64 lanes of 256: v[t] is word t; one warp's 32 lanes on 32 banks
  const l = accessAt(result, text, 'float4 f = static_cast<float4>(v[t]);', 'load', 'v');
  figures(l, 'conflict-free', 1, 1, 32, 32);
  assert.equal(l.elementBytes, 4);
  assert.deepEqual(l.block, [256, 1, 1]);
  // the e4m3 bytes stored one per lane: four lanes in each word, 8 words
  figures(accessAt(result, text, 's8[t] = __nv_fp8_e4m3(', 'store', 's8'), 'conflict-free', 1, 1, 8, 32);
});

test('__nv_fp8x2_e4m3 is a 2-byte element (was: unknown, the size of `__nv_fp8x2_e4m3`, the element type of `sp`, is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // sp[8 * t]: byte 16 t, word 4 t: 32 words on 8 banks, four per bank
  const s = accessAt(result, text, 'sp[t * 8] = x[t];', 'store', 'sp');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.equal(s.elementBytes, 2);
  assert.match(s.message, /served in 4 wavefronts \(ideal 1\)/);
  figures(accessAt(result, text, 'y[t] = sp[t * 8 + 1];', 'load', 'sp'), 'conflict', 4, 4, 32, 32);
});

test('the fp6, fp4, e8m0 and raw half types have their header sizes (was: unknown, the size is not known)', () => {
  const text = [
    '#include <cuda_fp4.h>',
    '__global__ void k(int *o) {',
    '  __shared__ __nv_fp4x4_e2m1 q4[256];',
    '  __shared__ __nv_fp8x4_e8m0 sc[256];',
    '  __shared__ __nv_fp6x2_e3m2 q6[256];',
    '  __shared__ __half2_raw hr[256];',
    '  __shared__ __nv_fp4x2_e2m1 qb[256];',
    '  const int t = threadIdx.x;',
    '  q4[2 * t] = __nv_fp4x4_e2m1();',
    '  sc[2 * t] = __nv_fp8x4_e8m0();',
    '  q6[4 * t] = __nv_fp6x2_e3m2();',
    '  hr[t].y = 0;',
    '  qb[t] = __nv_fp4x2_e2m1();',
    '}',
    'void launch(int *o) { k<<<1, 32>>>(o); }',
  ].join('\n');
  const r = analyzeText(text, { budgetMs: 60_000 });
  // 2-byte at 4 t: word t; 4-byte at 8 t: words 2 t, 2-way; 2-byte at 8 t: words 2 t, 2-way; half of word t; bytes
  figures(accessAt(r, text, 'q4[2 * t]', 'store', 'q4'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(r, text, 'sc[2 * t]', 'store', 'sc'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(r, text, 'q6[4 * t]', 'store', 'q6'), 'conflict', 2, 2, 32, 32);
  const h = accessAt(r, text, 'hr[t].y = 0;', 'store', 'hr');
  figures(h, 'conflict-free', 1, 1, 32, 32);
  assert.equal(h.elementBytes, 2);
  figures(accessAt(r, text, 'qb[t] = ', 'store', 'qb'), 'conflict-free', 1, 1, 8, 32);
});

test('byte tiles: lanes on one word never conflict, and a byte of padding leaves four rows per bank', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // int8_t qs[32][32], block 32x8: the store's 32 lanes in 8 words; the column read's rows 32 bytes apart: 8-way
  const st = accessAt(result, text, 'qs[ty][tx] = x[', 'store', 'qs');
  figures(st, 'conflict-free', 1, 1, 8, 32);
  // requested bytes are whole words, result bytes one per lane (bank model rule 7)
  assert.equal(st.worst!.requestedBytes, 32);
  assert.equal(st.worst!.resultBytes, 32);
  const l = accessAt(result, text, '= qs[tx][ty];', 'load', 'qs');
  figures(l, 'conflict', 8, 8, 32, 32);
  assert.equal(l.worst!.requestedBytes, 128);
  assert.equal(l.worst!.resultBytes, 32);
  assert.deepEqual(l.block, [32, 8, 1]);
  // [32][33]: rows 33 bytes apart, words floor(33 tx / 4): still 2-way, not conflict-free as for 4-byte elements
  figures(accessAt(result, text, '= qp[tx][ty];', 'load', 'qp'), 'conflict', 2, 2, 32, 32);
  // __half ht[32][32]: the store's pairs share words; the column read is 16-way
  figures(accessAt(result, text, 'ht[r][tx] = in[', 'store', 'ht'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 'out[r * 32 + tx] = ht[tx][r];', 'load', 'ht'), 'conflict', 16, 16, 32, 32);
});

test('16-byte loads of bf16, byte and fp8 tiles, and ldmatrix on an int8 tile, by quarter-warp phases', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bf16 rows of 144 bytes, four lanes a row: 2-way in each phase, 8 wavefronts (ideal 4)
  const v = accessAt(result, text, '*reinterpret_cast<uint4 *>(&sb[row][col]) = g[', 'store');
  figures(v, 'conflict', 2, 8, 128, 32);
  assert.equal(v.idealWavefronts, 4);
  assert.ok(v.assumptions.some((a) => /16-byte accesses are served in phases of 8 lanes \(inferred/.test(a)), v.assumptions.join('\n'));
  // a byte tile at a 32-byte stride: 2-way; at a 16-byte stride: ideal
  figures(accessAt(result, text, '*reinterpret_cast<uint4 *>(&qb[t * 16]) = g[t];', 'store'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, 'o[t] = *reinterpret_cast<const uint4 *>(&qb[(t % 32) * 32]);', 'load'), 'conflict', 2, 8, 128, 32);
  // ldmatrix x4 on 64-byte rows: four rows of each matrix on one bank group, 4-way; the XOR swizzle: ideal
  // reported at the address operand, `"r"(addr)`
  figures(accessAt(result, text, ': "r"(addr));', 'load'), 'conflict', 4, 16, 128, 32);
  figures(accessAt(result, text, ': "r"(swz));', 'load'), 'conflict-free', 1, 4, 128, 32);
});

test('packed weights, group scales and templates on bit width: broadcasts and multicasts, exactly', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // s_w[t >> 3]: 4 words for 32 lanes; s_scale[t / 32]: one half for the warp
  figures(accessAt(result, text, 'uint32_t word = s_w[t >> 3];', 'load', 's_w'), 'conflict-free', 1, 1, 4, 32);
  const bc = accessAt(result, text, 's_scale[t / 32]', 'load', 's_scale');
  figures(bc, 'broadcast', 1, 1, 1, 32);
  assert.equal(bc.worst!.requestedBytes, 4);
  assert.equal(bc.worst!.resultBytes, 64);
  // s_sc[k / group_size] in the k loop, group_size = 128: one word per pass
  const g = accessAt(result, text, 'acc += __half2float(s_sc[k / group_size])', 'load', 's_sc');
  figures(g, 'broadcast', 1, 1, 1, 32);
  // unpack_bits<4> and <2>: s_q[t / 8], s_q[t / 16], both conflict-free
  const b = accessAt(result, text, 'uint32_t v = s_q[t / per];', 'load', 's_q');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.degree, 1);
  // a half2 lookup table read at a byte of a loaded word: unknown per lane, and said so
  const lut = accessAt(result, text, 'half2 a = lut[qw & 0xff];', 'load', 'lut');
  assert.equal(lut.status, 'unknown');
  assert.match(lut.reason ?? '', /`w\[blockIdx\.x \* 256 \+ t\]` is a value loaded from memory/);
});

test('SIMD intrinsics on lane-known words are evaluated per byte and halfword (was: unknown, the result of `__vabsdiffu4(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // p = t * 0x01010101; |t - 16| * 2: 17 words, words 0 and 32 in bank 0
  figures(accessAt(result, text, 'tab[(__vabsdiffu4(p, 0x10101010u) & 0xff) * 2]', 'load', 'tab'), 'conflict', 2, 2, 17, 32);
  // 4 |t - 4|: 28 words on 8 banks, four in the worst
  figures(accessAt(result, text, 'tab[__vsadu4(p, 0x04040404u) & 0xff]', 'load', 'tab'), 'conflict', 4, 4, 28, 32);
  // max(t, 8): lanes 0..8 on one word, 24 words
  figures(accessAt(result, text, 'tab[__vmaxu4(p, 0x08080808u) & 0xff]', 'load', 'tab'), 'conflict-free', 1, 1, 24, 32);
  // 0xff per byte where t > 15: words 0 and 33
  figures(accessAt(result, text, 'tab[__vcmpgtu4(p, 0x0f0f0f0fu) & 0x21]', 'load', 'tab'), 'conflict-free', 1, 1, 2, 32);
  // (257 t + 64) >> 1 per halfword, low byte: 2-way
  figures(accessAt(result, text, 'tab[__vhaddu2(p, 0x00400040u) & 0xff]', 'load', 'tab'), 'conflict', 2, 2, 32, 32);
  // signed saturation: t - 128 - 16 clamps to -128 for t < 16: 16 words
  figures(accessAt(result, text, 'tab[(__vsubss4(p ^ 0x80808080u, 0x10101010u) >> 24) & 0xff]', 'load', 'tab'), 'conflict-free', 1, 1, 16, 32);
});

test('a SIMD intrinsic the API leaves ambiguous, or a function of the file with that name, is not evaluated as one', () => {
  const text = [
    '__device__ unsigned __vadd4(unsigned a, unsigned b) { return a; }',
    '__global__ void k(float *o) {',
    '  __shared__ float tab[256];',
    '  const unsigned p = threadIdx.x * 0x01010101u;',
    '  o[0] = tab[__vsetgtu4(p, 0x0f0f0f0fu) & 0xff];',
    '  o[1] = tab[__vavgs4(p, p) & 0xff];',
    '  o[2] = tab[__vadd4(p, 0x10101010u) & 0xff];',
    '}',
    'void launch(float *o) { k<<<1, 32>>>(o); }',
  ].join('\n');
  const r = analyzeText(text, { budgetMs: 60_000 });
  assert.equal(accessAt(r, text, '__vsetgtu4', 'load', 'tab').status, 'unknown');
  assert.equal(accessAt(r, text, '__vavgs4', 'load', 'tab').status, 'unknown');
  // the file's own __vadd4 returns its first argument: tab[t], conflict-free
  figures(accessAt(r, text, 'o[2] = tab[__vadd4', 'load', 'tab'), 'conflict-free', 1, 1, 32, 32);
});

test('an int read from an 18-byte block stride is misaligned, and said so (was: 3-way bank conflict, 48 words)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const bad = accessAt(result, text, 'const int bad = *reinterpret_cast<const int *>(&blocks[t * 18 + 2]);', 'load');
  assert.equal(bad.status, 'unknown');
  assert.equal(bad.degree, null);
  assert.match(bad.reason ?? '', /^misaligned: lane 0 of warp 0 addresses byte 2 of `blocks`, which starts at a multiple of 16: not a multiple of 4, the access's width; the GPU faults/);
  // the same bytes read as two 16-bit halves: 2-byte lanes at 18 t + 2 and 18 t + 4, two words per bank
  figures(accessAt(result, text, 'const int good = q16[0] | (q16[1] << 16);', 'load', 'q16[0]'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'const int good = q16[0] | (q16[1] << 16);', 'load', 'q16[1]'), 'conflict', 2, 2, 32, 32);
  // the block's bytes staged one per lane: 8 words
  figures(accessAt(result, text, 'blocks[i] = src[i];', 'store', 'blocks'), 'conflict-free', 1, 1, 8, 32);
});

test('a misaligned access of an array aligned to less than its width, or with lanes at different places in a word, is not evaluated (was: 2-way, 33 words)', () => {
  const text = [
    '#include <cstdint>',
    '__global__ void k(uint32_t *o) {',
    '  __shared__ bool flags[256];',
    '  __shared__ uint8_t raw[512];',
    '  const int t = threadIdx.x;',
    '  flags[t] = true;',
    '  o[t] = *reinterpret_cast<const uint32_t *>(&flags[t * 4 + 2]);',
    '  o[t + 32] = *reinterpret_cast<const unsigned short *>(&raw[t * 2 + (t & 1)]);',
    '  o[t + 64] = *reinterpret_cast<const uint32_t *>(&raw[t * 4]);',
    '}',
    'void launch(uint32_t *o) { k<<<1, 32>>>(o); }',
  ].join('\n');
  const r = analyzeText(text, { budgetMs: 60_000 });
  const f = accessAt(r, text, '&flags[t * 4 + 2]', 'load');
  assert.equal(f.status, 'unknown');
  assert.match(f.reason ?? '', /^misaligned unless `flags` starts 2 bytes past a multiple of 4: lane 0 of warp 0 addresses byte 2 of it, and its declaration aligns it only to 1;/);
  // lanes 0 and 1 at bytes 0 and 3: one of them is misaligned wherever `raw` starts
  const h = accessAt(r, text, '&raw[t * 2 + (t & 1)]', 'load');
  assert.equal(h.status, 'unknown');
  assert.match(h.reason ?? '', /^misaligned: lane 1 of warp 0 addresses byte 3 of `raw`, and other lanes bytes a different distance from a multiple of 2, the access's width: wherever `raw` starts, some lane is misaligned/);
  // aligned offsets of the same array are evaluated as before
  figures(accessAt(r, text, '&raw[t * 4]', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('an int read from byte rows of 33 is misaligned in every warp but the first, found over the whole block (was: conflict-free, 8 words)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 32x4: warp 0 is row 0 (aligned); warp 1 reads row 1 from byte 33
  const l = accessAt(result, text, '__dp4a(*reinterpret_cast<const int *>(&xp[ty][(tx % 8) * 4])', 'load');
  assert.equal(l.status, 'unknown');
  assert.deepEqual(l.block, [32, 4, 1]);
  assert.match(l.reason ?? '', /^misaligned: lane 0 of warp 1 addresses byte 33 of `xp`, which starts at a multiple of 16: not a multiple of 4/);
  // the byte store is evaluated: 8 words, as for 32-byte rows
  figures(accessAt(result, text, 'xp[ty][tx] = (int8_t)g[', 'store', 'xp'), 'conflict-free', 1, 1, 8, 32);
});

test('the padding fix of an int8 tile read by ldmatrix keeps its rows 16-byte aligned (was, once a misaligned access became unknown: pad to [64][65], which misaligns every row but the first)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows of 64 bytes: four rows of each 8x8 matrix on one group of banks, 4-way, 16 wavefronts (ideal 4)
  figures(accessAt(result, text, ': "r"(rows));', 'load'), 'conflict', 4, 16, 128, 32);
  figures(accessAt(result, text, 'sR[r][t] = g[', 'store', 'sR'), 'conflict-free', 1, 1, 8, 32);
  const arr = result.arrays.find((a) => a.name === 'sR');
  // 65 to 79 bytes misalign the rows (unknown, not counted); 80 bytes: every matrix's rows in distinct bank groups
  assert.equal(arr?.fix?.newShape, '[64][80]');
  assert.equal(arr?.fix?.padding, 16);
});
