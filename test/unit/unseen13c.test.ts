// Regressions from the thirteenth sweep of unseen kernels, helper C (image and signal processing: OpenCV's separable
// row and column filters, the DCT 8x8 samples, GPUJPEG, ArrayFire's filters, AstroAccelerate's polyphase filter
// bank and FIR): block shapes held in `const dim3 block(BX, BY)` with sizes set under an undecided `if`, and a block
// size passed to a header's ceiling division (`divUp(n, threads)`) before the launch. Figures from a brute-force lane
// oracle of the bank model (scratch/oracle/unseen13c.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13c.cu';

test('`const dim3 block(BX, BY)` whose sizes an undecided `if` sets is one shape per way (was: 32 threads assumed, the 2-way store missed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 16x16: words 32 * ty + tx, two rows of 16 per warp: 2 words in each of 16 banks; 32x4: one row: conflict-free
  const s = accessAt(result, text, 'tile[threadIdx.y][threadIdx.x] = src[y * cols + x];', 'store', 'tile');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  assert.deepEqual((s.cases ?? []).map((c) => [c.context.block, c.degree, c.wavefronts]).sort(), [['16x16x1', 2, 2], ['32x4x1', 1, 1]]);
  assert.ok(s.assumptions.some((a) => /block 16x16x1 from the launch at line \d+ where `cc >= 20` \(line \d+\) holds/.test(a)), s.assumptions.join('\n'));
  // words 32 * tx + ty: 16x16 puts 16 words in each of banks ty, ty + 1; 32x4 puts 32 words in bank ty
  const l = accessAt(result, text, 'dst[y * cols + x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(l, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(l.block, [32, 4, 1]);
  assert.deepEqual((l.cases ?? []).map((c) => [c.context.block, c.degree, c.wavefronts]).sort(), [['16x16x1', 16, 16], ['32x4x1', 32, 32]]);
});

test('a block size passed to a header\'s `divUp` keeps its value: `k<<<util::divUp(n, threads), threads>>>` is 128 threads (was: 32 assumed, the 4-way store reported conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 128 threads, per = 16: words 16 * (t % 8) + t / 8: 8 banks per warp, 4 distinct words each
  const s = accessAt(result, text, 'phases[(t % 8) * per + t / 8] = in[blockIdx.x * blockDim.x + t];', 'store', 'phases');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.block, [128, 1, 1]);
  assert.ok(s.assumptions.some((a) => /block 128x1x1 from the launch at line \d+/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, 'out[blockIdx.x * blockDim.x + t] = phases[t];', 'load', 'phases'), 'conflict-free', 1, 1, 32, 32);
});

test('a tile size a host function returns under an `if` it cannot decide is one binding per way: 16 and 32 (was: the last `return`, 32, taken as the value, the 2-way 16x16 case missed)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // tile 16: words tx + 17 ty, two rows per warp: word 17 + 15 = 32 lands in bank 0 with word 0: 2-way; tile 32: stride 33
  for (const [snippet, kind] of [['sums[threadIdx.x + threadIdx.y * (tile + 1)] = (a + b) * 0.70710678f;', 'store'], ['out[x * width + y] = sums[threadIdx.y + threadIdx.x * (tile + 1)];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'sums');
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.deepEqual(a.block, [16, 16, 1]);
    assert.deepEqual((a.cases ?? []).map((c) => [c.context.block, c.context.tile, c.degree]).sort(), [['16x16x1', 16, 2], ['32x32x1', 32, 1]]);
    assert.ok(a.assumptions.some((x) => /block 16x16x1 from the launch at line \d+ where `major <= 2 \|\| sms <= 2` \(line \d+\) holds/.test(x)), a.assumptions.join('\n'));
  }
});

test('a device function that returns one of two per-lane values under a guard on a parameter is unknown, said why (was: the last `return`, stride 3, taken: conflict-free)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'out[t] = taps[tap_index(scale, t)];', 'load', 'taps');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.match(a.reason ?? '', /what `tap_index` returns depends on the guard `scale > 2` at line \d+, which could not be evaluated per lane/);
});
