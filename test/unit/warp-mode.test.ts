// Warp mode: when blockDim.x is a multiple of 32, the engine evaluates one warp with the warp's index along x, and
// threadIdx.y and .z, as linear unknowns, and falls back to every thread of the block where that is not exact. The
// results must be the very same as evaluating every thread: checked here on the bundled kernels and on random ones.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { ready, ROOT } from './helpers/engine';
import { seededRandom } from './helpers/common';
import { analyzeText } from '../../server/engine';
import { runBlock, DEFAULT_CAPS } from '../../server/engine/eval/interpreter';
import { collectFacts } from '../../server/engine/facts/collect';
import { parse } from '../../server/engine/syntax/parser';

before(() => ready);

const same = (text: string, label: string) => {
  const warp = analyzeText(text, { budgetMs: 60000 });
  const whole = analyzeText(text, { budgetMs: 60000, wholeBlock: true });
  assert.deepEqual(warp, whole, label);
  return warp;
};

test('warp mode and whole-block evaluation agree on every bundled kernel', () => {
  const dirs = ['examples', 'test/fixtures', 'test/gpu'];
  let files = 0;
  for (const d of dirs)
    for (const f of fs.readdirSync(path.join(ROOT, d)).filter((x) => x.endsWith('.cu'))) {
      same(fs.readFileSync(path.join(ROOT, d, f), 'utf8'), `${d}/${f}`);
      files++;
    }
  assert.ok(files >= 15, `only ${files} files`);
});

/** Which way runBlock evaluated the first kernel of `src` for `block`: 32 threads (warp mode) or the whole block. */
function threadsEvaluated(src: string, block: [number, number, number]): number {
  const tree = parse(src);
  try {
    const facts = collectFacts(tree.rootNode, src);
    const it = runBlock({ facts, block, values: new Map(), types: new Map(), deadline: Date.now() + 60000, caps: DEFAULT_CAPS, warp: true }, facts.kernels[0]);
    return it.n;
  } finally {
    tree.delete();
  }
}

test('warp mode is kept where exact and left where a guard or a non-linear subscript needs each warp', () => {
  const tile = `__global__ void k(float *o) {
  __shared__ float t[64][65];
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = o[j];
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}`;
  assert.equal(threadsEvaluated(tile, [32, 8, 1]), 32);
  assert.equal(threadsEvaluated(tile, [64, 4, 1]), 32);
  assert.equal(threadsEvaluated(tile, [128, 4, 1]), 512); // threadIdx.x reaches 127, past the extent 65: each warp is checked
  assert.equal(threadsEvaluated(tile, [16, 16, 1]), 256); // a warp holds two rows: no warp mode
  const guarded = tile.replace('o[threadIdx.x] = t', 'if (threadIdx.y < 2) o[threadIdx.x] = t');
  assert.equal(threadsEvaluated(guarded, [32, 8, 1]), 256);
  const swizzle = tile.replace('t[threadIdx.x][threadIdx.y]', 't[threadIdx.x][threadIdx.y ^ 1]');
  assert.equal(threadsEvaluated(swizzle, [32, 8, 1]), 256);
  const warpIds = tile.replace('t[threadIdx.x][threadIdx.y]', 't[threadIdx.x % 32][(threadIdx.x + 32 * threadIdx.y) / 32]');
  assert.equal(threadsEvaluated(warpIds, [64, 2, 1]), 32);
  const reduction = `__global__ void r(int *g) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  s[tid] = g[tid];
  for (unsigned st = 1; st < blockDim.x; st *= 2) { if (tid % (2 * st) == 0) s[tid] += s[tid + st]; __syncthreads(); }
}`;
  assert.equal(threadsEvaluated(reduction, [256, 1, 1]), 256);
  // a bounds check against a parameter is unknown for every warp alike: warp mode stays
  const bounded = `__global__ void b(float *o, int n) {
  __shared__ float t[8][32];
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  if (i >= n) return;
  t[threadIdx.y][threadIdx.x] = o[i];
  __syncthreads();
  o[i] = t[threadIdx.x % 8][threadIdx.y];
}`;
  assert.equal(threadsEvaluated(bounded, [32, 8, 1]), 32);
  const r = same(`// bank-lens: block=32x8\n${bounded}`, 'bounded');
  assert.deepEqual(r.accesses.map((a) => [a.kind, a.degree]), [['store', 1], ['load', 8]]); // 8 rows of one column
  assert.ok(r.accesses.every((a) => a.assumptions.some((x) => x.includes('`i >= n`'))));
  for (const b of ['32x8', '64x4', '16x16', '96x2']) {
    for (const src of [tile, guarded, swizzle, warpIds]) same(`// bank-lens: block=${b}\n${src}`, `${b}\n${src}`);
  }
  // the figures themselves: the transposed read is 32-way in each of the 8 warps
  const tr = same(`// bank-lens: block=32x8\n${tile.replace('[65]', '[64]')}`, 'tile');
  const read = tr.accesses.find((a) => a.kind === 'load')!;
  assert.equal(read.degree, 32);
  assert.equal(read.wavefronts, 32);
});

test('warp mode and whole-block evaluation agree on 400 random 2-D kernels', () => {
  const next = seededRandom(7);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const atom = () => pick(['threadIdx.x', 'threadIdx.y', 'threadIdx.z', 'tid', 'lane', 'wid', 'j', 'blockIdx.x', 'n', String(int(0, 40))]);
  const expr = (d: number): string => {
    if (d <= 0 || next() < 0.3) return atom();
    const op = pick(['+', '-', '*', '*', '/', '%', '&', '^', '<<', '>>', '?']);
    const a = expr(d - 1);
    if (op === '?') return `(${a} < ${int(0, 40)} ? ${a} : ${expr(d - 1)})`;
    if (op === '/' || op === '%') return `(${a} ${op} ${pick([1, 2, 4, 8, 16, 32, 3, 5])})`;
    if (op === '<<' || op === '>>') return `(${a} ${op} ${int(0, 5)})`;
    return `(${a} ${op} ${next() < 0.5 ? int(0, 33) : expr(d - 1)})`;
  };
  for (let i = 0; i < 400; i++) {
    const bx = pick([32, 64, 96, 128, 256]);
    const by = pick([1, 2, 4, 8]);
    const bz = pick([1, 1, 2]);
    if (bx * by * bz > 1024) continue;
    const type = pick(['float', 'double', 'char', 'short', 'float4']);
    const guard = next() < 0.3 ? `if (${expr(1)} < ${int(0, 64)}) ` : '';
    const src = `// bank-lens: block=${bx}x${by}x${bz}
__global__ void k(${type} *out, int n) {
  __shared__ ${type} s[8192];
  int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int lane = tid % 32, wid = tid / 32;
  for (int j = 0; j < ${int(1, 3)}; j++) {
    ${guard}out[tid] = s[${expr(int(1, 3))} & 8191];
    s[${expr(2)} & 8191] = out[j];
  }
}
`;
    same(src, `case ${i}\n${src}`);
  }
});
