// The engine on real kernel source: the CM-306 example exactly and every row of the bank model's classic cases.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('CM-306: w[t] conflict-free, w[2*t] 2-way, w[0] broadcast, with the exact figures', () => {
  const { text, result } = analyzeFile('examples/cm306.cu');
  const a = accessAt(result, text, 'float a = w[t];', 'load');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.equal(a.worst!.requestedBytes, 128);
  assert.equal(a.worst!.banksUsed, 32);
  assert.equal(a.worst!.resultBytes, 128);
  const b = accessAt(result, text, 'float b = w[2 * t];', 'load');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 2);
  assert.equal(b.wavefronts, 2);
  assert.equal(b.idealWavefronts, 1);
  assert.equal(b.worst!.distinctWords, 32);
  assert.equal(b.worst!.requestedBytes, 128);
  assert.equal(b.worst!.banksUsed, 16);
  assert.equal(b.message, 'w: 2-way bank conflict: 2 lanes need 2 distinct words from bank 0; served in 2 wavefronts (ideal 1)');
  const c = accessAt(result, text, 'float c = w[0];', 'load');
  assert.equal(c.status, 'broadcast');
  assert.equal(c.degree, 1);
  assert.equal(c.worst!.distinctWords, 1);
  assert.equal(c.worst!.requestedBytes, 4);
  assert.equal(c.worst!.resultBytes, 128);
  assert.equal(c.worst!.activeLanes, 32);
  // the name range points at `w` in the access
  const line = text.split('\n')[lineOf(text, 'float b = w[2 * t];')];
  assert.equal(b.range.start.character, line.indexOf('w[2'));
  assert.equal(b.range.end.character, line.indexOf('w[2') + 1);
});

test('classic: tile[tx][ty] of float[32][32] with block 32x8 is 32-way; [32][33] and the XOR swizzle are conflict-free', () => {
  const { text, result } = analyzeFile('test/fixtures/classic.cu');
  const from = (kernel: string) => lineOf(text, `void ${kernel}(`);
  const pick = (kernel: string, snippet: string, kind: 'load' | 'store') => {
    const line = lineOf(text, snippet, from(kernel));
    const found = result.accesses.filter((a) => a.range.start.line === line && a.kind === kind);
    assert.equal(found.length, 1, `${kernel}: ${snippet}`);
    return found[0];
  };
  const naive = pick('transposeRead', '= tile[tx][ty];', 'load');
  assert.equal(naive.degree, 32);
  assert.equal(naive.wavefronts, 32);
  assert.deepEqual(naive.block, [32, 8, 1]);
  assert.equal(naive.message, 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)');
  assert.equal(pick('transposePadded', '= tile[tx][ty];', 'load').status, 'conflict-free');
  assert.equal(pick('transposeSwizzled', '= tile[tx][ty ^ tx];', 'load').status, 'conflict-free');
  assert.equal(pick('transposeSwizzled', 'tile[ty][tx ^ ty] = tx;', 'store').status, 'conflict-free');
});

test('classic: Harris interleaved addressing is 2,4,8,8,8,4,2,1-way for s = 1..128', () => {
  const { text, result } = analyzeFile('test/fixtures/classic.cu');
  const line = lineOf(text, 's[index] += s[index + stride];');
  for (const kind of ['load', 'store'] as const) {
    const a = result.accesses.find((x) => x.range.start.line === line && x.kind === kind && x.range.start.character === text.split('\n')[line].indexOf('s[index]'))!;
    assert.equal(a.degree, 8);
    assert.deepEqual(a.cases.map((c) => [c.context.stride, c.degree]), [[1, 2], [2, 4], [4, 8], [8, 8], [16, 8], [32, 4], [64, 2], [128, 1]]);
  }
});

test('classic: As[ty][k] with BLOCK 32 is a broadcast; double d[2*t] is 2-way per half-warp; struct strides 3 and 2', () => {
  const { text, result } = analyzeFile('test/fixtures/classic.cu');
  const as = accessAt(result, text, 'sum += As[ty][k];', 'load');
  assert.equal(as.status, 'broadcast');
  assert.deepEqual(as.block, [32, 32, 1]);
  const d = accessAt(result, text, 'out[t] = d[2 * t];', 'load');
  assert.equal(d.degree, 2);
  assert.equal(d.wavefronts, 4);
  assert.equal(d.idealWavefronts, 2);
  assert.equal(d.worst!.lanesPerPhase, 16);
  assert.equal(d.elementBytes, 8);
  const v = accessAt(result, text, 'out[t] = v[t].x + p[t].a;', 'load', 'v[t]');
  assert.equal(v.status, 'conflict-free');
  const p = accessAt(result, text, 'out[t] = v[t].x + p[t].a;', 'load', 'p[t]');
  assert.equal(p.degree, 2);
});

test('the transpose example: the column read is 32-way and the fix pads to [TILE_DIM][TILE_DIM + 1]', () => {
  const { text, result } = analyzeFile('examples/transpose.cu');
  const read = result.accesses.find((a) => a.kernel === 'transposeNaiveTile' && a.kind === 'load')!;
  assert.equal(read.degree, 32);
  const arr = result.arrays.find((a) => a.fix)!;
  assert.equal(arr.name, 'tile');
  assert.equal(arr.fix!.newShape, '[TILE_DIM][TILE_DIM + 1]');
  assert.equal(arr.fix!.preferred, true);
  assert.equal(arr.fix!.title, 'Pad tile to [TILE_DIM][TILE_DIM + 1]: 1 conflicting access becomes conflict-free (2 accesses checked)');
  assert.equal(arr.fix!.edits.length, 1);
  const e = arr.fix!.edits[0];
  const declLine = text.split('\n')[e.range.start.line];
  assert.equal(declLine.slice(e.range.start.character, e.range.end.character), 'TILE_DIM');
  assert.ok(declLine.includes('__shared__ float tile[TILE_DIM][TILE_DIM];'));
  assert.equal(e.newText, 'TILE_DIM + 1');
});

