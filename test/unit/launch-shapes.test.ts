// Block shapes and template bindings the file gives but the engine did not read: a lambda launcher whose parameter
// is the block size, __launch_bounds__ on kernels no code of the file launches, and template parameters deduced from
// tag arguments (std::bool_constant, std::integral_constant, a class Int<N>). Figures from a brute-force lane oracle
// of the bank model (scratch/launch-shapes/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/launch-shapes.cu';

test('a lambda launcher takes the block size each call passes (was: `bs` not evaluated, one warp of 32 assumed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // stride blockDim.x / 32 words: 64 threads give 2-way, 128 threads 4-way; the worst is the call launch(128)
  const w = accessAt(result, text, 'w[threadIdx.x * (blockDim.x / 32)] = d[threadIdx.x];', 'store', 'w');
  figures(w, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(w.block, [128, 1, 1]);
  assert.ok(w.assumptions.some((a) => /`bs` = 128 from the call `launch\(128\)`/.test(a)), w.assumptions.join('\n'));
  assert.deepEqual(w.cases.map((c) => c.degree).sort(), [2, 4]);
  assert.ok(!w.assumptions.some((a) => /could not be evaluated/.test(a)), w.assumptions.join('\n'));
  figures(accessAt(result, text, 'd[threadIdx.x] = w[threadIdx.x];', 'load', 'w'), 'conflict-free', 1, 1, 32, 32);
});

test('__launch_bounds__ of a kernel no code of the file launches gives its block size (was: one warp of 32, conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // a macro as N: 128 threads, stride 4: 4-way
  const b = accessAt(result, text, 'b[threadIdx.x * (blockDim.x / 32)] = d[threadIdx.x];', 'store', 'b');
  figures(b, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(b.block, [128, 1, 1]);
  assert.ok(b.assumptions.some((a) => /assumed a one-dimensional block of 128 threads, the kernel's `__launch_bounds__\(LB_THREADS\)`/.test(a)), b.assumptions.join('\n'));
  // a template parameter as N, bound by the explicit instantiation: 256 threads, stride 8: 8-way
  const c = accessAt(result, text, 'c[threadIdx.x * (blockDim.x / 32)] = d[threadIdx.x];', 'store', 'c');
  figures(c, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(c.block, [256, 1, 1]);
});

test('a launch still wins over __launch_bounds__', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const e = accessAt(result, text, 'e[threadIdx.x * (blockDim.x / 32)] = d[threadIdx.x];', 'store', 'e');
  figures(e, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(e.block, [64, 1, 1]);
});

test('--block still wins over __launch_bounds__', () => {
  const { text, result } = analyzeFile(FIXTURE, { block: [32, 1, 1] });
  const b = accessAt(result, text, 'b[threadIdx.x * (blockDim.x / 32)] = d[threadIdx.x];', 'store', 'b');
  figures(b, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(b.block, [32, 1, 1]);
});

test('template parameters deduced from tag arguments (was: not bound by any launch)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // std::bool_constant<true>{}: stride 2, 2-way
  figures(accessAt(result, text, 'f[threadIdx.x * (Wide ? 2 : 1)] = d[threadIdx.x];', 'store', 'f'), 'conflict', 2, 2, 32, 32);
  // std::integral_constant<int, 4>{}: stride 4, 4-way
  figures(accessAt(result, text, 'g[threadIdx.x * V] = d[threadIdx.x];', 'store', 'g'), 'conflict', 4, 4, 32, 32);
  // Int<8>{} as an unnamed first parameter: stride 8, 8-way
  figures(accessAt(result, text, 'h[threadIdx.x * V] = d[threadIdx.x];', 'store', 'h'), 'conflict', 8, 8, 32, 32);
  for (const a of result.accesses.filter((x) => x.kernel.startsWith('tag_')))
    assert.ok(!a.assumptions.some((s) => /not bound/.test(s)), a.assumptions.join('\n'));
});

// a launch's braced block or grid: dim3 from an initializer list, which the grammar reads as a compound literal whose
// type is missing
const bracedLaunch = (config: string) => [
  '#define TILE 16',
  '__global__ void transposeRead(float *out)',
  '{',
  '  __shared__ float tile[32][32];',
  '  __shared__ float strided[1024];',
  '  int x = threadIdx.x, y = threadIdx.y;',
  '  out[y * 32 + x] = tile[x][y] + strided[(y * blockDim.x + x) * gridDim.y];',
  '}',
  `int main() { float *o = 0; transposeRead<<<${config}>>>(o); return 0; }`,
  '',
].join('\n');

test('a braced block `k<<<g, {16, 16}>>>` is the block it lists: the column read 16-way (was: not evaluated, 32x1x1 assumed, 32-way)', () => {
  for (const config of ['1, {16, 16}', '1, {16, 16, 1}', 'dim3{1, 1}, {TILE, TILE}']) {
    const text = bracedLaunch(config);
    const r = analyzeText(text, { budgetMs: 60_000 });
    // word 32 x + y: a warp holds x 0..15 at two rows y, y + 1: banks y and y + 1, 16 words each
    const a = accessAt(r, text, 'tile[x][y]', 'load', 'tile');
    figures(a, 'conflict', 16, 16, 32, 32);
    assert.deepEqual(a.block, [16, 16, 1]);
    assert.ok(a.assumptions.includes('block 16x16x1 from the launch at line 9'), a.assumptions.join('\n'));
  }
});

test('a braced grid `k<<<{4, 2}, 32>>>` gives gridDim: a stride of gridDim.y words is 2 words, 2-way (was: unknown)', () => {
  const text = bracedLaunch('{4, 2}, 32');
  const r = analyzeText(text, { budgetMs: 60_000 });
  const a = accessAt(r, text, 'strided[(y', 'load', 'strided');
  // word 2 x for x 0..31: banks 0, 2, ..., 30, two words each
  figures(a, 'conflict', 2, 2, 32, 32);
});
