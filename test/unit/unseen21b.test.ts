// Regressions from the twenty-first sweep of unseen kernels, helper B: dynamic shared memory as people carve it (one
// byte buffer split into typed parts at offsets aligned up with `& ~static_cast<size_t>(15)` or a constexpr alignUp,
// a struct laid over the buffer and reached through a pointer, SharedMemory<T>, double buffering by pointer swap, in
// the kernel and through a swap helper taking references, half-warp and per-warp slices, 2-D and 3-D blocks,
// cudaFuncSetAttribute launches). Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not
// shipped): per lane byte address -> words -> phases of 32, 16 or 8 lanes -> wavefronts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen21b.cu';
const RULE6 = (what: string) => `\`${what}\` adds the same offset to every lane; it does not change the degree (bank model rule 6)`;

test('parts carved at offsets aligned up with `& ~static_cast<size_t>(15)` from a known size are exact (was: unknown, "`~static_cast<size_t>(15)` overflows the range that can be evaluated exactly")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // nseg = 24: segSum at byte 0, segCnt at 96, segSq at 192; 24 lanes active in the zeroing loop
  const cnt = accessAt(result, text, 'segCnt[s] = 0;', 'store', 'segCnt');
  figures(cnt, 'conflict-free', 1, 1, 24, 24);
  assert.equal(cnt.reason, undefined);
  assert.equal(cnt.message, 'segCnt: conflict-free: 24 lanes need 24 distinct words from 24 banks; served in 1 wavefront (ideal 1)');
  assert.deepEqual(cnt.assumptions.slice(0, 2), ['block 256x1x1 from the launch at line 295', '`nseg` = 24 from the launch at line 295']);
  const sq = accessAt(result, text, 'segSq[s] = 0.0;', 'store', 'segSq');
  figures(sq, 'conflict-free', 1, 2, 48, 24);
  assert.equal(sq.idealWavefronts, 2);
  // atomics on t % 24: 32 lanes, 24 words
  figures(accessAt(result, text, 'atomicAdd(&segCnt[seg], 1);', 'atomic'), 'conflict-free', 1, 1, 24, 32);
  // segSq[2 t % 24] from byte 192 (word 48): doubles 0 and 16 share bank 16 in the first half-warp (lanes 0, 8, 12),
  // 2-way there, 1 wavefront in the second: 3 wavefronts (ideal 2). Another offset would name another bank
  const sql = accessAt(result, text, '(float)segSq[2 * t % nseg]', 'load', 'segSq');
  figures(sql, 'conflict', 2, 3, 24, 24);
  assert.equal(sql.worst!.banksUsed, 16);
  assert.equal(sql.message, 'segSq: 2-way bank conflict: 3 lanes need 2 distinct words from bank 16; served in 3 wavefronts (ideal 2)');
});

test('an offset aligned up from a size the host does not know is one warp-uniform offset (was: unknown, "`~static_cast<size_t>(15)` overflows the range that can be evaluated exactly")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const offset = '(((nkeys * sizeof(int))) + 15) & ~static_cast<size_t>(15)';
  const st = accessAt(result, text, 'svals[t] = vals[t];', 'store', 'svals');
  figures(st, 'conflict-free', 1, 4, 128, 32);
  assert.ok(st.assumptions.includes(RULE6(offset)), st.assumptions.join('\n'));
  // float4 at 16 (2 t % 128): lanes n and n + 4 of each quarter-warp on the same banks, 2-way, 8 wavefronts (ideal 4)
  const ld = accessAt(result, text, 'float4 p = svals[2 * t % blockDim.x];', 'load', 'svals');
  figures(ld, 'conflict', 2, 8, 128, 32);
  assert.equal(ld.idealWavefronts, 4);
  assert.equal(ld.worst!.banksUsed, 16);
  assert.ok(ld.assumptions.includes(RULE6(offset)), ld.assumptions.join('\n'));
  // the int keys before it: (t * 8) % 128, 16 words on 4 banks
  figures(accessAt(result, text, 'skeys[(t * 8) % blockDim.x]', 'load', 'skeys'), 'conflict', 4, 4, 16, 32);
});

test('a constexpr alignUp with `& ~(a - 1)` on size_t carves exact parts (was: unknown, "`~(a - 1)` overflows the range that can be evaluated exactly")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // nf = 64, nd = 16: ds at byte 256, flags at 384
  const ds = accessAt(result, text, 'if (t < nd) ds[t] = 2.0 * in[t];', 'store', 'ds');
  figures(ds, 'conflict-free', 1, 1, 32, 16);
  assert.equal(ds.reason, undefined);
  figures(accessAt(result, text, 'flags[t % 8] = 1;', 'store', 'flags'), 'conflict-free', 1, 1, 8, 32);
  const dl = accessAt(result, text, '(float)ds[(t * 2) % nd]', 'load', 'ds');
  figures(dl, 'conflict-free', 1, 2, 16, 32);
  const fl = accessAt(result, text, 'flags[t / 32];', 'load', 'flags');
  figures(fl, 'broadcast', 1, 1, 1, 32);
  assert.equal(fl.message, 'flags: broadcast: 32 lanes read 1 word (4 bytes requested, 128 bytes of results); served in 1 wavefront (ideal 1)');
});

