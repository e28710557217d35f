// A `switch` on a value that differs between the lanes of a warp (test/fixtures/switch-lanes.cu): each case runs for
// the lanes it selects and those falling into it, until their `break`. Before, every case ran for every lane, so
// `case 0: s[2 * t]` under `t % 3` was a 2-way conflict of 32 lanes where 11 lanes are conflict-free, and a case
// no lane reaches was a 4-way conflict. Figures from
// a brute-force lane oracle of the bank model.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/switch-lanes.cu';
const everyLane = /assumed to run for every lane/;

test('each case of a per-lane switch runs for the lanes whose subject selects it; `default:` for the rest', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // t & 3 == 0: lanes 0, 4, ..., 28 read words 0, 4, ..., 28
  const c0 = accessAt(result, text, 'case 0: out[t] = s[t]; break;', 'load');
  figures(c0, 'conflict-free', 1, 1, 8, 8);
  assert.ok(!c0.assumptions.some((a) => everyLane.test(a)), c0.assumptions.join('\n'));
  // t & 3 == 1: lanes 1, 5, ..., 29 read words 4t: two lanes in each of banks 4 and 20... four each
  figures(accessAt(result, text, 'case 1: out[t] = s[t * 4]; break;', 'load'), 'conflict', 4, 4, 8, 8);
  // the other 16 lanes read one word
  figures(accessAt(result, text, 'default: out[t] = s[0];', 'load'), 'broadcast', 1, 1, 1, 16);
});

test('a case falls into the next for the lanes that do not break; a break under a guard retires only its lanes', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // t % 3 == 0 (11 lanes): words 0, 6, ..., 60 in 11 banks (was: 32 lanes, 2-way)
  figures(accessAt(result, text, 's[2 * t] = 1.0f;', 'store'), 'conflict-free', 1, 1, 11, 11);
  // t % 3 == 0 falls into case SCALE with t % 3 == 1: 22 lanes, words 2t + 1
  figures(accessAt(result, text, 's[t * 2 + 1] = 2.0f;', 'store'), 'conflict', 2, 2, 22, 22);
  // of those, the lanes t >= 8 go on past `if (t < 8) break;`: 16 lanes, words 4t
  figures(accessAt(result, text, 'out[t] = s[t * 4] + 1.0f;', 'load'), 'conflict', 2, 2, 16, 16);
  // t % 3 == 2 (10 lanes): words 3t
  figures(accessAt(result, text, 'out[t] = s[t * 3];', 'load'), 'conflict-free', 1, 1, 10, 10);
});

test('a switch on threadIdx.y runs each warp in the case of its row; a case no lane reaches is not run', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const wide = accessAt(result, text, 'tile[y][x * 2] = out[x];', 'store');
  figures(wide, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(wide.block, [32, 4, 1]);
  const row = accessAt(result, text, 'tile[y][x] = out[x];', 'store');
  figures(row, 'conflict-free', 1, 1, 32, 32);
  for (const a of [wide, row]) assert.ok(!a.assumptions.some((x) => everyLane.test(x)), a.assumptions.join('\n'));
  // y is 0..3: no lane reaches `case 7:` (was: run for every lane, a 4-way conflict)
  const none = accessAt(result, text, 'tile[0][x * 4] = 0.0f;', 'store');
  assert.equal(none.status, 'unknown');
  assert.match(none.reason!, /^no thread runs this access: no lane's `y` selects it or falls into it at the switch at line 40 /);
});

test('cases inside an undecided `#if` in a switch body are cases of the switch (they were left out without a word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // even lanes: words 2t, two in each of banks 0, 4, ..., 28
  figures(accessAt(result, text, 's[t * 2] = 0;', 'store'), 'conflict', 2, 2, 16, 16);
  // odd lanes, in the `#if __CUDA_ARCH__ >= 800` branch: words 4t, four in each of banks 4, 12, 20, 28
  const odd = accessAt(result, text, 's[t * 4] = 1;', 'store');
  figures(odd, 'conflict', 4, 4, 16, 16);
  assert.equal(odd.kernel, 'arch_cases');
});

test('a `case` the grammar reads outside a braced switch body runs, said so, and the code after it is analysed (it was all left out)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const c = accessAt(result, text, 'switch (t) case 0: s[64] = t;', 'store');
  figures(c, 'broadcast', 1, 1, 1, 32);
  assert.ok(c.assumptions.some((a) => /^the `case` at line \d+ is not in a braced `switch` body: its statement is assumed to run for every lane$/.test(a)), c.assumptions.join('\n'));
  const after = result.accesses.filter((a) => a.kernel === 'braceless' && a.kind === 'load');
  assert.equal(after.length, 1);
  figures(after[0], 'conflict-free', 1, 1, 32, 32);
  assert.ok(!after[0].assumptions.some((a) => /braced `switch`/.test(a)), after[0].assumptions.join('\n'));
});
