// Regressions from the eleventh sweep of unseen kernels, helper B (NVIDIA CUDA samples, third batch: SobelFilter's
// `#ifndef FIXED_BLOCKWIDTH` parameters, transpose's kernel pointer chosen in a `switch (k)` of its host loop).
// Figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { blankInactive } from '../../server/engine/syntax/preprocess';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen11b.cu';

test('an undecided `#ifndef` inside a parameter list and an argument list no longer hides the kernel (was: no access)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.equal(result.accesses.filter((a) => a.kernel === 'gather_rows').length, 3);
  // 8x8 threads, rows 256 bytes apart: a warp's 4 rows of 8 lanes fall on the same 8 banks, 4 distinct words each
  const s = accessAt(result, text, 'staged[base + 4 * x + 1] = in[', 'store');
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 4);
  assert.equal(s.wavefronts, 4);
  assert.equal(s.worst!.distinctWords, 32);
  assert.equal(s.worst!.activeLanes, 32);
  assert.equal(s.elementBytes, 1);
  assert.deepEqual(s.block, [8, 8, 1]);
  assert.ok(s.assumptions.some((a) => /`ROW_PITCH` = 256 from the launch/.test(a)), s.assumptions.join('\n'));
  const w = accessAt(result, text, 'out[y * 8 + x] = words[y * ROW_WORDS + x]', 'load', 'words');
  assert.equal(w.degree, 4);
  assert.equal(w.wavefronts, 4);
  assert.equal(w.worst!.distinctWords, 32);
  assert.equal(w.elementBytes, 4);
  assert.ok(w.assumptions.some((a) => /`ROW_WORDS` = 64 from the launch/.test(a)), w.assumptions.join('\n'));
  const l = accessAt(result, text, 'out[y * 8 + x] = words[y * ROW_WORDS + x]', 'load', 'staged');
  assert.equal(l.degree, 4);
  assert.equal(l.wavefronts, 4);
  assert.equal(l.worst!.distinctWords, 32);
  // no notice of a syntax error swallowing the kernel
  assert.ok(!result.notices.some((n) => /syntax error/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});

test('with the macro given (`-D FIXED_PITCH`), the other reading: the header sizes, the same figures', () => {
  const { text, result } = analyzeFile(FIXTURE, { defines: { FIXED_PITCH: '' } });
  const s = accessAt(result, text, 'staged[base + 4 * x + 1] = in[', 'store');
  assert.equal(s.degree, 4);
  assert.equal(s.wavefronts, 4);
  assert.deepEqual(s.block, [8, 8, 1]);
  assert.ok(!s.assumptions.some((a) => /`ROW_PITCH` = /.test(a)));
});

test('the preprocessor drops the directive lines of a one-branch chain inside a list, not those of a two-branch one', () => {
  const one = ['void f(int a,', '#ifndef W // (', '         int w,', '#endif', '         int b) {}'].join('\n');
  assert.deepEqual(blankInactive(one).split('\n').map((l) => l.trim()), ['void f(int a,', '', 'int w,', '', 'int b) {}']);
  // between statements the directive stays for the grammar, as before
  const stmt = ['void f() {', '#ifndef W', '  int w = 2;', '#endif', '}'].join('\n');
  assert.deepEqual(blankInactive(stmt).split('\n').map((l) => l.trim()), ['void f() {', '#ifndef W', 'int w = 2;', '#endif', '}']);
  // two undecided branches in a list would both stand there: unchanged
  const two = ['void f(int a,', '#ifdef W', ' int w,', '#else', ' int v,', '#endif', ' int b) {}'].join('\n');
  assert.equal(blankInactive(two), two);
  // a parenthesis in a comment, a string or a character is no list
  const quoted = ['/* ( */ const char *s = "(";', "char c = '(';", '#ifndef W', 'int w;', '#endif'].join('\n');
  assert.deepEqual(blankInactive(quoted).split('\n').map((l) => l.trim())[2], '#ifndef W');
});

test('a kernel picked in `case k:` of a host loop over `k` is launched only in that pass, with its shape (was: every pass)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows_step is `fn` only where k = 0: block widths[0] = 32, 32x8, each warp one row of 32 words (before: also the
  // 16x16 of k = 1, a false 2-way conflict)
  const a = accessAt(result, text, 't[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32', 'store');
  assert.equal(a.kernel, 'rows_step');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [32, 8, 1]);
  assert.equal(a.cases.length, 0);
  assert.ok(a.assumptions.some((s) => /with `k` = 0 \(the loop at line \d+\)/.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y + 8][threadIdx.x];', 'load');
  assert.equal(b.status, 'conflict-free');
  assert.deepEqual(b.block, [32, 8, 1]);
  assert.equal(b.cases.length, 0);
  // cols_step only where k = 1: 16x16, two rows of a 17-word-wide tile per warp: bank 0 twice
  const c = accessAt(result, text, 'u[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16', 'store');
  assert.equal(c.kernel, 'cols_step');
  assert.equal(c.degree, 2);
  assert.equal(c.wavefronts, 2);
  assert.equal(c.worst!.distinctWords, 32);
  assert.deepEqual(c.block, [16, 16, 1]);
  assert.equal(c.cases.length, 0);
  assert.ok(c.assumptions.some((s) => /with `k` = 1 \(the loop at line \d+\)/.test(s)), c.assumptions.join('\n'));
  const d = accessAt(result, text, 'out[threadIdx.y * 16 + threadIdx.x] = u[threadIdx.x][threadIdx.y];', 'load');
  assert.equal(d.degree, 2);
  assert.equal(d.wavefronts, 2);
  assert.equal(d.worst!.distinctWords, 32);
  assert.deepEqual(d.block, [16, 16, 1]);
});

test('a variable set under a guard not known per lane is that branch\'s value under a later `if` with the same guard', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `slot = 2 * t + 1` under `t < count`, stored under `t < count` after the barrier: stride 2 over 32 lanes (was:
  // unknown, `slot` set under the guard)
  const a = accessAt(result, text, 'if (t < count) slots[slot] = v;', 'store');
  assert.equal(a.kernel, 'scatter_pairs');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  assert.ok(a.assumptions.some((s) => /the guard `t < count` at line \d+ could not be evaluated per lane .*assumed true for every lane/.test(s)), a.assumptions.join('\n'));
  // set only by lanes 0..15 (inside `t < 16`): the later branch runs on lanes that never set it
  const b = accessAt(result, text, 'if (t < count) spare[half] = v;', 'store');
  assert.equal(b.status, 'unknown');
  assert.match(b.reason ?? '', /`half` is set under the guard `t < count`/);
  // `count` is assigned between the two: the same text is another guard
  const c = accessAt(result, text, 'if (t < count) spare[other + 128] = v;', 'store');
  assert.equal(c.status, 'unknown');
  assert.match(c.reason ?? '', /`other` is set under the guard `t < count`/);
});
