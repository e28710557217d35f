// Regressions from the eleventh sweep of unseen kernels, helper A (textbook and course code: Professional CUDA C
// Programming, CoffeeBeforeArch, OLCF training, Udacity cs344, GPU MODE lectures). A pointer whose lanes point into two
// different __shared__ arrays (`(t & 1) ? odds : evens`, or set per lane by an if/else), or into shared memory on some
// lanes and global memory on others, was dropped with every access made through it: no entry at all. Where the
// compiler places two arrays decides the banks such a request hits, so those accesses are `unknown`, with the reason.
// Figures of the accesses that stay computed are from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen11a.cu';
const TWO_ARRAYS = 'lanes point into `odds` and into `evens`: the banks depend on where the compiler places the two arrays';

test('a pointer each lane sets to one of two shared arrays (`?:`) is an access, unknown with the reason (was: dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'float v = mine[t];', 'load');
  assert.equal(a.kernel, 'split_lanes');
  assert.equal(a.array, 'mine');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.equal(a.wavefronts, null);
  assert.equal(a.worst, null);
  assert.deepEqual(a.block, [32, 1, 1]);
  assert.equal(a.reason, TWO_ARRAYS);
});

test('the same choice made per lane by an if/else is an access, unknown with the reason (was: dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'side[2 * t] = v;', 'store');
  assert.equal(s.array, 'side');
  assert.equal(s.status, 'unknown');
  assert.equal(s.degree, null);
  assert.equal(s.reason, TWO_ARRAYS);
});

test('a pointer into shared memory on some lanes and global memory on the others is an access, unknown (was: dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const g = accessAt(result, text, 'out[t] = v + src[t];', 'load', 'src[t]');
  assert.equal(g.array, 'src');
  assert.equal(g.sharedArray, 'evens');
  assert.equal(g.status, 'unknown');
  assert.equal(g.degree, null);
  assert.equal(g.reason, 'some lanes point into `evens` and others not into shared memory');
  // the kernel has no other entries than the seven accesses of the source
  assert.equal(result.accesses.filter((x) => x.kernel === 'split_lanes').length, 7);
});

test('per-lane places in one array, and a choice the whole block makes, keep their figures', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // even lanes read word t, odd lanes word 32 + t: 32 distinct words, one per bank
  const near = accessAt(result, text, 'out[t + CELLS] = near[t];', 'load');
  assert.equal(near.status, 'conflict-free');
  assert.equal(near.degree, 1);
  assert.equal(near.wavefronts, 1);
  assert.equal(near.worst!.distinctWords, 32);
  assert.equal(near.worst!.activeLanes, 32);
  // pass 0 reads evens[2t], pass 1 odds[2t]: 32 distinct words on 16 banks, 2-way in both passes
  const buf = accessAt(result, text, 'out[t + 2 * CELLS] += buf[2 * t];', 'load', 'buf');
  assert.equal(buf.status, 'conflict');
  assert.equal(buf.degree, 2);
  assert.equal(buf.wavefronts, 2);
  assert.equal(buf.worst!.distinctWords, 32);
  assert.equal(buf.worst!.activeLanes, 32);
  assert.equal(buf.cases.length, 0);
  assert.ok(buf.assumptions.some((s) => /block 32x1x1 from the launch at line \d+/.test(s)), buf.assumptions.join('\n'));
});
