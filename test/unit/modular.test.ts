// Ring-buffer (modular) indices with a warp-uniform unknown: `(head + threadIdx.x) % 64`, `(base + tid) & 63`, a
// grid-stride `i % 4096`, on 2-D arrays and other element sizes. Before, every one was `unknown` (the remainder
// "combines the unknown warp-uniform value with per-lane values"). Figures from a brute-force lane oracle of the bank
// model over many values of the unknown (scratch/helper-h17a/oracle.py, not shipped), and below, a seeded property
// check of the rule against a brute force of its own over many values of the unknown.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';
import { seededRandom } from './helpers/common';

before(() => ready);

const FIXTURE = 'test/fixtures/modular.cu';
const has = (a: { assumptions: string[] }, re: RegExp) => assert.ok(a.assumptions.some((x) => re.test(x)), a.assumptions.join('\n'));

test('a ring index `(head + threadIdx.x) % 64` with head an unsigned parameter is exact (was: unknown, combines `head` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // any head: 32 consecutive slots of 64 floats, the wrapped ones 256 bytes lower, on the same banks
  const s = accessAt(result, text, 'ring[(head + threadIdx.x) % 64] = in[threadIdx.x];', 'store', 'ring');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [32, 1, 1]);
  has(s, /`\(head \+ threadIdx\.x\) % 64` wraps around at 64 \(the dividend is unsigned and 64 divides 2\^32\): the lanes past the wrap move back 256 bytes/);
  // slots (head + 2t) % 64: 32 words on 16 banks, two each, for any head
  figures(accessAt(result, text, 'out[threadIdx.x] = ring[(head + 2 * threadIdx.x) % 64];', 'load', 'ring'), 'conflict', 2, 2, 32, 32);
});

test('a mask `(base + tid) & 63` with base read from memory is exact for a signed base too (was: unknown, combines `starts[blockIdx.x]` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'ring[(base + tid) & 63] = out[tid];', 'store', 'ring');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [64, 1, 1]);
  has(s, /wraps around at 64 \(`&` keeps the low bits of any integer\)/);
  // a mask that is not one less than a power of two stays unknown, saying so
  const l = accessAt(result, text, 'out[tid] = ring[(base + tid) & 0x5f];', 'load', 'ring');
  assert.equal(l.status, 'unknown');
  assert.equal(l.reason, '`(base + tid) & 0x5f` masks `starts[blockIdx.x]` with 95, not one less than a power of two: the bits it keeps above the lowest ones are not followed');
});

test('a grid-stride loop\'s `hist[i % 4096] += 1` is exact (was: unknown, combines `256 * blockIdx.x + 256 * (passes of i@27)` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'hist[i % 4096] += 1;', kind, 'hist');
    figures(a, 'conflict-free', 1, 1, 32, 32);
    assert.deepEqual(a.block, [256, 1, 1]);
    has(a, /`i % 4096` wraps around at 4096 \(the dividend is never negative: `256 \* blockIdx\.x \+ 256 \* \(passes of i@27\)` is made of block indices, grid extents or pass counts\): the lanes past the wrap move back 16384 bytes/);
  }
});

