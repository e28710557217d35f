// Regressions from the eleventh sweep of unseen kernels, helper A (textbook and course code: Professional CUDA C
// Programming, CoffeeBeforeArch, OLCF training, Udacity cs344, GPU MODE lectures). A pointer whose lanes point into two
// different __shared__ arrays (`(t & 1) ? odds : evens`, or set per lane by an if/else), or into shared memory on some
// lanes and global memory on others, was dropped with every access made through it: no entry at all. Where the
// compiler places two arrays decides the banks such a request hits, so those accesses are `unknown`, with the reason.
// Where every lane of a warp picks the same array (a double buffer picked by a loop counter of unknown trip count, two
// pointers swapped each pass, a kernel argument, the warp's index) at the same offsets, either array gives the same
// figures (bank model rule 6): those were dropped or unknown and are now computed, said so in the assumptions; so are
// accesses through a local array of pointers to shared arrays (`float *ring[2] = {front, back};`), all dropped before.
// Figures are from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';

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
  // moved under a guard each lane decides from data (`in[t] > 0.0f`): still an access of evens, unknown
  const m = accessAt(result, text, 'moved[t] = v;', 'store');
  assert.equal(m.sharedArray, 'evens');
  assert.equal(m.status, 'unknown');
  assert.equal(m.reason, `\`moved\` is set under the guard \`in[t] > 0.0f\` at line ${lineOf(text, 'if (in[t] > 0.0f)') + 1}, which could not be evaluated per lane (\`in[t]\` is a value loaded from memory that is not shared)`);
  // the kernel has no other entries than the eight accesses of the source
  assert.equal(result.accesses.filter((x) => x.kernel === 'split_lanes').length, 8);
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

const EITHER = 'the same on every lane of a warp: the lanes\' offsets differ by the same amount in either, which does not change the figures (bank model rule 6)';

test('a double buffer picked by a loop counter of unknown trip count is computed (was: dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 256: each warp stores cur[2t % 256], 32 distinct words on 16 banks
  const st = accessAt(result, text, 'cur[(t * 2) % RING] = in[s * RING + t];', 'store');
  assert.equal(st.kernel, 'double_buffer');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.equal(st.worst!.distinctWords, 32);
  assert.equal(st.worst!.activeLanes, 32);
  assert.deepEqual(st.block, [256, 1, 1]);
  assert.equal(st.cases.length, 0);
  assert.ok(st.assumptions.includes(`the pointer \`(s & 1) ? back : front\` at line ${lineOf(text, 'float *cur = (s & 1) ? back : front;') + 1} points into \`back\` or into \`front\`, ${EITHER}`), st.assumptions.join('\n'));
  assert.ok(st.assumptions.some((x) => /the loop at line \d+ has a trip count that cannot be computed/.test(x)), st.assumptions.join('\n'));
  const ld = accessAt(result, text, 'out[t] += cur[(t + 1) % RING];', 'load', 'cur');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.degree, 1);
  assert.equal(ld.wavefronts, 1);
  assert.equal(ld.worst!.distinctWords, 32);
});

test('two pointers swapped after each pass of a loop of unknown trip count are computed (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'dst[t] = src[(t * 4) % RING] + 1.0f;', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.distinctWords, 32);
  assert.ok(st.assumptions.includes(`\`dst\`, which the loop at line ${lineOf(text, 'dst[t] = src[(t * 4) % RING] + 1.0f;')} swaps between arrays, points into \`back\` or into \`front\`, ${EITHER}`), st.assumptions.join('\n'));
  // src[4t % 256]: 32 distinct words on 8 banks
  const ld = accessAt(result, text, 'dst[t] = src[(t * 4) % RING] + 1.0f;', 'load');
  assert.equal(ld.array, 'src');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 4);
  assert.equal(ld.wavefronts, 4);
  assert.equal(ld.worst!.distinctWords, 32);
  assert.equal(ld.worst!.activeLanes, 32);
});

test('a buffer picked by a kernel argument (if/else or `?:`) or per warp is computed (was: dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // chosen[8t % 256]: 32 distinct words on 4 banks
  const c = accessAt(result, text, 'out[t] += chosen[(t * 8) % RING];', 'load', 'chosen');
  assert.equal(c.status, 'conflict');
  assert.equal(c.degree, 8);
  assert.equal(c.wavefronts, 8);
  assert.equal(c.worst!.distinctWords, 32);
  assert.ok(c.assumptions.includes(`\`chosen\`, set under the guard \`flip\` at line ${lineOf(text, 'if (flip)') + 1}, points into \`front\` or into \`back\`, ${EITHER}`), c.assumptions.join('\n'));
  // other[16t % 256]: lanes l and l + 16 share a word; 16 distinct words on 2 banks
  const o = accessAt(result, text, 'out[t] += other[(t * 16) % RING];', 'load', 'other');
  assert.equal(o.status, 'conflict');
  assert.equal(o.degree, 8);
  assert.equal(o.wavefronts, 8);
  assert.equal(o.worst!.distinctWords, 16);
  assert.equal(o.worst!.activeLanes, 32);
  // warps 0, 2, ... read front, the others back: each warp half[2 * (t % 32)], 2-way
  const h = accessAt(result, text, 'out[t] += half[(t % 32) * 2];', 'load', 'half');
  assert.equal(h.status, 'conflict');
  assert.equal(h.degree, 2);
  assert.equal(h.wavefronts, 2);
  assert.equal(h.worst!.distinctWords, 32);
  assert.ok(h.assumptions.includes(`a pointer each warp picks points into \`back\` or into \`front\`, ${EITHER}`), h.assumptions.join('\n'));
  assert.equal(result.accesses.filter((x) => x.kernel === 'double_buffer').length, 10);
});

test('a local array of pointers to shared arrays is followed element by element (was: every access through it dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // ring[s & 1] with s a loop counter of unknown trip count: front or back, the same on every lane; ring[..][2t] 2-way
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'ring[s & 1][(t * 2) % RING] += 1.0f;', kind);
    assert.equal(a.array, 'ring');
    assert.equal(a.status, 'conflict');
    assert.equal(a.degree, 2);
    assert.equal(a.wavefronts, 2);
    assert.equal(a.worst!.distinctWords, 32);
    assert.equal(a.worst!.activeLanes, 32);
    assert.ok(a.assumptions.includes(`\`ring[s & 1]\` at line ${lineOf(text, 'ring[s & 1][(t * 2) % RING] += 1.0f;') + 1} points into \`front\` or into \`back\`, ${EITHER}`), a.assumptions.join('\n'));
  }
  // `ring[1] = front;` then ring[1][t]: front, one word per lane
  const one = accessAt(result, text, 'out[t] += ring[1][t];', 'load', 'ring');
  assert.equal(one.sharedArray, 'front');
  assert.equal(one.status, 'conflict-free');
  assert.equal(one.degree, 1);
  assert.equal(one.worst!.distinctWords, 32);
  assert.ok(!one.assumptions.some((x) => x.includes('points into')), one.assumptions.join('\n'));
});
