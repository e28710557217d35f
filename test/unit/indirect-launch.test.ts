// A kernel launched through a function parameter (`void bench(Kernel k, dim3 block) { k<<<grid, block>>>(); }`)
// takes its block shape, and its template arguments, from each call that passes it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, lineOf, accessAt } from './helpers/engine';

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

test('a table of kernels walked by a range-for, or indexed, launches each kernel in it with that launch\'s block', () => {
  const { text, result } = analyzeFile('test/fixtures/indirect-launch.cu');
  // stepA only through the file-scope table's range-for: 64 threads
  const a = accessAt(result, text, 'o[threadIdx.x] = buf[2 * threadIdx.x % 128];', 'load');
  assert.equal(a.kernel, 'stepA');
  assert.deepEqual(a.block, [64, 1, 1]);
  assert.equal(a.degree, 2);
  assert.ok(a.assumptions.includes('block 64x1x1 from the launch at line 41'), a.assumptions.join('\n'));
  // stepB through both: the range-for (64x1x1) and `local[n]` (32x4x1); 4 words apart, 4-way in each
  const b = accessAt(result, text, 'o[threadIdx.x] = buf[4 * threadIdx.x % 256];', 'load');
  assert.equal(b.kernel, 'stepB');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 4);
  const stores = result.accesses.filter((x) => x.kernel === 'stepB' && x.kind === 'store');
  assert.equal(stores.length, 1);
  assert.ok(stores[0].assumptions.includes('2 contexts evaluated (block shapes, loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), stores[0].assumptions.join('\n'));
});
