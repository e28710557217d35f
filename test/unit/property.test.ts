// Property test: seeded random subscripts (affine, shifts, XOR, masks, / and %), random block shapes and element
// sizes, some behind a random guard. The engine reads generated CUDA text; an independent brute-force oracle here
// evaluates every thread in C int arithmetic and counts distinct words per bank per phase. Every degree must agree.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './helpers/engine';
import { seededRandom } from './helpers/common';
import { analyzeText } from '../../server/engine';

before(() => ready);

/** A seeded generator with the helpers this test needs, so failures reproduce. */
function rng(seed: number) {
  const next = seededRandom(seed);
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] };
}

type Expr = { text: string; eval: (tx: number, ty: number, tz: number, tid: number) => number };

const VARS: Expr[] = [
  { text: 'tx', eval: (x) => x },
  { text: 'ty', eval: (_x, y) => y },
  { text: 'tz', eval: (_x, _y, z) => z },
  { text: 'tid', eval: (_x, _y, _z, t) => t },
];

function gen(r: ReturnType<typeof rng>, depth: number): Expr {
  if (depth <= 0 || r.next() < 0.3) {
    if (r.next() < 0.6) return r.pick(VARS);
    const c = r.int(0, 40);
    return { text: String(c), eval: () => c };
  }
  const a = gen(r, depth - 1);
  const op = r.pick(['+', '-', '*', '<<', '>>', '^', '&', '|', '/', '%', 'ternary']);
  if (op === '*') {
    const c = r.int(0, 33);
    return { text: `(${a.text} * ${c})`, eval: (...v) => Math.imul(a.eval(...v), c) };
  }
  if (op === '<<' || op === '>>') {
    const c = r.int(0, 5);
    return op === '<<'
      ? { text: `(${a.text} << ${c})`, eval: (...v) => a.eval(...v) << c }
      : { text: `(${a.text} >> ${c})`, eval: (...v) => a.eval(...v) >> c };
  }
  if (op === '/' || op === '%') {
    const c = r.int(1, 17);
    return op === '/'
      ? { text: `(${a.text} / ${c})`, eval: (...v) => (a.eval(...v) / c) | 0 }
      : { text: `(${a.text} % ${c})`, eval: (...v) => a.eval(...v) % c };
  }
  if (op === 'ternary') {
    const b = gen(r, depth - 1);
    const c = r.int(0, 20);
    return { text: `(${a.text} < ${c} ? ${a.text} : ${b.text})`, eval: (...v) => (a.eval(...v) < c ? a.eval(...v) : b.eval(...v)) };
  }
  const b = gen(r, depth - 1);
  const f: Record<string, (x: number, y: number) => number> = {
    '+': (x, y) => (x + y) | 0, '-': (x, y) => (x - y) | 0, '^': (x, y) => x ^ y, '&': (x, y) => x & y, '|': (x, y) => x | y,
  };
  return { text: `(${a.text} ${op} ${b.text})`, eval: (...v) => f[op](a.eval(...v), b.eval(...v)) };
}

const TYPES: [string, number][] = [['char', 1], ['short', 2], ['float', 4], ['int', 4], ['double', 8], ['float2', 8], ['float4', 16]];

/** The brute-force oracle: per warp, per phase, distinct words per bank; worst warp by (degree, wavefronts). */
function oracle(addrs: (number | null)[], width: number): { degree: number; wavefronts: number } | null {
  const per = width <= 4 ? 32 : width === 8 ? 16 : 8;
  let best: { degree: number; wavefronts: number } | null = null;
  for (let w = 0; w * 32 < addrs.length; w++) {
    let degree = 0, wavefronts = 0, any = false;
    for (let p = 0; p < 32 / per; p++) {
      const banks = new Map<number, Set<number>>();
      for (let l = p * per; l < (p + 1) * per; l++) {
        const a = addrs[w * 32 + l];
        if (a === null || a === undefined) continue;
        any = true;
        for (let b = 0; b < width; b += 4) {
          const word = Math.floor((a + b) / 4);
          const set = banks.get(word % 32) ?? new Set<number>();
          set.add(word);
          banks.set(word % 32, set);
        }
      }
      let m = 0;
      for (const s of banks.values()) m = Math.max(m, s.size);
      wavefronts += m;
      degree = Math.max(degree, m);
    }
    if (any && (!best || degree > best.degree || (degree === best.degree && wavefronts > best.wavefronts))) best = { degree, wavefronts };
  }
  return best;
}

