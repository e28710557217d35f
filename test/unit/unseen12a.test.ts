// Regressions from the twelfth sweep of unseen kernels, helper A (stencil, lattice-Boltzmann and FFT codes): the
// complex types of cuComplex.h, a grid-stride counter (`i += blockDim.x * gridDim.x`, gridDim unknown) taken modulo
// the block, and small local index arrays (an FFT's butterfly indices `x[j]`) beside `threadIdx.x`, refilled on each
// pass of a grid-stride loop. Figures from a brute-force lane oracle of the bank model (scratch/unseen12a/oracle.py,
// not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen12a.cu';

function figures(a: ReturnType<typeof accessAt>) {
  return { status: a.status, degree: a.degree, wavefronts: a.wavefronts, words: a.worst?.distinctWords, lanes: a.worst?.activeLanes, block: a.block };
}

test('cuComplex, cuFloatComplex (float2) and cuDoubleComplex (double2) have their sizes (was: unknown, the size of `cuComplex` is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const block = [256, 1, 1];
  // 8-byte lanes 16 bytes apart: each half-warp spans 256 bytes, two words per bank
  assert.deepEqual(figures(accessAt(result, text, 'pairs[2 * t] = data[t];', 'store')), { status: 'conflict', degree: 2, wavefronts: 4, words: 64, lanes: 32, block });
  assert.deepEqual(figures(accessAt(result, text, 'data[t] = cuCaddf(pairs[2 * t], line[t]);', 'load', 'pairs')), { status: 'conflict', degree: 2, wavefronts: 4, words: 64, lanes: 32, block });
  assert.deepEqual(figures(accessAt(result, text, 'line[t] = data[t + THREADS];', 'store')), { status: 'conflict-free', degree: 1, wavefronts: 2, words: 64, lanes: 32, block });
  // 16-byte lanes: four quarter-warp phases, one wavefront each
  const tw = accessAt(result, text, 'twiddle[t] = wide[t];', 'store');
  assert.deepEqual(figures(tw), { status: 'conflict-free', degree: 1, wavefronts: 4, words: 128, lanes: 32, block });
  assert.equal(tw.elementBytes, 16);
  assert.ok(tw.assumptions.some((a) => /block 256x1x1 from the launch at line \d+/.test(a)), tw.assumptions.join('\n'));
});

test('a type of the file named like a cuComplex.h type keeps its own layout', () => {
  const src = [
    'struct cuComplex { float re, im, pad; };',
    '__global__ void k(float *out) {',
    '  __shared__ cuComplex c[32];',
    '  out[threadIdx.x] = c[threadIdx.x].re;',
    '}',
    '',
  ].join('\n');
  const r = analyzeText(src, { budgetMs: 60_000, block: [32, 1, 1] });
  assert.equal(r.accesses.length, 1);
  // 12-byte elements: stride 3 words, conflict-free (a float2 would be 2-way)
  assert.equal(r.accesses[0].status, 'conflict-free');
  assert.equal(r.accesses[0].worst!.distinctWords, 32);
});

test('a grid-stride counter modulo the block is the lane\'s thread index (was: unknown, `i % THREADS` combines an unknown warp-uniform value with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const block = [256, 1, 1];
  const st = accessAt(result, text, 'fold[(i % THREADS) * 2] = in[i];', 'store');
  assert.deepEqual(figures(st), { status: 'conflict', degree: 2, wavefronts: 2, words: 32, lanes: 32, block });
  // the launch's grid (64 blocks) makes the stride exact: 256 * 64 (it was "a never-negative multiple of 256")
  assert.ok(st.assumptions.some((a) => /`i` treated as its value before the loop plus 16384 times the passes before/.test(a)), st.assumptions.join('\n'));
  assert.ok(st.assumptions.includes('grid 64x1x1 from the launch at line 97'), st.assumptions.join('\n'));
  assert.deepEqual(figures(accessAt(result, text, 'out[i] = fold[(i % THREADS) * 2 + 1];', 'load')), { status: 'conflict', degree: 2, wavefronts: 2, words: 32, lanes: 32, block });
});

test('a local array named like a member (`x[j]` beside `threadIdx.x`) keeps its elements (was: unknown, `x[1]` is a value loaded from memory that is not shared)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'slab[x[1] % 128] = in[threadIdx.x];', 'store');
  assert.deepEqual(figures(st), { status: 'conflict', degree: 4, wavefronts: 4, words: 32, lanes: 32, block: [128, 1, 1] });
});

test('a local array refilled on each pass of a loop of unknown trip count is known after it is filled, in that pass (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const block = [256, 1, 1];
  assert.deepEqual(figures(accessAt(result, text, 'stage[x[0] % THREADS] = in[i];', 'store')), { status: 'conflict', degree: 8, wavefronts: 8, words: 32, lanes: 32, block });
  assert.deepEqual(figures(accessAt(result, text, 'out[i] = stage[x[1] % THREADS];', 'load')), { status: 'conflict', degree: 8, wavefronts: 8, words: 32, lanes: 32, block });
});

