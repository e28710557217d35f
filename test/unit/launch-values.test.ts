// Values the launch or the file states that the engine left unknown, and shared memory it lost without a word: the
// grid of each launch (`gridDim`, from literals, dim3 variables and macros; a grid computed from a runtime size stays
// unknown), a SharedMemory<T> wrapper object converted to a pointer by a declaration, and a wrapper whose
// specialization a macro makes at file scope. Figures from a brute-force lane oracle of the bank model
// (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures, lineOf } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/launch-values.cu';

test('gridDim of a launch with a literal grid is the launch\'s (was: unknown, "combines the unknown warp-uniform value `gridDim.x` with per-lane values")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // grid 4: words 4t in each warp of 64 threads: 4 distinct words in each of 8 banks
  const s = accessAt(result, text, 's[threadIdx.x * gridDim.x] = out[threadIdx.x];', 'store');
  assert.equal(s.kernel, 'grid_stride_words');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.block, [64, 1, 1]);
  const launch = lineOf(text, 'grid_stride_words<<<4, 64>>>(d);') + 1;
  assert.ok(s.assumptions.includes(`grid 4x1x1 from the launch at line ${launch}`), s.assumptions.join('\n'));
  // an access that does not read gridDim is as before
  figures(accessAt(result, text, 'out[threadIdx.x] = s[threadIdx.x];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('gridDim of a dim3 grid made of macros (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // grid 2x8, block 32x2: words 2x + 8y; each warp one row of y: stride 2, 2-way
  const s = accessAt(result, text, 's[threadIdx.x * gridDim.x + threadIdx.y * gridDim.y]', 'store');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [32, 2, 1]);
  assert.ok(s.assumptions.some((a) => /^grid 2x8x1 from the launch at line \d+$/.test(a)), s.assumptions.join('\n'));
});

test('a kernel launched with two grids gets one case per grid (was: unknown)', () => {
  const { result } = analyzeFile(FIXTURE);
  const s = result.accesses.find((a) => a.kernel === 'grid_two_launches' && a.kind === 'store')!;
  // grid 8: stride 8, 8-way; grid 3: stride 3, conflict-free
  warpFigures(s, 'conflict', 8, 8, 32, 32);
  const cases = (s.cases ?? []).map((c) => [c.context['gridDim.x'], c.degree, c.wavefronts]).sort();
  assert.deepEqual(cases, [[3, 1, 1], [8, 8, 8]]);
});

test('a grid computed from a runtime size stays unknown, with the reason', () => {
  const { result } = analyzeFile(FIXTURE);
  const s = result.accesses.find((a) => a.kernel === 'grid_runtime')!;
  assert.equal(s.status, 'unknown');
  assert.equal(s.degree, null);
  assert.match(s.reason ?? '', /gridDim\.x/);
});

test('a grid-stride loop of unknown trip count: the body\'s shared index made of the grid is exact (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // grid 2: words 2t, 2-way, before, in and after the loop
  warpFigures(accessAt(result, text, 'acc[threadIdx.x * gridDim.x] = 0.f;', 'store'), 'conflict', 2, 2, 32, 32);
  const l = accessAt(result, text, 'acc[threadIdx.x * gridDim.x] += in[i];', 'load');
  warpFigures(l, 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, 'acc[threadIdx.x * gridDim.x] += in[i];', 'store'), 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = acc[threadIdx.x * gridDim.x];', 'load'), 'conflict', 2, 2, 32, 32);
  // the loop's step is the grid's stride: 64, not "a never-negative multiple of 32"
  assert.ok(l.assumptions.some((a) => /`i` treated as its value before the loop plus 64 times the passes before/.test(a)), l.assumptions.join('\n'));
});

test('a SharedMemory<T> object converted to a pointer by a declaration (`T *s = smem;`) is its extern __shared__ array (was: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 4t: 4-way
  const s = accessAt(result, text, 's[threadIdx.x * 4] = out[threadIdx.x];', 'store');
  assert.equal(s.kernel, 'wrapper_conversion');
  warpFigures(s, 'conflict', 4, 4, 32, 32);
});

test('a SharedMemory<T> object assigned to a pointer (`s = smem;`) or cast to one (`(T *)smem`) is its extern __shared__ array (was: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 8t: 8-way; words 16t + 1: 16-way
  warpFigures(accessAt(result, text, 's[threadIdx.x * 8] = out[threadIdx.x];', 'store'), 'conflict', 8, 8, 32, 32);
  warpFigures(accessAt(result, text, '((T *)smem)[threadIdx.x * 16 + 1] = out[threadIdx.x];', 'store'), 'conflict', 16, 16, 32, 32);
});

