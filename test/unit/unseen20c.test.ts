// Regressions from the twentieth sweep of unseen kernels, helper C: element types other than 4-byte words (doubles,
// double2 / cuDoubleComplex, float4 views of float tiles, byte and half tiles, bool flags, arrays of aligned and
// padded structs, structs of shorts and bytes copied whole, sizeof/offsetof byte walks, one dynamic buffer carved into
// float, double and half parts). Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not
// shipped): per lane byte address -> words -> phases of 32, 16 or 8 lanes -> wavefronts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen20c.cu';

test('a whole struct of four shorts is copied as four 2-byte accesses, each 2-way at an 8-byte stride (was: one 8-byte access, conflict-free in 2 wavefronts: a missed conflict)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const [snippet, kind] of [['q[t] = o[t];', 'store'], ['o[t] = q[t ^ 1];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'q');
    // piece k of lane t at byte 8 t + 2 k (t ^ 1 for the load): words 2 t, two lanes a bank, 2-way in 32-lane phases
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.equal(a.elementBytes, 2);
    assert.equal(a.idealWavefronts, 1);
    assert.equal(a.worst!.banksUsed, 16);
    assert.equal(a.worst!.resultBytes, 64);
    assert.ok(a.assumptions.some((s) => s.includes('a whole `Q16` (8 bytes, aligned to 2) is copied as 4 accesses of 2 bytes')), a.assumptions.join('\n'));
  }
});

test('a whole short3 and a whole struct of three bytes are copied in pieces of their alignment (was: unknown, "copied with instructions the compiler chooses")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // short3: 2-byte pieces at 6 t + 2 k: 32 words, 2-way (words w and w + 32 both reached)
  const st = accessAt(result, text, 's3[t] = o3[t];', 'store', 's3');
  figures(st, 'conflict', 2, 2, 32, 32);
  assert.equal(st.worst!.banksUsed, 27);
  assert.equal(st.reason, undefined);
  const ld = accessAt(result, text, 'o3[t] = s3[t + 1];', 'load', 's3');
  figures(ld, 'conflict', 2, 2, 32, 32);
  assert.equal(ld.worst!.banksUsed, 26);
  // RGB (3 bytes, aligned to 1): one byte at a time; rgb[t] reaches 24 words, rgb[2 t] 32 words over 27 banks, 2-way
  const rs = accessAt(result, text, 'rgb[t] = px[t];', 'store', 'rgb');
  figures(rs, 'conflict-free', 1, 1, 24, 32);
  assert.equal(rs.elementBytes, 1);
  assert.ok(rs.assumptions.some((s) => s.includes('is copied as 3 accesses of 1 byte,')), rs.assumptions.join('\n'));
  const rl = accessAt(result, text, 'px[t] = rgb[2 * t];', 'load', 'rgb');
  figures(rl, 'conflict', 2, 2, 32, 32);
  assert.equal(rl.worst!.banksUsed, 27);
});

test('a struct of two shorts or two bytes is copied in pieces, each its own request, with the figures of its own bytes (was: one 4-byte / 2-byte access)', () => {
  const text = [
    'struct SS { short a, b; };',
    'struct CC { unsigned char a, b; };',
    '__global__ void k(SS *o, CC *oc)',
    '{',
    '    __shared__ SS ss[64];',
    '    __shared__ CC cc[64];',
    '    int t = threadIdx.x;',
    '    ss[t] = o[t];',
    '    cc[t] = oc[t];',
    '}',
    'int main() { k<<<1, 32>>>(0, 0); }',
  ].join('\n');
  const result = analyzeText(text);
  const s = accessAt(result, text, 'ss[t] = o[t];', 'store', 'ss');
  // pieces at 4 t and 4 t + 2: 32 words in 32 banks, 64 bytes of results each
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.equal(s.elementBytes, 2);
  assert.equal(s.worst!.resultBytes, 64);
  const c = accessAt(result, text, 'cc[t] = oc[t];', 'store', 'cc');
  figures(c, 'conflict-free', 1, 1, 16, 32);
  assert.equal(c.elementBytes, 1);
  assert.equal(c.worst!.resultBytes, 32);
});

