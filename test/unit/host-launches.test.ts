// Launches in host loops and with the caller's locals (test/fixtures/host-launches.cu): figures from a brute-force
// lane oracle of docs/bank-model.md (word = byte address / 4, bank = word % 32; a warp's wavefronts are the most
// distinct words any one bank holds).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf, figures } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/host-launches.cu';
const line = (text: string, snippet: string) => lineOf(text, snippet) + 1;

/** The oracle: wavefronts of one warp of 4-byte accesses at these word indices. */
function wavefronts(words: number[]): number {
  const byBank = new Map<number, Set<number>>();
  for (const w of words) {
    const b = w % 32;
    if (!byBank.has(b)) byBank.set(b, new Set());
    byBank.get(b)!.add(w);
  }
  return Math.max(...[...byBank.values()].map((s) => s.size));
}
const lanes = (n: number) => Array.from({ length: n }, (_, t) => t);

test('a launch in a loop that doubles its counter is one instance per value: `stride` = 1, 2, ..., 32', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 's[threadIdx.x * stride] = d[threadIdx.x];', 'store');
  const loopLine = line(text, 'for (int stride = 1; stride <= 32; stride *= 2)');
  assert.deepEqual(st.cases.map((c) => [c.context.stride, c.degree]), [1, 2, 4, 8, 16, 32].map((k) => [k, wavefronts(lanes(32).map((t) => t * k))]));
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 32);
  assert.equal(st.wavefronts, 32);
  assert.equal(st.worst!.distinctWords, 32);
  assert.equal(st.assumptions[0], `block 32x1x1 from the launch at line ${loopLine + 1} with \`stride\` = 32 (the loop at line ${loopLine})`);
  assert.ok(st.assumptions.includes(`\`stride\` = 32 from the launch at line ${loopLine + 1}`));
});

test('a launch in a loop over block sizes (doubling, and halving with `>=`) is analysed with each block', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const by = accessAt(result, text, 's[threadIdx.x * 2] = d[threadIdx.x];', 'store');
  assert.equal(by.degree, wavefronts(lanes(32).map((t) => 2 * t)));
  assert.equal(by.degree, 2);
  assert.ok(by.assumptions.includes('4 contexts evaluated (block shapes, loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), by.assumptions.join('\n'));
  assert.ok(!by.assumptions.some((a) => a.includes('could not be evaluated')));
  // 64, 32 and 16 threads: a full warp is 4-way; the 16 lanes of the 16-thread block, 2-way
  const h = accessAt(result, text, 'h[threadIdx.x * 4] = d[threadIdx.x];', 'store');
  const loopLine = line(text, 'for (int n = 64; n >= 16; n /= 2)');
  assert.equal(h.degree, wavefronts(lanes(32).map((t) => 4 * t)));
  assert.equal(h.degree, 4);
  assert.equal(wavefronts(lanes(16).map((t) => 4 * t)), 2);
  assert.equal(h.assumptions[0], `block 64x1x1 from the launch at line ${loopLine + 1} with \`n\` = 64 (the loop at line ${loopLine})`);
  assert.ok(h.assumptions.includes('3 contexts evaluated (block shapes, loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'));
});

test('a local set once before the launch binds the kernel argument; one whose address is taken does not', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const local = accessAt(result, text, 's[threadIdx.x * pitch] = d[threadIdx.x];', 'store');
  assert.equal(local.kernel, 'fromLocal');
  assert.equal(local.degree, wavefronts(lanes(32).map((t) => 16 * t)));
  assert.equal(local.degree, 16);
  assert.equal(local.worst!.distinctWords, 32);
  assert.ok(local.assumptions.includes(`\`pitch\` = 16 from the launch at line ${line(text, 'fromLocal<<<1, 32>>>(d, pitch);')}`));
  const escaped = result.accesses.find((a) => a.kernel === 'escaped')!;
  assert.equal(escaped.status, 'unknown');
  assert.equal(escaped.reason, '`threadIdx.x * pitch` combines the unknown warp-uniform value `pitch` with per-lane values');
  assert.ok(!escaped.assumptions.some((a) => a.startsWith('`pitch` =')));
});

