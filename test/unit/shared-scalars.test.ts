// Values kept in shared memory (test/fixtures/shared-scalars.cu): a `__shared__ T *p` pointer variable and scalars
// one thread stores and every thread reads. Figures by hand from docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/shared-scalars.cu';

test('a `__shared__` pointer set by one thread reaches the array it points into, for every thread', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `cur = halves[blockIdx.x & 1]`: lane 0 stores 8 bytes (two words)
  const set = accessAt(result, text, 'if (threadIdx.x == 0) cur = halves[blockIdx.x & 1];', 'store');
  assert.equal(set.sharedArray, 'cur');
  assert.equal(set.status, 'conflict-free');
  assert.equal(set.worst!.activeLanes, 1);
  assert.equal(set.worst!.distinctWords, 2);
  // through it, 256 threads: lane i at word i of one half (the half is the same offset for every lane)
  const st = accessAt(result, text, 'cur[threadIdx.x] = 1.0f;', 'store');
  assert.equal(st.sharedArray, 'halves');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.worst!.distinctWords, 32);
  assert.ok(st.assumptions.includes('`1024 * (blockIdx.x & 1)` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), st.assumptions.join('\n'));
  const ld = accessAt(result, text, 'out[threadIdx.x] = cur[2 * threadIdx.x];', 'load');
  assert.equal(ld.sharedArray, 'halves');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  // reading the pointer itself is not an access of its own (it would share the site of the access through it)
  assert.equal(result.accesses.filter((a) => a.sharedArray === 'cur' && a.kind === 'load').length, 0);
});

test('a pointer the loop swaps, in a loop of unknown trip count, is unknown in it and after it, not missing', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const inLoop = accessAt(result, text, 'out[threadIdx.x] += cur[threadIdx.x];', 'load');
  assert.equal(inLoop.status, 'unknown');
  assert.equal(inLoop.sharedArray, 'halves');
  assert.equal(inLoop.reason, '`cur` is stored in the loop at line 15, whose trip count is unknown');
  // the swap itself is a store of 8 bytes by lane 0, known
  const swap = accessAt(result, text, 'if (threadIdx.x == 0) cur = (cur == halves[0]) ? halves[1] : halves[0];', 'store');
  assert.equal(swap.status, 'conflict-free');
  assert.equal(swap.worst!.activeLanes, 1);
});

test('a scalar one lane stores is read by every lane as that value; several values, or a store under an unknown guard, are one unknown value per warp', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `col` = 3: a column of a 32x32 float tile is one bank, the row is every bank
  const down = accessAt(result, text, 'tile[threadIdx.x][col] = in[threadIdx.x];', 'store');
  assert.equal(down.status, 'conflict');
  assert.equal(down.degree, 32);
  assert.equal(down.wavefronts, 32);
  const across = accessAt(result, text, 'out[threadIdx.x] = tile[col][threadIdx.x];', 'load', 'tile');
  assert.equal(across.status, 'conflict-free');
  assert.equal(across.wavefronts, 1);
  // the read of `col` is a broadcast of one word
  assert.equal(accessAt(result, text, 'out[threadIdx.x] = tile[col][threadIdx.x];', 'load', 'col').status, 'broadcast');
  // `lane` (0 or 1, whichever lane's store lands) and `maybe` (1 or 5) are not known, but each is one word that every
  // lane of a warp reads: a column of the tile whatever they hold, 32 words in one bank (was: unknown)
  const lanes = accessAt(result, text, 'out[threadIdx.x] += tile[threadIdx.x][lane];', 'load', 'tile');
  assert.deepEqual([lanes.status, lanes.degree, lanes.wavefronts, lanes.worst!.distinctWords], ['conflict', 32, 32, 32]);
  assert.ok(lanes.assumptions.includes('`4 * lane` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), lanes.assumptions.join('\n'));
  const maybe = accessAt(result, text, 'out[threadIdx.x] += tile[threadIdx.x][maybe];', 'load', 'tile');
  assert.deepEqual([maybe.status, maybe.degree, maybe.wavefronts, maybe.worst!.distinctWords], ['conflict', 32, 32, 32]);
  assert.ok(maybe.assumptions.includes('`4 * maybe` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), maybe.assumptions.join('\n'));
});

test('a scalar stored through a pointer after it is read, in a loop of unknown trip count: what reads it before the store is unknown', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const before = accessAt(result, text, 'row[at + threadIdx.x] = 1.0f;', 'store');
  assert.equal(before.status, 'unknown');
  assert.equal(before.reason, '`at` is stored in the loop at line 49, whose trip count is unknown, after it is read');
  // the scalar's own read has one place whatever it holds; what comes after the store does not read it
  assert.equal(accessAt(result, text, 'row[at + threadIdx.x] = 1.0f;', 'load').status, 'broadcast');
  assert.equal(accessAt(result, text, 'if (threadIdx.x == 0) *where = 32;', 'store').status, 'conflict-free');
  assert.equal(accessAt(result, text, 'out[threadIdx.x] = row[threadIdx.x];', 'load').status, 'conflict-free');
});

test('a local pointer moved under a guard the same on every lane, or by a step loaded at one address, moves every lane alike', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `if (flag[i]) p = pool + 64;`: every lane reads the same flag, so p is pool or pool + 64 on all of them, and either
  // gives p[threadIdx.x] the same figures (bank model rule 6; was unknown)
  const g = accessAt(result, text, 'p[threadIdx.x] = 1.0f;', 'store');
  assert.deepEqual([g.status, g.degree, g.wavefronts, g.worst!.distinctWords], ['conflict-free', 1, 1, 32]);
  assert.equal(g.sharedArray, 'pool');
  assert.ok(g.assumptions.includes("`p`, set under the guard `flag[i]` at line 65, points into one of two places of `pool`, the same on every lane of a warp: the lanes' offsets differ by the same amount in either, which does not change the figures (bank model rule 6)"), g.assumptions.join('\n'));
  // `q += step[0]`: every lane reads the same step, so it moves every lane alike (was unknown)
  const s = accessAt(result, text, 'out[threadIdx.x] = q[threadIdx.x];', 'load');
  assert.deepEqual([s.status, s.degree, s.wavefronts, s.worst!.distinctWords], ['conflict-free', 1, 1, 32]);
  assert.equal(s.sharedArray, 'pool');
  assert.ok(s.assumptions.includes('`4 * step[0]` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), s.assumptions.join('\n'));
});
