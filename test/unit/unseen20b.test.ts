// Regressions from the twentieth sweep of unseen kernels, helper B: shared-memory data structures driven by atomics
// and warp intrinsics (hash tables probed with atomicCAS, per-warp sub-histograms, bitmaps, queues with a shared
// tail, warp-aggregated atomics, __match_any_sync, __reduce_*_sync, 64-bit atomics, a __shared__ cuda::atomic),
// written from scratch. Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen20b.cu';

test('__match_any_sync of a key known per lane groups the lanes exactly, so `lane == leader` holds for one lane per group (was: its result unknown, the guard assumed true for all 32 lanes, and a same-word-atomics note)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // key = lane & 3: peers of lane l are the lanes l & 3 + 4 j; the leaders are lanes 0..3, at words 0, 8, 16, 24
  const a = accessAt(result, text, 'if (lane == leader) atomicAdd(&cnt[key * 8], __popc(peers));', 'atomic', 'atomicAdd');
  warpFigures(a, 'conflict-free', 1, 1, 4, 4);
  assert.equal(a.worst!.banksUsed, 4);
  assert.ok(!a.assumptions.some((s) => /could not be evaluated per lane|several lanes update the same word/.test(s)), a.assumptions.join('\n'));
});

test('__reduce_add_sync / __reduce_min_sync of values known per lane are one known value per warp (was: unknown, "the result of `__reduce_add_sync(...)`")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 0 + 1 + ... + 31 = 496, & 127 = 112: every lane stores one word
  warpFigures(accessAt(result, text, 's[tot & 127] = 1;', 'store', 's'), 'broadcast', 1, 1, 1, 32);
  // min(40 - lane) = 9: words 41 + 2 lane, two per bank
  const m = accessAt(result, text, 's[lo + 32 + 2 * lane] = 2;', 'store', 's');
  warpFigures(m, 'conflict', 2, 2, 32, 32);
  assert.equal(m.worst!.banksUsed, 16);
  assert.equal(m.outOfBounds, undefined);
});

test('__reduce_add_sync of loaded values is still one value per warp: a warp-uniform base rotates the banks (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  warpFigures(accessAt(result, text, 's[(base + lane) & 127] = 3;', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
});

test('a __reduce_*_sync over the active lanes only, signed and unsigned, and a warp-uniform unknown under a guard', () => {
  const text = [
    '__global__ void k(const int *in, int *out)',
    '{',
    '    __shared__ int s[256];',
    '    int lane = threadIdx.x & 31;',
    '    if (lane < 8) {',
    '        int hi = __reduce_max_sync(0xffu, lane);',
    '        s[hi * 32 + lane] = 1;',
    '    }',
    '    unsigned x = __reduce_xor_sync(0xffffffffu, (unsigned)lane);',
    '    int mn = __reduce_min_sync(0xffffffffu, lane - 5);',
    '    s[x * 4 + lane] = 2;',
    '    s[(mn + 5) * 33 + lane * 2] = 3;',
    '    out[lane] = s[lane];',
    '}',
    'int main() { k<<<1, 32>>>(0, 0); }',
  ].join('\n');
  const r = analyzeText(text);
  // max over lanes 0..7 = 7: words 224 + lane, 8 lanes
  warpFigures(accessAt(r, text, 's[hi * 32 + lane] = 1;', 'store', 's'), 'conflict-free', 1, 1, 8, 8);
  // xor of 0..31 = 0: words lane
  warpFigures(accessAt(r, text, 's[x * 4 + lane] = 2;', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  // the signed minimum is -5, not 2^32 - 5: words 2 lane, 2-way
  const m = accessAt(r, text, 's[(mn + 5) * 33 + lane * 2] = 3;', 'store', 's');
  warpFigures(m, 'conflict', 2, 2, 32, 32);
  assert.equal(m.outOfBounds, undefined);
});

test('a __shared__ cuda::atomic<int>: fetch_add is an atomic of one word, load and store its accesses (was: unknown, "a member function ... that this file does not define")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'int i = ctr.fetch_add(1, cuda::std::memory_order_relaxed);', 'atomic', 'ctr');
  figures(a, 'broadcast', 1, 1, 1, 32);
  assert.equal(a.elementBytes, 4);
  assert.ok(a.assumptions.some((s) => /several lanes update the same word/.test(s)), a.assumptions.join('\n'));
  figures(accessAt(result, text, 'if (threadIdx.x == 0) ctr.store(0, cuda::std::memory_order_relaxed);', 'store', 'ctr'), 'conflict-free', 1, 1, 1, 1);
  figures(accessAt(result, text, '+ ctr.load(cuda::std::memory_order_relaxed);', 'load', 'ctr'), 'broadcast', 1, 1, 1, 32);
  // the slot it hands out depends on the order the lanes' atomics are applied: unknown, never a guess
  const s = accessAt(result, text, 'slot[i & 63] = threadIdx.x;', 'store', 'slot');
  assert.equal(s.status, 'unknown');
  assert.match(s.reason ?? '', /fetch_add/);
});

test('hash table: the first probe of a key known per lane is exact, a probe of a loaded key unknown (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // mix(3t + 1) & 255 over each warp of 256 threads: 6-way at worst (warp 4: 5-way)
  const a = accessAt(result, text, 'atomicCAS(&keys[mix(k) & (TABLE - 1)], EMPTY, k);', 'atomic', 'atomicCAS');
  figures(a, 'conflict', 6, 6, 32, 32);
  assert.equal(a.worst!.banksUsed, 8);
  const u = accessAt(result, text, 'atomicCAS(&keys[slot], EMPTY, loaded);', 'atomic', 'atomicCAS');
  assert.equal(u.status, 'unknown');
  assert.match(u.reason ?? '', /loaded from memory that is not shared/);
});

