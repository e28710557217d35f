// Regressions from the thirteenth sweep of unseen kernels, helper A (cryptography, hashing and bioinformatics:
// ccminer's x11/x13/lyra2 kernels, Paracrypt's AES, GPU-BSW's Smith-Waterman, Rodinia's Needleman-Wunsch): a `?:` whose
// condition and branches are the same on every lane (the shorter of two sequences), a shared pointer moved in a loop
// of unknown trip count by such a comparison, and a kernel head chosen by `__CUDA_ARCH__` that the default model's
// range of architectures kept twice, a functor kernel parameter deduced from a temporary (`Sub()`), and a parameter
// struct's members, a block shape read from a table of launch configurations, and a byte access at an offset that
// is not a whole number of words, and CUDA's byte and funnel-shift intrinsics. Figures from a brute-force lane oracle of the bank model
// (scratch/unseen13a/oracle_fixture.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13a.cu';


test('a `?:` whose condition and branches are one value per warp is one unknown value per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 4t + m: stride 4, four distinct words in each of 8 banks, whatever m is
  warpFigures(accessAt(result, text, 'score[4 * t + (minLen & 511)] = t;', 'store', 'score'), 'conflict', 4, 4, 32, 32);
  warpFigures(accessAt(result, text, 'out[blockIdx.x * 32 + t] = score', 'load', 'score'), 'conflict', 4, 4, 32, 32);
  assert.ok(!result.accesses.some((a) => a.kernel === 'banded_scores' && a.status === 'unknown'),
    result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a `?:` whose two ways differ by one amount on every lane is the first way plus that amount (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 2t + c (either way): two distinct words in each of 16 banks
  warpFigures(accessAt(result, text, 'gapRow[col] = 1.0f;', 'store', 'gapRow'), 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, 'out[blockIdx.x * 32 + t] = score', 'load', 'gapRow'), 'conflict', 2, 2, 32, 32);
});

