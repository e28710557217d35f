// A global thread index reduced by `%`, `&`, `/`, `>>`: the block's index drops out exactly where its coefficient is
// a multiple of the divisor. Figures from the fixture, and a seeded oracle check: wherever the engine gives a degree,
// the brute-force degree is the same for every concrete blockIdx.x tried.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { seededRandom } from './helpers/common';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('gid % 32, gid & 31, gid / 32, gid >> 5 of blockIdx.x * blockDim.x + threadIdx.x are exact; what is not stays unknown', () => {
  const { text, result } = analyzeFile('test/fixtures/global-index-modulo.cu');
  const at = (snippet: string) => accessAt(result, text, snippet, 'load', 's[');
  assert.equal(at('// the lane: conflict-free').status, 'conflict-free');
  assert.equal(at('// 2-way').degree, 2);
  assert.equal(at('// 4-way').degree, 4);
  const row = at('// warp row, padded: conflict-free');
  assert.equal(row.status, 'conflict-free');
  assert.ok(row.assumptions.includes('`1056 * blockIdx.x` adds the same offset to every lane; it does not change the degree (bank model rule 6)'));
  assert.equal(at('// one word per warp: broadcast').status, 'broadcast');
  assert.equal(at('// unsigned, power of two: 2-way').degree, 2);
  assert.equal(at('// n may be negative: unknown').reason, '`q % 32`: `32 * n` may be negative, and `%` of a negative value is negative: where the lanes wrap is not known');
  // a remainder that wraps (test/unit/modular.test.ts): the wrapped lanes move back 128 bytes, onto the same banks
  const wraps = at('// 48 is not a multiple of 32: wraps, conflict-free');
  assert.equal(wraps.status, 'conflict-free');
  assert.equal(wraps.worst!.distinctWords, 32);
  assert.ok(wraps.assumptions.some((a) => a.startsWith('`(blockIdx.x * 48 + threadIdx.x) % 32` wraps around at 32 (the dividend is unsigned and 32 divides 2^32)')), wraps.assumptions.join('\n'));
  for (const a of result.accesses) assert.deepEqual(a.block, [256, 1, 1]);
});

/** Worst degree over the warps of a block, 4-byte words, 32 banks (cc 5.x and newer). */
function oracleDegree(words: number[]): number {
  let worst = 0;
  for (let w = 0; w * 32 < words.length; w++) {
    const perBank = new Map<number, Set<number>>();
    for (const x of words.slice(w * 32, w * 32 + 32)) {
      const bank = ((x % 32) + 32) % 32;
      if (!perBank.has(bank)) perBank.set(bank, new Set());
      perBank.get(bank)!.add(x);
    }
    for (const s of perBank.values()) worst = Math.max(worst, s.size);
  }
  return worst;
}

test('oracle: wherever the engine gives a degree for (blockIdx.x * C + k * threadIdx.x) OP M, every blockIdx.x agrees', () => {
  const rand = seededRandom(20261129);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  let known = 0;
  for (let i = 0; i < 300; i++) {
    const c = pick([32, 64, 96, 128, 256, 48, 512, 1024, 3 * 64]);
    const k = int(1, 5);
    const op = pick(['%', '&', '/', '>>']);
    const m = op === '&' ? pick([31, 63, 15, 127]) : op === '>>' ? int(1, 6) : pick([32, 64, 16, 48, 128]);
    const unsigned = rand() < 0.5;
    const block = pick([32, 64, 256]);
    const ty = unsigned ? 'unsigned' : 'int';
    const src = `__global__ void k(float *o)\n{\n  __shared__ float s[8192];\n  ${ty} g = blockIdx.x * ${c} + ${k} * threadIdx.x;\n  o[0] = s[g ${op} ${m}];\n}\nvoid h(float *d) { k<<<64, ${block}>>>(d); }\n`;
    const r = analyzeText(src);
    const a = r.accesses.find((x) => x.kind === 'load')!;
    // known when the block's coefficient is a multiple of the divisor (of the power of two above a mask); otherwise
    // a quotient is unknown, and a remainder or mask that wraps may be known (test/unit/modular.test.ts): the oracle
    // below checks every degree given
    const unit = op === '&' ? m + 1 : op === '>>' ? 2 ** m : m;
    if (c % unit === 0) assert.notEqual(a.degree, null, src);
    else if (op === '/' || op === '>>') assert.equal(a.degree, null, src);
    if (a.degree === null) continue;
    known++;
    for (const b of [0, 1, 2, 3, 5, 7, 63]) {
      const words: number[] = [];
      for (let t = 0; t < block; t++) {
        const g = unsigned ? (b * c + k * t) >>> 0 : (b * c + k * t) | 0;
        const v = op === '%' ? g % m : op === '&' ? g & m : op === '/' ? Math.trunc(g / m) : unsigned ? g >>> m : g >> m;
        words.push(v);
      }
      assert.equal(oracleDegree(words), a.degree, `${src}blockIdx.x = ${b}`);
    }
  }
  assert.ok(known > 100, `only ${known} of 300 cases had a degree`);
});
