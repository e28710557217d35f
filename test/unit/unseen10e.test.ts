// Regressions from the tenth sweep of unseen kernels, helper E (NVIDIA CUDA samples and NVIDIA developer blog code):
// block shapes kept in variables of the file scope that an init function sets (`dim3 block_sp[3];` set in
// `setDerivativeParameters()`), and kernels launched through a table of function pointers filled element by element
// (`fpDeriv[0] = derivative_x;` in a `switch`). Figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen10e.cu';

test('a kernel given to an element of a table of function pointers is launched by `steps[s]<<<...>>>` (was: never launched)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // column_sweep is `steps[0]` only under `case 1:` of `switch (axis)`; `sweep(1, ...)` launches it with shapes[1] =
  // 4x64: a warp is 4 columns of 8 rows of a 32-word-wide tile, 8 distinct words in each of 4 banks
  const a = accessAt(result, text, 'strip[y + 4][x] = in[y * NARROW + x];', 'store');
  assert.equal(a.kernel, 'column_sweep');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 8);
  assert.equal(a.wavefronts, 8);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [4, 64, 1]);
  assert.equal(a.cases.length, 0);
  assert.ok(a.assumptions.some((s) => /`shapes\[axis\]` as `shapes\[1\] = dim3\(NARROW, ROWS, 1\)` in `configure`/.test(s)), a.assumptions.join('\n'));
  // the halo rows: only y < 4 stores, 16 lanes of warp 0, 4 words per bank
  const h = accessAt(result, text, 'if (y < 4) strip[y][x] = strip[y + ROWS][x];', 'store');
  assert.equal(h.degree, 4);
  assert.equal(h.wavefronts, 4);
  assert.equal(h.worst!.distinctWords, 16);
  assert.equal(h.worst!.activeLanes, 16);
  const r = accessAt(result, text, 'out[y * NARROW + x] = strip[y + 3][x] - strip[y + 5][x];', 'load', 'strip[y + 3][x]');
  assert.equal(r.degree, 8);
  assert.equal(r.wavefronts, 8);
});

test('the branch around the table assignment and the index decide which launch a kernel gets (no shape of another case)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // row_sweep is steps[0] under `case 0:` (shapes[0] = 64x4) and steps[1], which the loop `s < 1` never launches:
  // only 64x4, where each warp reads 32 consecutive words of one row
  const a = accessAt(result, text, 'band[y][x + 4] = in[y * ROWS + x];', 'store');
  assert.equal(a.kernel, 'row_sweep');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [64, 4, 1]);
  assert.equal(a.cases.length, 0);
  const b = accessAt(result, text, 'out[y * ROWS + x] = band[y][x + 3] + band[y][x + 5];', 'load', 'band[y][x + 3]');
  assert.equal(b.status, 'conflict-free');
  assert.deepEqual(b.block, [64, 4, 1]);
  assert.equal(b.cases.length, 0);
});

test('a dim3 of the file scope set once by an init function is the launch shape (was: assumed 32 threads, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];', 'load');
  assert.equal(a.kernel, 'tile_columns');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 32);
  assert.equal(a.wavefronts, 32);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [32, 8, 1]);
  assert.ok(a.assumptions.some((s) => /`wide_shape` as `wide_shape = dim3\(32, 8, 1\)` in `configure` at line \d+ sets it \(assumed to run before the launch\)/.test(s)), a.assumptions.join('\n'));
});

test('a dim3 of the file scope set by two functions stays unknown: the default shape, said so', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'cells[2 * threadIdx.x] = threadIdx.x;', 'store');
  assert.equal(a.kernel, 'twice_set');
  assert.deepEqual(a.block, [32, 1, 1]);
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.ok(a.assumptions.some((s) => /the block shape `twice_shape` of the launch at line \d+ could not be evaluated/.test(s)), a.assumptions.join('\n'));
});

test('a launcher parameter rounded in place (`threads = (threads / 256) * 256;`) keeps its value for the shape (was: unknown, 32 threads)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // launch_rows(out, 300): threads = 256, b = (16, 16): two rows of 16 lanes per warp on banks 0..15, 2-way
  const a = accessAt(result, text, 'rows[threadIdx.y][threadIdx.x] = threadIdx.x;', 'store');
  assert.equal(a.kernel, 'half_rows');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [16, 16, 1]);
  assert.ok(a.assumptions.some((s) => /block 16x16x1 from the launch at line \d+ in `launch_rows`/.test(s)), a.assumptions.join('\n'));
});

test('a dim3 of the file scope never written is its initializer; one whose address is given away is not known', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // tile_shape(8, 16): a warp is 8 columns of 4 rows; cols[x][y] puts 8 distinct words in each of 4 banks
  const load = accessAt(result, text, 'out[y * 8 + x] = cols[x * 32 + y];', 'load');
  assert.equal(load.kernel, 'narrow_columns');
  assert.equal(load.degree, 8);
  assert.equal(load.wavefronts, 8);
  assert.equal(load.worst!.distinctWords, 32);
  assert.deepEqual(load.block, [8, 16, 1]);
  assert.ok(load.assumptions.some((s) => /`tile_shape` as declared at line \d+ \(never written\)/.test(s)), load.assumptions.join('\n'));
  const store = accessAt(result, text, 'cols[y * 32 + x] = y;', 'store');
  assert.equal(store.kernel, 'narrow_columns');
  assert.equal(store.degree, 4);
  assert.equal(store.wavefronts, 4);
  // parsed_shape is given to configure_from(&parsed_shape): the default shape, said so
  const other = result.accesses.find((a) => a.kernel === 'parsed_columns' && a.kind === 'load')!;
  assert.deepEqual(other.block, [32, 1, 1]);
  assert.ok(other.assumptions.some((s) => /the block shape `parsed_shape` of the launch at line \d+ could not be evaluated/.test(s)), other.assumptions.join('\n'));
});
