// Regressions from the seventeenth sweep of unseen kernels, helper D (the kernels of "shared memory bank conflict"
// questions: transposes, tiled matrix multiplies, double / char / struct tiles, dynamic shared memory split by
// pointer arithmetic, reductions, halo tiles), and the half-typed code a user runs it on. Figures from a brute-force
// lane oracle of the bank model (scratch/helper-h17d/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen17d.cu';

test('a float pointer at an odd short offset of the dynamic region (the Programming Guide\'s array0[127]) is misaligned, not a conflict (was: 2-way, 33 words)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'array1[t] = t;', 'store', 'array1');
  assert.equal(s.status, 'unknown', s.message);
  assert.match(s.reason!, /misaligned: lane 0 of warp 0 addresses byte 254 of `array`, which starts at a multiple of 4: not a multiple of 4/);
  assert.match(s.reason!, /the GPU faults on a misaligned shared-memory access/);
  assert.equal(accessAt(result, text, 'o[t] = array1[t] + array2[t]', 'load', 'array1').status, 'unknown');
  // at array0[128], byte 256: 32 words in 32 banks
  const ok = accessAt(result, text, 'array2[t] = t;', 'store', 'array2');
  figures(ok, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(ok.block, [128, 1, 1]);
  // the shorts themselves: two lanes a word, 16 words
  figures(accessAt(result, text, 'array0[t] = t;', 'store', 'array0'), 'conflict-free', 1, 1, 16, 32);
});

test('a double at a byte offset the host computed as 33 floats is aligned only if the region starts 4 bytes off (was: conflict-free, 2 wavefronts)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'tail[t] = (double)t;', 'store', 'tail');
  assert.equal(s.status, 'unknown', s.message);
  assert.match(s.reason!, /misaligned unless `pool` starts 4 bytes past a multiple of 8: lane 0 of warp 0 addresses byte 132 of it/);
  assert.equal(accessAt(result, text, 'out[t] = head[t] + tail[t];', 'load', 'tail').status, 'unknown');
  // the floats before it are exact
  figures(accessAt(result, text, 'head[t] = (float)t;', 'store', 'head'), 'conflict-free', 1, 1, 32, 32);
});

test('a double one float into a double array is misaligned (was: conflict-free, 2 wavefronts); two floats in it is exact', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const q = accessAt(result, text, 'q[t] = t;', 'store', 'q');
  assert.equal(q.status, 'unknown', q.message);
  assert.match(q.reason!, /byte 4 of `dd`, which starts at a multiple of 8: not a multiple of 8, the access's width/);
  // byte 8 + 8 t: 64 words over two half-warps, conflict-free
  figures(accessAt(result, text, 'r[t] = t;', 'store', 'r'), 'conflict-free', 1, 2, 64, 32);
});

test('__align__ written on an extern __shared__ region is its alignment, and a short one byte into a char array is misaligned unless the array starts odd (was: the shorts conflict-free over 17 words, the float4 at byte 12 conflict-free in 4 wavefronts)', () => {
  const text = [
    '__global__ void oddShort(short *o) {',
    '  __shared__ char cb[256];',
    '  extern __shared__ __align__(16) char dyn[];',
    '  short *s = (short *)&cb[1];',
    '  float4 *v = (float4 *)(dyn + 4 * 3);',
    '  int t = threadIdx.x;',
    '  s[t] = t;',
    '  v[t] = make_float4(1.f, 1.f, 1.f, 1.f);',
    '  o[t] = v[t].x;',
    '}',
    'int main() { short *d; oddShort<<<1, 32, 4096>>>(d); }',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000 });
  const s = accessAt(result, text, 's[t] = t;', 'store', 's');
  assert.equal(s.status, 'unknown');
  assert.match(s.reason!, /^misaligned unless `cb` starts 1 byte past a multiple of 2: lane 0 of warp 0 addresses byte 1 of it, and its declaration aligns it only to 1/);
  const v = accessAt(result, text, 'v[t] = make_float4', 'store', 'v');
  assert.equal(v.status, 'unknown');
  assert.match(v.reason!, /^misaligned: lane 0 of warp 0 addresses byte 12 of `dyn`, which starts at a multiple of 16: not a multiple of 16/);
  // its .x alone is a 4-byte access at 12 + 16 t: aligned, four words a bank
  figures(accessAt(result, text, 'o[t] = v[t].x;', 'load', 'v'), 'conflict', 4, 4, 32, 32);
});

test('the padding fix never misaligns a 16-byte cp.async (was: "Pad at to [32][33]", rows of 132 bytes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // column read: words 32 t + k, all in bank k
  figures(accessAt(result, text, 's += at[t][k];', 'load', 'at'), 'conflict', 32, 32, 32, 32);
  const arr = result.arrays.find((a) => a.name === 'at')!;
  // rows of 36 floats (144 bytes, a multiple of 16): words 36 t + k, banks 4 t + k, four words a bank
  assert.equal(arr.fix!.title, 'Pad at to [32][36]: the worst access goes from 32-way to 4-way; wavefronts 1056 -> 160 (2 accesses checked)');
});

