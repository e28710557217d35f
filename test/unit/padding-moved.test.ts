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
  // m[t][k], k < 8: 32-way at a row of 32 words (8 x 32 wavefronts); a float4 of m[t][0]: rows 8 apart share banks
  // 0-3, 8-way in each phase of 8 lanes (32). An odd row length clears the scalars, but a padding that is not a
  // multiple of 4 floats misaligns the float4 (a fault, no figure: no fix; moved as a re-run finds it). 4: row r at
  // bank 4 r, the scalars 4-way (8 x 4), the float4 conflict-free (4)
  assert.equal(say('m'), 'Pad m to [32][36]: the worst access goes from 32-way to 4-way; 1 of 2 conflicting accesses becomes conflict-free; wavefronts 288 -> 36 (2 accesses checked)');
});