test('a ring column of a 2-D array `rows[threadIdx.y][(c0 + threadIdx.x) % 32]` is exact (was: unknown, combines `c0` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 16x16: each warp holds two rows of 16 slots of one ring of 32: the same 16 banks twice, for any c0
  for (const [snippet, kind] of [['rows[threadIdx.y][(c0 + threadIdx.x) % 32] = in[threadIdx.x];', 'store'], ['out[threadIdx.x] = rows[threadIdx.y][(c0 + threadIdx.x) % 32];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'rows');
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.deepEqual(a.block, [16, 16, 1]);
    has(a, /`\(c0 \+ threadIdx\.x\) % 32` wraps around at 32 .*move back 128 bytes/);
  }
});

test('rings of 8-, 16- and 1-byte elements are exact; an unsigned remainder by 48 and a signed dividend stay unknown, saying why (was: unknown, combines `h` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // double: two half-warp phases of 16 lanes, 32 words each
  figures(accessAt(result, text, 'dring[(h + threadIdx.x) % 64] = in[threadIdx.x];', 'store', 'dring'), 'conflict-free', 1, 2, 64, 32);
  // float4: four quarter-warp phases
  figures(accessAt(result, text, 'vring[(h + threadIdx.x) % 64] = make_float4', 'store', 'vring'), 'conflict-free', 1, 4, 128, 32);
  // char: 32 bytes in 8 or 9 words, one wavefront for any h (the first place in a word, 8 words, on a tie)
  const c = accessAt(result, text, 'bytes[(h + threadIdx.x) % 128] = 1;', 'store', 'bytes');
  figures(c, 'conflict-free', 1, 1, 8, 32);
  has(c, /`\(h \+ threadIdx\.x\) % 128` wraps around at 128/);
  const u = accessAt(result, text, 'odd[(h + threadIdx.x) % 48] = 2.f;', 'store', 'odd');
  assert.equal(u.status, 'unknown');
  assert.equal(u.reason, '`(h + threadIdx.x) % 48`: the unsigned dividend may wrap past 2^32, which 48, not a power of two, does not divide');
  const n = accessAt(result, text, 'odd[(bad + (int)threadIdx.x) % 32] = 3.f;', 'store', 'odd');
  assert.equal(n.status, 'unknown');
  assert.equal(n.reason, '`(bad + (int)threadIdx.x) % 32`: `bad` may be negative, and `%` of a negative value is negative: where the lanes wrap is not known');
});

test('the README\'s case split on a per-block unknown, `turns[(256 * blockIdx.x + t) % 512]`, is exact (was: unknown, combines `256 * blockIdx.x` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'turns[(256 * blockIdx.x + t) % 512] = out[t];', 'store', 'turns');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [256, 1, 1]);
  has(s, /wraps around at 512 .*move back 2048 bytes/);
});

test('a remainder used in linear arithmetic keeps its figures; one cancelled, masked or compared is not followed (was: unknown, combines `head` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(accessAt(result, text, 'ring[63 - slot] = out[t];', 'store', 'ring'), 'conflict-free', 1, 1, 32, 32);
  // slot + t: 32 words, two per bank for any head
  figures(accessAt(result, text, 'wide[slot + t] = out[t];', 'store', 'wide'), 'conflict', 2, 2, 32, 32);
  const d = accessAt(result, text, 'ring[slot - t] = out[t];', 'store', 'ring');
  assert.equal(d.reason, '`slot - t` cancels the lanes\' part of `(head + t) % 64`: what is left differs between lanes by where it wraps, which is not known');
  const x = accessAt(result, text, 'ring[slot ^ 1] = out[t];', 'store', 'ring');
  assert.equal(x.reason, '`slot ^ 1` applies `^` to `(head + t) % 64`, which wraps around on the lanes past a place not known: not followed');
  // a guard on it is not evaluated per lane: assumed true, and said so (as for any guard not known per lane)
  has(accessAt(result, text, 'out[t] = ring[t] + wide[t];', 'load', 'ring'), /the guard `slot < 32` at line \d+ could not be evaluated per lane \(`slot < 32` compares `\(head \+ t\) % 64`/);
});

test('a remainder of a ring index by a divisor of its ring, `(slot + 7 * k) % 64`, `slot % 32`, is exact; by 48 it is not followed (was: unknown, combines `head` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // every k: 32 consecutive slots of the ring of 64, for any head
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'ring[(slot + 7 * k) % 64] += 1.f;', kind, 'ring');
    figures(a, 'conflict-free', 1, 1, 32, 32);
    has(a, /`\(slot \+ 7 \* k\) % 64` wraps around at 64 \(the dividend is unsigned and 64 divides 2\^32\)/);
  }
  figures(accessAt(result, text, 'ring[slot % 32] = out[t];', 'store', 'ring'), 'conflict-free', 1, 1, 32, 32);
  const n = accessAt(result, text, 'ring[(slot + 1) % 48] = out[t];', 'store', 'ring');
  assert.equal(n.reason, '`(slot + 1) % 48` takes `(head + t) % 64` modulo 48, which does not divide 64: where the two wrap together is not followed');
});