test('a member of a packed struct is accessed byte by byte, as nvcc emits it, at the packed offsets (was: the natural layout, one 4-byte access, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // __attribute__((packed)) { float x, y, z, w; char tag; }: 17 bytes; x is four 1-byte requests at 17 t + k
  const x = accessAt(result, text, 'tg[t].x = out[t];', 'store', 'tg');
  figures(x, 'conflict', 3, 3, 32, 32);
  assert.deepEqual(x.cases.map((c) => c.degree), [2, 3, 3, 3]);
  assert.deepEqual(x.cases.map((c) => c.context.byte), [0, 1, 2, 3]);
  assert.ok(x.assumptions.some((a) => a === '`Tagged` is packed: 4-byte accesses of its member `x` are made as 4 accesses of 1 byte, as nvcc emits them; each is its own request'), x.assumptions.join('\n'));
  // the tag at byte 17 t + 16
  figures(accessAt(result, text, '+ tg[t].tag;', 'load', 'tg[t].tag'), 'conflict', 2, 2, 32, 32);
  // #pragma pack(push, 1) { char; double; }: 9 bytes, the double eight 1-byte requests at 9 t + 1 + k (was: 16 bytes, 2-way in 4 wavefronts, 64 words)
  const v = accessAt(result, text, 'sp[t].value = out[t];', 'store', 'sp');
  figures(v, 'conflict', 2, 2, 32, 32);
  assert.ok(v.assumptions.some((a) => /`Sample` is packed: 8-byte accesses of its member `value` are made as 8 accesses of 1 byte/.test(a)), v.assumptions.join('\n'));
  // after #pragma pack(pop) the same struct is laid out naturally: one 8-byte access at 16 t + 8
  figures(accessAt(result, text, 'pl[t].value = out[t];', 'store', 'pl'), 'conflict', 2, 4, 64, 32);
});

