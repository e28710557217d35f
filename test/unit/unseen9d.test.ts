// Regressions from the ninth sweep of unseen kernels, helper D (flash-attention-minimal and forks,
// How_to_optimize_in_GPU, professional-cuda-c-programming): figures from a brute-force lane oracle of the bank model.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, ROOT } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen9d.cu';

/** The figures every variant of the fixture must give: `stage_rows<8>` in a block of 64, `after_rows` in a warp. */
function checkFigures(text: string, result: ReturnType<typeof analyzeText>) {
  // rows of 33 floats, 8 rows: lane t stores word 33 * (t % 8) + t / 8; bank (t % 8 + t / 8) mod 32 takes 4 words
  const st = accessAt(result, text, 'cells[threadIdx.x % ROWS][threadIdx.x / ROWS] = out[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 4);
  assert.equal(st.wavefronts, 4);
  assert.equal(st.worst!.distinctWords, 32);
  assert.deepEqual(st.block, [64, 1, 1]);
  assert.ok(st.assumptions.includes('block 64x1x1 from the launch at line 30'), st.assumptions.join(' | '));
  const ld = accessAt(result, text, 'out[threadIdx.x] = cells[0][2 * threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.wavefronts, 1);
  assert.equal(ld.worst!.activeLanes, 16);
  assert.equal(ld.worst!.distinctWords, 16);
  const ss = accessAt(result, text, 'strip[2 * threadIdx.x] = out[threadIdx.x];', 'store');
  assert.equal(ss.status, 'conflict');
  assert.equal(ss.degree, 2);
  assert.equal(ss.wavefronts, 2);
  assert.deepEqual(ss.block, [32, 1, 1]);
  assert.ok(ss.assumptions.includes('block 32x1x1 from the launch at line 31'), ss.assumptions.join(' | '));
  const sl = accessAt(result, text, 'out[threadIdx.x] = strip[threadIdx.x];', 'load');
  assert.equal(sl.status, 'conflict-free');
  assert.equal(sl.worst!.activeLanes, 32);
  assert.equal(result.accesses.length, 4);
}

test('kernels whose template header or `__global__` stands on a line of its own', () => {
  const { text, result } = analyzeFile(FIXTURE);
  checkFigures(text, result);
  assert.deepEqual(result.notices, []);
});

test('a definition cut short mid-file keeps its accesses when its template header or `__global__` stands alone', () => {
  const whole = fs.readFileSync(path.join(ROOT, FIXTURE), 'utf8');
  // `template <int ROWS>` then `__global__` then `void stage_rows(...)`, its last brace not typed yet: the whole
  // definition is the one cut short (not `template <int ROWS>` alone), so it is closed and analysed
  const a = whole.replace('} // end of stage_rows', '  // end of stage_rows');
  const ra = analyzeText(a, { budgetMs: 60_000 });
  checkFigures(a, ra);
  assert.deepEqual(ra.notices.map((n) => [n.range.start.line, n.message]),
    [[5, 'the definition from line 6 is not closed before line 18: it is analysed as if its open brace were closed there']]);
  // `__global__` alone above `void after_rows(...)`, cut short before `int main()`; the launch lines the repair
  // names below the cut are the user's (the repair's text has one line more there)
  const b = whole.replace('} // end of after_rows', '  // end of after_rows');
  const rb = analyzeText(b, { budgetMs: 60_000 });
  checkFigures(b, rb);
  assert.deepEqual(rb.notices.map((n) => [n.range.start.line, n.message]),
    [[17, 'the definition from line 18 is not closed before line 27: it is analysed as if its open brace were closed there']]);
});
