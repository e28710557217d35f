// A kernel launched through a function parameter (`void bench(Kernel k, dim3 block) { k<<<grid, block>>>(); }`)
// takes its block shape, and its template arguments, from each call that passes it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, lineOf } from './helpers/engine';

before(() => ready);

test('a launch through a kernel parameter gives each kernel passed to it the block of that call', () => {
  const { text, result } = analyzeFile('test/fixtures/indirect-launch.cu');
  const launch = lineOf(text, 'k<<<grid, block>>>(o, i);') + 1;
  const load = result.accesses.find((a) => a.range.start.line === lineOf(text, 'o[threadIdx.x] = tile[threadIdx.x][threadIdx.y];'))!;
  assert.deepEqual([load.degree, load.block], [32, [32, 8, 1]]);
  assert.ok(load.assumptions.includes(`block 32x8x1 from the launch at line ${launch} through \`k\` of \`bench\`, called with \`transposeNaive\` at line ${lineOf(text, 'bench(transposeNaive') + 1}`), load.assumptions.join(' | '));
  const red = result.accesses.filter((a) => a.array === 's');
  assert.equal(red.length, 4);
  for (const a of red) {
    assert.deepEqual(a.block, [256, 1, 1]);
    assert.equal(a.status === 'unknown', false);
    assert.ok(a.assumptions.some((x) => x.includes('called with `reduce<256>`')), a.assumptions.join(' | '));
  }
});