test('32 lanes reading different bytes of one word are a broadcast, as the bank model defines it (was: conflict-free, 1 distinct word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const f = accessAt(result, text, 'if (flags[t & 3]) c += 1;', 'load', 'flags');
  figures(f, 'broadcast', 1, 1, 1, 32);
  assert.equal(f.worst!.requestedBytes, 4);
  assert.equal(f.worst!.resultBytes, 32);
  assert.match(f.message, /broadcast: 32 lanes read 1 word \(4 bytes requested, 32 bytes of results\)/);
  // bytes 64 + 4 w .. 67 + 4 w of warp w: one word per warp
  figures(accessAt(result, text, 'c += bitmap[(t >> 3) + 64];', 'load', 'bitmap'), 'broadcast', 1, 1, 1, 32);
  // 32 bytes in 32 different words: conflict-free, not a broadcast
  figures(accessAt(result, text, 'out[t] = c + bitmap[(t * 33) & 255];', 'load', 'bitmap'), 'conflict-free', 1, 1, 32, 32);
});

test('bytes of one word on different lanes are not a broadcast on cc 1.x, where they conflict', () => {
  const text = [
    '__global__ void k(int *out)',
    '{',
    '    __shared__ char b[64];',
    '    out[threadIdx.x] = b[threadIdx.x & 3];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const sm50 = accessAt(analyzeText(text), text, 'b[threadIdx.x & 3]', 'load', 'b');
  figures(sm50, 'broadcast', 1, 1, 1, 32);
  // cc 1.x: per half-warp, 4 distinct bytes of one word in one bank: 4-way, 2 half-warps
  const sm1x = accessAt(analyzeText(text, { arch: 'sm_1x' }), text, 'b[threadIdx.x & 3]', 'load', 'b');
  assert.equal(sm1x.status, 'conflict');
  assert.equal(sm1x.degree, 4);
  assert.equal(sm1x.wavefronts, 8);
});

test('offsetof is the member\'s offset in the layout: a byte walk with sizeof and offsetof is evaluated (was: unknown, `offsetof expression` is not evaluated)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // Rec { double a; int b; } is 16 bytes: b at 16 t + 8, 4-way as walk[t].b is
  const w = accessAt(result, text, 'offsetof(Rec, b)) = t;', 'store', '*reinterpret_cast');
  figures(w, 'conflict', 4, 4, 32, 32);
  assert.equal(w.reason, undefined);
  figures(accessAt(result, text, 'out[t] = walk[t].b + *pa;', 'load', 'walk'), 'conflict', 4, 4, 32, 32);
  // a at 32 t: 8-byte lanes, 16 a phase on 4 bank pairs, 4-way, 8 wavefronts (ideal 2)
  const pa = accessAt(result, text, '*pa = 1.0;', 'store', '*pa');
  figures(pa, 'conflict', 4, 8, 64, 32);
  assert.equal(pa.idealWavefronts, 2);
  assert.equal(pa.worst!.banksUsed, 8);
});

test('offsetof in an extent and in a carved pointer\'s offset (was: the extent not known, `float[offsetof(Layout, b) / sizeof(float)]`, and the carved doubles unknown)', () => {
  const text = [
    '#include <cstddef>',
    'struct Layout { float a[64]; double b[32]; int tail; };',
    'struct Other { int x; };',
    '__global__ void k(double *out)',
    '{',
    '    __shared__ __align__(16) unsigned char raw[sizeof(Layout)];',
    '    __shared__ float head[offsetof(Layout, b) / sizeof(float)];',
    '    double *b = reinterpret_cast<double *>(raw + offsetof(Layout, b));',
    '    int t = threadIdx.x;',
    '    b[t] = t;',
    '    head[t * 2] = 0;',
    '    out[t] = b[(t * 2) % 32];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  assert.deepEqual(result.arrays.map((a) => a.typeText), ['unsigned char[520]', 'float[64]']);
  // b starts at byte 256: doubles 0..31, conflict-free in 2 wavefronts; b[2 t % 32] 2-way, 16 doubles
  figures(accessAt(result, text, 'b[t] = t;', 'store', 'b'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, 'out[t] = b[(t * 2) % 32];', 'load', 'b'), 'conflict', 2, 4, 32, 32);
  const h = accessAt(result, text, 'head[t * 2] = 0;', 'store', 'head');
  figures(h, 'conflict', 2, 2, 32, 32);
  assert.equal(h.outOfBounds, undefined);
});

test('double tiles: the padded transpose is conflict-free in 2 wavefronts, the unpadded one 16-way in each half-warp', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'tile[threadIdx.y + j][threadIdx.x] = idata', 'store', 'tile');
  figures(st, 'conflict-free', 1, 2, 64, 32);
  assert.deepEqual(st.block, [32, 8, 1]);
  figures(accessAt(result, text, '= tile[threadIdx.x][threadIdx.y + j];', 'load', 'tile'), 'conflict-free', 1, 2, 64, 32);
  const n = accessAt(result, text, '= tileN[threadIdx.x][threadIdx.y + j];', 'load', 'tileN');
  figures(n, 'conflict', 16, 32, 64, 32);
  assert.equal(n.idealWavefronts, 2);
  assert.equal(n.worst!.banksUsed, 2);
});

