// Loop collapse (server/engine/eval/collapse.ts): a simple counted loop's body evaluated once, each iteration's
// counter put into its places. The whole analysis must be the same as with every iteration evaluated: every finding,
// figure, range, message, assumption, case and notice. Each case below is analysed both ways and compared.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { DEFAULT_CAPS, Interp } from '../../server/engine/eval/interpreter';
import * as fs from 'fs';
import * as path from 'path';
import { ready, ROOT } from './helpers/engine';

before(() => ready);

/** The analysis as JSON, and how many loop iterations ran as a collapsed pass's replay. */
function run(text: string, collapse: boolean): { json: string; replays: number } {
  const P = Interp.prototype as unknown as { replay: (...a: unknown[]) => boolean };
  const original = P.replay;
  let replays = 0;
  P.replay = function (this: unknown, ...a: unknown[]) {
    const ok = original.apply(this, a);
    if (ok) replays++;
    return ok;
  };
  DEFAULT_CAPS.collapseLoops = collapse;
  try {
    return { json: JSON.stringify(analyzeText(text, { budgetMs: 60_000 })), replays };
  } finally {
    DEFAULT_CAPS.collapseLoops = true;
    P.replay = original;
  }
}

function same(text: string): number {
  const on = run(text, true);
  const off = run(text, false);
  assert.equal(off.replays, 0);
  assert.equal(on.json, off.json, text);
  return on.replays;
}

const kernel = (decls: string, loop: string, block: string) => [
  '__global__ void k(float *out, const float *in, int n)',
  '{',
  decls,
  '  int tx = threadIdx.x, ty = threadIdx.y;',
  '  float acc = 0.0f;',
  '  int idx = tx;',
  loop,
  '  out[ty * 32 + tx] = acc + idx;',
  '}',
  `int main() { k<<<1, ${block}>>>(0, 0, 0); }`,
  '',
].join('\n');

test('the tiled matmul\'s inner loop runs as one pass: 30 of its 32 iterations replayed (the first two are evaluated, the second checks the pass), the analysis the same as iteration by iteration', () => {
  const text = kernel('  __shared__ float As[32][32];\n  __shared__ float Bs[32][32];',
    '  for (int k = 0; k < 32; ++k)\n    acc += As[ty][k] * Bs[k][tx];', 'dim3(32, 32)');
  // iterations 0 and 1 run (1 is the one the pass is checked against); 2..31 are replayed
  assert.equal(same(text), 30);
  const r = analyzeText(text, { budgetMs: 60_000 });
  const as = r.accesses.find((a) => a.array === 'As')!;
  const bs = r.accesses.find((a) => a.array === 'Bs')!;
  assert.equal(as.status, 'broadcast');
  assert.equal(bs.status, 'conflict-free');
});

test('a body whose place is not linear in the counter, or that changes a variable a place reads, is enumerated: nothing replayed', () => {
  const decls = '  __shared__ float s[2048];';
  for (const loop of [
    '  for (int k = 0; k < 16; ++k) acc += s[k * k + tx];',
    '  for (int k = 0; k < 16; ++k) acc += s[(k & 3) * 33 + tx];',
    '  for (int k = 0; k < 16; ++k) acc += s[tx * k];',
    '  for (int k = 0; k < 16; ++k) { idx += 33; acc += s[idx]; }',
    '  for (int k = 0; k < 16; ++k) acc += s[k % 4 * 32 + tx];',
    '  for (int k = 0; k < 16; ++k) if (k < 8) acc += s[k * 32 + tx];',
    '  for (int k = 0; k < 16; ++k) acc += s[k * 32 + tx] + __shfl_sync(0xffffffff, acc, k);',
  ]) assert.equal(same(kernel(decls, loop, '32')), 0, loop);
});

test('a body that calls CUDA math functions collapses; a file that defines a function of that name keeps it enumerated', () => {
  const decls = '  __shared__ float As[32][33];\n  __shared__ float Bs[32][33];';
  const loop = '  for (int k = 0; k < 32; ++k)\n    acc = fmaf(As[ty][k], Bs[k][tx], fmaxf(acc, 0.0f));';
  assert.equal(same(kernel(decls, loop, 'dim3(32, 8)')), 30);
  const own = '__device__ float fmaxf(float a, float b) { return a > b ? a : b; }\n' + kernel(decls, loop, 'dim3(32, 8)');
  assert.equal(same(own), 0);
});

