// Regressions from the fifteenth sweep of unseen kernels, helper C (tensor cores, asynchronous copies and warp-level
// code: hand-written HGEMMs with ldmatrix / cp.async, flash-attention kernels in plain CUDA, wmma pipelines): a copy
// shape spelled `cuda::aligned_size_t<alignof(float4)>(sizeof(float4))`, XOR swizzles computed per lane on a 32-bit
// shared address, a swizzle whose value is not known (its accesses were dropped), shared atomics and bulk copies
// (TMA) and mbarrier operations written in inline PTX (dropped), and a kernel instance held in a local variable and launched by a variadic
// launcher template (its block shape was lost). Figures from a brute-force lane oracle of the bank model
// (scratch/unseen15c/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen15c.cu';

test('`cuda::aligned_size_t<alignof(float4)>(sizeof(float4))` is a 16-byte cp.async per lane (was: unknown, the width of each write not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 16-byte lanes at stride 16 bytes: 8 lanes of a quarter-warp cover 32 banks once
  const a = accessAt(result, text, 'cuda::memcpy_async(&stage[0][t], in + t, shape, pipe);', 'store');
  figures(a, 'conflict-free', 1, 4, 128, 32);
  assert.ok(a.assumptions.some((s) => /cp\.async write/.test(s)), a.assumptions.join('\n'));
  // stride 32 bytes: two words per bank in each quarter-warp
  figures(accessAt(result, text, 'cuda::memcpy_async(&stage[1][2 * t], in + 128 + t, shape, pipe);', 'store'), 'conflict', 2, 8, 128, 32);
  figures(accessAt(result, text, 'out[t] = stage[0][t].x + stage[1][2 * t].y;', 'load', 'stage[0]'), 'conflict', 4, 4, 32, 32);
});

test('an XOR swizzle that differs per lane, on the 32-bit address of an aligned array, is evaluated lane by lane (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // cp.async of row * 128 + (chunk ^ row % 8) * 16: each quarter-warp writes one row's 8 chunks
  const s = accessAt(result, text, 'asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\\n" :: "r"(dst), "l"(g + chunk * 8));', 'store');
  assert.equal(s.array, 'dst');
  figures(s, 'conflict-free', 1, 4, 128, 32);
  // ldmatrix.x4 through a helper: each matrix's 8 rows in 8 different 16-byte bank groups
  const l = accessAt(result, text, ': "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));', 'load');
  figures(l, 'conflict-free', 1, 4, 128, 32);
  assert.deepEqual(l.block, [128, 1, 1]);
  // without the swizzle (ldmatrix.x2, rows 128 bytes apart): 8 rows in one bank group, 8-way in each matrix
  figures(accessAt(result, text, 'asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\\n"', 'load'), 'conflict', 8, 16, 64, 16);
});

test('a swizzle that reads the bits of an address in the dynamic region is unknown, with the reason (was: not reported at all)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const u = accessAt(result, text, 'asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\\n" : "=r"(r) : "r"(addr));', 'load');
  assert.equal(u.kernel, 'dynamic_swizzle');
  assert.equal(u.status, 'unknown');
  assert.equal(u.degree, null);
  assert.match(u.reason!, /changes the bits of an address in `dyn` by a value not known/);
  assert.match(u.reason!, /`address \/ STRIDE` at line \d+ reads the bits of an address in `dyn`: the result depends on where `dyn` is placed/);
});

test('`atom.shared` and `red.shared` in inline PTX are shared atomics of their type (were: not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // counts[2 * t]: stride 2 words, two per bank in 16 banks
  const a = accessAt(result, text, 'asm volatile("atom.shared.add.u32 %0, [%1], %2;\\n"', 'atomic');
  assert.equal(a.sharedArray, 'counts');
  warpFigures(a, 'conflict', 2, 2, 32, 32);
  assert.ok(a.assumptions.some((s) => /atomic is treated as a store/.test(s)), a.assumptions.join('\n'));
  const r = accessAt(result, text, 'asm volatile("red.shared.add.f32 [%0], %1;\\n"', 'atomic');
  assert.equal(r.sharedArray, 'sums');
  assert.equal(r.elementBytes, 4);
  warpFigures(r, 'conflict-free', 1, 1, 32, 32);
});

