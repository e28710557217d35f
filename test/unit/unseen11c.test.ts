// Regressions from the eleventh sweep of unseen kernels, helper C (fused deep-learning kernels: OneFlow, Apex,
// DeepSpeed, bitsandbytes, Marlin): a union member beside a cub temporary, a class template only declared and then
// specialized per element type (Apex's `SharedMemory<U>`), a struct copied from a place of an int4 array (Marlin's
// `*reinterpret_cast<I4 *>(&sh_b_stage[i])`), shared indices precomputed into a local array (Marlin's
// `a_sh_rd_trans[i][j]`), launches of overloaded kernels (DeepSpeed's `LayerNormBackward2`) and launches written in a
// dispatch macro (Marlin's `CALL_IF`). Figures
// from a brute-force lane oracle of docs/bank-model.md (scratch/unseen11c/oracle.py).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen11c.cu';

test('a union member beside a cub temporary is at offset 0 (was: unknown, the layout of the union not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 128: `marks[j]`, j = t + 128k, one word per lane in 32 banks
  const fill = accessAt(result, text, 'scratch.marks[j] = -1;', 'store');
  assert.equal(fill.kernel, 'bucket_marks');
  assert.equal(fill.status, 'conflict-free');
  assert.equal(fill.degree, 1);
  assert.equal(fill.wavefronts, 1);
  assert.equal(fill.worst!.distinctWords, 32);
  assert.deepEqual(fill.block, [128, 1, 1]);
  // `marks[4 * t]`: stride 4 words, 8 banks of 4 words each
  const mark = accessAt(result, text, 'scratch.marks[4 * t] = t;', 'store');
  assert.equal(mark.status, 'conflict');
  assert.equal(mark.degree, 4);
  assert.equal(mark.wavefronts, 4);
  assert.equal(mark.worst!.distinctWords, 32);
  assert.equal(mark.worst!.activeLanes, 32);
  // `marks[0]` by thread 0 only
  const first = accessAt(result, text, 'if (t == 0) out[blockIdx.x] = scratch.marks[0] + (int)total;', 'load');
  assert.equal(first.status, 'conflict-free');
  assert.equal(first.worst!.activeLanes, 1);
  // the cub temporary itself stays unknown: its size is not in this file
  const reduce = accessAt(result, text, 'float total = Reduce(scratch.reduce).Sum(staged.head[2 * t]);', 'load', 'scratch');
  assert.equal(reduce.status, 'unknown');
  assert.match(reduce.reason!, /the size of `Reduce::TempStorage` is not known/);
});

test('a struct keeps the offsets of its members before one of unknown size', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const head = accessAt(result, text, 'staged.head[2 * t] = in[t];', 'store');
  assert.equal(head.status, 'conflict');
  assert.equal(head.degree, 2);
  assert.equal(head.wavefronts, 2);
  assert.equal(head.worst!.distinctWords, 32);
  const read = accessAt(result, text, 'float total = Reduce(scratch.reduce).Sum(staged.head[2 * t]);', 'load', 'staged');
  assert.equal(read.degree, 2);
  assert.equal(read.wavefronts, 2);
});

test('a class template only declared and specialized: the instance picks its specialization (was: the first one)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // pair_sums<double>, block 64: `s[2 * t]` of doubles, 16 bytes apart: lanes t and t + 8 of a half-warp share a bank
  const a = accessAt(result, text, 's[2 * t] = in[t];', 'store');
  assert.equal(a.kernel, 'pair_sums');
  assert.equal(a.sharedArray, 'dyn_d');
  assert.equal(a.elementBytes, 8);
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.idealWavefronts, 2);
  assert.equal(a.worst!.distinctWords, 64);
  assert.deepEqual(a.block, [64, 1, 1]);
  const b = accessAt(result, text, 'out[t] = s[2 * t] + s[2 * t + 1];', 'load', 's[2 * t + 1]');
  assert.equal(b.sharedArray, 'dyn_d');
  assert.equal(b.degree, 2);
  assert.equal(b.wavefronts, 4);
});

test('an instance of that class template with its argument bound by nothing is unknown (was: the float one, 2-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 's[2 * threadIdx.x] = out[threadIdx.x];', 'store');
  assert.equal(a.kernel, 'unbound_pairs');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.match(a.reason!, /`buf\.get\(\)` calls the `get` of whichever specialization `DynBuf<U>` is, and that is not known here/);
});

test('a struct copied from a place of an int4 array is one access as wide as the address is aligned (was: 4-byte pieces, 4-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `Regs<int, 4>` (16 bytes, aligned to 4) at `&rows[t]`: one 16-byte load, 8 lanes a phase, 32 banks each
  const q = accessAt(result, text, 'Regs<int, 4> q = *reinterpret_cast<Regs<int, 4> *>(&rows[t]);', 'load');
  assert.equal(q.kernel, 'packed_rows');
  assert.equal(q.elementBytes, 16);
  assert.equal(q.status, 'conflict-free');
  assert.equal(q.degree, 1);
  assert.equal(q.wavefronts, 4);
  assert.equal(q.idealWavefronts, 4);
  assert.equal(q.worst!.distinctWords, 128);
  assert.deepEqual(q.block, [256, 1, 1]);
  assert.ok(q.assumptions.some((s) => /a whole `Regs<int, 4>` \(16 bytes, aligned to 4\) is copied with one 16-byte access, as nvcc emits it: its address is a multiple of 16 in `rows` \(of `int4`\)/.test(s)), q.assumptions.join('\n'));
  // `Regs<int, 2>` at `&rows[t ^ 1]`: one 8-byte load; lanes 8 apart in a half-warp share a bank
  const h = accessAt(result, text, 'Regs<int, 2> h = *reinterpret_cast<Regs<int, 2> *>(&rows[t ^ 1]);', 'load');
  assert.equal(h.elementBytes, 8);
  assert.equal(h.degree, 2);
  assert.equal(h.wavefronts, 4);
  assert.equal(h.worst!.distinctWords, 64);
  // the same struct of floats in a float array: four 4-byte loads (nvcc cannot prove more), each 4 words apart
  const f = accessAt(result, text, 'Regs<float, 4> f = *reinterpret_cast<Regs<float, 4> *>(&flat[4 * (t % 64)]);', 'load');
  assert.equal(f.elementBytes, 4);
  assert.equal(f.status, 'conflict');
  assert.equal(f.degree, 4);
  assert.equal(f.wavefronts, 4);
  assert.equal(f.worst!.distinctWords, 32);
});