test('`x & ~m` of a 64-bit unsigned m is `x - (x & m)`; other uses of `~m` stay unknown with the reason', () => {
  const text = [
    '#include <cstddef>',
    '__global__ void k(float *out, int n)',
    '{',
    '    extern __shared__ __align__(16) unsigned char raw[];',
    '    const size_t mask = ~size_t(31);',
    '    float *a = reinterpret_cast<float *>(raw + ((n * sizeof(float) + 31) & mask));',
    '    float *b = reinterpret_cast<float *>(raw + (~size_t(31) >> 60));',
    '    float *c = reinterpret_cast<float *>(raw + ((size_t)n & (~size_t(7) & ~size_t(24))));',
    '    int t = threadIdx.x;',
    '    a[32 * t] = 1.f;',
    '    b[t] = 2.f;',
    '    c[32 * t] = 3.f;',
    '}',
    'void h(float *o) { k<<<1, 32, 8192>>>(o, 33); }',
  ].join('\n');
  const r = analyzeText(text);
  // 33 floats = 132 bytes, aligned up to 160: words 40 + 32 t, all on bank 8 (another offset names another bank)
  const a = accessAt(r, text, 'a[32 * t] = 1.f;', 'store', 'a');
  figures(a, 'conflict', 32, 32, 32, 32);
  assert.equal(a.message, 'a: 32-way bank conflict: 32 lanes need 32 distinct words from bank 8; served in 32 wavefronts (ideal 1)');
  const b = accessAt(r, text, 'b[t] = 2.f;', 'store', 'b');
  assert.equal(b.status, 'unknown');
  assert.equal(b.reason, '`~size_t(31)` overflows the range that can be evaluated exactly');
  // ~7 & ~24 is ~31: 33 & ~31 = 32 bytes, words 8 + 32 t on bank 8
  const c = accessAt(r, text, 'c[32 * t] = 3.f;', 'store', 'c');
  figures(c, 'conflict', 32, 32, 32, 32);
  assert.equal(c.message, 'c: 32-way bank conflict: 32 lanes need 32 distinct words from bank 8; served in 32 wavefronts (ideal 1)');
});

test('a pointer swapped through a helper taking references is named as the site spells it (was: `b`, the helper\'s parameter)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // after three swaps `curr` is the first half again: float2 at 8 t, conflict-free in 2 wavefronts
  const last = accessAt(result, text, 'u1[t] = reinterpret_cast<float2 *>(curr)[t];', 'load', 'reinterpret_cast');
  figures(last, 'conflict-free', 1, 2, 64, 32);
  assert.equal(last.array, 'curr');
  assert.equal(last.message, 'curr: conflict-free: 32 lanes need 64 distinct words from 32 banks; served in 2 wavefronts (ideal 2)');
  // in the loop: prev[2 t] and curr[2 ((t + 63) % 64)], 2-way in every pass, whichever half each names
  const p = accessAt(result, text, 'prev[2 * t] = 2.f * c.x - prev[2 * t]', 'store', 'prev');
  figures(p, 'conflict', 2, 2, 32, 32);
  assert.equal(p.array, 'prev');
  const l = accessAt(result, text, 'float left = curr[', 'load', 'curr');
  figures(l, 'conflict', 2, 2, 32, 32);
  assert.equal(l.array, 'curr');
});

test('a member function called through a pointer to a struct laid over the dynamic buffer (`tl->at(ty, tx)`) reaches its data members (was: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // Tile<8, 32>: v[8][33]; at(ty, tx) is word 33 ty + tx: conflict-free; at(tx % 8, 4 ty + tx / 8): banks
  // (tx % 8) + 4 ty + tx / 8, 11 of them, 4 lanes on bank 3
  const st = accessAt(result, text, '__device__ float &at(int r, int c) { return v[r][c]; }', 'store');
  figures(st, 'conflict-free', 1, 1, 32, 32);
  assert.equal(st.kernel, 'tileTranspose');
  assert.deepEqual(st.block, [32, 8, 1]);
  const ld = accessAt(result, text, '__device__ float &at(int r, int c) { return v[r][c]; }', 'load');
  figures(ld, 'conflict', 4, 4, 32, 32);
  assert.equal(ld.worst!.banksUsed, 11);
  assert.equal(ld.message, 'v: 4-way bank conflict: 4 lanes need 4 distinct words from bank 3; served in 4 wavefronts (ideal 1)');
});

