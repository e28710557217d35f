// Compile-time dispatch on the host (test/fixtures/dispatch-switches.cu): switch macros of the static_switch.h kind
// (`constexpr static bool NAME = true;` / `using elem_t = __half;` around each place the macro runs its lambda), a
// type switch whose cases call a host template that launches, and a launcher's default arguments. Every figure is from
// a brute-force lane oracle of the bank model (scratch/oracle/oracle.py, not shipped): each lane's byte address for the
// launch's block, words = address / 4 (an 8-byte lane covers two), wavefronts per phase = the most distinct words of
// one bank, summed over the phases.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures, warpFigures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/dispatch-switches.cu';
const line = (text: string, snippet: string) => lineOf(text, snippet) + 1;
const degrees = (a: { cases: { context: Record<string, unknown>; degree: number | null }[] }) =>
  a.cases.map((c) => [JSON.stringify(c.context), c.degree]);

test('a flag switch macro gives one instance per value of its constant (was: unknown, "`kPadded` could not be evaluated")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const use = line(text, 'FLAG_SWITCH(padded, kPadded');
  // tile[t][0]: words 33t (padded, conflict-free) or 32t (every lane in bank 0, 32-way)
  const st = accessAt(result, text, 'tile[threadIdx.x][0] = out[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(degrees(st), [['{"kPadded":1}', 1], ['{"kPadded":0}', 32]]);
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${use} with \`kPadded\` = false (\`FLAG_SWITCH\` at line ${use})`);
  assert.ok(!st.assumptions.some((a) => a.includes('could not be evaluated')), st.assumptions.join('\n'));
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = tile[0][threadIdx.x];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('padding an extent that is a conditional expression puts it in parentheses (paddedText wrote `kPadded ? 33 : 32 + 1`, which pads one way only)', () => {
  const { result } = analyzeFile(FIXTURE);
  const tile = result.arrays.find((a) => a.name === 'tile')!;
  assert.equal(tile.fix!.edits[0].newText, '(kPadded ? 33 : 32) + 1');
  // rows of 34 (2-way) and 33 (conflict-free) words: the worst is 2-way
  assert.match(tile.fix!.title, /from 32-way to 2-way/);
});

test('a chain of `if (W <= 32) { constexpr static int kWidth = 32; ... }` binds a host template once per way (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * W / 32: strides 1, 2, 4
  const st = accessAt(result, text, 'rows[threadIdx.x * (W / 32)] = out[threadIdx.x];', 'store', 'rows');
  assert.equal(st.kernel, 'width_rows');
  warpFigures(st, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(degrees(st), [['{"W":32}', 1], ['{"W":64}', 2], ['{"W":128}', 4]]);
  const use = line(text, 'WIDTH_SWITCH(width, [&] { launch_width');
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${line(text, 'void launch_width')} in \`launch_width<kWidth>\` (the call at line ${use}) with \`kWidth\` = 128 (\`WIDTH_SWITCH\` at line ${use})`);
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = rows[threadIdx.x];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('a switch macro over a value the host knows takes only its way: `width` = 48 is `kWidth` = 64 (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const k = result.accesses.filter((a) => a.kernel === 'width_known');
  assert.equal(k.length, 1);
  warpFigures(k[0], 'conflict', 2, 2, 32, 32);
  assert.equal(k[0].cases.length, 0);
  const use = line(text, 'WIDTH_SWITCH(width, [&] { width_known');
  assert.equal(k[0].assumptions[0], `block 32x1x1 from the launch at line ${use} with \`kWidth\` = 64 (\`WIDTH_SWITCH\` at line ${use})`);
});

test('nested switch macros (a type alias and a flag) give every combination (was: unknown, "the size of `elem_t` ... is not known")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows[t][odd] of `T rows[32][33]`: __half at bytes 66t + 2 * odd (2-way when odd), float at words 33t + odd
  const st = accessAt(result, text, 'rows[threadIdx.x][kOdd ? 1 : 0] = out[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(degrees(st), [
    ['{"T":"__half","kOdd":1}', 2], ['{"T":"float","kOdd":1}', 1], ['{"T":"__half","kOdd":0}', 1], ['{"T":"float","kOdd":0}', 1],
  ]);
  const use = line(text, 'HALF_SWITCH(half, [&] {');
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${use + 1} with \`kOdd\` = true (\`FLAG_SWITCH\` at line ${use + 1}) with \`elem_t\` = __half (\`HALF_SWITCH\` at line ${use})`);
  // rows[0][t] of __half: 32 lanes on 16 words, two lanes a word: conflict-free
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = rows[0][threadIdx.x];', 'load'), 'conflict-free', 1, 1, 16, 32);
});