test('a local array element read in a pass before the pass sets it is not known; after the loop the array is not known', () => {
  const src = [
    '__global__ void k(float *out, int n) {',
    '  __shared__ float s[256];',
    '  int x[2];',
    '  x[0] = threadIdx.x;',
    '  x[1] = threadIdx.x;',
    '  for (int i = threadIdx.x; i < n; i += blockDim.x) {',
    '    out[i] = s[x[1]];',
    '    x[1] = 2 * threadIdx.x;',
    '    x[0] = 4 * threadIdx.x;',
    '    out[i] += s[x[0] % 256];',
    '  }',
    '  out[threadIdx.x] = s[x[0]];',
    '}',
    '',
  ].join('\n');
  const r = analyzeText(src, { budgetMs: 60_000, block: [256, 1, 1] });
  const at = (l: number) => r.accesses.filter((a) => a.range.start.line === l);
  // the first read sees x[1] of the pass before (2 * t) or of the start (t): not known
  assert.equal(at(6).length, 1);
  assert.equal(at(6)[0].status, 'unknown');
  assert.match(at(6)[0].reason ?? '', /is changed by the loop at line 6/);
  assert.equal(at(9).length, 1);
  assert.equal(at(9)[0].status, 'conflict');
  assert.equal(at(9)[0].degree, 4);
  assert.equal(at(11).length, 1);
  assert.equal(at(11)[0].status, 'unknown');
});

test('guards spelled with `and` and `not` are evaluated per lane (was: operator `and` is not evaluated, every lane assumed active: 2-way for 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const block = [64, 1, 1];
  assert.deepEqual(figures(accessAt(result, text, 'cellv[(I + 1) + 6 * (J + 1) + 36 * (K + 1)] = f[t];', 'store')), { status: 'conflict', degree: 2, wavefronts: 2, words: 32, lanes: 32, block });
  // `mask[t] > 0 and K == 0`: the loaded part assumed true, K == 0 keeps the 16 lanes of the first layer
  const k0 = accessAt(result, text, 'cellv[(I + 1) + 6 * (J + 1)] = f[t + 64];', 'store');
  assert.deepEqual(figures(k0), { status: 'conflict-free', degree: 1, wavefronts: 1, words: 16, lanes: 16, block });
  assert.ok(k0.assumptions.some((a) => /`mask\[t\] > 0` assumed true for every lane, `K == 0` evaluated per lane/.test(a)), k0.assumptions.join('\n'));
  assert.deepEqual(figures(accessAt(result, text, 'cellv[2 * t] = 0.0f;', 'store')), { status: 'conflict-free', degree: 1, wavefronts: 1, words: 8, lanes: 8, block });
  const not = accessAt(result, text, 'cellv[3 * t] = 1.0f;', 'store');
  assert.deepEqual(figures(not), { status: 'conflict-free', degree: 1, wavefronts: 1, words: 32, lanes: 32, block });
  assert.ok(!not.assumptions.some((a) => /could not be evaluated/.test(a)), not.assumptions.join('\n'));
  assert.deepEqual(figures(accessAt(result, text, 'g[t] = cellv[(I + 1) + 6 * (J + 2) + 36 * (K + 1)];', 'load')), { status: 'conflict', degree: 2, wavefronts: 2, words: 32, lanes: 32, block });
});

test('`t < 16 && flags[t] > -1`, read by the grammar as a template, is the comparison the compiler reads (was: template function not evaluated, 2-way for 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'edge[t * 2] = f[t];', 'store');
  assert.deepEqual(figures(st), { status: 'conflict-free', degree: 1, wavefronts: 1, words: 16, lanes: 16, block: [64, 1, 1] });
  assert.ok(st.assumptions.some((a) => /`flags\[t\] > -1` assumed true for every lane/.test(a)), st.assumptions.join('\n'));
});

test('alternative tokens in values and assignments: `bitand`, `xor`, `compl`, `not_eq`, `or_eq`', () => {
  const src = [
    '__global__ void k(float *out) {',
    '  __shared__ float s[1024];',
    '  int t = threadIdx.x;',
    '  int a = (t bitand 7) xor 1;',
    '  int b = t;',
    '  b or_eq 32;',
    '  if (t not_eq 3) out[t] = s[a * 4] + s[b];',
    '  out[t] += s[compl t bitand 31];',
    '}',
    '',
  ].join('\n');
  const r = analyzeText(src, { budgetMs: 60_000, block: [32, 1, 1] });
  const at = (l: number, col?: number) => r.accesses.filter((a) => a.range.start.line === l && (col === undefined || a.range.start.character === col));
  // s[((t & 7) ^ 1) * 4]: 8 words in banks 0, 4, ..., 28, four lanes each (multicast): conflict-free, 31 lanes (t != 3)
  const a = at(6, src.split('\n')[6].indexOf('s[a'));
  assert.equal(a.length, 1);
  assert.equal(a[0].status, 'conflict-free');
  assert.equal(a[0].worst!.distinctWords, 8);
  assert.equal(a[0].worst!.activeLanes, 31);
  // s[t | 32]: words 32..63 but 35, on the 31 lanes where t != 3
  const b = at(6, src.split('\n')[6].indexOf('s[b'));
  assert.equal(b[0].status, 'conflict-free');
  assert.equal(b[0].worst!.distinctWords, 31);
  // s[~t & 31]: 32 distinct words
  const c = at(7);
  assert.equal(c.length, 1);
  assert.equal(c[0].status, 'conflict-free');
  assert.equal(c[0].worst!.distinctWords, 32);
});