test('a bulk copy of the tensor memory accelerator, into or out of shared memory, is unknown: no warp request, no figures (was: not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const into = accessAt(result, text, ':: "r"((uint32_t)__cvta_generic_to_shared(landing)), "l"(in), "r"(4096), "r"(bar) : "memory");', 'store');
  const out = accessAt(result, text, ':: "l"(outp), "r"((uint32_t)__cvta_generic_to_shared(landing)), "r"(4096) : "memory");', 'load');
  for (const b of [into, out]) {
    assert.equal(b.sharedArray, 'landing');
    assert.equal(b.status, 'unknown');
    assert.equal(b.degree, null);
    assert.equal(b.wavefronts, null);
    assert.match(b.reason!, /is a bulk copy done by the tensor memory accelerator, not a warp's request: the bank model has no rule for it/);
  }
  assert.match(into.reason!, /^`cp\.async\.bulk\.shared::cluster\.global/);
  assert.match(out.reason!, /^`cp\.async\.bulk\.global\.shared::cta/);
  // the mbarrier the copy completes on: its init and its waits are not requests the bank model describes either
  const init = accessAt(result, text, 'asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\\n" :: "r"(bar), "r"(1));', 'atomic');
  const wait = accessAt(result, text, ': "=r"(done) : "r"(bar), "r"(0));', 'atomic');
  for (const b of [init, wait]) {
    assert.equal(b.sharedArray, 'barrier');
    assert.equal(b.status, 'unknown');
    assert.match(b.reason!, /is an mbarrier operation: the bank model has no rule for it/);
  }
  assert.match(wait.reason!, /^`mbarrier\.try_wait\.parity\.shared::cta\.b64`/);
});

test('a kernel instance held in a local variable and passed to a variadic launcher template gets the block the launcher is called with (was: 32 threads, the access never reached)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // warp 3 of 128 threads stores buf[(t - 96) * 4]: stride 4 words, 4-way
  const s = accessAt(result, text, 'if (t >= 96) buf[(t - 96) * STEP] = in[t];', 'store');
  assert.equal(s.kernel, 'tail_warp');
  assert.deepEqual(s.block, [128, 1, 1]);
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.ok(s.assumptions.some((a) => /block 128x1x1 from the launch at line \d+ through `kernel` of `launch_with`/.test(a)), s.assumptions.join('\n'));
});

test('a PTX address with a displacement (`[%1+256]`, `[%2 + 0x100]`) is the register plus those bytes (was: not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // vals[2t] + 256 bytes: stride 2 words, two per bank in 16 banks
  const a = accessAt(result, text, 'asm volatile("ld.shared.f32 %0, [%1+256];\\n" : "=f"(x) : "r"(a));', 'load');
  assert.equal(a.sharedArray, 'vals');
  warpFigures(a, 'conflict', 2, 2, 32, 32);
  // 8 bytes a lane, contiguous: each half-warp's 32 words in 32 banks
  const v = accessAt(result, text, 'asm volatile("ld.shared.v2.f32 {%0, %1}, [%2 + 0x100];\\n"', 'load');
  assert.equal(v.elementBytes, 8);
  warpFigures(v, 'conflict-free', 1, 2, 64, 32);
});

test('`cuda::device::memcpy_async_tx` (a bulk copy through libcu++) is unknown with the TMA reason; the plain loads of the tile stay exact (its write was not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const w = accessAt(result, text, 'cuda::device::memcpy_async_tx(landed, in, cuda::aligned_size_t<16>(sizeof(landed)), ready);', 'store');
  assert.equal(w.array, 'landed');
  assert.equal(w.status, 'unknown');
  assert.match(w.reason!, /^`cuda::device::memcpy_async_tx` at line \d+ is a bulk copy done by the tensor memory accelerator, not a warp's request/);
  const bar = accessAt(result, text, 'cuda::device::memcpy_async_tx(landed, in, cuda::aligned_size_t<16>(sizeof(landed)), ready);', 'atomic');
  assert.equal(bar.array, 'ready');
  assert.equal(bar.status, 'unknown');
  // landed[t].x: 16-byte elements, stride 4 words
  figures(accessAt(result, text, 'out[threadIdx.x] = landed[threadIdx.x].x;', 'load'), 'conflict', 4, 4, 32, 32);
});

test('PTX loads and stores with qualifiers before the state space (`ld.volatile.shared`, `st.relaxed.cta.shared`) are shared accesses (were: not reported)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const l = accessAt(result, text, 'asm volatile("ld.volatile.shared.f32 %0, [%1];\\n"', 'load');
  assert.equal(l.sharedArray, 'partial');
  warpFigures(l, 'conflict-free', 1, 1, 32, 32);
  // flags[2 * t]: stride 2 words
  const s = accessAt(result, text, 'asm volatile("st.relaxed.cta.shared.u32 [%0], %1;\\n"', 'store');
  assert.equal(s.sharedArray, 'flags');
  warpFigures(s, 'conflict', 2, 2, 32, 32);
});