test('where the wrap moves lanes to other banks (48 floats), each set of lanes past it is a case: `(40 * b + t) % 48` (was: unknown, combines `40 * blockIdx.x` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 256: every value of b gives 2-way (a warp of 32 consecutive slots of 48 always has 16 of them on shared banks)
  const w = accessAt(result, text, 'r48[(40 * b + t) % 48] = out[t];', 'store', 'r48');
  figures(w, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(w.cases, []);
  has(w, /move back 192 bytes: each of the \d+ sets of lanes that some value of `\(40 \* blockIdx\.x\) % 48` puts past it is evaluated, the worst reported/);
  // block 32: (40 b) % 48 is 0, 8, ..., 40; from 24 on, slots 0..7 share banks with 32..39: 2-way, before that none
  const c = accessAt(result, text, 'c48[(40 * (int)blockIdx.x + t) % 48] = out[t];', 'store', 'c48');
  figures(c, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(c.cases.map((k) => [k.context['(40 * blockIdx.x) % 48'], k.degree]), [[0, 1], [24, 2], [32, 2], [40, 2]]);
});

test('where the wrap joins lanes on a word (`((head + t) & 31) + t`), each set of lanes past it is a case (was: unknown, combines `head` with per-lane values)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes t and t' < t share a word where the wrapped one lands 32 lower: only head % 32 = 16 pairs every lane (16
  // words, one wavefront); every other value leaves some bank two words: 2-way
  const a = accessAt(result, text, 'wide[((head + t) & 31) + t] = out[t];', 'store', 'wide');
  figures(a, 'conflict', 2, 2, 32, 32);
  assert.equal(a.message, 'wide: 2-way bank conflict: 2 lanes need 2 distinct words from bank 0; served in 2 wavefronts (ideal 1) (worst case: head % 32 = 0)');
  assert.deepEqual(a.cases.map((k) => [k.context['head % 32'], k.degree]), Array.from({ length: 32 }, (_, u) => [u, u === 16 ? 1 : 2]));
  has(a, /move back 128 bytes: each of the 32 sets of lanes that some value of `head % 32` puts past it is evaluated, the worst reported/);
});

// ---- the rule against brute force, over many values of the unknown ----

interface Case { src: string; elem: number; bx: number; addr: (t: number, u: number) => number; us: number[]; nest: boolean }

const TYPES: [string, number][] = [['char', 1], ['short', 2], ['float', 4], ['double', 8], ['float4', 16]];

/**
 * A random ring subscript: `S * ((U * H + L * t + K) % M) + O` (or `& (M - 1)`), U an unsigned parameter or a block's
 * index, sometimes with the remainder taken again, `(r + K2) % M2`.
 */
function makeCase(seed: number): Case {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const [type, elem] = pick(TYPES);
  const bx = pick([32, 64, 128]);
  const byBlock = next() < 0.5; // signed, never negative: `%` by any M; else unsigned: powers of two
  const mask = next() < 0.3;
  const M = mask || !byBlock ? 2 ** int(2, 9) : int(3, 200);
  const H = int(1, 70), L = pick([1, 1, 2, 3, 4, 5, 8, 16, 33]), K = int(0, 40), S = pick([1, 1, 2, 3, 4]), O = int(0, 5);
  const u = byBlock ? '(int)blockIdx.x' : 'h';
  const t = byBlock ? '(int)threadIdx.x' : 'threadIdx.x';
  const inner = `${u} * ${H} + ${L} * ${t} + ${K}`;
  // sometimes a remainder of the remainder: `(r + K2) % M2`, M2 a divisor of M (or not, then unknown)
  const nest = next() < 0.3;
  const K2 = int(0, 9), M2 = next() < 0.8 ? M / pick([1, 2, 4].filter((d) => M % d === 0 && M / d >= 2)) : int(2, 60);
  const first = `(${inner}) ${mask ? `& ${M - 1}` : `% ${M}`}`;
  const idx = `${S} * (${nest ? `(${first} + ${K2}) % ${M2}` : first}) + ${O}`;
  const src = `// bank-lens: block=${bx}
__global__ void k(${type} *out, unsigned h) {
  __shared__ ${type} s[${S * (M - 1) + O + 1}];
  out[threadIdx.x] = s[${idx}];
}
`;
  const addr = (tt: number, uu: number) => {
    let x = uu * H + L * tt + K;
    if (!byBlock) x = x % 2 ** 32; // unsigned arithmetic
    const r0 = x % M; // x >= 0 here: floor and C remainders, and the mask, agree
    const r = nest ? (r0 + K2) % M2 : r0;
    return elem * (S * r + O);
  };
  const us: number[] = [];
  for (let i = 0; i < 3 * M && i < 600; i++) us.push(i);
  for (let i = 0; i < 40; i++) us.push(byBlock ? int(0, 2 ** 20) : Math.floor(next() * 2 ** 32));
  return { src, elem, bx, addr, us, nest };
}

/** Degree and wavefronts of one warp's request (bank model rules 1-3, phases by width), brute force. */
function request(addrs: number[], width: number): { degree: number; wavefronts: number } {
  const phase = width <= 4 ? 32 : width === 8 ? 16 : 8;
  const words = Math.max(1, width / 4);
  let degree = 0, wavefronts = 0;
  for (let p = 0; p < 32; p += phase) {
    const banks = new Map<number, Set<number>>();
    for (const a of addrs.slice(p, p + phase))
      for (let j = 0; j < words; j++) {
        const w = Math.floor(a / 4) + j;
        if (!banks.has(w % 32)) banks.set(w % 32, new Set());
        banks.get(w % 32)!.add(w);
      }
    const most = Math.max(...[...banks.values()].map((s) => s.size));
    degree = Math.max(degree, most);
    wavefronts += most;
  }
  return { degree, wavefronts };
}

test('property: a ring subscript\'s figures, where given, are the worst over every value of the unknown, and the same for all where no case is listed (200 seeded cases)', () => {
  let exact = 0, nested = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const c = makeCase(seed);
    const a = analyzeText(c.src, { fixes: false, budgetMs: 60_000 }).accesses.find((x) => x.kind === 'load' && x.array === 's')!;
    assert.ok(a, `seed ${seed}: no access\n${c.src}`);
    if (a.status === 'unknown') continue;
    exact++;
    if (c.nest) nested++;
    const seen = new Set<number>();
    let worst = { degree: 0, wavefronts: 0 };
    for (const u of c.us) {
      for (let w = 0; w < c.bx; w += 32) {
        const f = request(Array.from({ length: 32 }, (_, l) => c.addr(w + l, u)), c.elem);
        if (f.degree > worst.degree || (f.degree === worst.degree && f.wavefronts > worst.wavefronts)) worst = f;
      }
      let d = 0;
      for (let w = 0; w < c.bx; w += 32) d = Math.max(d, request(Array.from({ length: 32 }, (_, l) => c.addr(w + l, u)), c.elem).degree);
      seen.add(d);
    }
    assert.equal(a.degree, worst.degree, `seed ${seed}: degree\n${c.src}\n${a.message}`);
    assert.equal(a.wavefronts, worst.wavefronts, `seed ${seed}: wavefronts\n${c.src}\n${a.message}`);
    // no cases listed: every value gives that degree; cases listed: their degrees are those some value gives
    if (a.cases.length === 0) assert.deepEqual([...seen], [a.degree], `seed ${seed}: degrees over the unknown\n${c.src}`);
    else assert.deepEqual(new Set(a.cases.map((k) => k.degree)), seen, `seed ${seed}: cases\n${c.src}`);
  }
  // most cases are exact: the rule is not vacuous
  assert.ok(exact >= 120, `only ${exact} of 200 exact`);
  assert.ok(nested >= 20, `only ${nested} remainders of remainders exact`);
});
