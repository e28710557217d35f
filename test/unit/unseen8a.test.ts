// Regressions from the eighth sweep of unseen kernels, helper A (karpathy/llm.c dev/cuda and llmc patterns):
// figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen8a.cu';

test('a device function called through a function-pointer template parameter or a function-pointer argument is followed', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `run_stage<gather_pairs>` from `launch_stage<gather_pairs>`, block 32x4: rows of 66 floats, 16 lanes a row
  const st = accessAt(result, text, 'cells[t / 16][t % 16] = in[t];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.equal(st.kernel, 'run_stage');
  assert.deepEqual(st.block, [32, 4, 1]);
  const ld = accessAt(result, text, 'out[t] = cells[t % 16][2 * (t / 16)];', 'load');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.equal(ld.worst!.distinctWords, 32);
  // `apply_stage(&scatter_cols, ...)`, block 32x8: rows of 8 floats read down a column
  const col = accessAt(result, text, 'strip[threadIdx.x][threadIdx.y] = in[threadIdx.x];', 'store');
  assert.equal(col.kernel, 'run_by_pointer');
  assert.equal(col.degree, 8);
  assert.equal(col.wavefronts, 8);
  const row = accessAt(result, text, 'out[threadIdx.x] = strip[threadIdx.y][threadIdx.x % 8];', 'load');
  assert.equal(row.status, 'conflict-free');
  assert.equal(row.worst!.distinctWords, 8);
});