test('an index past the array in a late iteration only is reported there, as when each iteration is evaluated (out of bounds at k = 31)', () => {
  const text = kernel('  __shared__ float s[32][33];', '  for (int k = 0; k < 32; ++k)\n    acc += s[tx][k + 2];', '32');
  assert.equal(same(text), 30);
  const r = analyzeText(text, { budgetMs: 60_000 });
  const a = r.accesses.find((x) => x.array === 's')!;
  assert.equal(a.outOfBounds?.message, 's: index 33 is outside the extent 33 for lane 0 of warp 0 (k = 31) in block 32x1x1');
});

test('a counter that passes 0 after the checked iteration, through a pointer into a 2-D tile (the flat-layout note depends on it), is the same both ways', () => {
  const text = kernel('  __shared__ float s[64][33];\n  float *row = s[tx + 16];',
    '  for (int k = -4; k <= 4; ++k)\n    acc += row[k * 33];', '32');
  same(text);
});

// Seeded random bodies: places in the counter of many shapes (linear, masked, squared, per-lane products), element
// types of 1 to 16 bytes, stores and loads, locals declared in the body, accumulators, block shapes with and without
// warp mode, counters from negative starts, steps of 1 to 3, past the extent.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('seeded random loop bodies: the analysis with collapse equals the analysis iteration by iteration (300 cases)', () => {
  const r = rng(Number(process.env.COLLAPSE_SEED ?? 20261202));
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  let collapsed = 0;
  const cases = Number(process.env.COLLAPSE_CASES ?? 300);
  for (let c = 0; c < cases; c++) {
    const type = pick(['float', 'char', 'short', 'double', 'float2', 'int']);
    const a = pick([1, 2, 4, 8, 16, 32, 33]);
    const b = pick([1, 2, 32, 33]);
    const idx = pick([
      `k * ${a} + tx * ${b}`, `k * ${a} + ty * 32 + tx`, `(k & 3) * ${a} + tx`, `k * k + tx`, `tx * k + ${a}`,
      `(tx + k) % 32`, `k / 2 * ${a} + tx`, `(k ^ tx) & 31`, `${a} * (k + ${b}) + tx`, `k * ${a} - tx`, `k`, `k * ${a}`,
    ]);
    // an element as a number (a member of a float2), and a value to store in one
    const el = (i: string) => (type === 'float2' ? `s[${i}].x` : `s[${i}]`);
    const val = type === 'float2' ? 'make_float2(acc, 0.0f)' : 'acc';
    const stmt = pick([
      `acc += ${el(idx)};`, `s[${idx}] = ${val};`, `{ int j = ${idx}; acc += ${el('j')}; }`, `{ idx += ${a}; acc += ${el('idx')}; }`,
      `acc = acc * 0.5f + ${el(idx)} * ${el('k')};`, `${el(idx)} += 1;`, `{ acc += ${el(idx)}; s[k * 2] = ${val}; }`,
      `acc = fmaf(${el(idx)}, 2.0f, acc);`, `acc = fmaxf(acc, ${el(idx)});`, `{ const float v = ${el(idx)}; acc = __fmaf_rn(v, v, acc); }`,
    ]);
    const lo = pick([0, 0, 0, 1, -3]);
    const hi = pick([4, 8, 16, 33, 64]);
    const step = pick([1, 1, 2, 3]);
    const ext = pick([256, 1024, 2048]);
    const block = pick(['32', '64', 'dim3(32, 4)', 'dim3(16, 16)', 'dim3(8, 4)']);
    const loop = `  for (int k = ${lo}; k < ${hi}; k += ${step})\n    ${stmt}`;
    const text = kernel(`  __shared__ ${type} s[${ext}];`, pick([loop, `  for (int o = 0; o < 2; ++o) {\n${loop}\n  }`]), block);
    if (same(text) > 0) collapsed++;
  }
  // the cases exercise collapse, not only the fallback
  assert.ok(collapsed >= cases / 5, `only ${collapsed} of ${cases} cases collapsed`);
});

test('every example and fixture: the analysis with collapse equals the analysis iteration by iteration', () => {
  const dirs = ['examples', 'test/fixtures'];
  let replays = 0;
  for (const d of dirs)
    for (const f of fs.readdirSync(path.join(ROOT, d)).filter((x) => x.endsWith('.cu')).sort()) {
      const text = fs.readFileSync(path.join(ROOT, d, f), 'utf8');
      const on = run(text, true), off = run(text, false);
      assert.equal(on.json, off.json, `${d}/${f}`);
      replays += on.replays;
    }
  assert.ok(replays > 0);
});