test('a block size that the loop around the launch changes after it is no one shape: the default, said so', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const g = result.accesses.find((a) => a.kernel === 'grown')!;
  assert.equal(g.assumptions[0], `the block shape \`t\` of the launch at line ${line(text, 'grown<<<1, t>>>(d);')} could not be evaluated: assumed a one-dimensional block of 32 threads (one full warp)`);
  assert.equal(g.degree, 8);
});

test('a size argument that only bounds a long loop is not given: the loop is one pass, and the figures exact', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'acc[threadIdx.x * 2] += d[k + threadIdx.x];', kind);
    assert.equal(a.status, 'conflict');
    assert.equal(a.degree, 2);
    assert.equal(a.wavefronts, 2);
    const at = line(text, 'longLoop<<<1, 32>>>(d, K);');
    assert.ok(a.assumptions.includes(`\`K\` = 4096 from the launch at line ${at} is not given: with it a loop runs 64 iterations or more; without it, a loop it bounds is taken in one pass, as one of unknown trip count`), a.assumptions.join('\n'));
    assert.ok(a.assumptions.some((x) => x.startsWith(`the loop at line ${line(text, 'for (int k = 0; k < K; k += 8)')} has a trip count that cannot be computed`)));
  }
});

test('a kernel argument that is the launching function\'s parameter takes what each call of that function passes', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const v = result.accesses.find((a) => a.kernel === 'viaLauncher')!;
  const launch = line(text, 'viaLauncher<<<1, 32>>>(d, stride);');
  assert.deepEqual(v.cases.map((c) => [c.context.stride, c.degree]).sort(), [1, 4].map((k) => [k, wavefronts(lanes(32).map((t) => t * k))]));
  assert.equal(v.degree, 4);
  assert.equal(v.wavefronts, 4);
  assert.equal(v.assumptions[0], `block 32x1x1 from the launch at line ${launch} in \`launchStrided\` (the call at line ${line(text, 'launchStrided(d, 4);')})`);
  assert.ok(v.assumptions.includes(`\`stride\` = 4 from the launch at line ${launch}`));
});

test('a block size or argument set under an `if` not known at the launch is one instance per way through the `if`s', () => {
  const src = `__global__ void k(float *out, int pitch) {
  __shared__ float s[4096];
  s[threadIdx.x * pitch] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
void run(float *d, int n, bool wide) {
  int threads = 128;
  int pitch;
  if (n < 1024) threads = 32;
  else if (n < 65536) threads = 64;
  if (wide) pitch = 2;
  else pitch = 3;
  dim3 block(threads);
  k<<<n / threads, block>>>(d, pitch);
}
`;
  const [store] = analyzeText(src).accesses;
  // three ways through the chain (the inner \`if\` only where the outer one does not hold) times two for \`wide\`
  assert.deepEqual(store.cases.map((c) => `${c.context.block} pitch ${c.context.pitch}: ${c.degree}`), [
    '32x1x1 pitch 2: 2', '32x1x1 pitch 3: 1', '64x1x1 pitch 2: 2', '64x1x1 pitch 3: 1', '128x1x1 pitch 2: 2', '128x1x1 pitch 3: 1',
  ]);
  assert.deepEqual([store.degree, store.block], [2, [32, 1, 1]]);
  assert.ok(store.assumptions.includes('block 32x1x1 from the launch at line 15 where `n < 1024` (line 10) holds and `wide` (line 12) holds'), store.assumptions.join('\n'));
  // an `if` the launch's file decides is not split
  const decided = analyzeText(src.replace('void run(float *d, int n, bool wide) {', 'void run(float *d, int m, bool wide) {\n  const int n = 100;')).accesses[0];
  assert.deepEqual(decided.block, [32, 1, 1]);
  assert.deepEqual(decided.cases.map((c) => `pitch ${c.context.pitch}: ${c.degree}`), ['pitch 2: 2', 'pitch 3: 1']);
});