test('engine and brute-force oracle agree on 1,200 random subscripts, blocks, element sizes and guards', () => {
  const r = rng(20261129);
  let compared = 0;
  for (let i = 0; i < 1200; i++) {
    const bx = r.pick([1, 2, 4, 8, 16, 32, 64, 3, 5, 7, 12, 24, 48, 96, 128, 256]);
    const by = r.pick([1, 1, 2, 3, 4, 8]);
    const bz = r.pick([1, 1, 2]);
    if (bx * by * bz > 1024) continue;
    const [type, size] = r.pick(TYPES);
    const e = gen(r, r.int(1, 4));
    const guard = r.next() < 0.3 ? gen(r, 2) : null;
    const limit = r.int(0, 64);
    const idx = (x: number, y: number, z: number, t: number) => e.eval(x, y, z, t) & 4095;
    const n = bx * by * bz;
    const addrs: (number | null)[] = [];
    for (let t = 0; t < n; t++) {
      const x = t % bx, y = Math.floor(t / bx) % by, z = Math.floor(t / (bx * by));
      addrs.push(guard && !(guard.eval(x, y, z, t) < limit) ? null : idx(x, y, z, t) * size);
    }
    const expected = oracle(addrs, size);
    const src = `// bank-lens: block=${bx}x${by}x${bz}
__global__ void k(${type} *out) {
  __shared__ ${type} s[4096];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int tid = tx + ty * blockDim.x + tz * blockDim.x * blockDim.y;
  ${guard ? `if (${guard.text} < ${limit})` : ''}
  out[tid] = s[${e.text} & 4095];
}
`;
    const result = analyzeText(src, { fixes: false, budgetMs: 60000 });
    const loads = result.accesses.filter((a) => a.kind === 'load');
    if (!expected) {
      assert.equal(loads.length === 0 || loads[0].status === 'unknown', true, `case ${i}: no active lane, yet ${loads[0]?.message}\n${src}`);
      continue;
    }
    assert.equal(loads.length, 1, `case ${i}\n${src}`);
    const a = loads[0];
    assert.notEqual(a.status, 'unknown', `case ${i}: ${a.message}\n${src}`);
    assert.equal(a.degree, expected.degree, `case ${i}: degree\n${src}`);
    assert.equal(a.wavefronts, expected.wavefronts, `case ${i}: wavefronts\n${src}`);
    assert.equal(a.elementBytes, size);
    compared++;
  }
  assert.ok(compared >= 1000, `only ${compared} cases compared`);
});

/**
 * Brute-force oracles of the older profiles, written from the bank model's table of older architectures: cc 1.x
 * (16 banks, half-warps, distinct byte addresses conflict, wide accesses split into 32-bit ones), cc 3.x in 4-byte
 * mode (words i and i+32 of a 64-word segment share a bank row) and in 8-byte mode (64-bit banks).
 */
function olderOracle(arch: string, addrs: (number | null)[], width: number): { degree: number; wavefronts: number } | null {
  let best: { degree: number; wavefronts: number } | null = null;
  for (let w = 0; w * 32 < addrs.length; w++) {
    let degree = 0, wavefronts = 0, any = false;
    const count = (lanes: number[], unitsOf: (a: number) => [number, number][]) => {
      const banks = new Map<number, Set<number>>();
      for (const l of lanes) {
        const a = addrs[w * 32 + l];
        if (a === null || a === undefined) continue;
        any = true;
        for (const [bank, key] of unitsOf(a)) {
          const set = banks.get(bank) ?? new Set<number>();
          set.add(key);
          banks.set(bank, set);
        }
      }
      let m = 0;
      for (const v of banks.values()) m = Math.max(m, v.size);
      wavefronts += m;
      degree = Math.max(degree, m);
    };
    const range = (lo: number, n: number) => Array.from({ length: n }, (_, i) => lo + i);
    if (arch === 'sm_13') {
      const parts = width > 4 ? width / 4 : 1;
      for (let part = 0; part < parts; part++)
        for (const half of [0, 16]) count(range(half, 16), (a) => [[Math.floor((a + 4 * part) / 4) % 16, a + 4 * part]]);
    } else {
      const per = width <= 8 ? 32 : 16;
      for (let p = 0; p < 32; p += per)
        count(range(p, per), (a) => {
          const out: [number, number][] = [];
          if (arch === 'sm_35') for (let b = 0; b < width; b += 4) { const word = Math.floor((a + b) / 4); out.push([word % 32, Math.floor(word / 64)]); }
          else for (let d = Math.floor(a / 8); d <= Math.floor((a + width - 1) / 8); d++) out.push([d % 32, d]);
          return out;
        });
    }
    if (any && (!best || degree > best.degree || (degree === best.degree && wavefronts > best.wavefronts))) best = { degree, wavefronts };
  }
  return best;
}