test('a member function called by `p->twice(...)` on a struct in shared memory, and the `this->put(...)` it calls, store to its members (was: the `->` call reported nothing)', () => {
  const text = [
    'struct Rows {',
    '    float v[8][32];',
    '    __device__ void put(int r, int c, float x) { v[r][c] = x; }',
    '    __device__ void twice(int r, int c, float x) { this->put(c % 8, r * 4, x); }',
    '};',
    '__global__ void k(float *out)',
    '{',
    '    extern __shared__ __align__(16) unsigned char raw[];',
    '    Rows *p = reinterpret_cast<Rows *>(raw);',
    '    p->twice(threadIdx.y, threadIdx.x, 1.f);',
    '}',
    'int main() { k<<<1, dim3(32, 8), sizeof(Rows)>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  // v[tx % 8][4 ty]: words 32 (tx % 8) + 4 ty, all on bank 4 ty: 8 words, 4 lanes each, 8-way
  const a = accessAt(r, text, '__device__ void put(', 'store');
  figures(a, 'conflict', 8, 8, 8, 32);
  assert.equal(a.worst!.banksUsed, 1);
});

test('guards: half-warp row slices padded by one, the 16x16 Jacobi ping-pong, a struct overlay read by `.`, a 3-D block, a cudaFuncSetAttribute launch', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // row = rows + 17 ty: two rows in a warp, words 17 ty + tx, word 0 and 32 on bank 0
  figures(accessAt(result, text, 'row[threadIdx.x] = in[y * width + x];', 'store', 'row'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'float l = threadIdx.x > 0 ? row[threadIdx.x - 1]', 'load', 'row'), 'conflict-free', 1, 1, 30, 30);
  // JP = 18: (ty + 1) * 18 + tx + 1, 2-way at bank 19; the swapped `nxt` of the second half too, at bank 23
  const c = accessAt(result, text, 'float c = cur[(ty + 1) * JP + tx + 1];', 'load', 'cur');
  figures(c, 'conflict', 2, 2, 32, 32);
  assert.equal(c.worst!.banksUsed, 30);
  assert.match(c.message, /from bank 19;/);
  assert.match(accessAt(result, text, 'nxt[(ty + 1) * JP + tx + 1] = 0.2f', 'store', 'nxt').message, /2-way bank conflict: 2 lanes need 2 distinct words from bank 23;/);
  // SoftmaxSmem: tile at byte 64, rows of 65: tile[flat % 8][flat / 8] 4-way on 11 banks; rowMax[ty] a broadcast
  const sm = accessAt(result, text, 'float v = sm.tile[flat % SM_ROWS][flat / SM_ROWS];', 'load', 'sm');
  figures(sm, 'conflict', 4, 4, 32, 32);
  assert.equal(sm.worst!.banksUsed, 11);
  assert.match(sm.message, /from bank 19;/);
  figures(accessAt(result, text, 'float e = __expf(sm.tile[ty][tx] - sm.rowMax[ty]);', 'load', 'sm.rowMax'), 'broadcast', 1, 1, 1, 32);
  // block 8x4x4: (4 tz + ty) * 9 + tx, 2-way on 29 banks
  const v = accessAt(result, text, 'vol[row + tx] = in[', 'store', 'vol');
  figures(v, 'conflict', 2, 2, 32, 32);
  assert.equal(v.worst!.banksUsed, 29);
  assert.deepEqual(v.block, [8, 4, 4]);
  // A stored transposed: (k4 + i) * 128 + m, 8-way on 4 banks; B's float4 rows conflict-free in 4 wavefronts
  figures(accessAt(result, text, 'a[(k4 + 0) * BM + m] = av.x;', 'store', 'a'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'float4 rb = *reinterpret_cast<const float4 *>(&b[k * BM + tx * 4]);', 'load', '*reinterpret_cast'), 'conflict-free', 1, 4, 64, 32);
  // SharedMemory<double>: interleaved addressing on doubles, 8-way at s = 4 and 8
  const red = accessAt(result, text, 'sdata[index] += sdata[index + s];', 'store', 'sdata');
  figures(red, 'conflict', 8, 8, 32, 16);
  assert.deepEqual(red.cases.map((k) => [k.context.s, k.degree, k.wavefronts]), [[1, 2, 4], [2, 4, 8], [4, 8, 8], [8, 8, 8], [16, 4, 4], [32, 2, 2], [64, 1, 1]]);
});