test('an `if` of the same condition around the launch decides the way: no instance the code cannot run', () => {
  const src = `__global__ void k(float *out, int pitch) {
  __shared__ float s[4096];
  s[threadIdx.x * pitch] = 1.0f;
}
void run(float *d, int n, bool tc) {
  int pitch, other;
  if (n < 1024) pitch = 2;
  else pitch = 3;
  if (tc) other = 4;
  else other = 1;
  if (n >= 1024) k<<<1, 32>>>(d, pitch);
  if (!tc) k<<<1, 64>>>(d, other);
}
`;
  const [store] = analyzeText(src).accesses;
  // \`n >= 1024\` is \`n < 1024\` not holding: pitch 3 only; \`!tc\`: other 1 only. Never 2-way, never 4-way
  assert.deepEqual([store.status, store.degree, store.cases], ['conflict-free', 1, []]);
  assert.ok(store.assumptions.some((a) => a === 'block 32x1x1 from the launch at line 11 where `n < 1024` (line 7) does not hold, as at the launch'), store.assumptions.join('\n'));
});

test('a clamp of a known local (`if (t < 128) t = 128;`) is decided where the `if` stands', () => {
  const src = `__global__ void k(float *out) {
  __shared__ float s[4096];
  s[threadIdx.x * (blockDim.x / 32)] = 1.0f;
}
void run(float *d) {
  int t = 64;
  if (t < 128) t = 128;
  k<<<1, t>>>(d);
}
`;
  const [store] = analyzeText(src).accesses;
  // 128 threads: stride 4 words, 4-way; no fork, nothing said of the \`if\`
  assert.deepEqual([store.block, store.degree, store.cases], [[128, 1, 1], 4, []]);
  assert.ok(store.assumptions.includes('block 128x1x1 from the launch at line 8'), store.assumptions.join('\n'));
});

test('an `if` that sets a value not known on one way (`n = atoi(argv[1])`) is taken the other way, said (was: the block not evaluated, 32 threads assumed)', () => {
  const src = `__global__ void k(float *out) {
  __shared__ float s[4096];
  s[threadIdx.x * 2] = 1.0f;
}
int main(int argc, char **argv) {
  int threads = 256;
  if (argc > 1) threads = atoi(argv[1]);
  k<<<1, threads>>>(0);
}
`;
  const [store] = analyzeText(src).accesses;
  assert.deepEqual([store.block, store.degree, store.cases], [[256, 1, 1], 2, []]);
  assert.ok(store.assumptions.includes('block 256x1x1 from the launch at line 8 where `argc > 1` (line 7) does not hold (where it holds, `threads` is set to a value not known)'), store.assumptions.join('\n'));
  // no value on the other way either (declared without one, or both ways read at run time): not evaluated, as before
  for (const host of ['int threads;\n  if (argc > 1) threads = atoi(argv[1]);', 'int threads = 64;\n  if (argc > 1) threads = atoi(argv[1]);\n  else threads = atoi(argv[0]);']) {
    const [s2] = analyzeText(src.replace('int threads = 256;\n  if (argc > 1) threads = atoi(argv[1]);', host)).accesses;
    assert.deepEqual(s2.block, [32, 1, 1], host);
    assert.ok(s2.assumptions.some((a) => /^the block shape `threads` of the launch at line \d+ could not be evaluated/.test(a)), s2.assumptions.join('\n'));
  }
  // a known `else`: that way
  const [s3] = analyzeText(src.replace('if (argc > 1) threads = atoi(argv[1]);', 'if (argc > 1) threads = atoi(argv[1]);\n  else threads = 128;')).accesses;
  assert.deepEqual(s3.block, [128, 1, 1]);
  assert.ok(s3.assumptions.includes('block 128x1x1 from the launch at line 9 where `argc > 1` (line 7) does not hold (where it holds, `threads` is set to a value not known)'), s3.assumptions.join('\n'));
});