test('FFT butterflies on cuDoubleComplex: 16-byte lanes in quarter-warps, 2-way at half = 1, 2 and 4 (8 wavefronts, ideal 4)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'cuDoubleComplex a = buf[i0];', 'load', 'buf');
  figures(a, 'conflict', 2, 8, 128, 32);
  assert.equal(a.idealWavefronts, 4);
  assert.equal(a.worst!.banksUsed, 16);
  assert.deepEqual(a.cases.map((c) => c.context.half), [1, 2, 4, 8, 16, 32, 64, 128]);
  assert.deepEqual(a.cases.map((c) => c.degree), [2, 2, 2, 1, 1, 1, 1, 1]);
  figures(accessAt(result, text, 'data[blockIdx.x * FFT_N + t] = buf[t];', 'load', 'buf'), 'conflict-free', 1, 4, 128, 32);
});

test('a float4 view of a float tile row is conflict-free in 4 wavefronts; the transposed scalar stores are 2-way', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'float4 w = reinterpret_cast<float4 *>(&As[r][c4])[0];', 'load', 'reinterpret_cast');
  figures(w, 'conflict-free', 1, 4, 128, 32);
  assert.equal(w.elementBytes, 16);
  figures(accessAt(result, text, 'As[col + 1][row] = v.y;', 'store', 'As'), 'conflict', 2, 2, 32, 32);
});

test('aligned and padded structs: a whole __align__(16) struct in one 16-byte access, its member 4-way; a double with an int behind it 2-way', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'Particle p = sp[i];', 'load', 'sp'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, 'float y = sp[i].y;', 'load', 'sp'), 'conflict', 4, 4, 32, 32);
  const a = accessAt(result, text, 'double a = recs[i].a;', 'load', 'recs');
  figures(a, 'conflict', 2, 4, 64, 32);
  assert.equal(a.elementBytes, 8);
  figures(accessAt(result, text, 'int b = recs[i].b;', 'load', 'recs'), 'conflict', 4, 4, 32, 32);
});

test('byte image and half tile columns: 8-way over 4 banks and 4-way over 8 banks', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'img[r][tx] = in[r * IMG + tx];', 'store', 'img'), 'conflict-free', 1, 1, 8, 32);
  const col = accessAt(result, text, 'sum += img[tx][r];', 'load', 'img');
  figures(col, 'conflict', 8, 8, 32, 32);
  assert.equal(col.worst!.banksUsed, 4);
  const h = accessAt(result, text, 'out[ty * 32 + tx] = hs[tx][ty];', 'load', 'hs');
  figures(h, 'conflict', 4, 4, 32, 32);
  assert.equal(h.worst!.banksUsed, 8);
});

test('one dynamic buffer carved into float, double and half parts, and a 32-byte struct of doubles copied as two 16-byte accesses', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'out[t] = fpart[t * 4 % 128]', 'load', 'fpart'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'out[t] = fpart[t * 4 % 128]', 'load', 'dpart'), 'conflict', 2, 4, 64, 32);
  figures(accessAt(result, text, 'out[t] = fpart[t * 4 % 128]', 'load', 'hpart'), 'conflict-free', 1, 1, 32, 32);
  const q = accessAt(result, text, 'q4[t] = D4{', 'store', 'q4');
  figures(q, 'conflict', 2, 8, 128, 32);
  assert.equal(q.elementBytes, 16);
  assert.equal(q.idealWavefronts, 4);
  figures(accessAt(result, text, 'out[t] = q4[t].w;', 'load', 'q4'), 'conflict', 4, 8, 64, 32);
});

