// Regressions from the twelfth sweep of unseen kernels, helper C (OpenCV's CUDA modules: cudafilters' median filter,
// cudaimgproc's Canny and Hough, cudaoptflow's Farneback, cudastereo): a scalar `__shared__` whose stored value is not
// known (picked in a loop of unknown trip count, or stored with a different value by each lane) read back as a row
// index, and statement macros (`if (...) { ... }`) whose arguments name shared memory. Figures from a brute-force lane
// oracle of the bank model (scratch/unseen12c/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen12c.cu';


test('a scalar __shared__ stored in a loop of unknown trip count is one word: read back as a row it moves every lane alike (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 32 * bin + t: one row, 32 banks
  const f = accessAt(result, text, 'fine[bin][t] += in[passes + t];', 'load', 'fine');
  warpFigures(f, 'conflict-free', 1, 1, 32, 32);
  warpFigures(accessAt(result, text, 'fine[bin][t] += in[passes + t];', 'store'), 'conflict-free', 1, 1, 32, 32);
  // words 64 * bin + 2t: two per bank in 16 banks
  warpFigures(accessAt(result, text, 'wide[bin][t * 2] = fine[bin][t];', 'store', 'wide'), 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, 'seen[bin] = p;', 'store', 'seen'), 'conflict-free', 1, 1, 1, 1);
  warpFigures(accessAt(result, text, 'out[t] = wide[bin][t * 2 + 1] + seen[bin];', 'load', 'wide'), 'conflict', 2, 2, 32, 32);
  warpFigures(accessAt(result, text, 'out[t] = wide[bin][t * 2 + 1] + seen[bin];', 'load', 'seen'), 'broadcast', 1, 1, 1, 32);
  assert.ok(!result.accesses.some((a) => a.status === 'unknown' && a.kernel === 'refine_bins'),
    result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a scalar __shared__ stored with a different value by each lane that stores it is still one value per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 96 * slot + 3t: stride 3, conflict-free; 96 * slot + 4t: stride 4, 4-way
  warpFigures(accessAt(result, text, 'rows[slot][t * 3] = in[t];', 'store', 'rows'), 'conflict-free', 1, 1, 32, 32);
  const l = accessAt(result, text, 'out[t] = rows[slot][t * 4];', 'load', 'rows');
  warpFigures(l, 'conflict', 4, 4, 32, 32);
  assert.ok(l.assumptions.some((a) => /32 threads/.test(a) || /block 32x1x1/.test(a)), l.assumptions.join('\n'));
});

test('a statement macro that is an `if` applied to shared memory runs where it is used (its accesses were not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes 0..30 read words 2t: 31 words, two in each of 15 banks
  const e = accessAt(result, text, 'PICK_EDGE(edge, 31, t, &found);', 'load');
  assert.equal(e.array, 'edge');
  assert.equal(e.kernel, 'pick_edge');
  warpFigures(e, 'conflict', 2, 2, 31, 31);
  // the guard on the loaded value is not evaluated per lane: every lane under `lane < range` stores the one word
  const s = accessAt(result, text, 'PICK_EDGE(edge, 31, t, &found);', 'store');
  assert.equal(s.array, 'found');
  warpFigures(s, 'broadcast', 1, 1, 1, 31);
});

test('an access through a macro argument is named as the argument, not as the placeholder (was: `__bank_lens_m0_0`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const p = accessAt(result, text, 'out[t] = found + PAIR_SUM(edge, t * 2);', 'load', 'PAIR_SUM');
  assert.equal(p.array, 'edge');
  assert.equal(p.sharedArray, 'edge');
  warpFigures(p, 'conflict', 2, 2, 32, 32);
  assert.ok(!result.accesses.some((a) => a.array.startsWith('__bank_lens')), result.accesses.map((a) => a.array).join(' '));
});

test('a launcher template named in a table at namespace scope (`const static caller_t callers[] = { 0, caller<1>, ... }`) binds the kernel it launches, once per instance (was: unknown, `R` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * R: stride 1, 2, 4 in each of the two warps of 64 threads
  const s = accessAt(result, text, 'buf[t * R] = in[t];', 'store');
  assert.equal(s.kernel, 'strided_sum');
  assert.deepEqual(s.block, [64, 1, 1]);
  assert.deepEqual([s.status, s.degree, s.wavefronts, s.worst!.distinctWords, s.worst!.activeLanes], ['conflict', 4, 4, 32, 32]);
  const cases = (s.cases ?? []).map((c) => [c.context.R, c.degree, c.wavefronts]).sort();
  assert.deepEqual(cases, [[1, 1, 1], [2, 2, 2], [4, 4, 4]]);
  assert.ok(s.assumptions.some((a) => /block 64x1x1 from the launch at line \d+ in `strided_caller<4>` \(the reference at line \d+\)/.test(a)), s.assumptions.join('\n'));
});