test('a `?:` that gives a launch value is taken both ways too; two comparisons of one name that cannot both hold are no way', () => {
  const src = `__global__ void k(float *out, int pitch) {
  __shared__ float s[4096];
  s[threadIdx.x * pitch] = 1.0f;
}
void run(float *d, int n) {
  int threads;
  if (n > 4096) threads = 256;
  else threads = 64;
  int pitch = n > 100 ? 2 : 1;
  k<<<n / threads, threads>>>(d, pitch);
}
`;
  const [store] = analyzeText(src).accesses;
  // n > 4096 and n <= 100 cannot both hold: block 256 only with pitch 2
  assert.deepEqual(store.cases.map((c) => `${c.context.block} pitch ${c.context.pitch}: ${c.degree}`), [
    '256x1x1 pitch 2: 2', '64x1x1 pitch 2: 2', '64x1x1 pitch 1: 1',
  ]);
  assert.ok(store.assumptions.includes('block 256x1x1 from the launch at line 10 where `n > 4096` (line 7) holds and `n > 100` (line 9) holds'), store.assumptions.join('\n'));
});

test('a `?:` written in the launch itself, in its shape or an argument, is taken both ways', () => {
  const src = `__global__ void k(float *out, int pitch) {
  __shared__ float s[4096];
  s[threadIdx.x * pitch] = 1.0f;
}
void run(float *d, int n, bool wide) {
  k<<<1, n < 256 ? 64 : 128>>>(d, wide ? 2 : 1);
}
`;
  const [store] = analyzeText(src).accesses;
  assert.deepEqual(store.cases.map((c) => `${c.context.block} pitch ${c.context.pitch}: ${c.degree}`), [
    '64x1x1 pitch 2: 2', '64x1x1 pitch 1: 1', '128x1x1 pitch 2: 2', '128x1x1 pitch 1: 1',
  ]);
  assert.ok(store.assumptions.includes('block 64x1x1 from the launch at line 6 where `n < 256` (line 6) holds and `wide` (line 6) holds'), store.assumptions.join('\n'));
  assert.ok(store.assumptions.includes('`pitch` = 2 from the launch at line 6'), store.assumptions.join('\n'));
});

test('more than four undecided `if`s setting what a launch reads leave it unknown, as before; four are taken both ways', () => {
  const src = `__global__ void k(float *out) {
  __shared__ float s[4096];
  s[threadIdx.x * (blockDim.x / 32)] = 1.0f;
}
void run(float *d, int a, int b, int c, int e, int f) {
  int t = 32;
  if (a) t = 64;
  if (b) t = 96;
  if (c) t = 128;
  if (e) t = 160;
  if (f) t = 192;
  k<<<1, t>>>(d);
}
`;
  const [store] = analyzeText(src).accesses;
  assert.deepEqual([store.block, store.cases], [[32, 1, 1], []]);
  assert.ok(store.assumptions.some((x) => x.startsWith('the block shape `t` of the launch at line 12 could not be evaluated')), store.assumptions.join('\n'));
  // four: the 16 ways give 32, 64, 96, 128 or 160 threads; stride blockDim.x / 32 words: 1, 2, 3, 4, 5
  const four = analyzeText(src.replace('  if (f) t = 192;\n', '')).accesses[0];
  assert.deepEqual(four.cases.map((c) => `${c.context.block}: ${c.degree}`).sort(), ['128x1x1: 4', '160x1x1: 1', '32x1x1: 1', '64x1x1: 2', '96x1x1: 1']);
  assert.deepEqual([four.degree, four.block], [4, [128, 1, 1]]);
});