test('a type switch whose cases say `using T = ...;` and call a host template binds its launch per type (was: unknown, "the size of `T` ... is not known")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // vals[2t]: float, words 2t (2-way); double, 16 lanes a phase at words 4t, 4t + 1: 2 wavefronts a phase, ideal 2
  const st = accessAt(result, text, 'vals[threadIdx.x * 2] = out[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 2, 4, 64, 32);
  // float is 2-way too (2 wavefronts, ideal 1): the same degree, so no cases; the worst is double's 4 wavefronts
  assert.deepEqual(st.cases, []);
  assert.ok(st.assumptions.includes('2 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), st.assumptions.join('\n'));
  const use = line(text, 'ELEM_SWITCH(code, T, elem_launcher');
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${line(text, 'void elem_launcher')} in \`elem_launcher<T>\` (the call at line ${use}) with \`T\` = double (\`ELEM_SWITCH\` at line ${use})`);
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = vals[threadIdx.x];', 'load'), 'conflict-free', 1, 2, 64, 32);
});

test('a launcher no code calls takes its default block size, said so (was: a default block of 32 threads)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const launch = line(text, 'void run_default_block');
  // buf[4t] in a block of 128: every warp 4-way
  const st = accessAt(result, text, 'buf[threadIdx.x * 4] = out[threadIdx.x];', 'store');
  figures(st, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  assert.equal(st.assumptions[0], `block 128x1x1 from the launch at line ${launch} in \`run_default_block\` (the default argument \`threads\` = 128: no call of \`run_default_block\` in this file)`);
});

test('a call that leaves out a default argument passes it: `launch_rows(out)` is a block of 8 x 8 (was: the default 32 threads, a 32-way store and a conflict-free load)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // cells[x][y] of `float cells[8][32]`, a warp = x 0..7, y of four rows: words 32x + y, 8 a bank
  const st = accessAt(result, text, 'cells[threadIdx.x][threadIdx.y] = out[threadIdx.x];', 'store');
  figures(st, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(st.block, [8, 8, 1]);
  assert.equal(st.assumptions[0], `block 8x8x1 from the launch at line ${line(text, 'void launch_rows')} in \`launch_rows\` (the call at line ${line(text, 'void run_rows')})`);
  // cells[y][x]: words 32y + x, four rows in each of 8 banks
  figures(accessAt(result, text, 'out[threadIdx.x] = cells[threadIdx.y][threadIdx.x];', 'load'), 'conflict', 4, 4, 32, 32);
  assert.ok(!result.notices.some((n) => /outside the extent/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
});

test('a type switch macro that calls the launcher its argument names (`func<int>(__VA_ARGS__)`) binds it per case (was: unknown, "the type `T` bound to `T` is not known")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // staged[4t]: 1-byte lanes at words t, 2-byte at 2t (2-way), 4-byte at 4t (4-way)
  const st = accessAt(result, text, 'staged[threadIdx.x * 4] = in[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(degrees(st), [['{"T":"int"}', 4], ['{"T":"short"}', 2], ['{"T":"char"}', 1]]);
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${line(text, 'void code_launcher')} in \`code_launcher<int>\` (the call at line ${line(text, 'void run_code')})`);
});

test('a launching macro inside a flag switch macro is found and bound per way (was: no launch found, `T` not bound)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // cols[t][1]: rows of 64 words (32-way) or 33 (conflict-free)
  const st = accessAt(result, text, 'cols[threadIdx.x][1] = out[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(degrees(st), [['{"T":"float","kWide":1}', 32], ['{"T":"float","kWide":0}', 1]]);
  const use = line(text, 'FLAG_SWITCH_STMT(wide, kWide, LAUNCH_COLUMNS');
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch in the macro \`LAUNCH_COLUMNS(column_store, T, kWide, 32, out)\` at line ${use} with \`kWide\` = true (\`FLAG_SWITCH_STMT\` at line ${use}) in \`column_impl<float>\` (the call at line ${line(text, 'void run_columns')})`);
});

test('more combinations of nested switch ways than are read: said with each one read (32 ways, the first 16 read)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // pairs[2t]: words 2t, two in each of 16 banks, in every way
  const st = accessAt(result, text, 'pairs[threadIdx.x * 2] = (A || B || C || D || E) ? out[threadIdx.x] : 0.0f;', 'store');
  warpFigures(st, 'conflict', 2, 2, 32, 32);
  assert.match(st.assumptions[0], /; only the first 16 combinations of the loops, switches and branches around the launch are read$/);
  assert.ok(st.assumptions.includes('16 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), st.assumptions.join('\n'));
});

test('a type switch that pastes its alias from an argument (`using scalar_##LEVEL = float;`) binds it per case (was: unknown, "the type `scalar_0` bound to `T` is not known")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // quads[4t]: float at words 4t (4-way), __half at bytes 8t, words 2t (2-way)
  const st = accessAt(result, text, 'quads[threadIdx.x * 4] = out[threadIdx.x];', 'store');
  warpFigures(st, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(degrees(st), [['{"T":"float"}', 4], ['{"T":"__half"}', 2]]);
  const use = line(text, 'KIND_SWITCH(kind, 0,');
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${use} with \`scalar_0\` = float (\`KIND_SWITCH\` at line ${use})`);
});

test('default arguments written in a declaration before the definition bind the block and a kernel argument (was: unknown, `stride` not known, and a block of 32)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // spread[8t] in a block of 64: both warps 8-way
  const st = accessAt(result, text, 'spread[threadIdx.x * stride] = out[threadIdx.x];', 'store');
  figures(st, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(st.block, [64, 1, 1]);
  const launch = line(text, 'void run_proto(float *out, int stride, int threads)');
  assert.equal(st.assumptions[0], `block 64x1x1 from the launch at line ${launch} in \`run_proto\` (the default arguments \`stride\` = 8, \`threads\` = 64: no call of \`run_proto\` in this file)`);
});