test('a shared pointer moved in a loop of unknown trip count by a comparison the same on every lane keeps its lanes (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bytes w + t: one 32-byte window, eight words in eight banks (at a window start that is a multiple of 4 bytes;
  // nine words otherwise, still one wavefront)
  const v = accessAt(result, text, 'if (valid[t])', 'load', 'valid');
  assert.equal(v.status, 'conflict-free', v.message);
  assert.equal(v.degree, 1);
  assert.equal(v.wavefronts, 1);
  assert.equal(v.worst!.activeLanes, 32);
  assert.deepEqual(v.block, [32, 1, 1]);
  // words 2t + (d >= maxLen): a comparison of two values the same on every lane, added to a per-lane index
  warpFigures(accessAt(result, text, 'lastH[2 * t + (d >= maxLen)] = top;', 'store', 'lastH'), 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, '(short)lastH[2 * t];', 'load', 'lastH'), 'conflict', 2, 2, 32, 32);
  assert.ok(!result.accesses.some((a) => a.kernel === 'diagonal_walk' && a.status === 'unknown'),
    result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a kernel head chosen by `__CUDA_ARCH__` in an undecided chain is read once (the kernel was lost to a syntax error)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const fill = accessAt(result, text, 'sbox[0][t] = table[t];', 'store', 'sbox');
  figures(fill, 'conflict-free', 1, 1, 32, 32);
  assert.equal(fill.kernel, 'sbox_round');
  assert.deepEqual(fill.block, [128, 1, 1]);
  figures(accessAt(result, text, 'sbox[1][t + 128] = table[256 + t];', 'store', 'sbox'), 'conflict-free', 1, 1, 32, 32);
  // words 256 (t & 3) + 8 (t >> 2): rows 256 words apart share their banks; bank 0 holds 8 of the 32 words
  figures(accessAt(result, text, 'sbox[t & 3][(t >> 2) * 8]', 'load', 'sbox'), 'conflict', 8, 8, 32, 32);
  assert.ok(!result.notices.some((n) => /syntax error/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  // the two heads differ only in their bounds: no architecture would change what is analysed, so no notice for it
  assert.ok(!result.notices.some((n) => /__CUDA_ARCH__/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  // one architecture's branch alone gives the same figures
  const one = analyzeFile(FIXTURE, { arch: 'sm_80' });
  figures(accessAt(one.result, one.text, 'sbox[t & 3][(t >> 2) * 8]', 'load', 'sbox'), 'conflict', 8, 8, 32, 32);
});

test('a functor parameter deduced from a temporary runs its `operator()`, and a parameter struct\'s integer members are one value per warp (both were unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 2t: `idx(t)` with `Index` = PairIndex (from `PairIndex()`), its operator() returning 2 * lane
  const st = accessAt(result, text, 'rows[idx(t)] = in[t];', 'store', 'rows');
  warpFigures(st, 'conflict', 2, 2, 32, 32);
  assert.ok(!st.assumptions.some((a) => /not bound/.test(a)), st.assumptions.join('\n'));
  // words 4t + (w.offset & 255): stride 4
  warpFigures(accessAt(result, text, 'rows[4 * t + (w.offset & 255)]', 'load', 'rows'), 'conflict', 4, 4, 32, 32);
});

test('a block shape read from a table of structs in a host loop gives one instance per entry (was: the default 32 threads, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * (blockDim.x / 32): 64 threads stride 2 (2-way), 128 threads stride 4 (4-way, the worst)
  const a = accessAt(result, text, 'lanes[t * (blockDim.x / 32)] = in', 'store', 'lanes');
  figures(a, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
  assert.deepEqual(a.cases?.map((c) => [c.context.block, c.degree]), [['64x1x1', 2], ['128x1x1', 4]]);
  assert.ok(a.assumptions.some((x) => /from the launch at line \d+ with `i` = 1/.test(x)), a.assumptions.join('\n'));
});

test('a byte access at an offset not known to be whole words is evaluated at each place in a word (was: conflict-free, the offset taken as rule 6)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // bytes 33t + b: b % 4 = 0 conflict-free; b % 4 = 1, 2, 3: two words in one bank (2-way)
  const a = accessAt(result, text, 'packed[33 * t + base] = reads', 'store', 'packed');
  warpFigures(a, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(a.cases?.map((c) => c.degree), [1, 2, 2, 2]);
  // bytes 33t + 4b: whole words, conflict-free whatever b is
  const w = accessAt(result, text, 'packed[33 * t + 4 * base];', 'load', 'packed');
  warpFigures(w, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(w.cases ?? [], []);
});

test('__funnelshift_l, __byte_perm and __umulhi are evaluated on each lane (were unknown: `the result of ...`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rotl(t, 3) & 255 = 8t: eight words in each of banks 0, 8, 16, 24
  warpFigures(accessAt(result, text, 'tab[__funnelshift_l(t, t, 3) & 255]', 'store', 'tab'), 'conflict', 8, 8, 32, 32);
  // byte 0 of t, times 4: words 4t
  warpFigures(accessAt(result, text, 'keys[__byte_perm(t, 0, 0x4440) * 4]', 'store', 'keys'), 'conflict', 4, 4, 32, 32);
  // t * 2^30 >> 32 = t / 4: 8 words, four lanes on each
  warpFigures(accessAt(result, text, 'quads[__umulhi(t, 0x40000000u)]', 'store', 'quads'), 'conflict-free', 1, 1, 8, 32);
});

test('an undecided chain whose heads differ in execution space is left as it was: nothing is picked', () => {
  const src = [
    '#if __CUDA_ARCH__ == 500',
    '__device__ __launch_bounds__(64, 1)',
    '#else',
    '__global__ __launch_bounds__(64, 1)',
    '#endif',
    'void k(float *o) { __shared__ float s[64]; s[threadIdx.x] = 1.0f; o[threadIdx.x] = s[threadIdx.x * 2]; }',
  ].join('\n');
  const result = analyzeText(src, { budgetMs: 60_000 });
  assert.ok(result.notices.some((n) => /__CUDA_ARCH__/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});