test('the bounds a way puts on a name hold past an `if` it skips: `n > 4096` then `n < 100` is no way', () => {
  const src = `__global__ void k(float *out, int pitch) {
  __shared__ float s[4096];
  s[threadIdx.x * pitch] = 1.0f;
}
void run(float *d, int n, int m) {
  int t = 32, p = 1;
  if (n > 4096) t = 256;
  else {
    if (m) t = 64;
  }
  if (n < 100) p = 2;
  k<<<1, t>>>(d, p);
}
`;
  const [store] = analyzeText(src).accesses;
  // 256 threads only where n > 4096, where n < 100 does not hold: pitch 1 there
  assert.deepEqual(store.cases.map((c) => `${c.context.block} pitch ${c.context.pitch}: ${c.degree}`), [
    '256x1x1 pitch 1: 1', '64x1x1 pitch 2: 2', '64x1x1 pitch 1: 1', '32x1x1 pitch 2: 2', '32x1x1 pitch 1: 1',
  ]);
});

test('a launcher parameter clamped under an `if` is what its calls pass, not a way of its own: one call with 512 is one 512-thread instance', () => {
  // before: the way where `threads < 128` holds was read without the calls, `threads` = 128 from the clamp, a second
  // instance (128 threads, conflict-free) that no call runs
  const text = `
__global__ void rows(float *out)
{
  __shared__ float s[2048];
  s[threadIdx.x * (blockDim.x / 128)] = 1.0f;
  out[threadIdx.x] = s[threadIdx.x];
}
void launch(float *out, int threads)
{
  if (threads < 128) threads = 128;
  rows<<<1, threads>>>(out);
}
int main() { float *d; launch(d, 512); return 0; }
`;
  const r = analyzeText(text, { budgetMs: 60_000 });
  const store = r.accesses.find((a) => a.kind === 'store')!;
  assert.equal(store.degree, 4); // stride 4 at 512 threads
  assert.deepEqual(store.block, [512, 1, 1]);
  assert.deepEqual(store.cases, []);
  assert.ok(!store.assumptions.some((a) => /contexts evaluated/.test(a)), store.assumptions.join('\n'));
});

test('PCC\'s rectangular transpose, block from `int dimx = 32, dimy = 16; if (argc > 2) { dimx = atoi(argv[1]); dimy = atoi(argv[2]); }`: 32x16, the column read 16-way (was: block not evaluated, 32x1 assumed, reported conflict-free)', () => {
  const src = `#define BDIMX 32
#define BDIMY 16
__global__ void transposeSmem(float *out, float *in, int nx, int ny) {
  __shared__ float tile[BDIMY][BDIMX];
  unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y;
  unsigned int icol = bidx % blockDim.y;
  ix = blockDim.y * blockIdx.y + icol;
  iy = blockDim.x * blockIdx.x + irow;
  tile[threadIdx.y][threadIdx.x] = in[ti];
  __syncthreads();
  out[iy * ny + ix] = tile[icol][irow];
}
int main(int argc, char **argv) {
  int nx = 1 << 12, ny = 1 << 12;
  int dimx = 32, dimy = 16;
  if (argc > 2) {
    dimx = atoi(argv[1]);
    dimy = atoi(argv[2]);
  }
  dim3 block(dimx, dimy);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  float *a = 0, *b = 0;
  transposeSmem<<<grid, block>>>(b, a, nx, ny);
  return 0;
}
`;
  const [store, load] = analyzeText(src, { budgetMs: 60_000 }).accesses;
  assert.deepEqual([store.block, store.status, store.degree], [[32, 16, 1], 'conflict-free', 1]);
  // lane l of a warp: icol = l % 16, irow = l / 16 (+ 2 per warp): word 32 icol + irow, banks irow: two banks, 16-way
  assert.deepEqual([load.block, load.status, load.degree, load.wavefronts, load.worst!.distinctWords, load.worst!.banksUsed], [[32, 16, 1], 'conflict', 16, 16, 32, 2]);
  assert.ok(load.assumptions.includes('block 32x16x1 from the launch at line 27 where `argc > 2` (line 20) does not hold (where it holds, `dimx`, `dimy` are set to values not known)'), load.assumptions.join('\n'));
});

