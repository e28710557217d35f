// Regressions from the nineteenth sweep of unseen kernels, helper B: preprocessor-heavy CUDA (X-macro lists that
// define kernels, whole-kernel macros, X-macro instantiations, token pasting, shared arrays declared by macros,
// variadic index macros, `_Pragma`, `#undef` and redefinition, macros local to a kernel body, undecided `#if`s),
// written from scratch in that style. Figures from a brute-force lane oracle of the bank model (scratch/oracle.py,
// not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText, AccessFinding, FileAnalysis } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf, inKernel } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen19b.cu';

test('an X-macro list that defines one kernel per type is expanded: each kernel is analysed, reported at the macro\'s line (was: no access of strided_float, strided_double or strided_int, without a word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const store = (k: string) => inKernel(result, text, 's_##T[2 * t] = out[t];', 'store', k);
  figures(store('strided_float'), 'conflict', 2, 2, 32, 32);
  figures(store('strided_int'), 'conflict', 2, 2, 32, 32);
  // 8-byte lanes at stride 2 elements: lanes t and t + 8 of each half-warp share a bank
  figures(store('strided_double'), 'conflict', 2, 4, 64, 32);
  assert.equal(store('strided_double').array, 's_double');
  assert.equal(store('strided_double').worst!.banksUsed, 16);
  figures(inKernel(result, text, 'out[t] = s_##T[t];', 'load', 'strided_double'), 'conflict-free', 1, 2, 64, 32);
  assert.deepEqual(store('strided_float').block, [32, 1, 1]);
  assert.ok(store('strided_float').assumptions[0].includes('in the expansion of the macro `DEFINE_STRIDED` (line 31) used at line 39 through `TYPE_LIST`'), store('strided_float').assumptions.join('\n'));
  // its array gets no padding fix: the edit would land in the macro
  const arr = result.arrays.find((a) => a.name === 's_float')!;
  assert.equal(arr.fix, undefined);
  assert.match(arr.noFixReason!, /declared in the expansion of the macro `DEFINE_STRIDED`/);
});

test('a macro that defines a whole kernel template is expanded per use (was: a notice that the code is not analysed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(inKernel(result, text, 'sm[threadIdx.x * STRIDE] = g[threadIdx.x];', 'store', 'scale_s1'), 'conflict-free', 1, 1, 32, 32);
  const s4 = inKernel(result, text, 'sm[threadIdx.x * STRIDE] = g[threadIdx.x];', 'store', 'scale_s4');
  figures(s4, 'conflict', 4, 4, 32, 32);
  assert.equal(s4.worst!.banksUsed, 8);
  assert.deepEqual(s4.block, [64, 1, 1]);
  figures(inKernel(result, text, 'g[threadIdx.x] = sm[threadIdx.x * STRIDE] * 2.0f;', 'load', 'scale_s4'), 'conflict', 4, 4, 32, 32);
  assert.ok(!result.notices.some((n) => /outside any function/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});

test('explicit instantiations written by an X-macro list bind the template (was: unknown, the size of `T` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // the worst instance is <double, 32>: 8-byte lanes at stride 2
  const st = accessAt(result, text, 's[threadIdx.x * 2] = g[threadIdx.x];', 'store', 's');
  figures(st, 'conflict', 2, 4, 64, 32);
  // both instances (float: 2 wavefronts, double: 4) are 2-way: no case differs in degree, two contexts are said
  assert.ok(st.assumptions.some((a) => a.startsWith('2 contexts evaluated')), st.assumptions.join('\n'));
  figures(accessAt(result, text, 'g[threadIdx.x] = s[threadIdx.x + 1];', 'load', 's'), 'conflict-free', 1, 2, 64, 32);
});