test('older profiles (cc 1.x, 3.x in 4- and 8-byte modes) agree with their brute-force oracles on 600 random cases', () => {
  const r = rng(77);
  let compared = 0;
  for (let i = 0; i < 600; i++) {
    const arch = (['sm_13', 'sm_35', 'sm_35:8B'] as const)[i % 3];
    const bx = r.pick([16, 32, 64, 8, 96]);
    const by = r.pick([1, 2, 4]);
    const [type, size] = r.pick(TYPES);
    const e = gen(r, r.int(1, 3));
    const addrs: (number | null)[] = [];
    for (let t = 0; t < bx * by; t++) addrs.push((e.eval(t % bx, Math.floor(t / bx), 0, t) & 4095) * size);
    const expected = olderOracle(arch, addrs, size)!;
    const src = `// bank-lens: block=${bx}x${by}
__global__ void k(${type} *out) {
  __shared__ ${type} s[4096];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int tid = tx + ty * blockDim.x;
  out[tid] = s[${e.text} & 4095];
}
`;
    const a = analyzeText(src, { arch, fixes: false, budgetMs: 60000 }).accesses.find((x) => x.kind === 'load')!;
    assert.equal(a.degree, expected.degree, `case ${i} (${arch}): degree\n${src}`);
    assert.equal(a.wavefronts, expected.wavefronts, `case ${i} (${arch}): wavefronts\n${src}`);
    compared++;
  }
  assert.equal(compared, 600);
});

test('Kepler 4-byte mode: a warp pattern shifted by one word is not the same request (segment rows move)', () => {
  // warp 0 reads words 31 and 63 (one 64-word segment: 1 wavefront); warp 1 the same shifted by one word, 32 and
  // 64 (two segments in bank 0: 2 wavefronts). Reusing warp 0's figures for warp 1 would hide the conflict.
  const src = `// bank-lens: block=32x2
__global__ void k(float *out) {
  __shared__ float s[256];
  int tx = threadIdx.x, ty = threadIdx.y;
  out[tx] = s[(tx & 1) * 32 + 31 + ty];
}
`;
  const words = (warp: number) => Array.from({ length: 32 }, (_, l) => ((l & 1) * 32 + 31 + warp) * 4);
  const expected = olderOracle('sm_35', [...words(0), ...words(1)], 4)!;
  assert.deepEqual(expected, { degree: 2, wavefronts: 2 });
  const a = analyzeText(src, { arch: 'sm_35', fixes: false }).accesses[0];
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
});

test('loops: every iteration of a random subscript plus a loop-variable offset agrees with the oracles, on every profile', () => {
  // a later iteration often reads the earlier one's addresses shifted by the same amount on every lane; the engine
  // then counts the shifted request once. Shifts of 1, 2, 4, 8 or 256 bytes must not be taken for one another
  const r = rng(4242);
  let compared = 0;
  for (let i = 0; i < 240; i++) {
    const arch = (['sm_50', 'sm_13', 'sm_35', 'sm_35:8B'] as const)[i % 4];
    const bx = r.pick([32, 64, 16, 8, 96]);
    const by = r.pick([1, 2, 4]);
    const [type, size] = r.pick(TYPES);
    const e = gen(r, r.int(1, 3));
    const step = r.pick([1, 2, 3, 4, 8, 16, 32, 64]);
    const trips = r.int(2, 6);
    const expected: { degree: number; wavefronts: number }[] = [];
    for (let it = 0; it < trips; it++) {
      const j = it * step;
      const addrs: (number | null)[] = [];
      for (let t = 0; t < bx * by; t++) addrs.push(((e.eval(t % bx, Math.floor(t / bx), 0, t) & 1023) + j) * size);
      expected.push((arch === 'sm_50' ? oracle(addrs, size) : olderOracle(arch, addrs, size))!);
    }
    const src = `// bank-lens: block=${bx}x${by}
__global__ void k(${type} *out) {
  __shared__ ${type} s[2048];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int tid = tx + ty * blockDim.x;
  for (int j = 0; j < ${trips * step}; j += ${step})
    out[tid] = s[(${e.text} & 1023) + j];
}
`;
    const a = analyzeText(src, { arch: arch === 'sm_50' ? undefined : arch, fixes: false, budgetMs: 60000 }).accesses.find((x) => x.kind === 'load')!;
    const worst = expected.reduce((w, x) => (x.degree > w.degree || (x.degree === w.degree && x.wavefronts > w.wavefronts) ? x : w));
    assert.equal(a.degree, worst.degree, `case ${i} (${arch}): degree\n${src}`);
    assert.equal(a.wavefronts, worst.wavefronts, `case ${i} (${arch}): wavefronts\n${src}`);
    if (a.cases.length) {
      assert.equal(a.cases.length, trips, `case ${i} (${arch}): cases\n${src}`);
      for (const c of a.cases) {
        const x = expected[Number(c.context.j) / step];
        assert.deepEqual([c.degree, c.wavefronts], [x.degree, x.wavefronts], `case ${i} (${arch}), j = ${c.context.j}\n${src}`);
      }
    } else assert.equal(new Set(expected.map((x) => x.degree)).size, 1, `case ${i} (${arch}): degrees differ, yet no cases\n${src}`);
    compared++;
  }
  assert.equal(compared, 240);
});