test('two arrays of one kernel, searched together, get the padding each needs alone', () => {
  // `a` is read down a column by a 32x32 block (needs +1); `b` written down a column by the first 16 lanes of a
  // warp (one row: +1 is enough); `c` as `b` but by a 16x8 block (two rows in a warp: +2, as in the case below), in a
  // kernel of its own
  const src = `
__global__ void k(float *out) {
  __shared__ float a[32][32];
  __shared__ float b[16][8];
  a[threadIdx.y][threadIdx.x] = 1.0f;
  if (threadIdx.y < 8 && threadIdx.x < 16) b[threadIdx.x][threadIdx.y] = 2.0f;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.x][threadIdx.y];
}
__global__ void s(float *out) {
  __shared__ float c[16][8];
  c[threadIdx.x][threadIdx.y] = out[sizeof(c) / sizeof(float) - 1];
}
void run(float *o) { k<<<1, dim3(32, 32)>>>(o); s<<<1, dim3(16, 8)>>>(o); }
`;
  const r = analyzeText(src);
  const fixOf = (name: string) => r.arrays.find((x) => x.name === name)!.fix!;
  assert.equal(fixOf('a').padding, 1);
  assert.equal(fixOf('a').newShape, '[32][33]');
  assert.equal(fixOf('b').padding, 1);
  assert.equal(fixOf('b').newShape, '[16][9]');
  assert.equal(fixOf('c').padding, 2);
  assert.equal(fixOf('c').newShape, '[16][10]');
  // each is what a search of that array alone gives: the other array removed
  const aAlone = analyzeText(src.replace('  __shared__ float b[16][8];\n', '').replace(/.*b\[threadIdx.x\]\[threadIdx.y\] = 2.0f;\n/, ''));
  assert.equal(aAlone.arrays.find((x) => x.name === 'a')!.fix!.padding, 1);
  assert.equal(aAlone.arrays.find((x) => x.name === 'a')!.fix!.totalWavefrontsAfter, fixOf('a').totalWavefrontsAfter);
});

test('a plain +1 is not always enough: col[16][8] written col[tx][ty] by a 16x8 block needs stride 10', () => {
  const src = `
__global__ void k(float *out) {
  __shared__ float col[16][8];
  col[threadIdx.x][threadIdx.y] = 1.0f;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = col[threadIdx.x][threadIdx.y];
}
void run(float *o) { k<<<1, dim3(16, 8)>>>(o); }
`;
  const r = analyzeText(src);
  const arr = r.arrays.find((a) => a.name === 'col')!;
  assert.equal(arr.fix!.padding, 2);
  assert.equal(arr.fix!.newShape, '[16][10]');
  assert.equal(arr.fix!.preferred, true);
  // with the fix applied the accesses are conflict-free
  const fixed = src.replace('col[16][8];', 'col[16][10];');
  assert.ok(analyzeText(fixed).accesses.every((a) => a.status === 'conflict-free'));
  // and stride 9 still leaves them 2-way, which is why +1 was not chosen
  const nine = analyzeText(src.replace('col[16][8];', 'col[16][9];'));
  assert.equal(Math.max(...nine.accesses.map((a) => a.degree ?? 0)), 2);
});

test('extern __shared__ indexed s[row * LD + col]: the fix pads LD, preferred only when the launch gives the room', () => {
  const kernel = (name: string) => `__global__ void ${name}(const float *in, float *out)
{
  extern __shared__ float s[];
  const int LD = 32;
  int row = threadIdx.y, col = threadIdx.x;
  s[row * LD + col] = in[row * 32 + col];
  __syncthreads();
  out[row * 32 + col] = s[col * LD + row];
}
`;
  const src = kernel('roomy') + kernel('tight') + `void run(const float *i, float *o)
{
  roomy<<<1, dim3(32, 8), 33 * 32 * sizeof(float)>>>(i, o);
  tight<<<1, dim3(32, 8), 32 * 32 * sizeof(float)>>>(i, o);
}
`;
  const r = analyzeText(src);
  const [roomy, tight] = r.arrays;
  const ldLine = (k: string) => src.split('\n').findIndex((l, i, all) => l.includes('const int LD = 32;') && all.slice(0, i).some((x) => x.includes(`void ${k}(`)) && !all.slice(0, i).some((x) => k === 'roomy' && x.includes('void tight(')));
  assert.equal(roomy.fix!.preferred, true);
  assert.equal(roomy.fix!.title, 'Pad s rows: LD = 33: 1 conflicting access becomes conflict-free (2 accesses checked)');
  assert.deepEqual(roomy.fix!.edits, [{ range: { start: { line: ldLine('roomy'), character: 17 }, end: { line: ldLine('roomy'), character: 19 } }, newText: '33' }]);
  assert.equal(tight.fix!.preferred, false);
  assert.match(tight.fix!.title, /the launch must give at least 4124 bytes of dynamic shared memory/);
  // applying the roomy fix clears its conflict
  const lines = src.split('\n');
  const l = ldLine('roomy');
  lines[l] = lines[l].replace('LD = 32', 'LD = 33');
  const after = analyzeText(lines.join('\n'));
  assert.equal(after.accesses.filter((a) => a.kernel === 'roomy' && a.status === 'conflict').length, 0);
});

test('break, continue and return retire exactly the lanes that took them', () => {
  const src = `__global__ void k(float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = 0; i < 4; i++) {
    if (t >= 16 && i >= 1) break;
    if (t % 2 == 1 && i == 2) continue;
    out[t] += s[t * (i + 1)];
  }
  if (t >= 8) return;
  out[t] += s[t * 32];
}
void run(float *o) { k<<<1, 32>>>(o); }
`;
  const r = analyzeText(src);
  const [inLoop, after] = r.accesses.filter((a) => a.array === 's');
  assert.deepEqual(inLoop.cases.map((c) => [c.context.i, c.degree, c.figures.activeLanes]), [[0, 1, 32], [1, 1, 16], [2, 1, 8], [3, 2, 16]]);
  assert.equal(after.degree, 8);
  assert.equal(after.worst!.activeLanes, 8);
});