test('shared arrays declared by function-like macros, also with a pasted name (was: the arrays and every access of them lost without a word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 's_a[ty * TILE_W + tx] = g[ty * TILE_W + tx];', 'store', 's_a'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 's_b[tx * (TILE_W + 1) + ty] = g[tx];', 'store', 's_b'), 'conflict-free', 1, 1, 32, 32);
  const col = accessAt(result, text, 'g[tx] = s_a[tx * TILE_W + ty] + s_b[ty * (TILE_W + 1) + tx];', 'load', 's_a');
  figures(col, 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'g[tx] = s_a[tx * TILE_W + ty] + s_b[ty * (TILE_W + 1) + tx];', 'load', 's_b'), 'conflict-free', 1, 1, 32, 32);
  // SMEM_DECL(float, sm, ...): a type among the arguments made the statement a broken declaration
  figures(accessAt(result, text, 'if (ty == 0) sm[tx * 2] = g[tx];', 'store', 'sm'), 'conflict', 2, 2, 32, 32);
  const decl = lineOf(text, 'SHARED_TILE(a, float, TILE_W * TILE_W);');
  assert.deepEqual(result.arrays.filter((a) => a.declRange.start.line >= decl && a.declRange.start.line <= decl + 2).map((a) => [a.name, a.typeText]), [['s_a', 'float[1024]'], ['s_b', 'float[1056]'], ['sm', 'float[64]']]);
  assert.ok(!result.notices.some((n) => /syntax error/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  // no padding fix edits the macro's use
  assert.match(result.arrays.find((a) => a.name === 's_a')!.noFixReason ?? '', /expansion of the macro `SHARED_TILE` or `SMEM_DECL`|one-dimensional/);
});

test('a 2-D array declared by a macro is analysed and gets no padding fix that would edit the macro\'s use (was: the array and its accesses lost)', () => {
  const text = [
    '#define SMEM2(T, name, r, c) __shared__ T name[r][c]',
    '__global__ void k(float *g) {',
    '  SMEM2(float, tl, 32, 32);',
    '  int tx = threadIdx.x, ty = threadIdx.y;',
    '  tl[ty][tx] = g[tx];',
    '  __syncthreads();',
    '  g[tx] = tl[tx][ty];',
    '}',
    'int main() { dim3 b(32, 8); k<<<1, b>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  figures(accessAt(r, text, 'g[tx] = tl[tx][ty];', 'load', 'tl'), 'conflict', 32, 32, 32, 32);
  const a = r.arrays.find((x) => x.name === 'tl')!;
  assert.equal(a.typeText, 'float[32][32]');
  assert.equal(a.fix, undefined);
  assert.equal(a.noFixReason, '`tl` is declared in the expansion of the macro `SMEM2`: no padding fix edits a macro');
});

test('`__VA_ARGS__` stands for the variadic arguments (was: `AT(tile, ty, tx)` lost; `SAT(...)` unknown, "`__VA_ARGS__` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'AT(tile, ty, tx) = g[ty * 32 + tx];', 'store', 'AT'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'SAT(tx * 32 + ty) = g[tx];', 'store', 'SAT'), 'conflict', 32, 32, 32, 32);
  const line = lineOf(text, 'g[ty * 32 + tx] = AT(tile, tx, ty) + SAT(ty * 32 + tx);');
  const loads = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load');
  assert.deepEqual(loads.map((a) => [a.sharedArray, a.status, a.degree]), [['tile', 'conflict-free', 1], ['sv', 'conflict-free', 1]]);
});

test('`_Pragma("unroll")` in a loop macro is dropped as `#pragma` is (was: unknown, "`i` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 's[i][t] = g[t];', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  const col = accessAt(result, text, 'g[t] += s[t][k];', 'load', 's');
  figures(col, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(col.cases.length, 0);
});