test('an extern __shared__ access past the bytes the launch gives is out of bounds, named by lane, warp and byte (was: reported conflict-free, no out-of-bounds)', () => {
  const src = `__global__ void overRead(float *out) {
  extern __shared__ float ov[];
  int t = threadIdx.x;
  ov[t] = t;
  __syncthreads();
  out[t] = ov[t + blockDim.x];
}
__global__ void rows(float *out) {
  extern __shared__ float r[];
  r[(threadIdx.y + 1) * 32 + threadIdx.x] = 1.0f;
  r[threadIdx.y * 32 + threadIdx.x + blockIdx.x] = 2.0f;
}
__global__ void fits(float *out) {
  extern __shared__ float s2[];
  int t = threadIdx.x;
  s2[t + blockDim.x] = t;
  out[t] = s2[2 * t];
}
int main() {
  float *d = 0;
  overRead<<<1, 128, 128 * sizeof(float)>>>(d);
  rows<<<4, dim3(32, 8), 32 * 8 * sizeof(float)>>>(d);
  fits<<<1, 128, 2 * 128 * sizeof(float)>>>(d);
  fits<<<1, 64>>>(d);
  return 0;
}
`;
  const r = analyzeText(src, { budgetMs: 60_000 });
  const at = (snippet: string, kind: string) => {
    const i = src.indexOf(snippet);
    const line = src.slice(0, i).split('\n').length - 1;
    const a = r.accesses.find((x) => x.range.start.line === line && x.kind === kind);
    assert.ok(a, snippet);
    return a!;
  };
  assert.equal(at('ov[t] = t;', 'store').outOfBounds, undefined);
  const over = at('out[t] = ov[t + blockDim.x];', 'load');
  assert.deepEqual(over.outOfBounds, {
    lane: 0, warp: 0, index: 512, extent: 512,
    message: 'ov: byte 512 is past the 512 bytes of dynamic shared memory the launch gives, for lane 0 of warp 0 in block 128x1x1',
  });
  assert.equal(over.status, 'conflict-free');
  // block 32x8 (warp mode): the last warp's row 8 is bytes 1024-1151, past 1024: the first of its threads, warp 7 lane 0
  const row = at('r[(threadIdx.y + 1) * 32 + threadIdx.x] = 1.0f;', 'store');
  assert.deepEqual([row.outOfBounds?.warp, row.outOfBounds?.lane, row.outOfBounds?.index], [7, 0, 1024]);
  // a warp-uniform unknown (`blockIdx.x`) in the offset: not known to pass the end, nothing said
  assert.equal(at('r[threadIdx.y * 32 + threadIdx.x + blockIdx.x] = 2.0f;', 'store').outOfBounds, undefined);
  // 1,024 bytes hold both of fits' accesses; a launch that gives no size (0 bytes, its third argument left out) is
  // not checked: a launch the analysis reads otherwise may give it
  assert.equal(at('s2[t + blockDim.x] = t;', 'store').outOfBounds, undefined);
  assert.equal(at('out[t] = s2[2 * t];', 'load').outOfBounds, undefined);
});

test('an access through a member call returning a row (`sm->row(ty)[tx]`) is marked on the object, not on the call\'s first argument (was: the range of `ty`)', () => {
  const text = [
    'struct Smem {',
    '  float v[32][33];',
    '  float w[32][32];',
    '  __device__ float *row(int r) { return &v[r][0]; }',
    '  __device__ float *wrow(int r) { return &w[r][0]; }',
    '};',
    '__global__ void k(float *out)',
    '{',
    '  __shared__ Smem sm_storage;',
    '  Smem *sm = &sm_storage;',
    '  int tx = threadIdx.x, ty = threadIdx.y;',
    '  sm->row(ty)[tx] = out[tx];',
    '  __syncthreads();',
    '  out[tx] = sm->row(tx)[ty] + sm->wrow(tx)[ty];',
    '}',
    'int main() { k<<<1, dim3(32, 8)>>>(0); }',
    '',
  ].join('\n');
  const r = analyzeText(text, { budgetMs: 60_000 });
  const at = (a: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) => [a.range.start.line, a.range.start.character, a.range.end.character];
  const st = r.accesses.find((a) => a.kind === 'store')!;
  assert.deepEqual(at(st), [11, 2, 4]);
  figures(st, 'conflict-free', 1, 1, 32, 32);
  const loads = r.accesses.filter((a) => a.kind === 'load').sort((a, b) => a.range.start.character - b.range.start.character);
  assert.deepEqual(loads.map(at), [[13, 12, 14], [13, 30, 32]]);
  // word 33 tx + ty: 32 banks; word 32 tx + ty: one bank, 32 words
  figures(loads[0], 'conflict-free', 1, 1, 32, 32);
  figures(loads[1], 'conflict', 32, 32, 32, 32);
  assert.equal(loads[1].array, 'w');
});
