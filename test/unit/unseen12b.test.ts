// Regressions from the twelfth sweep of unseen kernels, helper B (sorting and scan code outside CUB: moderngpu's block
// primitives, OneSweep, radix and bitonic sorts): a class template's nested `Storage` struct named through a
// kernel-local typedef, defaulted template arguments, member typedefs, kernel-local types of the same name in two
// kernels, a qualified call to one of two classes' static functions of the same name, and a nested struct of a class
// that is no template. Figures from a brute-force lane oracle of the bank model (scratch/unseen12b/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen12b.cu';

test('a class template\'s nested Storage, named through a local typedef with a defaulted argument, is laid out: its accesses are reported where they stand (was: unknown at the call, `the layout of fold is not known`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `slot = __brev(tid) >> (32 - Log2<128>::value)`: bit-reversed, 33-spaced: 32 banks
  const st = accessAt(result, text, 'storage.cells[slot + slot / 32] = x;', 'store');
  assert.equal(st.kernel, 'fold_tiles');
  assert.equal(st.sharedArray, 'shared');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.distinctWords, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  assert.ok(st.assumptions.some((a) => /block 128x1x1 from the launch at line \d+/.test(a)), st.assumptions.join('\n'));
  const ld = accessAt(result, text, 'if (tid < NT / 2) x = storage.cells[2 * tid];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.equal(ld.worst!.distinctWords, 32);
  assert.equal(ld.worst!.activeLanes, 32);
  // nothing is left unknown at the call that passes the storage
  const lines = text.split('\n');
  const call = lines.findIndex((l) => l.includes('R::Fold(tid,'));
  assert.ok(!result.accesses.some((a) => a.range.start.line === call && a.status === 'unknown'),
    result.accesses.filter((a) => a.range.start.line === call).map((a) => a.message).join('\n'));
});

test('two kernels with their own `union Shared` and `typedef ... R` each use theirs (was: the other kernel\'s, `the layout of R::Storage is not known`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'storage.halves[tid] = x;', 'store');
  assert.equal(st.kernel, 'sweep_tiles');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.distinctWords, 32);
  const ld = accessAt(result, text, 'if (tid >= d) x += storage.halves[from + tid - d];', 'load');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.degree, 1);
  assert.equal(ld.worst!.distinctWords, 32);
  const staged = accessAt(result, text, 'shared.staged[tid * 3] = in[tid];', 'store');
  assert.equal(staged.status, 'conflict-free');
  assert.equal(staged.worst!.distinctWords, 32);
  const lines = text.split('\n');
  const call = lines.findIndex((l) => l.includes('R::Sweep(tid,'));
  assert.ok(!result.accesses.some((a) => a.range.start.line === call && a.status === 'unknown'));
});

test('a qualified call runs the static function of the class it names (`ColPick<8>::Apply`, not `RowPick::Apply`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 8 * tid: 4 banks, 8 distinct words each
  const col = accessAt(result, text, 'buf[tid * STRIDE] = v;', 'store');
  assert.equal(col.kernel, 'pick_columns');
  assert.equal(col.status, 'conflict');
  assert.equal(col.degree, 8);
  assert.equal(col.wavefronts, 8);
  assert.equal(col.worst!.distinctWords, 32);
  assert.deepEqual(col.block, [128, 1, 1]);
  // RowPick::Apply is reached from pick_rows only (it was also run for pick_columns' call)
  const row = accessAt(result, text, 'buf[tid * 4] = v;', 'store');
  assert.equal(row.kernel, 'pick_rows');
  assert.equal(row.degree, 4);
  assert.equal(row.wavefronts, 4);
  assert.equal(row.worst!.distinctWords, 32);
});

test('a nested struct of a class that is no template (`Bins::Storage`) and a recursive template with a defaulted parameter (`Log2<NT>::value`) are evaluated', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const clr = accessAt(result, text, 's.counts[tid / 32][tid % 32] = 0;', 'store');
  assert.equal(clr.status, 'conflict-free');
  assert.equal(clr.worst!.distinctWords, 32);
  const bins = accessAt(result, text, 'out[tid] = grid[(tid * Log2<NT>::value) % NT] + bins.counts[0][tid % 32];', 'load', 'bins');
  assert.equal(bins.status, 'conflict-free');
  assert.equal(bins.worst!.distinctWords, 32);
  // Log2<128>::value = 7: stride 7, conflict-free
  const grid = accessAt(result, text, 'out[tid] = grid[(tid * Log2<NT>::value) % NT] + bins.counts[0][tid % 32];', 'load', 'grid');
  assert.equal(grid.status, 'conflict-free');
  assert.equal(grid.degree, 1);
  assert.equal(grid.worst!.distinctWords, 32);
});
