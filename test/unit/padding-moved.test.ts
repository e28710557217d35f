// The padding search moves the addresses of one run to where each candidate padding puts them, instead of running
// the kernels again per padding, where that is exact (analyze.ts movedVisit). These tests hold it to the re-runs:
// the same fixes, reasons and figures on every example and fixture, and on the shapes that make moving wrong.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile } from './helpers/engine';

before(() => ready);

const ROOT = path.resolve(__dirname, '..', '..');
const files = [
  ...fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.cu')).map((f) => `examples/${f}`),
  ...fs.readdirSync(path.join(ROOT, 'test/fixtures')).filter((f) => f.endsWith('.cu')).map((f) => `test/fixtures/${f}`),
];

test('moved addresses give the fixes the re-runs give, on every example and fixture', () => {
  let searched = 0;
  for (const rel of files) {
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    const rerun = analyzeText(text, { budgetMs: 600_000, rerunPadding: true });
    const moved = analyzeText(text, { budgetMs: 600_000 });
    assert.deepEqual(moved.arrays, rerun.arrays, rel);
    assert.deepEqual(moved.accesses.map((a) => [a.degree, a.message]), rerun.accesses.map((a) => [a.degree, a.message]), rel);
    searched += rerun.arrays.filter((a) => a.fix || /no padding of the innermost extent/.test(a.noFixReason ?? '')).length;
  }
  assert.ok(searched >= 40, `only ${searched} arrays were searched`);
});

test('an index past its row (under a guard that cannot be evaluated, so no out-of-bounds finding) is run again, not moved', () => {
  const { result } = analyzeFile('test/fixtures/padding-rows.cu', { budgetMs: 600_000 });
  const say = (name: string) => {
    const a = result.arrays.find((x) => x.name === name)!;
    return a.fix ? a.fix.title : a.noFixReason;
  };
  // tile[ly][lx * 4 + k] reaches column 127 of a row of 65: moved as if it were row 1, a padding of 1 looked better
  // (wavefronts 32 -> 21); run again, none does
  assert.equal(say('tile'), 'no padding of the innermost extent of `tile` (up to +32) reduces its wavefronts');
  // cube[t / 8][t % 8][0] is word 32 t, cube[t / 8][t % 8][t] word 33 t: a row of 33 makes them 33 t (free) and 34 t
  // (2-way); no row length makes both odd
  assert.equal(say('cube'), 'Pad cube to [4][8][33]: the worst access goes from 32-way to 2-way; wavefronts 33 -> 3 (2 accesses checked)');
  assert.equal(say('pairs'), 'Pad pairs to [32][33]: the worst access goes from 32-way to 4-way; wavefronts 34 -> 6 (2 accesses checked)');
  assert.equal(say('d'), 'Pad d to [32][33]: the worst access goes from 16-way to 2-way; wavefronts 34 -> 6 (2 accesses checked)');
});
