// Regressions from the eighth sweep of unseen kernels, helper B (BBuf's how-to-optim-algorithm-in-cuda, GPU Gems 3
// work-efficient scans of CIS 565 students): figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { blankInactive } from '../../server/engine/syntax/preprocess';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen8b.cu';

test('a launch spaced as `k << <grid, block >> > (args)` gives its block shape', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes 96..127 (the block's fourth warp) store at stride 4 words
  const s = accessAt(result, text, 'if (threadIdx.x >= 96) stage[4 * threadIdx.x - 384] = 0.f;', 'store');
  assert.deepEqual(s.block, [128, 1, 1]);
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 4);
  assert.equal(s.wavefronts, 4);
  assert.equal(s.worst!.activeLanes, 32);
  assert.ok(s.assumptions.includes('block 128x1x1 from the launch at line 16'), s.assumptions.join(' | '));
  // the respelling keeps every offset, and leaves an `operator<< <T>` alone
  const src = 'k << <g, b >> > (p);\nfriend Out& operator<< <>(Out&, const V<T>&);\nk<<<g, b>>>(p);';
  const out = blankInactive(src);
  assert.equal(out.length, src.length);
  assert.equal(out.split('\n')[0], 'k <<< g, b >>>  (p);');
  assert.equal(out.split('\n')[1], 'friend Out& operator<< <>(Out&, const V<T>&);');
  assert.equal(out.split('\n')[2], 'k<<<g, b>>>(p);');
});

test('`extern __shared__` of a complete type (a scalar, a sized array) is a static variable of that type', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'window[2 * threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(w.status, 'conflict');
  assert.equal(w.degree, 2);
  assert.equal(w.wavefronts, 2);
  const st = accessAt(result, text, 'if (threadIdx.x == 0) pending = flags[blockIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.worst!.activeLanes, 1);
  const ld = accessAt(result, text, 'flags[threadIdx.x] = pending + (int)window[threadIdx.x];', 'load', 'pending');
  assert.equal(ld.status, 'broadcast');
  assert.equal(ld.wavefronts, 1);
  assert.equal(ld.worst!.distinctWords, 1);
  const wl = accessAt(result, text, 'flags[threadIdx.x] = pending + (int)window[threadIdx.x];', 'load', 'window');
  assert.equal(wl.status, 'conflict-free');
});

test('a template template parameter keeps the later parameters on their own arguments', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'slots[threadIdx.x] = v;', 'store');
  assert.equal(s.elementBytes, 8);
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.wavefronts, 2);
  assert.equal(s.worst!.distinctWords, 64);
  const t = accessAt(result, text, 'return total;', 'load');
  assert.equal(t.status, 'broadcast');
  assert.equal(t.wavefronts, 2);
  assert.equal(t.worst!.activeLanes, 32);
});

test('a launch in a host function template bound by a call in another host function template', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'rows[threadIdx.x][0] = out[threadIdx.x];', 'store');
  assert.deepEqual(st.block, [128, 1, 1]);
  assert.equal(st.degree, 16);
  assert.equal(st.wavefronts, 16);
  assert.ok(st.assumptions.includes('block 128x1x1 from the launch at line 69 in `launchRows<128, Cols>` (the call at line 74) in `pickThreads<16>` (the call at line 78)'), st.assumptions.join(' | '));
  const ld = accessAt(result, text, 'out[threadIdx.x] = rows[threadIdx.x % Cols][threadIdx.x / Cols];', 'load');
  assert.equal(ld.degree, 8);
  assert.equal(ld.wavefronts, 8);
});

test('a scoped enumerator as a template argument (`k<Layout::kCol>`) binds its value', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const g = accessAt(result, text, 'out[threadIdx.x] = grid[threadIdx.x * static_cast<int>(L)][threadIdx.y];', 'load');
  assert.equal(g.status, 'conflict');
  assert.equal(g.degree, 32);
  assert.equal(g.wavefronts, 32);
  assert.deepEqual(g.cases.map((c) => [c.context.L, c.degree]).sort(), [[0, 1], [1, 32]]);
});

test('an `if` on a per-block value whose branch returns leaves its else branches to every lane', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const full = accessAt(result, text, 'band[threadIdx.x][0] = out[threadIdx.x];', 'store');
  assert.equal(full.status, 'conflict');
  assert.equal(full.degree, 32);
  assert.equal(full.wavefronts, 32);
  assert.ok(full.assumptions.some((a) => a.startsWith('the guard `row0 >= rows` at line 106 could not be evaluated per lane') && a.endsWith('its else branch assumed to run for every lane')), full.assumptions.join(' | '));
  const part = accessAt(result, text, 'band[0][threadIdx.x] = 0.f;', 'store');
  assert.equal(part.status, 'conflict-free');
  assert.equal(part.worst!.activeLanes, 32);
  const after = accessAt(result, text, 'out[threadIdx.x] = band[threadIdx.x][1];', 'load');
  assert.equal(after.degree, 32);
});