test('a host launcher with an unnamed parameter (`void run(float *, int n, int ld)`) binds its callers\' arguments by declared position (was: the call skipped, block not evaluated, `ld` not known: unknown)', () => {
  const src = (ld: number) => `__global__ void k(float *o, int ld) {
  __shared__ float s[32 * 33];
  s[threadIdx.x * ld] = 1.0f;
}
void run(float *, int n, int ld) { k<<<1, n>>>(0, ld); }
int main() { run(0, 64, ${ld}); return 0; }
`;
  const [a33] = analyzeText(src(33), { budgetMs: 60_000 }).accesses;
  assert.deepEqual([a33.block, a33.status, a33.degree], [[64, 1, 1], 'conflict-free', 1]);
  assert.ok(a33.assumptions.includes('block 64x1x1 from the launch at line 5 in `run` (the call at line 6)'), a33.assumptions.join('\n'));
  assert.ok(a33.assumptions.includes('`ld` = 33 from the launch at line 5'), a33.assumptions.join('\n'));
  const [a32] = analyzeText(src(32), { budgetMs: 60_000 }).accesses;
  assert.deepEqual([a32.block, a32.status, a32.degree], [[64, 1, 1], 'conflict', 32]);
});

// parameters by declared position where a function leaves one unnamed (`int /* flags */`): four places of the
// host-code reading that counted named parameters only
const byPosition = (host: string) => [
  'typedef void (*Kernel)(float *);',
  '__global__ void k(float *o)',
  '{',
  '  __shared__ float s[1024];',
  '  s[threadIdx.x * (blockDim.x / 32)] = o[threadIdx.x];',
  '}',
  host,
  '',
].join('\n');
const strideStore = (text: string) => analyzeText(text, { budgetMs: 60_000 }).accesses.find((a) => a.kind === 'store')!;

test('a default argument written in a prototype reaches a definition that leaves a parameter unnamed: 128 threads, 4-way (was: the prototype not matched, 32 threads assumed, conflict-free)', () => {
  const a = strideStore(byPosition('void run(float *o, int /* flags */, int threads = 128);\nvoid run(float *o, int, int threads) { k<<<1, threads>>>(o); }\nint main() { run(0, 0); return 0; }'));
  // stride blockDim.x / 32 = 4 words: 4-way
  figures(a, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
});

test('a call that passes a variable by value to a function with an unnamed parameter before it keeps the variable: 64 threads, 2-way (was: taken as passed by reference, 32 threads assumed)', () => {
  const a = strideStore(byPosition('void setup(int /* device */, int threads, int &blocks) { blocks = 1024 / threads; }\nint main()\n{\n  int threads = 64, blocks = 0;\n  setup(0, threads, blocks);\n  k<<<blocks, threads>>>(0);\n  return 0;\n}'));
  figures(a, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
});

test('a kernel passed to a launcher after an unnamed parameter is launched with the block the call gives: 128 threads, 4-way (was: the kernel not found among the arguments, 32 threads assumed)', () => {
  const a = strideStore(byPosition('void bench(const char * /* label */, Kernel kern, int threads) { kern<<<1, threads>>>(0); }\nint main() { bench("k", k, 128); return 0; }'));
  figures(a, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
});

test('an explicit instantiation deduces a type parameter declared after an unnamed parameter: double, 2-way in each half-warp phase (was: not deduced, unknown)', () => {
  const text = [
    'template <typename T>',
    '__global__ void k(int /* n */, T *dst, const int *idx)',
    '{',
    '  __shared__ T s[1024];',
    '  s[threadIdx.x * 2] = dst[idx[threadIdx.x]];',
    '  dst[threadIdx.x] = s[threadIdx.x];',
    '}',
    'template __global__ void k(int n, double *dst, const int *idx);',
    '',
  ].join('\n');
  const a = analyzeText(text, { budgetMs: 60_000 }).accesses.find((x) => x.kind === 'store')!;
  // 8-byte elements 16 bytes apart: in a phase of 16 lanes, lanes l and l + 8 share banks: 2-way, 2 phases
  figures(a, 'conflict', 2, 4, 64, 32);
  assert.equal(a.elementBytes, 8);
});
