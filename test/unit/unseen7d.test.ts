// Regressions from the seventh sweep of unseen kernels, helper D (Rodinia benchmark patterns, scratch/rodinia/NOTES.md):
// figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen7d.cu';

test('a type named by an object-like macro (`#define real_t double`) has that type\'s size, alone and as struct members', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const m = accessAt(result, text, 'mass[threadIdx.x] = 1.0;', 'store');
  assert.equal(m.status, 'conflict-free');
  assert.equal(m.wavefronts, 2);
  assert.equal(m.worst!.distinctWords, 64);
  // a 32-byte struct of four doubles: `.px` lanes 32 bytes apart, 4 words per bank in each half-warp
  const b = accessAt(result, text, 'bodies[threadIdx.x].px = 2.0;', 'store');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 8);
  const p = accessAt(result, text, 'pairs[threadIdx.x].hi = 3.0;', 'store');
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 4);
  const h = accessAt(result, text, 'hits[2 * threadIdx.x] = 1;', 'store');
  assert.equal(h.degree, 2);
  assert.equal(h.wavefronts, 2);
});

test('a work index set back to `threadIdx.x` at the end of each pass of a loop of unknown trip count keeps its value', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'cell[w] = src[c * CELLS + w];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.worst!.activeLanes, 32);
  const q = accessAt(result, text, 'quad[w] = make_float4(0.f, 0.f, 0.f, 0.f);', 'store');
  assert.equal(q.status, 'conflict-free');
  assert.equal(q.wavefronts, 4);
  // `j`, the inner loop's counter, is set by that loop on the lanes that run it: each of its values is one word
  const c = accessAt(result, text, 'dst[w] += cell[j] * quad[w].y;', 'load', 'cell');
  assert.equal(c.status, 'broadcast');
  const y = accessAt(result, text, 'dst[w] += cell[j] * quad[w].y;', 'load', 'quad');
  assert.equal(y.status, 'conflict');
  assert.equal(y.degree, 4);
  assert.equal(y.wavefronts, 4);
});

test('an index that moves on at every pass, or that a `break` or `continue` carries past its reset, stays unknown', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const d = accessAt(result, text, 'cell[v % 256] = 1.f;', 'store');
  assert.equal(d.status, 'unknown');
  // `v` is `threadIdx.x` plus an unknown warp-uniform amount (each pass adds 32 on every lane); its remainder is not known
  assert.equal(d.reason, '`v % 256`: `v@56` may be negative, and `%` of a negative value is negative: where the lanes wrap is not known');
  // inside the loop `u` is `threadIdx.x` (the break leaves the loop); after it, not known
  assert.equal(accessAt(result, text, 'cell[u] = 1.f;', 'store').status, 'conflict-free');
  const after = accessAt(result, text, 'dst[threadIdx.x] = cell[u];', 'load');
  assert.equal(after.status, 'unknown');
  assert.equal(after.reason, '`u` is changed by the loop at line 67, whose trip count is unknown');
  const sk = accessAt(result, text, 'cell[r] = 1.f;', 'store');
  assert.equal(sk.status, 'unknown');
  assert.equal(sk.reason, '`r` is changed by the loop at line 80, whose trip count is unknown');
});
