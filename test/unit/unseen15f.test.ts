// Regressions from the fifteenth sweep of unseen kernels, helper F (radio astronomy and signal processing: xGPU's
// X-engine, polyphase FIR filters, dedispersion, LDPC and Viterbi decoders): a statement macro whose `{` is opened by
// a macro it uses (xGPU's `TWO_BY_TWO_COMPUTE(s)`, which starts with `TWO_BY_TWO_PRELOAD(s)`). Figures from a
// brute-force lane oracle of the bank model (scratch/oracle/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, lineOf, figures, accessAt, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen15f.cu';

test('a statement macro whose block another macro opens is expanded as the preprocessor rescans it (its three loads were dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const use of ['ACCUMULATE(0);', 'ACCUMULATE(1);']) {
    const line = lineOf(text, use);
    const loads = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load');
    assert.equal(loads.length, 3, loads.map((a) => a.message).join('\n'));
    for (const a of loads) {
      assert.equal(a.array, 'vis');
      assert.equal(a.kernel, 'xengine_pairs');
      assert.deepEqual(a.block, [8, 8, 1]);
    }
    // `vis[b][8 * tx]` and `vis[b][8 * tx + 1]`: lanes of one warp are tx 0..7 of four rows; 8 words, banks
    // 0, 8, 16, 24 twice: two words in each bank
    const cols = loads.filter((a) => a.degree === 2);
    assert.equal(cols.length, 2, loads.map((a) => a.message).join('\n'));
    for (const a of cols) figures(a, 'conflict', 2, 2, 8, 32);
    // `vis[b][4 * ty + 64]`: the warp's four rows, four words in four banks
    figures(loads.find((a) => a.degree === 1)!, 'conflict-free', 1, 1, 4, 32);
  }
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a block shape that is evaluated but has more than 1024 threads is named with its size (was: "could not be evaluated")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = result.accesses.find((x) => x.kernel === 'syndrome_rows' && x.kind === 'store')!;
  assert.deepEqual(a.block, [32, 1, 1]);
  const launch = lineOf(text, 'syndrome_rows<<<1, rows>>>(hard, parity);') + 1;
  assert.ok(a.assumptions.includes(`the block shape \`rows\` of the launch at line ${launch} is 96x12x1, 1152 threads: more than the 1024 a block can have (such a launch fails): assumed a one-dimensional block of 32 threads (one full warp)`), a.assumptions.join('\n'));
  // under the default block, `bits[threadIdx.x]`: 32 words, 32 banks
  figures(a, 'conflict-free', 1, 1, 32, 32);
});

test('a macro applied to shared memory whose block another macro opens is rescanned too (its load was dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `delay[2 * tx + k]`: stride 2, 32 words two to a bank in 16 banks
  for (const use of ['TAP_MAC(delay, 0, 0.5f);', 'TAP_MAC(delay, 1, 0.25f);']) {
    const a = accessAt(result, text, use, 'load');
    assert.equal(a.array, 'delay');
    assert.equal(a.kernel, 'fir_decimate');
    warpFigures(a, 'conflict', 2, 2, 32, 32);
  }
});
