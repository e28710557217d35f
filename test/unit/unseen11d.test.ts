// Regressions from the eleventh sweep of unseen kernels, helper D (vision and 3-D geometry ops: pytorch3d's coarse
// rasterizer bit mask, mmcv, kaolin, PointNet++): a local object of a class with a constructor is built by that
// constructor (member initializers in member order, then its body), not read as an aggregate of its arguments; a
// declaration `Bits m(buf, n);` that the grammar reads as a function declaration is that constructor call; a member
// function calling another without naming the object sees the same members. Figures from a brute-force lane oracle of
// docs/bank-model.md (scratch/oracle11d.py).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';
import { analyzeText } from '../../server/engine/index';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen11d.cu';

/** The one access of `kind` at the first line holding `snippet` after the line holding `after` (the member functions
 * of the fixture's classes share their text). */
function accessAfter(result: ReturnType<typeof analyzeFile>['result'], text: string, after: string, snippet: string, kind: string) {
  const line = lineOf(text, snippet, lineOf(text, after));
  const found = result.accesses.filter((a) => a.range.start.line === line && a.kind === kind);
  assert.equal(found.length, 1, `one ${kind} at line ${line + 1}`);
  return found[0];
}

test('a braced object of a class with a constructor takes the members the constructor sets (was: 32-way, `ld` read as the argument 32)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `Padded v{tile, ROWS}` runs `: p(base), ld(cols + 1)`: ld = 33, so the column read tx * 33 + ty is conflict-free in
  // every warp of 32x8 (read as an aggregate, ld was 32: 32 lanes on one bank, 32 wavefronts)
  const a = accessAt(result, text, 'return p[r * ld + c];', 'load');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [32, 8, 1]);
  assert.equal(a.cases.length, 0);
  const s = accessAt(result, text, 'return p[r * ld + c];', 'store');
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.wavefronts, 1);
  assert.equal(s.worst!.distinctWords, 32);
});

test('`Padded v(tile, ROWS);` (a function declaration to the grammar) is a constructor call (was: no access reported)', () => {
  const { text } = analyzeFile(FIXTURE);
  // the kernel alone, without the braced one: its two accesses are found, conflict-free
  const only = text.replace(/__global__ void padded_braced[\s\S]*?\n}\n/, '').replace(/\s*padded_braced<<<[^\n]*\n/, '\n');
  assert.ok(!only.includes('padded_braced'));
  const result = analyzeText(only, { budgetMs: 60_000 });
  const a = accessAt(result, only, 'return p[r * ld + c];', 'load');
  assert.equal(a.kernel, 'padded_columns');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [32, 8, 1]);
  const s = accessAt(result, only, 'return p[r * ld + c];', 'store');
  assert.equal(s.kernel, 'padded_columns');
  assert.equal(s.status, 'conflict-free');
});

test('a constructor computes a member from one set before it, and member functions call each other (was: no access)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `Bits m(mask_words, bitsPerRow)`: bits = 32, words = 512 / 32 = 16; `first(r)` reads data[slot(r)] = data[16 * tx]:
  // 32 distinct words on banks 0 and 16, 16 wavefronts
  const a = accessAt(result, text, 'return data[slot(r)];', 'load');
  assert.equal(a.kernel, 'mask_rows');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 16);
  assert.equal(a.wavefronts, 16);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
  // the constructor's body clears 4 * words = 64 words: warps 0 and 1, one word a lane
  const c = accessAt(result, text, 'data[i] = 0u;', 'store');
  assert.equal(c.kernel, 'mask_rows');
  assert.equal(c.status, 'conflict-free');
  assert.equal(c.wavefronts, 1);
  assert.equal(c.worst!.distinctWords, 32);
  assert.equal(c.worst!.activeLanes, 32);
  assert.ok(!a.assumptions.some((x) => /has no value|not known here/.test(x)), a.assumptions.join('\n'));
});

test('a block-stride counter of unknown trip count is its start plus its step times the passes: `e / 32` and `e % 32` are exact (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // e = tx + 128 * passes: `e / 32` is the warp's one word, whatever the pass
  const a = accessAt(result, text, 'atomicOr(&bitsOf[e / 32], 1u << (e % 32));', 'atomic');
  assert.equal(a.kernel, 'strided_bits');
  assert.equal(a.status, 'broadcast');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 1);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
  // `e % 32` is the lane: 2 words apart, 2 distinct words in each even bank
  const s = accessAt(result, text, 'spread[(e % 32) * 2] = v[e];', 'store');
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 2);
  assert.equal(s.wavefronts, 2);
  assert.equal(s.worst!.distinctWords, 32);
  assert.equal(s.worst!.activeLanes, 32);
  assert.ok(s.assumptions.some((x) => x.includes('`e` treated as its value before the loop plus 128 times the passes before')), s.assumptions.join('\n'));
});

test('an object made by a functional cast, `Rows r = Rows(grid, 0)` or a temporary `Rows(grid, 1).at(...)`, is built by its constructor (was: no access reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // the one member function, called on each: ld = 32 (pad 0) puts the 32 lanes of the column on one bank; ld = 33 does not
  const a = accessAfter(result, text, 'struct Rows {', 'return p[r * ld + c];', 'store');
  assert.equal(a.kernel, 'temporaries');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 32);
  assert.equal(a.wavefronts, 32);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [32, 1, 1]);
  assert.deepEqual(a.cases.map((c) => [c.context.call, c.degree, c.wavefronts]), [[`line ${lineOf(text, 'r.at(threadIdx.x, 0) = 1.f;') + 1}`, 32, 32], [`line ${lineOf(text, 'Rows(grid, 1).at(threadIdx.x, 1) = 2.f;') + 1}`, 1, 1]]);
});

test('a member with a default initializer (`int ld = ROWS + 1;`) holds it (was: unknown, `s.ld` has no value)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAfter(result, text, 'struct Skewed {', 'return p[r * ld + c];', 'load');
  assert.equal(a.kernel, 'temporaries');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
});
