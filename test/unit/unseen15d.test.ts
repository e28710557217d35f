// Regressions from the fifteenth sweep of unseen kernels, helper D (kernels people write or copy to learn: karpathy's
// llm.c dev/cuda benchmarks, flash-attention re-implementations in plain CUDA, LeetGPU-style solutions): a launcher
// that is a host function template took no block shape or argument from its callers, and a loop nest of 32 x 32 x 32
// passes made a visit per pass past the visit cap (100,000 results: a stack overflow, or the budget). Figures from a
// brute-force lane oracle of the bank model (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen15d.cu';

test('a launcher that is a host function template takes its callers\' block shape and arguments, one binding each (was: unknown, `C` not known, block 32 assumed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'acc[threadIdx.x * C] = in[threadIdx.x];', 'store', 'acc');
  assert.equal(s.kernel, 'strided_sums');
  // T = double, C = 2, block 32: bytes 16t; each half-warp's 16 lanes need 32 words, two in each of 16 banks
  figures(s, 'conflict', 2, 4, 64, 32);
  assert.deepEqual(s.block, [32, 1, 1]);
  // T = float, C = 3, block 64: words 3t, stride 3: conflict-free; each call's binding alone (no float with C = 2)
  const cases = (s.cases ?? []).map((c) => [c.context.T, c.context.C, c.context.block, c.degree, c.wavefronts]).sort();
  assert.deepEqual(cases, [['double', 2, '32x1x1', 2, 4], ['float', 3, '64x1x1', 1, 1]]);
  assert.ok(s.assumptions.some((a) => /block 32x1x1 from the launch at line \d+ in `sums_launch` \(the call at line \d+/.test(a)), s.assumptions.join('\n'));
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a loop nest whose passes multiply past the visit cap is analysed, the launch\'s `N` left out (was: internal error, maximum call stack size exceeded)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.ok(!result.notices.some((n) => /budget/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  // block 64: two warps, words 64c + t: conflict-free in each
  const v = accessAt(result, text, 'acc[r] += p[r * COLS + c] * v[c * DIM + threadIdx.x];', 'load', 'v');
  assert.equal(v.kernel, 'tile_scores');
  assert.deepEqual(v.block, [64, 1, 1]);
  figures(v, 'conflict-free', 1, 1, 32, 32);
  assert.ok(v.assumptions.some((a) => /`N` = \d+ from the launch at line \d+ .*is not given: with it the body of a loop nest runs 4,096 times or more/.test(a)), v.assumptions.join('\n'));
  // one word of the row for every lane
  figures(accessAt(result, text, 'acc[r] += p[r * COLS + c] * v[c * DIM + threadIdx.x];', 'load', 'p'), 'broadcast', 1, 1, 1, 32);
  // lanes 0..31 of warp 0 at words 32t + c: one bank
  figures(accessAt(result, text, 'm = fmaxf(m, p[threadIdx.x * COLS + c]);', 'load', 'p'), 'conflict', 32, 32, 32, 32);
  figures(accessAt(result, text, 'v[idx] = K[start * DIM + idx];', 'store', 'v'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'p[idx] = K[idx] * 0.125f;', 'store', 'p'), 'conflict-free', 1, 1, 32, 32);
});