test('a pointer into shared memory stepped by a loop of unknown trip count keeps its array', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `walk += 64` adds the same number of bytes on every lane: stride 2 words stays 2-way
  const w = accessAt(result, text, 'acc += *walk;', 'load');
  assert.equal(w.status, 'conflict');
  assert.equal(w.degree, 2);
  assert.equal(w.wavefronts, 2);
  // a step loaded from memory differs from lane to lane: unknown, with the reason
  const h = accessAt(result, text, 'acc += hop[0];', 'load');
  assert.equal(h.status, 'unknown');
  assert.equal(h.reason, '`hop` is changed by the loop at line 137, whose trip count is unknown, by a step not known to be the same on every lane');
  // a shared address held in an integer (`__cvta_generic_to_shared`) and stepped the same way
  const a = accessAt(result, text, 'asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));', 'load');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.activeLanes, 32);
});

test('a block shape set under host `if`s decided by constants is that branch\'s; a condition on a name assigned later is read where the `if` stands', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // width 48 takes the `threads.x = 64` branch: the second warp (lanes 32..63) stores at stride 2 words
  const s = accessAt(result, text, 'if (threadIdx.x >= 32) lane2[2 * threadIdx.x - 64] = out[threadIdx.x];', 'store');
  assert.deepEqual(s.block, [64, 1, 1]);
  assert.equal(s.degree, 2);
  assert.equal(s.wavefronts, 2);
  assert.ok(s.assumptions.includes('block 64x1x1 from the launch at line 172'), s.assumptions.join(' | '));
  // `width` is 16 where `if (width < 32)` stands (the later `width = 64 * scale` changes nothing there): 32 threads
  const late = accessAt(result, text, 'cells[threadIdx.x] = out[threadIdx.x];', 'store');
  assert.deepEqual(late.block, [32, 1, 1]);
  assert.ok(late.assumptions.includes('block 32x1x1 from the launch at line 185'), late.assumptions.join(' | '));
});

test('`^` or `|` of a constant below a shared array\'s declared alignment changes only its offset bits', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = text.split('\n').findIndex((l) => l.includes('__device__ __forceinline__ void ldsRing')) + 1;
  const r = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load');
  assert.equal(r.length, 1);
  // `ring + 2 * threadIdx.x`, then `| 4`: words 2t + 1, two lanes per bank, in every stage of the double buffer
  assert.equal(r[0].degree, 2);
  assert.equal(r[0].wavefronts, 2);
  assert.ok(r[0].assumptions.includes('4 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), r[0].assumptions.join(' | '));
  // `plain` is only as aligned as a float: where its start lies decides the bits `^ 4096` changes
  assert.ok(r[0].assumptions.includes('in 1 other context the access could not be evaluated: `b ^= 4096` at line 204 changes the bits of an address in `plain`: the result depends on where `plain` is placed'), r[0].assumptions.join(' | '));
});

test('an undecided `#if` between the string pieces of an inline asm keeps every branch\'s piece and drops its directives', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, '"}\\n" : : "r"(dst), "l"(src));', 'store');
  assert.equal(st.kernel, 'versionedCopy');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.ok(st.assumptions.some((a) => a.startsWith('a cp.async write')), st.assumptions.join(' | '));
  assert.ok(!result.notices.some((n) => /syntax error/.test(n.message)), result.notices.map((n) => n.message).join(' | '));
});

test('two pointers into one shared array compare by their offsets: a pointer loop ending at `tile + 96` is enumerated', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'for (const float *p = tile + 2 * threadIdx.x; p < tile + 96; p += 32) acc += *p;', 'load');
  assert.equal(w.degree, 2);
  assert.equal(w.wavefronts, 2);
  // the third pass keeps lanes 0..15 only (2t + 64 < 96): stride 2 over 16 lanes, conflict-free
  assert.deepEqual(w.cases.map((c) => [c.context['iteration (line 245)'], c.degree, c.figures.activeLanes]), [[0, 2, 32], [1, 2, 32], [2, 1, 16]]);
});

test('an inline asm operand the grammar leaves in an error (no comma before the next one) keeps its number', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\\n" : : "r"(base) "f"(v.x)', 'store');
  // 16-byte stores 32 bytes apart: two words per bank in each quarter-warp
  assert.equal(st.elementBytes, 16);
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 8);
  assert.equal(st.idealWavefronts, 4);
});

test('a PTX load whose address was a shared pointer on an earlier pass and is lost since says so', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, 'for (int hop = 0; hop < 3; ++hop) asm volatile("ld.shared.u32 %0, [%0];\\n" : "+r"(a) : : "memory");', 'load');
  // the first hop is conflict-free; the next two load from what it loaded: the access is unknown, not conflict-free
  // (was: conflict-free from the first hop alone, the other two noted in an assumption)
  assert.equal(ld.status, 'unknown');
  assert.equal(ld.reason, '`a` is set by the inline asm `"ld.shared.u32 %0, [%0];\\n"`');
  assert.ok(ld.assumptions.includes('in 1 context it is evaluated: conflict-free, 1 wavefront (ideal 1); in 2 other contexts it is not'), ld.assumptions.join(' | '));
});