test('launch block shapes written after the declaration: `b.x = 32; b.y = 8;` and `threads = 64;`; under an if, each way', () => {
  const src = `__global__ void cols(float *m) {
  __shared__ float tile[32][32];
  m[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void flat(float *m) {
  __shared__ float s[128];
  m[threadIdx.x] = s[2 * threadIdx.x];
}
__global__ void maybe(float *m) {
  __shared__ float t[64];
  m[threadIdx.x] = t[threadIdx.x];
}
int main(int argc, char **argv) {
  dim3 b;
  b.x = 32;
  b.y = 8;
  cols<<<1, b>>>(0);
  int threads = 32;
  threads = 64;
  flat<<<1, threads>>>(0);
  dim3 c(16, 16);
  if (argc > 1) c.x = 32;
  maybe<<<1, c>>>(0);
}
`;
  const r = analyzeText(src);
  const cols = r.accesses.find((a) => a.kernel === 'cols' && a.array === 'tile')!;
  assert.deepEqual(cols.block, [32, 8, 1]);
  assert.equal(cols.degree, 32);
  const flat = r.accesses.find((a) => a.kernel === 'flat' && a.array === 's')!;
  assert.deepEqual(flat.block, [64, 1, 1]);
  assert.equal(flat.degree, 2);
  // `if (argc > 1) c.x = 32;`: 32x16 where it holds, 16x16 where not; both conflict-free, the first is shown
  const maybe = r.accesses.find((a) => a.kernel === 'maybe' && a.array === 't')!;
  assert.deepEqual(maybe.block, [32, 16, 1]);
  assert.ok(maybe.assumptions.includes('block 32x16x1 from the launch at line 23 where `argc > 1` (line 22) holds'), maybe.assumptions.join('\n'));
  assert.ok(maybe.assumptions.includes('2 contexts evaluated (block shapes, loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), maybe.assumptions.join('\n'));
});

test('cooperative groups: a block\'s thread_rank() is the linear thread id, a tile\'s is the lane, meta_group_rank() the tile', () => {
  const src = `#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *o) {
  __shared__ float s[32][8];
  __shared__ float d[512];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  s[w.thread_rank()][w.meta_group_rank()] = 1.f;
  d[2 * b.thread_rank()] = 1.f;
  b.sync();
  o[b.thread_rank()] = d[b.thread_rank()] + s[0][w.meta_group_rank()];
}
int main() { k<<<1, 256>>>(0); }
`;
  const r = analyzeText(src);
  const at = (needle: string, kind: string) => r.accesses.find((a) => a.kind === kind && src.split('\n')[a.range.start.line].includes(needle))!;
  assert.equal(at('s[w.thread_rank()]', 'store').degree, 8); // word 8 * lane + warp
  assert.equal(at('d[2 * b', 'store').degree, 2);
  assert.equal(at('o[b.thread_rank()]', 'load').status, 'conflict-free');
  assert.equal(r.accesses.filter((a) => a.array === 's' && a.kind === 'load')[0].status, 'broadcast');
  assert.equal(r.accesses.filter((a) => a.status === 'unknown').length, 0);
});

test('a kernel still being typed at the end of the file is analysed as if its open braces were closed, and says so', () => {
  const src = `__global__ void k(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 0;
  out[0] = tile[threadIdx.x][threadIdx.y];
  for (int i = 0; i < 32; ++i) {
    out[i] += tile[i][threadIdx.x`;
  const r = analyzeText(src);
  const load = r.accesses.find((a) => a.kind === 'load' && a.range.start.line === 3)!;
  assert.equal(load.degree, 32);
  assert.equal(r.accesses.find((a) => a.kind === 'store' && a.range.start.line === 2)!.status, 'conflict-free');
  const notice = r.notices.find((n) => n.message.includes('is not closed'))!;
  assert.equal(notice.message, 'the definition from line 1 is not closed: it is analysed as if its 2 open braces were closed at the end of the file; line 6 is not analysed until it parses');
  assert.deepEqual(notice.range.start, { line: 5, character: 33 });
  // only the braces missing: nothing left out
  const whole = analyzeText(src.replace('out[i] += tile[i][threadIdx.x', 'out[i] += tile[i][threadIdx.x];'));
  assert.equal(whole.notices.find((n) => n.message.includes('is not closed'))!.message, 'the definition from line 1 is not closed: it is analysed as if its 2 open braces were closed at the end of the file');
  assert.equal(whole.accesses.filter((a) => a.kind === 'load').length, 2);
});

test('a kernel cut short in the middle of the file is analysed as if closed before the next one; the rest keep theirs', () => {
  const src = `__global__ void first(float *o)
{
  __shared__ float a[64];
  o[threadIdx.x] = a[2 * threadIdx.x];
}

__global__ void typing(float *o, int n)
{
  __shared__ float s[32][32];
  s[threadIdx.x][0] = 1.f;
  for (int i = 0; i < n; i++) {
    o[threadIdx.x] = s[threadIdx.x][i];
}

__global__ void after(float *o)
{
  __shared__ float b[64];
  o[threadIdx.x] = b[4 * threadIdx.x % 64];
}
`;
  const r = analyzeText(src);
  assert.deepEqual(r.accesses.map((a) => [a.range.start.line, a.kind, a.array, a.degree]),
    [[3, 'load', 'a', 2], [9, 'store', 's', 32], [11, 'load', 's', 32], [17, 'load', 'b', 2]]);
  assert.deepEqual(r.arrays.map((a) => [a.name, a.accesses]), [['a', [0]], ['s', [1, 2]], ['b', [3]]]);
  // the padding fix of the cut-short kernel's array edits the user's text where it is
  assert.deepEqual(r.arrays[1].fix!.edits, [{ range: { start: { line: 8, character: 25 }, end: { line: 8, character: 27 } }, newText: '33' }]);
  const notice = r.notices.find((n) => n.range.start.line === 6)!;
  assert.equal(notice.message, 'the definition from line 7 is not closed before line 15: it is analysed as if its open brace were closed there');
  // a half-typed last line is left out; a definition that is not short of braces is still blanked whole
  const half = analyzeText(src.replace('    o[threadIdx.x] = s[threadIdx.x][i];\n}', '    o[threadIdx.x] = s[threadIdx.x][i];\n    o[0] = s[(\n'));
  assert.equal(half.notices.find((n) => n.range.start.line === 6)!.message,
    'the definition from line 7 is not closed before line 16: it is analysed as if its 2 open braces were closed there; line 13 is not analysed until it parses');
  assert.deepEqual(half.accesses.map((a) => [a.range.start.line, a.degree]), [[3, 2], [9, 32], [11, 32], [18, 2]]);
  const broken = analyzeText(src.replace('__global__ void typing(float *o, int n)', '__global__ void typing(float *o, int n) = ('));
  assert.deepEqual(broken.accesses.map((a) => a.array), ['a', 'b']);
  assert.match(broken.notices.map((n) => n.message).join(' | '), /a syntax error from line 7 reaches into the next definition: lines 7-14 are not analysed until they parse/);
});

test('contexts that tie for the worst degree report the one with the most active lanes, not the first', () => {
  const src = `__global__ void k(float *o) {
  __shared__ float s[64];
  for (int d = 2; d <= 32; d *= 2)
    if (threadIdx.x < d) o[threadIdx.x] = s[(threadIdx.x % 2) * 32];
  for (int d = 1; d <= 32; d *= 2)
    if (threadIdx.x < d) o[threadIdx.x] = s[threadIdx.x];
}
int main() { k<<<1, 32>>>(0); }
`;
  const r = analyzeText(src);
  const [tied, clean] = r.accesses.filter((a) => a.array === 's');
  // d = 2, 4, 8, 16, 32 are all 2-way: the figures are those of d = 32, whose 32 lanes all take part
  assert.equal(tied.degree, 2);
  assert.deepEqual(tied.cases, []);
  assert.equal(tied.worst!.activeLanes, 32);
  assert.equal(tied.message, 's: 2-way bank conflict: 32 lanes need 2 distinct words from bank 0; served in 2 wavefronts (ideal 1)');
  assert.equal(clean.status, 'conflict-free');
  assert.equal(clean.worst!.activeLanes, 32);
  assert.equal(clean.message, 's: conflict-free: 32 lanes need 32 distinct words from 32 banks; served in 1 wavefront (ideal 1)');
});

test('an access no instance reaches names the block source once for the instances that share it (was: said once per instance)', () => {
  const text = [
    'template <class T>',
    '__global__ void tail(T *o) {',
    '  __shared__ T s[1024];',
    '  s[threadIdx.x] = o[threadIdx.x];',
    '  for (unsigned d = blockDim.x / 2; d >= 32; d >>= 1) s[threadIdx.x] += s[threadIdx.x + d];',
    '}',
    'void run(float *f, int *i, int threads) {',
    '  dim3 block(threads);',
    '  tail<float><<<1, block>>>(f);',
    '  tail<int><<<1, block>>>(i);',
    '}',
  ].join('\n');
  const result = analyzeText(text, { budgetMs: 60_000 });
  const source = 'the block shape `block` of the launch at line 9 could not be evaluated; the block shape `block` of the launch at line 10 could not be evaluated: assumed a one-dimensional block of 32 threads (one full warp)';
  const dead = result.accesses.filter((a) => a.range.start.line === 4);
  assert.equal(dead.length, 3);
  // with 32 threads `d` starts at 16 < 32: the loop never runs, in either instance
  for (const a of dead) assert.equal(a.reason, `no lane reaches this access in any of the 2 instances evaluated (T = float, T = int: ${source})`);
});

test('an access no lane of the block reaches gets one unknown entry that says so, with the shape and its source', () => {
  const { text, result } = analyzeFile('test/fixtures/unreached.cu');
  const lines = text.split('\n');
  const row = (a: (typeof result.accesses)[number]) => [a.range.start.line + 1, a.range.start.character + 1, a.kernel, a.array, a.kind, a.status, a.degree];
  const assumed = 'no launch of `rows` with a known block shape in this file: assumed a one-dimensional block of 32 threads (one full warp)';
  const launch64 = lineOf(text, 'early<<<1, 64>>>(0);') + 1;
  assert.deepEqual(result.accesses.map(row), [
    [7, 41, 'rows', 't', 'load', 'unknown', null],
    [8, 20, 'rows', 't', 'load', 'conflict-free', 1],
    [15, 3, 'early', 's', 'store', 'conflict-free', 1],
    [16, 42, 'early', 'hist', 'atomic', 'unknown', null],
    [18, 3, 'early', 's', 'load', 'unknown', null],
    [18, 3, 'early', 's', 'store', 'unknown', null],
    // `&s[0]` takes an address: no access, no entry; `partly` is reached in its 64-thread launch only
    [26, 43, 'partly', 's', 'load', 'conflict', 2],
  ]);
  assert.match(lines[6], /if \(threadIdx\.y > 0\)/);
  const dead = result.accesses[0];
  // threadIdx.y is 0 on every thread of a block of height 1: the condition decides, and the shape is named with it
  const why = `no thread runs this access: the condition \`threadIdx.y > 0\` at line 7 is false for every thread of block 32x1x1 (${assumed})`;
  assert.equal(dead.reason, why);
  assert.equal(dead.message, `t: unknown: ${why}`);
  assert.deepEqual(dead.block, [32, 1, 1]);
  assert.equal(dead.elementBytes, 4);
  const expr = 't[threadIdx.y * 32 + threadIdx.x * 32]';
  assert.deepEqual(dead.exprRange, { start: { line: 6, character: lines[6].indexOf(expr) }, end: { line: 6, character: lines[6].indexOf(expr) + expr.length } });
  assert.equal(result.accesses[3].reason, `no lane of block 64x1x1 reaches this access (from the launch at line ${launch64})`);
  assert.deepEqual(result.accesses[6].block, [64, 1, 1]);
  assert.equal(result.accesses[6].reason, undefined);
  // the arrays list these sites among their accesses
  assert.deepEqual(result.arrays.find((a) => a.name === 'hist')!.accesses, [3]);
});

test('a device function called from two places with different degrees lists each call as a case', () => {
  const src = `__device__ void put(float *s, int stride, float v) {
  s[threadIdx.x * stride] = v;
}
__global__ void k(float *o) {
  __shared__ float buf[1024];
  put(buf, 4, 1.f);
  put(buf, 3, 2.f);
  __syncthreads();
  o[threadIdx.x] = buf[threadIdx.x];
}
int main() { k<<<1, 256>>>(0); }
`;
  const r = analyzeText(src);
  const store = r.accesses.find((a) => a.kind === 'store' && a.range.start.line === 1)!;
  assert.equal(store.degree, 4);
  assert.deepEqual(store.cases.map((c) => [c.context, c.degree, c.wavefronts]), [[{ call: 'line 6' }, 4, 4], [{ call: 'line 7' }, 1, 1]]);
  assert.match(store.message, /\(worst case: call = line 6\)$/);
  // one call site: no cases, and the message names no context
  const one = analyzeText(src.replace('  put(buf, 3, 2.f);\n', ''));
  const single = one.accesses.find((a) => a.kind === 'store' && a.range.start.line === 1)!;
  assert.equal(single.degree, 4);
  assert.deepEqual(single.cases, []);
  assert.doesNotMatch(single.message, /worst case/);
});

test('an early exit under a guard that cannot be evaluated retires no lane: the code after it is analysed, and says so', () => {
  const { text, result } = analyzeFile('test/fixtures/early-exit.cu');
  const from = (kernel: string) => lineOf(text, `void ${kernel}(`);
  const at = (kernel: string, snippet: string, kind: 'load' | 'store', expr: string) => {
    const line = lineOf(text, snippet, from(kernel));
    const l = text.split('\n')[line];
    const found = result.accesses.filter((a) => a.range.start.line === line && a.kind === kind && a.range.start.character === l.indexOf(expr));
    assert.equal(found.length, 1, `${kernel}: ${snippet}`);
    return found[0];
  };
  const ret = lineOf(text, 'if (i >= n) return;') + 1;
  const store = at('boundsCheck', 'stage[threadIdx.x * 2] = in[i];', 'store', 'stage');
  assert.equal(store.status, 'conflict');
  assert.equal(store.degree, 2);
  assert.equal(store.wavefronts, 2);
  assert.equal(store.worst!.activeLanes, 32);
  assert.equal(store.reason, undefined);
  assert.ok(store.assumptions.includes(`the guard \`i >= n\` at line ${ret} could not be evaluated per lane (\`i >= n\` depends on the unknown warp-uniform value \`128 * blockIdx.x\`); every lane is assumed to go on past its \`return\``), store.assumptions.join('\n'));
  assert.equal(at('boundsCheck', 'out[i] = stage[threadIdx.x];', 'load', 'stage').status, 'conflict-free');
  // the same figures as the guard written the other way round
  const same = at('guarded', 'if (i < n) stage[threadIdx.x * 2] = in[i];', 'store', 'stage');
  assert.deepEqual([same.status, same.degree, same.wavefronts, same.worst!.activeLanes], ['conflict', 2, 2, 32]);
  // `continue` and `break`: the accesses after them, and after the loop, are analysed for every lane
  const cont = lineOf(text, 'if (j * BLOCK + threadIdx.x >= n) continue;') + 1;
  const brk = lineOf(text, 'if (j >= m) break;') + 1;
  const two = at('loopExits', 's[threadIdx.x * 2] = in[j];', 'store', 's');
  assert.deepEqual([two.degree, two.worst!.activeLanes], [2, 32]);
  const four = at('loopExits', 's[threadIdx.x * 4] = in[j];', 'store', 's');
  assert.deepEqual([four.degree, four.wavefronts], [4, 4]);
  assert.ok(four.assumptions.some((a) => a.startsWith(`the guard \`j >= m\` at line ${brk} could not be evaluated per lane`) && a.endsWith('every lane is assumed to go on past its `break`')));
  const after = at('loopExits', 's[threadIdx.x * 8] = 0.f;', 'store', 's');
  assert.deepEqual([after.degree, after.wavefronts, after.worst!.activeLanes], [8, 8, 32]);
  // inside the loop the `continue` is assumed not taken; after the loop every lane is there whatever it did
  assert.ok(two.assumptions.some((a) => a.startsWith(`the guard \`j * BLOCK + threadIdx.x >= n\` at line ${cont}`) && a.endsWith('`continue`')));
  assert.ok(!after.assumptions.some((a) => a.endsWith('`continue`') || a.endsWith('`break`')), after.assumptions.join('\n'));
  // a guard the lanes can evaluate still retires them: the fourth warp does not read
  const last = at('loopExits', 'out[threadIdx.x] = s[threadIdx.x];', 'load', 's');
  assert.equal(last.status, 'conflict-free');
  assert.equal(last.worst!.activeLanes, 32);
  assert.ok(!last.assumptions.some((a) => a.includes('threadIdx.x >= 96')));
});

test('a plain assignment to a scalar __shared__ variable is a store, by the lanes that run it', () => {
  const { text, result } = analyzeFile('test/fixtures/scalar-shared.cu');
  const one = accessAt(result, text, 'if (threadIdx.x == 0) rowMax = in[', 'store');
  assert.equal(one.array, 'rowMax');
  assert.equal(one.status, 'conflict-free');
  assert.equal(one.degree, 1);
  assert.equal(one.worst!.activeLanes, 1);
  assert.equal(one.worst!.distinctWords, 1);
  const all = accessAt(result, text, 'count = 0u;', 'store');
  assert.equal(all.status, 'broadcast');
  assert.equal(all.worst!.activeLanes, 32);
  assert.deepEqual(all.block, [256, 1, 1]);
  assert.equal(all.message, 'count: broadcast: 32 lanes write 1 word (4 bytes requested, 128 bytes of results); served in 1 wavefront (ideal 1)');
  assert.equal(accessAt(result, text, '- rowMax + count;', 'load', 'rowMax').status, 'broadcast');
  assert.deepEqual(result.accesses.map((a) => [a.range.start.line + 1, a.array, a.kind]), [
    [8, 'rowMax', 'store'], [9, 'count', 'store'], [11, 'count', 'atomic'], [12, 'rowMax', 'load'], [12, 'count', 'load'],
  ]);
});

test('a launch whose block shape cannot be evaluated is named in the assumption of the default block', () => {
  const src = `int pick();
__global__ void k(float *g) {
  __shared__ float t[32][32];
  t[threadIdx.x][threadIdx.y] = g[0];
}
void host(float *g) { k<<<1, dim3(pick(), 8)>>>(g); }
`;
  const a = analyzeText(src).accesses[0];
  assert.deepEqual(a.block, [32, 1, 1]);
  assert.equal(a.degree, 32);
  assert.equal(a.assumptions[0], 'the block shape `dim3(pick(), 8)` of the launch at line 6 could not be evaluated: assumed a one-dimensional block of 32 threads (one full warp)');
});

test('a variable set under a guard that cannot be evaluated is unknown after it where the branches disagree', () => {
  const { text, result } = analyzeFile('test/fixtures/guard-assign.cu');
  // k-means: `if (d < best) { best = d; bi = k; }` (was: bi = 15 on every lane, a broadcast)
  const atomic = accessAt(result, text, 'atomicAdd(&counts[bi], 1);', 'atomic');
  assert.equal(atomic.status, 'unknown');
  assert.equal(atomic.degree, null);
  assert.equal(atomic.reason, '`bi` is set under the guard `d < best` at line 17, which could not be evaluated per lane (`pts[blockIdx.x * blockDim.x + threadIdx.x]` is a value loaded from memory that is not shared)');
  // the loads inside the loop do not depend on the guard
  const loop = lineOf(text, 'float d = (p - c[k])');
  assert.deepEqual(result.accesses.filter((a) => a.range.start.line === loop).map((a) => a.status), ['broadcast', 'broadcast']);
  // a row set under a flag loaded from memory (in a 32x8 block): one flag a warp, not known
  const row = accessAt(result, text, 'tile[row][threadIdx.x] = 1.f;', 'store');
  assert.equal(row.status, 'unknown');
  assert.equal(row.reason, '`row` is set under the guard `flags[blockIdx.x]` at line 29, which could not be evaluated per lane (it depends on `flags[blockIdx.x]`)');
  // both branches set `col` to the same value: it stays known
  const col = accessAt(result, text, 'tile[threadIdx.y][col] = 2.f;', 'store');
  assert.deepEqual([col.status, col.degree, col.wavefronts, col.worst!.activeLanes], ['conflict-free', 1, 1, 32]);
});

test('inline PTX: %laneid is the linear thread id mod 32; another asm output is unknown and says which asm', () => {
  const { text, result } = analyzeFile('test/fixtures/inline-asm.cu');
  // was: unknown, "`id` has no initial value"
  const row = accessAt(result, text, 's[threadIdx.x >> 5][lane] = 1.f;', 'store');
  assert.deepEqual([row.status, row.degree, row.wavefronts, row.worst!.activeLanes], ['conflict-free', 1, 1, 32]);
  const col = accessAt(result, text, 'out[threadIdx.x] = s[lane][threadIdx.x >> 5];', 'load');
  assert.deepEqual([col.status, col.degree, col.wavefronts], ['conflict', 32, 32]);
  // 16x16: lanes 16..31 of a warp are the second row of threadIdx.y (t[32][33]: lane l and l+16 collide once)
  const t2 = accessAt(result, text, 't[lane][threadIdx.y] = 1.f;', 'store');
  assert.deepEqual([t2.status, t2.degree, t2.wavefronts, t2.worst!.activeLanes], ['conflict', 2, 2, 32]);
  const line = lineOf(text, 't[warpid()][lane]');
  const warp = result.accesses.filter((a) => a.range.start.line === line);
  assert.deepEqual(warp.map((a) => [a.status, a.degree]), [['conflict', 2], ['unknown', null]]);
  // %warpid is the hardware warp slot (PTX: volatile), not threadIdx.x / 32: never guessed
  assert.equal(warp[1].reason, '`id` is set by the inline asm `"mov.u32 %0, %%warpid;"`');
});

test('kernels launched from host function templates are bound by the wrapper\'s explicit instantiations and calls', () => {
  const { text, result } = analyzeFile('test/fixtures/host-template.cu');
  // launchStage<float> (explicit instantiation) and launchStage<double> (call): was "the size of `T` is not known"
  const store = accessAt(result, text, 's[t] = out[t];', 'store');
  assert.deepEqual([store.status, store.degree, store.wavefronts, store.elementBytes], ['conflict-free', 1, 2, 8]);
  assert.equal(store.assumptions[0], 'block 128x1x1 from the launch at line 27 in `launchStage<double>` (the call at line 56)');
  // `if constexpr (sizeof(T) == 8)`: sizeof of the bound type, each branch only in its instance
  const dbl = accessAt(result, text, 'v = s[2 * t];', 'load');
  assert.deepEqual([dbl.status, dbl.degree, dbl.wavefronts, dbl.idealWavefronts, dbl.elementBytes], ['conflict', 2, 4, 2, 8]);
  assert.ok(!dbl.assumptions.some((a) => a.includes('could not be evaluated')), dbl.assumptions.join('\n'));
  const flt = accessAt(result, text, 'v = s[2 * t + 1];', 'load');
  assert.deepEqual([flt.status, flt.degree, flt.wavefronts, flt.idealWavefronts, flt.elementBytes], ['conflict', 2, 2, 1, 4]);
  assert.equal(flt.assumptions[0], 'block 128x1x1 from the launch at line 27 in `launchStage<float>` (the explicit instantiation at line 29)');
  // runTile<true>: only the transposed read runs
  assert.equal(accessAt(result, text, 'if constexpr (kTransposed) v = tile', 'load').degree, 32);
  const other = accessAt(result, text, 'else v = tile[threadIdx.y][threadIdx.x];', 'load');
  assert.equal(other.status, 'unknown');
  assert.equal(other.reason, 'no thread runs this access: the condition `kTransposed` at line 38 is true for every thread of block 32x8x1 (kTransposed = 1; from the launch at line 43 in `runTile<true>` (the call at line 57))');
  // a device function template called with a constant that parses as a type: addHalf<kBlock> binds N = 64
  const half = result.accesses.filter((a) => a.range.start.line === lineOf(text, 's[t] += s[t + 32];'));
  assert.equal(half.length, 3);
  for (const a of half) {
    assert.equal(a.status, 'conflict-free');
    assert.ok(!a.assumptions.some((x) => x.includes('could not be evaluated')), a.assumptions.join('\n'));
  }
});

test('a loop past the iteration cap: the rest in one pass where its condition is warp-uniform; else stopped, a notice', () => {
  const src = `__global__ void k(const unsigned *keys) {
  __shared__ unsigned t[512];
  unsigned h = keys[threadIdx.x] & 511;
  for (int i = 0; i < 100000; i++) {
    unsigned prev = atomicCAS(&t[h], 0u, 1u);
    h = (h + prev + 1) & 511;
  }
}
`;
  // figures, not the clock: a budget a loaded machine cannot exceed
  const r = analyzeText(src, { budgetMs: 60_000 });
  assert.equal(r.accesses.length, 1);
  assert.equal(r.accesses[0].status, 'unknown');
  assert.equal(r.accesses[0].reason, '`keys[threadIdx.x]` is a value loaded from memory that is not shared');
  // known addresses: the first 1,024 iterations one by one, the others in one pass; the figures are exact
  const exact = analyzeText(src.replace('t[h]', 't[threadIdx.x]'), { budgetMs: 60_000 }).accesses[0];
  assert.equal(exact.status, 'conflict-free');
  assert.equal(exact.wavefronts, 1);
  assert.ok(exact.assumptions.includes('1025 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), exact.assumptions.join('\n'));
  // an access only the later iterations reach is evaluated in the pass, which says what it stands for
  const late = analyzeText(`__global__ void k(float *o) {
  __shared__ float s[1024];
  for (int i = 0; i < 2048; i++)
    if (i >= 1500) s[threadIdx.x * 2] = o[i];
}
`, { budgetMs: 60_000 }).accesses[0];
  assert.deepEqual([late.status, late.degree, late.wavefronts], ['conflict', 2, 2]);
  assert.equal(late.assumptions[0], 'the loop at line 3 runs more than 1,024 iterations: the first 1,024 are evaluated one by one, the others together, as those of a loop of unknown trip count are; `i` treated as an unknown warp-uniform value');
  // a condition that differs between lanes: stopped at the cap, said in a notice, and its accesses are unknown
  const perLane = analyzeText(src.replace('t[h]', 't[threadIdx.x]').replace('i < 100000', 'i < 100000 + threadIdx.x'), { budgetMs: 60_000 });
  assert.ok(perLane.notices.some((n) => /the loop at line 4 runs more than 1,024 iterations/.test(n.message)));
  assert.match(perLane.accesses[0].reason!, /the loop at line 4 runs more than 1,024 iterations/);
});

test('an access a condition the same for every thread skips names that condition (a template argument\'s)', () => {
  const src = `template <unsigned blockSize>
__global__ void r(int *g) {
  __shared__ int s[512];
  unsigned tid = threadIdx.x;
  s[tid] = g[tid];
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
  if (threadIdx.y > 0) g[tid] = s[tid];
}
int main() { r<256><<<1, 256>>>(0); }
`;
  const r = analyzeText(src);
  const at = (line: number) => r.accesses.filter((a) => a.range.start.line === line);
  const why = 'no thread runs this access: the condition `blockSize >= 512` at line 7 is false for every thread of block 256x1x1 (blockSize = 256; from the launch at line 10)';
  assert.deepEqual(at(6).map((a) => [a.kind, a.status, a.reason]), [['load', 'unknown', why], ['store', 'unknown', why], ['load', 'unknown', why]]);
  // a guard on an axis of extent 1 is decided the same way, the shape named with it
  assert.equal(at(7)[0].reason, 'no thread runs this access: the condition `threadIdx.y > 0` at line 8 is false for every thread of block 256x1x1 (blockSize = 256; from the launch at line 10)');
  assert.deepEqual(analyzeText(src, { wholeBlock: true }), r);
});

test('a persistent-tile loop left only by a break under an unknown guard goes symbolic after one iteration: a few notes, not one per iteration', () => {
  const src = `__global__ void persistent(float *o, int tiles)
{
  __shared__ float s[32][33];
  for (int tile = blockIdx.x;; tile += gridDim.x) {
    if (tile >= tiles) break;
    s[threadIdx.x][0] = o[tile];
    o[tile] = s[0][threadIdx.x * 2];
  }
}
`;
  const r = analyzeText(src);
  const store = r.accesses.find((a) => a.kind === 'store')!;
  const load = r.accesses.find((a) => a.kind === 'load')!;
  assert.equal(store.status, 'conflict-free'); // rows of 33 words
  assert.equal(load.degree, 2);
  for (const a of [store, load]) {
    assert.ok(a.assumptions.length < 10, `${a.assumptions.length} assumptions: ${a.assumptions.slice(0, 3).join(' | ')}`);
    // the first iteration, then one symbolic pass for all the others
    assert.ok(a.assumptions.includes('2 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'), a.assumptions.join(' | '));
  }
});

test('the comment above the definition after a broken one is kept: its `bank-lens: block` still gives the shape', () => {
  const src = `__global__ void broken(const int *idx, float *o)
{
  o[threadIdx.x] = (idx[
}

// bank-lens: block=16x16
__global__ void next(float *out)
{
  __shared__ float t[16][16];
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
`;
  const r = analyzeText(src);
  const a = r.accesses.find((x) => x.kernel === 'next')!;
  assert.deepEqual(a.block, [16, 16, 1]);
  assert.ok(a.assumptions.includes('block 16x16x1 from the `bank-lens: block` comment at line 6'), a.assumptions.join(' | '));
});

test('a function the file does not define, given shared memory, is a notice at the call, not silence', () => {
  const src = `
__device__ void copy16(void *dst, const void *src);
__device__ float twice(float x);
__global__ void k(const float4 *in, float *out) {
  __shared__ float4 s[64];
  copy16(&s[threadIdx.x], &in[threadIdx.x]);
  printf("%p\\n", s);
  out[threadIdx.x] = twice(s[threadIdx.x].x);
}
void run(const float4 *i, float *o) { k<<<1, 64>>>(i, o); }
`;
  const r = analyzeText(src);
  const notes = r.notices.filter((n) => n.message.includes('is not defined in this file'));
  assert.deepEqual(notes.map((n) => [n.range.start.line, n.message]), [
    [5, '`copy16(...)` is not defined in this file: what it reads or writes in shared memory through `&s[threadIdx.x]` is not analysed'],
  ]);
  // a value read from shared memory and passed on is an access of its own, as before: `.x` of a float4, lanes 16
  // bytes apart, 4 words in each bank used
  const load = r.accesses.find((a) => a.range.start.line === 7)!;
  assert.equal(load.kind, 'load');
  assert.equal(load.degree, 4);
});

test('defines (as -D gives them) fill in what a header would: a #define in the file wins; nothing else changes', () => {
  const src = `
#include "config.cuh"
__global__ void k(float *out) {
  __shared__ float s[TILE][TILE + PAD];
  s[threadIdx.x][threadIdx.y] = out[threadIdx.x];
}
void run(float *o) { k<<<1, dim3(TILE, 8)>>>(o); }
`;
  assert.equal(analyzeText(src).accesses[0].status, 'unknown');
  const padded = analyzeText(src, { defines: { TILE: '32', PAD: '1' } }).accesses[0];
  assert.equal(padded.status, 'conflict-free');
  assert.deepEqual(padded.block, [32, 8, 1]);
  const unpadded = analyzeText(src, { defines: { TILE: '32', PAD: '0' } }).accesses[0];
  assert.equal(unpadded.degree, 32);
  // the file's own definition of PAD is the one used
  const own = analyzeText(src.replace('#include "config.cuh"', '#define PAD 0'), { defines: { TILE: '32', PAD: '1' } }).accesses[0];
  assert.equal(own.degree, 32);
});

test('a define the file `#undef`s is not given to the evaluator: what it is at each line is not followed', () => {
  const src = `
__global__ void k(float *out) {
  __shared__ float s[1024];
  s[threadIdx.x * STRIDE] = out[threadIdx.x];
}
void run(float *o) { k<<<1, 32>>>(o); }
`;
  assert.equal(analyzeText(src, { defines: { STRIDE: '2' } }).accesses[0].degree, 2);
  const undone = analyzeText(`#undef STRIDE\n${src}`, { defines: { STRIDE: '2' } }).accesses[0];
  assert.equal(undone.status, 'unknown');
  assert.equal(undone.reason, '`STRIDE` is not known here');
});

test('defines decide `#if` as the file\'s own macros do', () => {
  const src = `
#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif
__global__ void k(float *out) {
  __shared__ float s[1024];
#if WARP_SIZE == 64
  s[2 * threadIdx.x] = out[threadIdx.x];
#else
  s[threadIdx.x] = out[threadIdx.x];
#endif
}
void run(float *o) { k<<<1, WARP_SIZE>>>(o); }
`;
  const line = (r: ReturnType<typeof analyzeText>) => r.accesses.map((a) => [a.range.start.line, a.degree, a.block?.[0]]);
  // the file's own default: 32, the `#else` branch (line 9), conflict-free
  assert.deepEqual(line(analyzeText(src)), [[9, 1, 32]]);
  // given 64: the `#ifndef` default is skipped, the first branch (line 7) runs, 2 words apart
  assert.deepEqual(line(analyzeText(src, { defines: { WARP_SIZE: '64' } })), [[7, 2, 64]]);
});

test('a block-stride counter of unknown trip count is said to be its start per lane plus its step times the passes before, not warp-uniform', () => {
  const src = `__global__ void k(float *o, int n) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = o[i];
}
void r(float *o, int n) { k<<<1, 256>>>(o, n); }
`;
  const [a] = analyzeText(src).accesses;
  assert.equal(a.status, 'conflict-free');
  assert.ok(a.assumptions.includes('the loop at line 3 has a trip count that cannot be computed (`i < n`: `i < n` depends on the unknown warp-uniform value `n`); `i` treated as its value before the loop plus 256 times the passes before'), a.assumptions.join('\n'));
  assert.ok(!a.assumptions.some((x) => x.includes('`i` treated as an unknown warp-uniform value')));
});

test('the note of a `continue` under an unknown guard holds inside its loop only; a `return`\'s holds after it', () => {
  const src = `__global__ void k(const int *ids, float *o) {
  __shared__ float s[1024];
  for (int i = 0; i < 4; i++) {
    if (ids[threadIdx.x * 4 + i] < 0) continue;
    s[threadIdx.x * 4 + i] = o[i];
  }
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x];
}
void r(const int *ids, float *o) { k<<<1, 32>>>(ids, o); }
`;
  const past = (a: { assumptions: string[] }, word: string) => a.assumptions.some((x) => x.endsWith(`every lane is assumed to go on past its \`${word}\``));
  const [inLoop, after] = analyzeText(src).accesses;
  assert.equal(inLoop.degree, 4);
  assert.ok(past(inLoop, 'continue'));
  assert.ok(!past(after, 'continue'), after.assumptions.join('\n'));
  const [inLoop2, after2] = analyzeText(src.replace('continue;', 'return;')).accesses;
  assert.ok(past(inLoop2, 'return'));
  assert.ok(past(after2, 'return'));
});

test('a header\'s warp-size macro the file does not define is taken as 32, and said; a definition in the file wins', () => {
  const src = `__global__ void k(float *o) {
  __shared__ float red[WARP_SIZE][WARP_SIZE];
  int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  red[lane][warp] = 1.f;
  __syncthreads();
  o[threadIdx.x] = red[warp][lane];
}
int main() { k<<<1, 4 * WARP_SIZE>>>(0); }
`;
  const note = '`WARP_SIZE` is not defined in this file: taken as 32, the warp size of every NVIDIA GPU (give it with -D to change it)';
  const [store, load] = analyzeText(src).accesses;
  assert.deepEqual([store.status, store.degree, store.wavefronts, store.block], ['conflict', 32, 32, [128, 1, 1]]);
  assert.deepEqual([load.status, load.degree], ['conflict-free', 1]);
  assert.ok(store.assumptions.includes(note), store.assumptions.join('\n'));
  assert.ok(store.assumptions.includes('block 128x1x1 from the launch at line 8 (`WARP_SIZE` taken as 32, the warp size)'), store.assumptions.join('\n'));
  // the file's own definition: 16-lane rows, two per warp, 8 lanes on each bank
  const [own] = analyzeText('#define WARP_SIZE 16\n' + src).accesses;
  assert.deepEqual([own.degree, own.block], [8, [64, 1, 1]]);
  assert.ok(!own.assumptions.some((a) => a.includes('taken as 32')), own.assumptions.join('\n'));
  // any other unknown name stays unknown
  const [other] = analyzeText(src.replace(/WARP_SIZE/g, 'LANES')).accesses;
  assert.equal(other.status, 'unknown');
});