test('the classic question kernels keep the accepted answers (was: already exact; pinned)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // transpose 32x8: the column read of float[32][32] is 32-way, padded to 33 conflict-free
  const naive = accessAt(result, text, 'odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];', 'load', 'tile');
  const bothTiles = result.accesses.filter((a) => a.array === 'tile' && a.kind === 'load');
  assert.equal(bothTiles.length, 2);
  assert.deepEqual(bothTiles.map((a) => a.degree), [32, 1]);
  assert.deepEqual(naive.block, [32, 8, 1]);
  // a 16x16 block holds two rows a warp: [16][17] is still 2-way both ways, and the fix is +2, not +1
  figures(accessAt(result, text, 't16[ty][tx] = in[', 'store', 't16'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, '= t16[tx][ty];', 'load', 't16'), 'conflict', 2, 2, 32, 32);
  assert.match(result.arrays.find((a) => a.name === 't16')!.fix!.title, /^Pad t16 to \[BLOCK_SIZE\]\[BLOCK_SIZE \+ 2\]: the worst access stays 2-way; 1 of 2 conflicting accesses becomes conflict-free; wavefronts 32 -> 24/);
  // matrix multiply 16x16: As[ty][k] is two words on the warp (two rows), Bs[k][tx] 16 words; swapped indices 8-way
  figures(accessAt(result, text, 'sum += As[ty][k] * Bs[k][tx];', 'load', 'As'), 'conflict-free', 1, 1, 2, 32);
  figures(accessAt(result, text, 'sum += As[ty][k] * Bs[k][tx];', 'load', 'Bs'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 'As2[tx][ty] = A[', 'store', 'As2'), 'conflict', 8, 8, 32, 32);
  figures(accessAt(result, text, 'sum += As2[k][ty] * Bs2[tx][k];', 'load', 'Bs2'), 'conflict', 8, 8, 16, 32);
  // doubles: sd[tid] 2 wavefronts (ideal 2), sd[2 * tid] 2-way in each half-warp; double[32][32] column 16-way, 33 clean
  figures(accessAt(result, text, 'sd[tid] = in[tid];', 'store', 'sd'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, 'out[tid] = sd[2 * tid]', 'load', 'sd[2 * tid]'), 'conflict', 2, 4, 64, 32);
  figures(accessAt(result, text, 'out[ty * 32 + tx] = dt[tx][ty]', 'load', 'dt'), 'conflict', 16, 32, 64, 32);
  figures(accessAt(result, text, 'out[ty * 32 + tx] = dt[tx][ty]', 'load', 'dp'), 'conflict-free', 1, 2, 64, 32);
  // chars: four lanes a word never conflict; tid * 128 % 1024 is eight words of bank 0
  figures(accessAt(result, text, 'uc[tid] = in[tid];', 'store', 'uc'), 'conflict-free', 1, 1, 8, 32);
  figures(accessAt(result, text, 'sc[tid * 128 % 1024]', 'load', 'sc[tid * 128'), 'conflict', 8, 8, 8, 32);
  // array of structs: 3 floats stride 3 clean, 4 floats 4-way, { double; int } 16 bytes: 2-way double, 4-way int
  figures(accessAt(result, text, 'p3[t].x = in[t];', 'store', 'p3'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'p4[t].x = in[t];', 'store', 'p4'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'rec[t].d = in[t];', 'store', 'rec'), 'conflict', 2, 4, 64, 32);
  figures(accessAt(result, text, 'rec[t].i = t;', 'store', 'rec'), 'conflict', 4, 4, 32, 32);
  // float2 column 16-way in 32 wavefronts; float4 at stride 2 2-way in 8 (ideal 4)
  figures(accessAt(result, text, 'float2 a = f2[tx][ty];', 'load', 'f2'), 'conflict', 16, 32, 64, 32);
  figures(accessAt(result, text, 'float4 b = f4[2 * tx];', 'load', 'f4'), 'conflict', 2, 8, 128, 32);
  // int a[32][33] both ways clean on 32x32
  figures(accessAt(result, text, '= a[threadIdx.x][threadIdx.y];', 'load', 'a'), 'conflict-free', 1, 1, 32, 32);
  // split dynamic region: sC after 2 * 128 floats, at stride 2: 2-way
  figures(accessAt(result, text, 'sC[2 * t] = t;', 'store', 'sC'), 'conflict', 2, 2, 32, 32);
  // the modulo reduction's worst with the most lanes: s = 1, 16 lanes at stride 2, clean
  figures(accessAt(result, text, 'sm[tid] += sm[tid + s];', 'load', 'sm[tid + s]'), 'conflict-free', 1, 1, 16, 16);
  // halo tile of 20 floats a row on 16x16: rows 20 apart overlap in 4 banks; the fix is a row of 48
  figures(accessAt(result, text, 'ctile[ty + R][tx + R] = in[', 'store', 'ctile'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'ctile[ty + R][tx] = in[', 'store', 'ctile'), 'conflict-free', 1, 1, 4, 4);
  assert.match(result.arrays.find((a) => a.name === 'ctile')!.fix!.title, /^Pad ctile to \[BLOCK_SIZE \+ 2 \* R\]\[BLOCK_SIZE \+ 2 \* R \+ 28\]: 2 conflicting accesses become conflict-free/);
  // the forum's shm[idx * 4] on grid 2, block 32: 4-way in both blocks
  figures(accessAt(result, text, 'out[idx] = shm[idx * 4];', 'load', 'shm'), 'conflict', 4, 4, 32, 32);
  // vol[t.x % 4][t.z][t.y] on 8x8x4: 16 words, four in a bank
  figures(accessAt(result, text, 'out[threadIdx.x] = vol[', 'load', 'vol'), 'conflict', 4, 4, 16, 32);
  // the one unknown besides the misaligned ones: the histogram's bin loaded from memory
  const hist = accessAt(result, text, 'atomicAdd(&s_hist[data[i]], 1);', 'atomic');
  assert.equal(hist.status, 'unknown');
  assert.match(hist.reason!, /`data\[i\]` is a value loaded from memory/);
});

test('what the asker typed half-way (a missing `;`, an undeclared name, an unclosed loop) leaves the intact kernels exact (was: already so; pinned)', () => {
  const text = [
    '#define TILE 32',
    '__global__ void good1(float *o) {',
    '  __shared__ float tile[TILE][TILE];',
    '  tile[threadIdx.x][threadIdx.y] = o[threadIdx.x];',
    '}',
    '__global__ void halfTyped(float *o) {',
    '  __shared__ float s[TILE][TILE + 1];',
    '  s[threadIdx.y][threadIdx.x] = o[threadIdx.x]',
    '  __syncthreads();',
    '  o[threadIdx.x] = s[threadIdx.x][threadIdx.y] * undeclaredScale;',
    '  for (int i = 0; i < 4; i++) {',
    '    o[i] += s[i][threadIdx.x];',
    '',
    '__global__ void good2(float *o) {',
    '  __shared__ float t2[TILE][TILE];',
    '  o[threadIdx.x] = t2[threadIdx.x][threadIdx.y];',
    '}',
    'int main() { float *d; good1<<<1, dim3(32, 8)>>>(d); halfTyped<<<1, dim3(32, 8)>>>(d); good2<<<1, dim3(32, 8)>>>(d); }',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000 });
  figures(accessAt(result, text, 'tile[threadIdx.x][threadIdx.y] = o', 'store', 'tile'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'o[threadIdx.x] = t2[threadIdx.x][threadIdx.y];', 'load', 't2'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, '= s[threadIdx.x][threadIdx.y] * undeclaredScale', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(result.notices.some((n) => /not closed before line 14/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});