test('bit-fields share their unit: `unsigned lo : 4; unsigned hi : 28;` is one 4-byte word, and a store to a bit-field reads and writes it (was: each bit-field a whole member, 8-byte struct, pb[t].lo = v a false 2-way store and no load)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.equal(result.arrays.find((a) => a.name === 'pb')?.typeText, 'PixBits[64]');
  // pb[t] at 4 t: 32 words in 32 banks, read and written back
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'pb[t].lo = t & 15;', kind, 'pb');
    figures(a, 'conflict-free', 1, 1, 32, 32);
    assert.equal(a.elementBytes, 4);
    assert.ok(a.assumptions.some((s) => s.includes('`pb[t].lo` is a bit-field: a store to it reads and writes the 4-byte unit that holds it')), a.assumptions.join('\n'));
  }
  // hi is in the same word as lo: pb[2 t] at 8 t, 2-way
  figures(accessAt(result, text, 'out[t] = pb[t * 2].hi', 'load', 'pb'), 'conflict', 2, 2, 32, 32);
  // Wide: a in bits 0-19, b cannot straddle the first unit: bits 32-51 (the word at 4), c (unsigned short : 3) at
  // bits 52-54, in the 2-byte unit at byte 6; 8 bytes a struct: b and c 2-way
  figures(accessAt(result, text, 'wd[t].b = t;', 'store', 'wd'), 'conflict', 2, 2, 32, 32);
  const c = accessAt(result, text, '+ wd[t].b + wd[t].c;', 'load', 'wd[t].c');
  figures(c, 'conflict', 2, 2, 32, 32);
  assert.equal(c.elementBytes, 2);
});

test('a zero-width bit-field moves to the next unit; an unnamed one does not align the struct', () => {
  const text = [
    'struct Flags { unsigned char valid : 1; unsigned char dirty : 1; unsigned char : 0; unsigned char owner : 6; short n; };',
    '__global__ void k(int *out)',
    '{',
    '    __shared__ Flags fl[64];',
    '    int t = threadIdx.x;',
    '    out[t] = fl[t].owner + fl[t].n;',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  // sizeof(Flags) 4 (g++ and nvcc): owner at byte 1, n at byte 2
  const o = accessAt(result, text, 'out[t] = fl[t].owner', 'load', 'fl[t].owner');
  figures(o, 'conflict-free', 1, 1, 32, 32);
  assert.equal(o.elementBytes, 1);
  const n = accessAt(result, text, 'out[t] = fl[t].owner', 'load', 'fl[t].n');
  figures(n, 'conflict-free', 1, 1, 32, 32);
  assert.equal(n.elementBytes, 2);
  assert.equal(n.worst!.resultBytes, 64);
});

test('a 16-byte load whose lane pairs n, n^1 share addresses says the cc 7.x measurement of 2 wavefronts is uncertain (was: 4 wavefronts with no word of it); other 16-byte loads do not', () => {
  const text = [
    '__global__ void k(float4 *out)',
    '{',
    '    __shared__ float4 s4[64];',
    '    int t = threadIdx.x;',
    '    s4[t] = out[t];',
    '    __syncthreads();',
    '    float4 a = s4[t >> 1];',
    '    float4 b = s4[t ^ 1];',
    '    out[t] = make_float4(a.x, b.y, 0, 0);',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  const note = /lanes n and n\^1 read the same 16 bytes: such a 16-byte load has been measured at 2 wavefronts, not 4, on cc 7\.x \(uncertain/;
  // 8 lanes a phase, 4 distinct float4s: 16 words in 16 banks, one wavefront a phase, 4 in all (the model's figure)
  const a = accessAt(result, text, 'float4 a = s4[t >> 1];', 'load', 's4');
  figures(a, 'conflict-free', 1, 4, 64, 32);
  assert.ok(a.assumptions.some((s) => note.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'float4 b = s4[t ^ 1];', 'load', 's4');
  figures(b, 'conflict-free', 1, 4, 128, 32);
  assert.ok(!b.assumptions.some((s) => /n\^/.test(s)), b.assumptions.join('\n'));
  assert.ok(!accessAt(result, text, 's4[t] = out[t];', 'store', 's4').assumptions.some((s) => /n\^/.test(s)));
});