test('a local array of precomputed indices, indexed by known numbers, holds its elements (was: unknown, a value loaded from memory)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 32: `grid[col[i][j]][t % 8]` with col[i][j] = (t(i + 1) + 8j) % 32: bank t % 8; 4 rows per bank for i = 0, 2 for i = 1
  const a = accessAt(result, text, 'acc += grid[col[i][j]][t % 8];', 'load');
  assert.equal(a.kernel, 'staged_indices');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 4);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [32, 1, 1]);
  assert.deepEqual(a.cases.map((c) => [c.context, c.degree, c.wavefronts]), [
    [{ i: 0, j: 0 }, 4, 4], [{ i: 0, j: 1 }, 4, 4], [{ i: 0, j: 2 }, 4, 4], [{ i: 0, j: 3 }, 4, 4],
    [{ i: 1, j: 0 }, 2, 2], [{ i: 1, j: 1 }, 2, 2], [{ i: 1, j: 2 }, 2, 2], [{ i: 1, j: 3 }, 2, 2],
  ]);
  // `pick[1] = 2 * t`, untouched by the guard: 16 rows of column 1, two lanes each
  const b = accessAt(result, text, 'acc += grid[pick[1] % 32][1] + grid[pick[0] % 32][2];', 'load', 'grid[pick[1]');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 16);
  assert.equal(b.wavefronts, 16);
  assert.equal(b.worst!.distinctWords, 16);
  // `pick[0]`, set again under a guard read from memory: not known
  const c = accessAt(result, text, 'acc += grid[pick[1] % 32][1] + grid[pick[0] % 32][2];', 'load', 'grid[pick[0]');
  assert.equal(c.status, 'unknown');
  assert.match(c.reason!, /`pick\[0\]` is set under the guard `in\[t\] > 0\.f` at line \d+, which could not be evaluated per lane/);
});

test('a launch of a kernel name with two overloads is of the overload its arguments fit (was: of both, the other shape too)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // the float overload, launched 32x2 with float pointers: `cols[y][x]` is one row of 33 words per warp
  const f = accessAt(result, text, 'out[y * 32 + x] = cols[y][x];', 'load');
  assert.equal(f.kernel, 'column_stage');
  assert.equal(f.status, 'conflict-free');
  assert.equal(f.degree, 1);
  assert.equal(f.wavefronts, 1);
  assert.deepEqual(f.block, [32, 2, 1]);
  assert.equal(f.cases.length, 0);
  // the __half overload, launched 16x4: `cols[x][y]`, rows 33 words apart, two values of y per warp: 2-way
  const h = accessAt(result, text, 'out[y * 16 + x] = __float2half(cols[x][y]);', 'load');
  assert.equal(h.status, 'conflict');
  assert.equal(h.degree, 2);
  assert.equal(h.wavefronts, 2);
  assert.equal(h.worst!.distinctWords, 32);
  assert.deepEqual(h.block, [16, 4, 1]);
  assert.equal(h.cases.length, 0);
  assert.ok(h.assumptions.some((a) => /^block 16x4x1 from the launch at line \d+$/.test(a)), h.assumptions.join('\n'));
});

test('launches written in a dispatch macro used as an else-if chain are launches (was: none, W and H unbound)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // stripes<32, 4> in 32x4 blocks: `tile[x % 4][y]`, 4 words in one bank; stripes<16, 16> in 16x16: 8 words in each of 4 banks
  const a = accessAt(result, text, 'out[y * W + x] = tile[x % H][y];', 'load');
  assert.equal(a.kernel, 'stripes');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 8);
  assert.equal(a.wavefronts, 8);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [16, 16, 1]);
  assert.deepEqual(a.cases.map((c) => [c.context, c.degree, c.wavefronts]), [
    [{ block: '32x4x1', W: 32, H: 4 }, 4, 4],
    [{ block: '16x16x1', W: 16, H: 16 }, 8, 8],
  ]);
  assert.ok(a.assumptions.some((s) => /block 16x16x1 from the launch in the macro `STRIPES_IF\(16, 16\)` at line \d+/.test(s)), a.assumptions.join('\n'));
  const s = accessAt(result, text, 'tile[y][x] = in[y * W + x];', 'store');
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.wavefronts, 1);
});

test('a last definition whose braces close, holding a macro use the grammar cannot read, is not said to be cut short', () => {
  const { result } = analyzeFile(FIXTURE);
  assert.ok(!result.notices.some((n) => /is not closed/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});