test('per-warp sub-histograms: warp-major is conflict-free, bin-major (`bin * WARPS + warp`) 8-way, the bin from memory unknown (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'h1[wid * BINS + lane] = 0;', 'store', 'h1'), 'conflict-free', 1, 1, 32, 32);
  const h2 = accessAt(result, text, 'h2[lane * WARPS + wid] = 0;', 'store', 'h2');
  figures(h2, 'conflict', 8, 8, 32, 32);
  assert.equal(h2.worst!.banksUsed, 4);
  figures(accessAt(result, text, 's += h2[threadIdx.x * WARPS + w];', 'load', 'h2'), 'conflict', 8, 8, 32, 32);
  assert.equal(accessAt(result, text, 'atomicAdd(&h1[wid * BINS + bin], 1u);', 'atomic', 'atomicAdd').status, 'unknown');
});

test('bitmap and queues: one word per warp for `bits[i >> 5]`, the leader\'s base from __shfl_sync is a rotation, a per-lane atomicAdd slot unknown (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'atomicOr(&bits[i >> 5], 1u << (i & 31));', 'atomic', 'atomicOr'), 'broadcast', 1, 1, 1, 32);
  figures(accessAt(result, text, 'if (lane == 0) base = atomicAdd(&tail, 32);', 'atomic', 'atomicAdd'), 'conflict-free', 1, 1, 1, 1);
  figures(accessAt(result, text, 'queue[(base + lane) & (QCAP - 1)] = x;', 'store', 'queue'), 'conflict-free', 1, 1, 32, 32);
  const q = accessAt(result, text, 'queue[pos & (QCAP - 1)] = x;', 'store', 'queue');
  assert.equal(q.status, 'unknown');
  assert.match(q.reason ?? '', /atomicAdd/);
});

test('64-bit atomics: 8-byte lanes in half-warps, `dacc[lane * 2]` 2-way in each (already right)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  warpFigures(accessAt(result, text, 'atomicAdd(&acc[lane], 1ull);', 'atomic', 'atomicAdd'), 'conflict-free', 1, 2, 64, 32);
  const d = accessAt(result, text, 'atomicAdd(&dacc[lane * 2], 1.0);', 'atomic', 'atomicAdd');
  warpFigures(d, 'conflict', 2, 4, 64, 32);
  assert.equal(d.worst!.banksUsed, 16);
});

test('`++c` and `c += 2` on a __shared__ cuda::std::atomic are one atomic each, of T\'s size (was: a load and a store, both unknown: "the size of `std::atomic<int>` is not known")', () => {
  const text = [
    '#include <cuda/atomic>',
    '__global__ void k(unsigned long long *out)',
    '{',
    '    __shared__ cuda::std::atomic<int> hits;',
    '    __shared__ cuda::atomic<unsigned long long, cuda::thread_scope_block> bytes;',
    '    ++hits;',
    '    hits += 2;',
    '    bytes++;',
    '    bytes.fetch_add(8ull);',
    '    out[threadIdx.x] = bytes.load();',
    '}',
    'int main() { k<<<1, 64>>>(0); }',
  ].join('\n');
  const r = analyzeText(text);
  assert.deepEqual(r.accesses.map((a) => [a.range.start.line, a.kind, a.status, a.elementBytes]),
    [[5, 'atomic', 'broadcast', 4], [6, 'atomic', 'broadcast', 4], [7, 'atomic', 'broadcast', 8], [8, 'atomic', 'broadcast', 8], [9, 'load', 'broadcast', 8]]);
  // one 8-byte word pair for 32 lanes: two words, served in one wavefront per half-warp
  const b = accessAt(r, text, 'bytes.fetch_add(8ull);', 'atomic', 'bytes');
  assert.equal(b.worst!.distinctWords, 2);
  assert.equal(b.worst!.activeLanes, 32);
  assert.equal(b.wavefronts, 2);
});