test('index macros through extent macros, `#pragma unroll` loops, a `-D` knob with a default, `#ifdef __CUDACC__`, an `#elif` chain (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // USE_PAD is not given: LDS is TILE (32)
  figures(accessAt(result, text, 'tile[IDX(ty + j, tx)] = in[(ty + j) * TILE + tx];', 'store', 'tile'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'out[(ty + j) * TILE + tx] = tile[IDX(tx, ty + j)];', 'load', 'tile'), 'conflict', 32, 32, 32, 32);
  const knob = accessAt(result, text, 'g[ty * BLOCK + tx] = s[tx][ty];', 'load', 's');
  figures(knob, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(knob.block, [16, 16, 1]);
  figures(accessAt(result, text, 's[threadIdx.x * SMEM_STRIDE] = g[threadIdx.x];', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'd[threadIdx.x * 2] = g[threadIdx.x];', 'store', 'd'), 'conflict', 2, 4, 64, 32);
  assert.equal(result.accesses.filter((a) => a.kernel === 'elif_chain').length, 2);
  // with -D USE_PAD -D BLOCK=32: LDS is 33, the transpose's read conflict-free, the knob 32x32
  const padded = analyzeFile(FIXTURE, { defines: { USE_PAD: '1', BLOCK: '32' } }).result;
  figures(accessAt(padded, text, 'out[(ty + j) * TILE + tx] = tile[IDX(tx, ty + j)];', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
  const k32 = accessAt(padded, text, 'g[ty * BLOCK + tx] = s[tx][ty];', 'load', 's');
  figures(k32, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(k32.block, [32, 32, 1]);
});

test('a macro `#undef`ined and defined again between kernels is read as each kernel sees it (was: width32 read with WIDTH 33, its 32-way store reported conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w32 = result.accesses.filter((a) => a.kernel === 'width32');
  figures(w32.find((a) => a.kind === 'store')!, 'conflict', 32, 32, 32, 32);
  figures(w32.find((a) => a.kind === 'load')!, 'conflict-free', 1, 1, 32, 32);
  assert.ok(w32.every((a) => !a.outOfBounds));
  figures(result.accesses.find((a) => a.kernel === 'width33' && a.kind === 'store')!, 'conflict-free', 1, 1, 32, 32);
  const line = (k: string) => lineOf(text, `__global__ void ${k}(`) + 1;
  assert.deepEqual(result.arrays.filter((a) => a.declRange.start.line === line('width32') || a.declRange.start.line === line('width33')).map((a) => a.typeText), ['float[1024]', 'float[1056]']);
});

test('macros defined and undefined inside kernel bodies are each kernel\'s own (was: local_a read with local_b\'s `s[2 * (i)]`: a false 2-way conflict and a false out-of-bounds error)', () => {
  const { result } = analyzeFile(FIXTURE);
  const a = result.accesses.filter((x) => x.kernel === 'local_a');
  assert.equal(a.length, 2);
  for (const x of a) {
    figures(x, 'conflict-free', 1, 1, 32, 32);
    assert.equal(x.outOfBounds, undefined);
  }
  const b = result.accesses.filter((x) => x.kernel === 'local_b');
  for (const x of b) figures(x, 'conflict', 2, 2, 32, 32);
});

test('an `#if` on a macro nobody defines keeps both branches and says so; one whose branches define a macro says which definition is read (was: both silent)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 's[threadIdx.x * 4] = g[threadIdx.x];', 'store', 's'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'g[threadIdx.x] = s[threadIdx.x * 2];', 'load', 's'), 'conflict', 2, 2, 32, 32);
  const at = (snippet: string, from = 0) => result.notices.filter((n) => n.range.start.line === lineOf(text, snippet, from)).map((n) => n.message);
  assert.deepEqual(at('#if USE_FAST_PATH'), ['`USE_FAST_PATH` is neither defined in this file nor given (`-D`), so this condition is not decided: every branch it does not rule out is analysed (give the macro with `-D`, or the `defines` setting, to analyse only the branch it takes)']);
  assert.deepEqual(at('#if defined(USE_PAD) && PAD > 0', 10), ['`USE_PAD` is neither defined in this file nor given (`-D`), so this condition is not decided: `LDS` (line 25) is defined in its branches, and the last definition is the one analysed (give the macro with `-D`, or the `defines` setting, to analyse the one it takes)']);
  // given, the branch is decided: no notice, one store
  const given = analyzeFile(FIXTURE, { defines: { USE_FAST_PATH: '0', USE_PAD: '1' } }).result;
  assert.ok(!given.notices.some((n) => /USE_FAST_PATH|USE_PAD/.test(n.message)), given.notices.map((n) => n.message).join('\n'));
  assert.equal(given.accesses.filter((a) => a.kernel === 'undefined_if' && a.kind === 'store').length, 1);
});

test('a chain on `__CUDA_ARCH__` that only defines a macro says the last definition is read, not that every branch is analysed (was: "every branch it does not rule out is analysed")', () => {
  const text = [
    '#if __CUDA_ARCH__ >= 800',
    '#define STAGES 3',
    '#else',
    '#define STAGES 2',
    '#endif',
    '__global__ void stages(float *g) {',
    '  __shared__ float s[STAGES * 32];',
    '  s[threadIdx.x * STAGES] = g[threadIdx.x];',
    '}',
    'int main() { stages<<<1, 32>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  assert.deepEqual(r.notices.map((n) => [n.range.start.line, n.message]), [[0, 'this condition on `__CUDA_ARCH__` is not decided for sm_50+: `STAGES` (line 4) is defined in its branches, and the last definition is the one analysed (choose one architecture, such as sm_80, to analyse the one it takes)']]);
  figures(accessAt(r, text, 's[threadIdx.x * STAGES]', 'store', 's'), 'conflict', 2, 2, 32, 32);
  const r80 = analyzeText(text, { arch: 'sm_80' });
  assert.deepEqual(r80.notices, []);
  figures(accessAt(r80, text, 's[threadIdx.x * STAGES]', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
});

test('statement macros: a do-while store macro and a reduction-step macro (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'if (tid < 32) STORE2(sw, tid * STRIDE, g[tid]);', 'store');
  // both stores of the expansion (words 16 t and 16 t + 32) are 16-way
  figures(st, 'conflict', 16, 16, 32, 32);
  assert.equal(st.outOfBounds, undefined);
  const steps = result.accesses.filter((a) => a.kernel === 'statement_macros' && a.sharedArray === 'sdata' && a.kind === 'store');
  assert.equal(steps.length, 3);
  for (const s of steps) figures(s, 'conflict-free', 1, 1, 32, 32);
});

test('a guard quoted from a statement macro applied to shared memory names the argument, not the placeholder it was bound to (was: `(__bank_lens_m0_0)[(t) * 2] > 0` at line 2)', () => {
  const text = [
    '#define PICK(a, n, t, res) if ((a)[(t) * 2] > 0) { if ((t) < (n)) *(res) = (a)[(t) + 1]; }',
    '__global__ void pick(const int *in, int *out) {',
    '  __shared__ int edge[64];',
    '  __shared__ int found;',
    '  const int t = threadIdx.x;',
    '  edge[t] = in[t];',
    '  edge[t + 32] = in[t + 32];',
    '  __syncthreads();',
    '  PICK(edge, 31, t, &found);',
    '  out[t] = found;',
    '}',
    'int main() { pick<<<1, 32>>>(0, 0); }',
  ].join('\n');
  const r = analyzeText(text);
  const said = r.accesses.flatMap((a) => a.assumptions).filter((s) => s.startsWith('the guard `'));
  assert.ok(said.length > 0, JSON.stringify(r.accesses.map((a) => a.assumptions)));
  for (const s of said) {
    assert.ok(!s.includes('__bank_lens'), s);
    // the macro's text with the arguments in it (each parenthesised as the expansion has it), on the use's line
    assert.match(s, /^the guard `\(edge\)\[\(\(t\)\) \* 2\] > 0` at line 9 could not be evaluated per lane \(`\(edge\)\[\(\(t\)\) \* 2\]` is a value loaded from shared memory\)/);
  }
  // the macro's reads of `edge` at its use (one site): the guard's words 2t, two lanes to a bank, the worst
  figures(accessAt(r, text, 'PICK(edge, 31, t, &found);', 'load', 'PICK'), 'conflict', 2, 2, 32, 32);
});
