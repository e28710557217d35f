// Compile-time constants passed as tag objects (test/fixtures/integral-tags.cu): a generic lambda launcher called
// with `std::integral_constant<int, N>{}` (llama.cpp's ggml-cuda launches this way), `std::bool_constant<true>{}` and
// `std::false_type{}`, the kernel's template argument read back as `decltype(tag)::value`.
// (was: `decltype(tag)::value` is not known here, every access unknown)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

test('a generic lambda launcher called with std::integral_constant tags: one instance per tag, exact degrees', () => {
  const { text, result } = analyzeFile('test/fixtures/integral-tags.cu', { budgetMs: 60_000 });
  // rows[t * row + c], row = TAPS - 1 + 32 words: TAPS 4 -> 35 (odd: 32 banks), TAPS 5 -> 36: gcd(36, 32) = 4 -> 4-way,
  // TAPS 6 (the tag written `std::integral_constant<int, 6>()`) -> 37, odd again
  for (const kind of ['store', 'load'] as const) {
    const a = accessAt(result, text, kind === 'store' ? 'rows[t * row + c] =' : 'acc += rows[t * row + k]', kind);
    figures(a, 'conflict', 4, 4, 32, 32);
    assert.deepEqual(a.block, [64, 1, 1]);
    const byTaps = new Map<number, Set<number>>();
    for (const c of a.cases) byTaps.set(Number(c.context.TAPS), (byTaps.get(Number(c.context.TAPS)) ?? new Set()).add(c.degree));
    assert.deepEqual([...byTaps.keys()], [4, 5, 6]);
    assert.deepEqual([...byTaps.get(4)!], [1]);
    assert.deepEqual([...byTaps.get(6)!], [1]);
    assert.deepEqual([...byTaps.get(5)!], [4]);
    assert.ok(a.assumptions.some((s) => s.includes('`tag` = 5 from the call `launch(std::integral_constant<int, 5>{})` at line 40')), a.assumptions.join('\n'));
  }
});

test('std::bool_constant<true>{} and std::false_type{} as tags pick the padded and the unpadded tile', () => {
  const { text, result } = analyzeFile('test/fixtures/integral-tags.cu', { budgetMs: 60_000 });
  // tile[x][y] of float[32][32 + PAD]: PAD 1 -> stride 33, conflict-free; PAD 0 -> stride 32, every lane in bank y: 32-way
  const read = accessAt(result, text, 'out[threadIdx.x] = tile[threadIdx.x][threadIdx.y]', 'load');
  figures(read, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(read.cases.map((c) => [c.context.PAD, c.degree]), [[1, 1], [0, 32]]);
  figures(accessAt(result, text, 'tile[threadIdx.y][threadIdx.x] =', 'store'), 'conflict-free', 1, 1, 32, 32);
  // a bool tag is said as the bool it is
  assert.ok(read.assumptions.includes('block 32x8x1 from the launch at line 49 with `padded` = false from the call `launch(std::false_type{})` at line 52'), read.assumptions.join('\n'));
});
