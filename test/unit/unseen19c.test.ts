// Regressions from the nineteenth sweep of unseen kernels, helper C: finance, Monte Carlo, dynamic programming and
// particle codes (binomial pricing, Monte Carlo reductions, Sobol, RNG states, n-body and MD tiles, wavefront DP,
// scans, histograms), written from scratch in their style. Figures from a brute-force lane oracle of the bank model
// (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen19c.cu';
let cached: ReturnType<typeof analyzeFile> | null = null;
const fixture = () => (cached ??= analyzeFile(FIXTURE));

test('a macro defined inside a kernel and used without `;` keeps the kernel whole (was: the definition was cut at the `#define` line as a broken one, and every access after it, the macro\'s loads and the read after `#undef`, was silently missing)', () => {
  const { text, result } = fixture();
  const line = lineOf(text, 'BODY(0) BODY(1) BODY(2) BODY(3)');
  const uses = result.accesses.filter((a) => a.kernel === 'nbodySoA' && a.range.start.line === line);
  // four uses, each reading sx, sy, sz and sm at [j + k]: one word for the whole warp
  assert.equal(uses.length, 16, uses.map((a) => a.message).join('\n'));
  for (const a of uses) figures(a, 'broadcast', 1, 1, 1, 32);
  assert.deepEqual(new Set(uses.map((a) => a.array)), new Set(['sx', 'sy', 'sz', 'sm']));
  // the read after the `#undef`: 32 consecutive words of a 64-float tile
  figures(accessAt(result, text, 'ax[i] = a + sx[(threadIdx.x + 1) & (TILE_W - 1)];', 'load', 'sx'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(!result.notices.some((n) => /not closed/.test(n.message)), JSON.stringify(result.notices));
});

test('an `#if` at the start of a line inside a kernel with a macro used without `;` does not cut the kernel either (was: the accesses after it were missing)', () => {
  const text = [
    '#define ACC(k) { a += s[t + k]; }',
    '__global__ void k(float *out)',
    '{',
    '    __shared__ float s[64];',
    '    int t = threadIdx.x;',
    '    float a = 0.f;',
    '    ACC(0) ACC(1)',
    '#if __CUDA_ARCH__ >= 700',
    '    a += s[2 * t];',
    '#endif',
    '    out[t] = a + s[t ^ 1];',
    '}',
    'int main() { k<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  figures(accessAt(result, text, '    a += s[2 * t];', 'load', 's'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'out[t] = a + s[t ^ 1];', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
  assert.equal(result.accesses.filter((a) => a.range.start.line === 6).length, 2);
});

test('a definition with a brace left open is still cut at the `#define` of the next one (a half-typed kernel before intact ones)', () => {
  const text = [
    '__global__ void broken(float *out)',
    '{',
    '    __shared__ float s[64];',
    '    for (int i = 0; i < 4; i++) {',
    '        out[i] = s[threadIdx.x];',
    '#define W 33',
    '__global__ void ok(float *out)',
    '{',
    '    __shared__ float r[32 * W];',
    '    out[threadIdx.x] = r[threadIdx.x * W];',
    '}',
    'int main() { ok<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  figures(accessAt(result, text, 'out[threadIdx.x] = r[threadIdx.x * W];', 'load', 'r'), 'conflict-free', 1, 1, 32, 32);
});

test('Sobol\'s Gray-code step `v[__ffs(~((i - stride) | (stride - 1))) - 1]` is one word for the warp (was: unknown, `|` of `64 * blockIdx.x + 512 * passes` with per-lane values)', () => {
  const { text, result } = fixture();
  const a = accessAt(result, text, 'X ^= v_log2stridem1 ^ v[__ffs(~((i - stride) | v_stridemask)) - 1];', 'load', 'v');
  // grid 8x100 of 64 threads: stride 512; (i - stride) | 511 = 512 * passes + 511 on every lane of the grid
  figures(a, 'broadcast', 1, 1, 1, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  figures(accessAt(result, text, 'X ^= mask & v[k];', 'load', 'v'), 'broadcast', 1, 1, 1, 32);
  figures(accessAt(result, text, 'unsigned int v_log2stridem1 = v[__ffs(stride) - 2];', 'load', 'v'), 'broadcast', 1, 1, 1, 32);
});

test('low bits cleared or set of a global index are exact where no lane carries (was: `gid & ~31` and `(gid | 31) - gid` unknown); where a lane may carry it stays unknown', () => {
  const { text, result } = fixture();
  figures(accessAt(result, text, 'out[0] = s[(gid & ~31) & 4095];', 'load', 's'), 'broadcast', 1, 1, 1, 32);
  figures(accessAt(result, text, 'out[1] = s[(gid | 31) - gid];', 'load', 's'), 'conflict-free', 1, 1, 32, 32);
  // `base` = 5 from the launch: lanes 0..26 on word 31, 27..31 on word 63, both in bank 31
  const b = accessAt(result, text, 'out[2] = s[((base + t) | 31) & 4095];', 'load', 's');
  figures(b, 'conflict', 2, 2, 2, 32);
  assert.equal(b.worst!.banksUsed, 1);
  // 48 * blockIdx.x is 16 mod 32 in odd blocks: lanes 16..31 carry there, 0..15 do not
  const u = accessAt(result, text, 'out[3] = s[((48 * blockIdx.x + t) | 31) & 4095];', 'load', 's');
  assert.equal(u.status, 'unknown');
  assert.match(u.reason ?? '', /48 \* blockIdx\.x/);
});

test('`x | (M - 1)` with a kernel parameter in x stays unknown: a lane may carry into the high bits', () => {
  const text = [
    '__global__ void k(float *out, int head)',
    '{',
    '    __shared__ float s[4096];',
    '    out[0] = s[((head + threadIdx.x) | 31) & 4095];',
    '}',
    'int main(int argc, char **) { k<<<1, 32>>>(0, argc); }',
  ].join('\n');
  const a = accessAt(analyzeText(text), text, 'out[0] = s[((head + threadIdx.x) | 31) & 4095];', 'load', 's');
  assert.equal(a.status, 'unknown');
});

// the family's main patterns, already right: kept so that they stay so

test('binomial pricing: the option values shrunk step by step are conflict-free at every step', () => {
  const { text, result } = fixture();
  const a = accessAt(result, text, 'v = puByDf * callValue[tid + 1] + pdByDf * callValue[tid];', 'load', 'callValue[tid + 1]');
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  figures(accessAt(result, text, 'callValue[tid] = v;', 'store', 'callValue'), 'conflict-free', 1, 1, 32, 32);
});

test('Monte Carlo in double2: a member of a 16-byte element is 2-way in each half-warp, the whole element is clean', () => {
  const { text, result } = fixture();
  figures(accessAt(result, text, 'acc[tid].x = v;', 'store', 'acc'), 'conflict', 2, 4, 64, 32);
  const o = accessAt(result, text, 'double2 o = acc[tid + s];', 'load', 'acc');
  figures(o, 'conflict-free', 1, 4, 128, 32);
  assert.equal(o.elementBytes, 16);
});

test('an Asian option\'s path rows of 32 floats are 32-way; a tile of float4 bodies is one 16-byte location for the warp', () => {
  const { text, result } = fixture();
  figures(accessAt(result, text, 's_path[tid][t] = s;', 'store', 's_path'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'acc = bodyBodyInteraction(myPosition, shPosition[j], acc);', 'load', 'shPosition'), 'broadcast', 1, 4, 4, 32);
});

test('an RNG state of 48 bytes per thread: a member read is 4-way, the whole copy is six 8-byte requests, each 2-way', () => {
  const { text, result } = fixture();
  const line = lineOf(text, 'unsigned int t = st->v[0] ^ (st->v[0] >> 2);');
  const v0 = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load');
  assert.equal(v0.length, 2);
  for (const a of v0) {
    figures(a, 'conflict', 4, 4, 32, 32);
    assert.equal(a.worst!.banksUsed, 8);
  }
  const copy = accessAt(result, text, 's_state[tid] = d_states[blockIdx.x * 64 + tid];', 'store', 's_state');
  figures(copy, 'conflict', 2, 4, 64, 32);
  assert.equal(copy.elementBytes, 8);
});

test('MD tile of 16-byte structs: the member-wise copy is 4-way, the inner loop reads one word', () => {
  const { text, result } = fixture();
  figures(accessAt(result, text, 'tile[threadIdx.x] = atoms[base + threadIdx.x];', 'store', 'tile'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'float dx = me.x - tile[j].x, dy = me.y - tile[j].y, dz = me.z - tile[j].z;', 'load', 'tile[j].x'), 'broadcast', 1, 1, 1, 32);
});

test('wavefront DP: an anti-diagonal of a table padded to 33 is in one bank, of rows of 32 conflict-free; Rodinia\'s needle 8-way', () => {
  const { text, result } = fixture();
  const h = accessAt(result, text, 'H[i + 1][j + 1] = max(0, max(H[i][j] + s, max(H[i][j + 1] - GAP, H[i + 1][j] - GAP)));', 'store', 'H');
  figures(h, 'conflict', 32, 32, 32, 32);
  assert.equal(h.worst!.banksUsed, 1);
  figures(accessAt(result, text, 'T[i][j] = maximum(T[i - 1][j - 1] + score[i * B + j], T[i - 1][j] - GAP, T[i][j - 1] - GAP);', 'store', 'T'), 'conflict-free', 1, 1, 31, 31);
  const n = accessAt(result, text, 'temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],', 'store', 'temp');
  figures(n, 'conflict', 8, 8, 16, 16);
  assert.equal(n.worst!.banksUsed, 2);
  figures(accessAt(result, text, 'temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],', 'load', 'ref'), 'conflict-free', 1, 1, 16, 16);
});

test('a DP row\'s Blelloch scan with conflict-free offsets is conflict-free; a histogram bin from memory is unknown, its merge is not', () => {
  const { text, result } = fixture();
  figures(accessAt(result, text, 'temp[b] += temp[a];', 'store', 'temp'), 'conflict-free', 1, 1, 32, 32);
  const h = accessAt(result, text, 'atomicAdd(&s_hist[warp][data[i]], 1u);', 'atomic', 'atomicAdd');
  assert.equal(h.status, 'unknown');
  assert.match(h.reason ?? '', /data\[i\]/);
  figures(accessAt(result, text, 'for (int w = 0; w < WARPS; w++) sum += s_hist[w][bin];', 'load', 's_hist'), 'conflict-free', 1, 1, 32, 32);
});

test('an index macro each kernel defines and `#undef`s is read as the kernel\'s own (was: every kernel read the file\'s last `IDX`, rows of 32: the padded table\'s anti-diagonal "conflict-free", its column store a false 32-way conflict)', () => {
  const { text, result } = fixture();
  const padded = result.accesses.filter((a) => a.kernel === 'lcsFlatPadded');
  const diag = padded.filter((a) => a.range.start.line === lineOf(text, 'L[IDX(i + 1, j + 1)] = max(L[IDX(i, j + 1)], L[IDX(i + 1, j)]) + score[d];'));
  assert.equal(diag.length, 3);
  // rows of 33: (i + 1) * 33 + d - i + 1 = 32 i + d + 34, one bank for the whole diagonal
  for (const a of diag) figures(a, 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'L[IDX(i + 1, 0)] = 0;', 'store', 'L'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[i] = L[IDX(i + 1, B)];', 'load', 'L'), 'conflict-free', 1, 1, 32, 32);
  // rows of 32 in the next kernel: the column is 32-way, the diagonal 31 i + d conflict-free
  figures(accessAt(result, text, 'L[IDX(i, 0)] = 0;', 'store', 'L'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'L[IDX(i, j)] = L[IDX(i, j - 1)] + score[d];', 'store', 'L'), 'conflict-free', 1, 1, 31, 31);
  figures(accessAt(result, text, 'out[i] = L[IDX(i, B - 1)];', 'load', 'L'), 'conflict', 32, 32, 32, 32);
  assert.ok(result.accesses.filter((a) => a.kernel === 'lcsFlatPadded' || a.kernel === 'lcsFlatRows').every((a) => !a.outOfBounds));
});

test('a file-scope macro redefined after `#undef` between two kernels: each kernel reads the definition in force where it stands (was: both read the last one); a name defined once is unchanged', () => {
  const text = [
    '#define STRIDE 2',
    '#define PAD 1',
    '__global__ void a(float *out)',
    '{',
    '    __shared__ float s[64 + PAD];',
    '    out[threadIdx.x] = s[threadIdx.x * STRIDE];',
    '}',
    '#undef STRIDE',
    '#define STRIDE 1',
    '__global__ void b(float *out)',
    '{',
    '    __shared__ float s[64 + PAD];',
    '    out[threadIdx.x] = s[threadIdx.x * STRIDE + PAD];',
    '}',
    'int main() { a<<<1, 32>>>(0); b<<<1, 32>>>(0); }',
  ].join('\n');
  const result = analyzeText(text);
  const [x, y] = result.accesses;
  assert.equal(x.kernel, 'a');
  figures(x, 'conflict', 2, 2, 32, 32);
  assert.equal(y.kernel, 'b');
  figures(y, 'conflict-free', 1, 1, 32, 32);
});

test('a launch in a host function before a macro is redefined reads the definition in force there (was: the block of the last `THREADS`, 32)', () => {
  const text = [
    '#define THREADS 64',
    '__global__ void a(float *out)',
    '{',
    '    __shared__ float s[THREADS * 2];',
    '    out[threadIdx.x] = s[threadIdx.x * 2];',
    '}',
    'void runA() { a<<<1, THREADS>>>(0); }',
    '#undef THREADS',
    '#define THREADS 32',
    'int main() { runA(); }',
  ].join('\n');
  const a = analyzeText(text).accesses[0];
  assert.deepEqual(a.block, [64, 1, 1]);
  figures(a, 'conflict', 2, 2, 32, 32);
});