test('a wrapper whose specialization a macro defines at file scope is said, not silently dropped (was: no access and no notice)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = lineOf(text, 'SHARED_ARRAY_OF(float)');
  const n = result.notices.find((x) => x.range.start.line === line);
  assert.ok(n, result.notices.map((x) => x.message).join('\n'));
  assert.match(n!.message, /the macro `SHARED_ARRAY_OF` \(line \d+\) declares `__shared__` memory/);
  assert.match(n!.message, /accesses through it are not reported/);
});

test('macros that open and close a block (`#define WHEN(c) if (c) {`, `#define END_WHEN }`) are spelled in place: the block runs under its guard (was: no access of the kernel reported, no notice)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes 0..15 store words 2t: 16 words in 16 banks
  const s = accessAt(result, text, 's[threadIdx.x * 2] = out[threadIdx.x] + 1.f;', 'store');
  assert.equal(s.kernel, 'brace_macros_short');
  warpFigures(s, 'conflict-free', 1, 1, 16, 16);
  // after the block: every lane, words 4t
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = s[threadIdx.x * 4];', 'load'), 'conflict', 4, 4, 32, 32);
});

test('an opening macro longer than its use (`#define EACH_ROW for (...) {`) heads the block up to its closing macro: the loop runs (was: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 8t + row, row 0..3: stride 8 in each iteration
  const s = accessAt(result, text, 's[threadIdx.x * 8 + row] = out[threadIdx.x];', 'store');
  assert.equal(s.kernel, 'brace_macros_long');
  warpFigures(s, 'conflict', 8, 8, 32, 32);
  assert.ok(!result.notices.some((n) => /EACH_ROW|END_ROW/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});

test('a macro that expands to nothing does not evaluate its argument (was: a broadcast load of `s[0]` that the code never makes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = lineOf(text, 'TRACE(s[0])');
  assert.deepEqual(result.accesses.filter((a) => a.range.start.line === line).map((a) => a.message), []);
  // the store before it: words 2t, two per bank in 16 banks
  warpFigures(accessAt(result, text, 's[threadIdx.x * 2] = out[threadIdx.x] * 2.f;', 'store'), 'conflict', 2, 2, 32, 32);
});

test('operators the file defines on vector types (helper_math.h\'s `int2 operator+`, `operator*`) are run: an index made with them is exact (was: unknown, "is not integer arithmetic")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 32x8, at = (tx, ty + 1): words 33 (ty + 1) + tx and 33 tx + ty + 1, conflict-free
  const a = accessAt(result, text, 'tile[at.y][at.x] = v.x;', 'store');
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(a.block, [32, 8, 1]);
  figures(accessAt(result, text, 'tile[at.x][at.y] = v.y;', 'store'), 'conflict-free', 1, 1, 32, 32);
  // twice.x = 2 tx, modulo 32: 16 words, each of two lanes, in 16 banks
  figures(accessAt(result, text, 'tile[threadIdx.y][twice.x % 32] = v.x;', 'store'), 'conflict-free', 1, 1, 16, 32);
});

test('a block macro defined again in another `#if` branch (a CPU loop in `#else`) is left as it was: which definition holds is not decided here', () => {
  const src = [
    '#ifdef ON_GPU',
    '#define EACH(n) int i = threadIdx.x;',
    '#define END_EACH',
    '#else',
    '#define EACH(n) for (int i = 0; i < (n); ++i) {',
    '#define END_EACH }',
    '#endif',
    '__global__ void each(float *o) {',
    '  __shared__ float s[64];',
    '  EACH(32)',
    '  s[threadIdx.x * 2] = o[threadIdx.x];',
    '  END_EACH',
    '}',
    '',
  ].join('\n');
  const r = analyzeText(src, { budgetMs: 60_000 });
  assert.ok(!r.notices.some((n) => /opens or closes a block/.test(n.message)), r.notices.map((n) => n.message).join('\n'));
  // the #else branch's loop, expanded, would run the store once per `i`
  assert.ok(r.accesses.length > 0 && !r.accesses.some((a) => a.assumptions.some((x) => /contexts evaluated/.test(x))), r.accesses.map((a) => a.assumptions.join(' / ')).join('\n'));
});
