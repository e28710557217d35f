// The facts the engine reads from CUDA as people write it (test/fixtures/facts.cu): aliases and casts, built-in,
// vector, struct and typedef'd element types, atomics, templates, constants and macros, loops, device functions,
// unknowns with reasons, directives and several launch shapes.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, lineOf } from './helpers/engine';
import { AccessFinding, analyzeText } from '../../server/engine';
import { SAME_WORD_ATOMICS } from '../../server/engine/findings/findings';

before(() => ready);

let cached: ReturnType<typeof analyzeFile> | null = null;
const data = () => (cached ??= analyzeFile('test/fixtures/facts.cu'));

/** The access of `kind` whose array name starts at `needle` on the line containing `snippet`. */
function at(snippet: string, needle: string, kind: AccessFinding['kind'] = 'load'): AccessFinding {
  const { text, result } = data();
  const line = lineOf(text, snippet);
  const col = text.split('\n')[line].indexOf(needle) + (needle.startsWith(' ') ? 1 : 0);
  assert.ok(col >= 0, needle);
  const a = result.accesses.find((x) => x.range.start.line === line && x.range.start.character === col && x.kind === kind);
  assert.ok(a, `${kind} ${needle} at ${snippet}`);
  return a!;
}

test('pointers derived from shared arrays: an alias reports its own name; casts change the access width', () => {
  const b = at('out[threadIdx.x] = b[threadIdx.x * 2]', 'b[');
  assert.equal(b.array, 'b');
  assert.equal(b.sharedArray, 'smem');
  assert.equal(b.degree, 2);
  const v = at('reinterpret_cast<float4 *>(smem)[threadIdx.x]', 'smem)');
  assert.equal(v.elementBytes, 16);
  assert.equal(v.wavefronts, 4);
  assert.equal(v.idealWavefronts, 4);
  assert.equal(v.status, 'conflict-free');
  assert.ok(v.assumptions.some((a) => a.includes('inferred')));
  const w = at('*((float2 *)&smem[2 * threadIdx.x])', 'smem[');
  assert.equal(w.elementBytes, 8);
  assert.equal(w.status, 'conflict-free');
});

test('element types: __half, typedef float, using float2, a struct member offset, double2', () => {
  const line = 'out[t] = __half2float(h[2 * t])';
  assert.equal(at(line, 'h[').elementBytes, 2);
  assert.equal(at(line, 'h[').status, 'conflict-free');
  assert.equal(at(line, 'r[t]').status, 'conflict-free');
  const r2 = at(line, 'r2[');
  assert.equal(r2.elementBytes, 4); // .y of a float2
  assert.equal(r2.degree, 2);
  const p = at(line, 'p[t]');
  assert.equal(p.degree, 4); // 16-byte struct: stride 4 words
  assert.equal(p.worst!.worstPhase.banks.find((b) => b.bank === p.worst!.worstBank)!.words[0].word % 4, 1); // .y is word 1 of each element
  const d2 = at(line, 'd2[');
  assert.equal(d2.elementBytes, 8);
  assert.equal(d2.degree, 2);
});

test('atomics are their own kind; a compound assignment is a load and a store', () => {
  const h = at('atomicAdd(&hist[threadIdx.x * 8 % 256], 1);', 'hist', 'atomic');
  assert.equal(h.kind, 'atomic');
  assert.equal(h.degree, 8);
  // the bank model: no public rule for shared atomics; treated as a store, and said to be uncertain
  assert.match(h.message, /^hist: 8-way bank conflict: .*\(uncertain for atomics: treated as a store\)$/);
  assert.ok(h.assumptions.some((a) => a.startsWith('a shared-memory atomic is treated as a store') && a.includes('uncertain')));
  // threadIdx.x * 8 % 256: lanes 0 and 32 would share a word, but a warp has 32 distinct ones: nothing said
  assert.ok(!h.assumptions.includes(SAME_WORD_ATOMICS));
  const one = analyzeText('__global__ void k(int *o)\n{\n  __shared__ int hist[64];\n  atomicAdd(&hist[threadIdx.x / 4], 1);\n}\n').accesses[0];
  assert.equal(one.status, 'conflict-free'); // 8 words in 8 banks, 4 lanes each
  assert.ok(one.assumptions.includes(SAME_WORD_ATOMICS), one.assumptions.join(' | '));
  const snippet = 'if (tid < stride) s[tid] += s[tid + stride];';
  assert.equal(at(snippet, 's[tid]', 'load').status, 'conflict-free');
  assert.equal(at(snippet, 's[tid]', 'store').status, 'conflict-free');
});

test('templates: each instance is analysed, from a launch and from an explicit instantiation', () => {
  const store = at('tile[threadIdx.x][threadIdx.y] = 1.0f;', 'tile', 'store');
  assert.equal(store.degree, 8);
  assert.deepEqual(store.cases.map((c) => [c.context.TILE, c.degree]).sort(), [[16, 8], [8, 4]].sort());
  // the instance nobody launches borrows the other's block shape: not a basis for an out-of-bounds error
  assert.equal(store.outOfBounds, undefined);
});

test('constants, constexpr, enums and function-like macros are evaluated', () => {
  const line = 'out[threadIdx.x] = s[threadIdx.x * stride + offset]';
  assert.equal(at(line, 's[threadIdx.x * stride').degree, 2);
  assert.equal(at(line, 's[IDX').status, 'conflict-free');
});

test('loops: while loops with two variables, shifts, and __device__ functions with volatile pointer parameters', () => {
  const w = at('out[tid] += s[(tid * j) & 511];', 's[');
  assert.deepEqual(w.cases.map((c) => [c.context.i, c.degree]), [[0, 1], [1, 2], [2, 4], [3, 8]]);
  const red = data().result.accesses.filter((a) => a.array === 'sdata');
  assert.equal(red.length, 3);
  assert.ok(red.every((a) => a.status === 'conflict-free' && a.kernel === 'loops'));
});

test('unknowns say why; a warp-uniform offset does not stop evaluation', () => {
  const line = 'out[threadIdx.x] = s[idx[threadIdx.x]]';
  const loaded = at(line, 's[idx');
  assert.equal(loaded.status, 'unknown');
  assert.equal(loaded.degree, null);
  assert.match(loaded.reason!, /loaded from memory/);
  const stride = at(line, 's[threadIdx.x * ld]');
  assert.equal(stride.status, 'unknown');
  assert.match(stride.reason!, /`ld`/);
  const uniform = at(line, 's[blockIdx.x');
  assert.equal(uniform.status, 'conflict-free');
  assert.ok(uniform.assumptions.some((a) => a.includes('rule 6')));
});

test('block shapes: a directive wins over the launch; two launches are two cases', () => {
  const { text, result } = data();
  const d = at('out[threadIdx.x] = t[threadIdx.x][threadIdx.y];', ' t[');
  assert.deepEqual(d.block, [16, 16, 1]);
  assert.equal(d.degree, 8);
  assert.ok(d.assumptions[0].includes('`bank-lens: block` comment at line ' + (lineOf(text, '// bank-lens: block=16x16') + 1)));
  const two = result.accesses.find((a) => a.kernel === 'twoShapes')!;
  assert.equal(two.degree, 32);
  assert.deepEqual(two.cases.map((c) => [c.context.block, c.degree]), [['32x4x1', 32], ['8x8x1', 8]]);
  const fix = result.arrays.find((a) => a.declRange.start.line === lineOf(text, '__shared__ float t[64][32];'))!.fix!;
  assert.equal(fix.preferred, false); // no row length clears both shapes
  assert.match(fix.title, /^Pad t to \[64\]\[35\]: the worst access goes from 32-way to 2-way; wavefronts \d+ -> \d+ \(1 access checked\)$/);
});

test('a namespaced template kernel launched as ns::k<float, 256><<<...>>> through a template __device__ helper', () => {
  // the padding search must finish on a loaded machine too: the budget is not what this test is about
  const { text, result } = analyzeFile('test/fixtures/namespaces.cu', { budgetMs: 60_000 });
  const buf = result.accesses.filter((a) => a.array === 'buf');
  assert.deepEqual(buf.map((a) => [a.kind, a.status, a.kernel]), [['store', 'conflict-free', 'softmaxRow'], ['load', 'conflict-free', 'softmaxRow']]);
  assert.deepEqual(buf[1].block, [256, 1, 1]);
  assert.equal(buf[1].worst!.activeLanes, 8); // tid < BLOCK / 32
  const frag = result.accesses.find((a) => a.array === 'As' && a.kind === 'load')!;
  assert.equal(frag.degree, 2);
  const arr = result.arrays.find((a) => a.name === 'As')!;
  assert.equal(arr.fix, undefined);
  assert.match(arr.noFixReason!, /no padding of the innermost extent of `As`/);
  assert.equal(text.includes('kernels::softmaxRow<float, 256><<<'), true);
});

test('a double-buffer index flipped in a loop of unknown trip count stays warp-uniform; a per-lane one does not', () => {
  const { text, result } = analyzeFile('test/fixtures/pipelined.cu');
  const line = lineOf(text, 'acc += buf[cur][ty][k] * buf[cur][k][tx];');
  const reads = result.accesses.filter((a) => a.range.start.line === line);
  assert.deepEqual(reads.map((a) => a.status), ['broadcast', 'conflict-free']);
  assert.ok(reads[0].assumptions.some((a) => a.includes('`k0`, `cur` treated as unknown warp-uniform values')), reads[0].assumptions.join(' | '));
  const perLane = result.accesses.find((a) => a.kernel === 'perLane')!;
  assert.equal(perLane.status, 'unknown');
  assert.match(perLane.reason!, /`j` takes different values on different lanes in the loop at line \d+/);
});

test('the CUDA samples idiom T *sdata = SharedMemory<T>(): the struct hands out its extern __shared__ array', () => {
  const { text, result } = analyzeFile('test/fixtures/shared-memory-struct.cu');
  const line = lineOf(text, 'sdata[index] += sdata[index + s];');
  const here = result.accesses.filter((a) => a.range.start.line === line);
  assert.deepEqual(here.map((a) => [a.array, a.sharedArray, a.kind, a.degree]), [['sdata', '__smem', 'load', 8], ['sdata', '__smem', 'store', 8], ['sdata', '__smem', 'load', 8]]);
  assert.deepEqual(here[0].cases.map((c) => [c.context.s, c.degree]), [[1, 2], [2, 4], [4, 8], [8, 8], [16, 8], [32, 4], [64, 2], [128, 1]]);
});

test('reference parameters and local references bound to shared memory load and store where they are used', () => {
  const { text, result } = analyzeFile('test/fixtures/references.cu');
  const lines = text.split('\n');
  const row = (a: AccessFinding) => [lines[a.range.start.line].trim(), a.range.start.character, a.array, a.kind, a.status, a.degree];
  const on = (snippet: string) => result.accesses.filter((a) => a.range.start.line === lineOf(text, snippet)).map(row);
  // `a += 1.f` through `float &a` bound to s[2 * t]: a load and a store of that place, 2-way (stride 2 words)
  assert.deepEqual(on('bump(s[2 * threadIdx.x]);'), [
    ['bump(s[2 * threadIdx.x]);', 7, 's', 'load', 'conflict', 2],
    ['bump(s[2 * threadIdx.x]);', 7, 's', 'store', 'conflict', 2],
  ]);
  // the bitonic compare-and-swap: each reference is read and written, under a guard on loaded values
  const swap = 'swapIf(u[threadIdx.x], u[4 * threadIdx.x], dir);';
  assert.deepEqual(on(swap), [
    [swap, 9, 'u', 'load', 'conflict-free', 1],
    [swap, 9, 'u', 'store', 'conflict-free', 1],
    [swap, 25, 'u', 'load', 'conflict', 4],
    [swap, 25, 'u', 'store', 'conflict', 4],
  ]);
  const store = result.accesses.find((a) => a.range.start.line === lineOf(text, swap) && a.kind === 'store' && a.degree === 4)!;
  assert.ok(store.assumptions.some((x) => x.startsWith('the guard `(a > b) == dir` at line 9 could not be evaluated per lane')), store.assumptions.join('\n'));
  assert.deepEqual(store.exprRange.start, { line: lineOf(text, swap), character: 25 });
  // bound to a local: silent, and the callee's write reaches the caller (`stride` becomes 2)
  assert.deepEqual(on('bump(x);'), []);
  assert.deepEqual(on('doubleIt(stride);'), []);
  // `float &r = s[t + 64]; r += x;`: reported at the declaration's s[...]
  assert.deepEqual(on('float &r = s[threadIdx.x + 64];'), [
    ['float &r = s[threadIdx.x + 64];', 13, 's', 'load', 'conflict-free', 1],
    ['float &r = s[threadIdx.x + 64];', 13, 's', 'store', 'conflict-free', 1],
  ]);
  assert.deepEqual(on('r += x;'), []);
  // a `const float &` read is one load; `s[threadIdx.x * stride]` sees stride == 2
  const last = 'out[threadIdx.x] = twiceOf(s[4 * threadIdx.x]) + s[threadIdx.x * stride];';
  assert.deepEqual(on(last), [
    [last, 29, 's', 'load', 'conflict', 4],
    [last, 51, 's', 'load', 'conflict', 2],
  ]);
});

test('kernel arguments: a value the file states, passed for a scalar integer parameter, binds it in that launch\'s instance', () => {
  const { text, result } = analyzeFile('test/fixtures/launch-args.cu');
  const of = (kernel: string) => {
    const found = result.accesses.filter((a) => a.kernel === kernel);
    assert.equal(found.length, 1, kernel);
    return found[0];
  };
  const launch = (snippet: string) => lineOf(text, snippet) + 1;
  // 16 and PITCH (8): two instances, each with its own case
  const strided = of('strided');
  assert.equal(strided.status, 'conflict');
  assert.equal(strided.degree, 16);
  assert.deepEqual(strided.cases.map((c) => [c.context, c.degree]), [[{ pitch: 16 }, 16], [{ pitch: 8 }, 8]]);
  assert.equal(strided.message, 's: 16-way bank conflict: 16 lanes need 16 distinct words from bank 0; served in 16 wavefronts (ideal 1) (worst case: pitch = 16)');
  assert.deepEqual(strided.assumptions.slice(0, 2), [
    `block 256x1x1 from the launch at line ${launch('strided<<<1, 256>>>(m, 16);')}`,
    `\`pitch\` = 16 from the launch at line ${launch('strided<<<1, 256>>>(m, 16);')}`,
  ]);
  // a constexpr local made of a file constant and an enumerator: stride 6 words, 2-way
  const viaConst = of('viaConst');
  assert.equal(viaConst.degree, 2);
  assert.deepEqual(viaConst.cases, []);
  assert.ok(viaConst.assumptions.includes(`\`stride\` = 6 from the launch at line ${launch('viaConst<<<')}`));
  // a variable set from a run-time value stays unknown
  const runtime = of('runtime');
  assert.equal(runtime.status, 'unknown');
  assert.equal(runtime.reason, '`threadIdx.x * pitch` combines the unknown warp-uniform value `pitch` with per-lane values');
  assert.ok(!runtime.assumptions.some((a) => a.startsWith('`pitch` =')));
  // one constant launch and one run-time one: the first is evaluated, the second said to be unknown
  const mixed = of('mixed');
  assert.equal(mixed.degree, 32);
  assert.ok(mixed.assumptions.includes(`\`pitch\` = 32 from the launch at line ${launch('mixed<<<1, 32>>>(m, 32);')}`));
  assert.ok(mixed.assumptions.includes('in 1 other context the access could not be evaluated: `threadIdx.x * pitch` combines the unknown warp-uniform value `pitch` with per-lane values'));
  // another kernel's launches never bind a parameter of the same name
  const notLaunched = of('notLaunched');
  assert.equal(notLaunched.status, 'unknown');
  assert.match(notLaunched.reason!, /unknown warp-uniform value `pitch`/);
});

test('cp.async writes (__pipeline_memcpy_async) are stores of their size, said to be uncertain', () => {
  const src = `#include <cuda_pipeline.h>
__global__ void k(const float *g, float *o) {
  __shared__ float s[32 * 33];
  __shared__ float4 v[256];
  __pipeline_memcpy_async(&s[threadIdx.x * 32], &g[threadIdx.x], 4);
  __pipeline_memcpy_async(&v[threadIdx.x], &g[4 * threadIdx.x], 16);
  __pipeline_memcpy_async(&v[threadIdx.x], &g[4 * threadIdx.x], sizeof(float) * o[0]);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x] + v[threadIdx.x].x;
}
int main() { k<<<1, 32>>>(0, 0); }
`;
  const r = analyzeText(src);
  const stores = r.accesses.filter((a) => a.kind === 'store');
  assert.deepEqual(stores.map((a) => [a.range.start.line, a.status, a.degree, a.wavefronts, a.elementBytes]), [
    [4, 'conflict', 32, 32, 4], // 32 words apart: all in bank 0
    [5, 'conflict-free', 1, 4, 16],
    [6, 'unknown', null, null, 16],
  ]);
  assert.match(stores[0].message, /^s: 32-way bank conflict: .*\(uncertain for cp\.async writes: treated as a store\)$/);
  assert.ok(stores[1].assumptions.some((x) => /cp\.async write .* uncertain/.test(x)));
  assert.match(stores[2].message, /is not 4, 8 or 16 bytes/);
  // the loads are plain loads
  assert.ok(r.accesses.filter((a) => a.kind === 'load').every((a) => !/uncertain/.test(a.message)));
});

test('constants named with their scopes: Cfg::TILE, a namespace constant, Inner::STRIDE, enum class values, in extents, subscripts, guards and the launch', () => {
  const { text, result } = analyzeFile('test/fixtures/qualified-constants.cu');
  const launch = lineOf(text, 'tune::scoped<<<1, dim3(BX, BY)>>>(g, out);') + 1;
  const row = (a: AccessFinding) => [a.range.start.line + 1, a.array, a.kind, a.status, a.degree, a.wavefronts];
  assert.deepEqual(result.accesses.map(row), [
    [22, 'tile', 'store', 'conflict-free', 1, 1], // tile[32][33], tile[tx][ty]
    [23, 'line', 'store', 'conflict', 2, 2], // line[tx * Inner::STRIDE], STRIDE 2
    [24, 'line', 'store', 'unknown', null, null], // Layout::ColMajor == Layout::RowMajor is false
    [26, 'tile', 'load', 'conflict-free', 1, 1],
    [26, 'line', 'load', 'conflict-free', 1, 1], // tune::Kind::Plain is 3
    [26, 'line', 'load', 'conflict-free', 1, 1],
  ]);
  for (const a of result.accesses) {
    assert.deepEqual(a.block, [32, 8, 1]);
    assert.equal(a.assumptions[0], `block 32x8x1 from the launch at line ${launch}`);
  }
  assert.equal(result.accesses[2].reason, `no thread runs this access: the condition \`Layout::ColMajor == Layout::RowMajor\` at line 24 is false for every thread of block 32x8x1 (from the launch at line ${launch})`);
});

test('member functions called on an object (st.load(g), p->store(s, v)) are followed into like free functions', () => {
  const { result } = analyzeFile('test/fixtures/member-calls.cu');
  const row = (a: AccessFinding) => [a.range.start.line + 1, a.array, a.kind, a.status, a.degree, a.wavefronts];
  assert.deepEqual(result.accesses.map(row), [
    [8, 'buf', 'store', 'conflict-free', 1, 1],
    [10, 'buf', 'load', 'conflict', 32, 32], // buf[threadIdx.x][threadIdx.y] with block 32x8
    [12, 's', 'store', 'conflict', 2, 2], // s[threadIdx.x * 2], s bound to col
  ]);
  assert.deepEqual(result.accesses[1].block, [32, 8, 1]);
  assert.equal(result.accesses[2].sharedArray, 'col');
});

test('a member function of a class template called as R<double, 256>::sum(v) binds the class arguments, and its class constants follow them', () => {
  const src = `template <typename T, int BLOCK>
struct R {
  static constexpr int kWarps = BLOCK / 32;
  __device__ static T sum(T v) {
    __shared__ T partials[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) partials[warp] = v;
    __syncthreads();
    return threadIdx.x < kWarps ? partials[lane * 2 % kWarps] : T(0);
  }
};
__global__ void k(const double *in, float *out) {
  out[0] = R<double, 256>::sum(in[threadIdx.x]);
  out[1] = R<float, 128>::sum(1.f);
}
int main() { k<<<1, 256>>>(0, 0); }
`;
  const r = analyzeText(src);
  const row = (a: AccessFinding) => [a.range.start.line, a.kind, a.status, a.degree, a.elementBytes, a.cases.map((c) => [c.context.call, c.degree])];
  assert.deepEqual(r.accesses.map(row), [
    [6, 'store', 'conflict-free', 1, 8, []],
    // 8 doubles, lanes 0-7 read 2 * lane % 8: words 0,1 4,5 8,9 12,13 twice over: multicast; 4 floats for R<float, 128>
    [8, 'load', 'conflict-free', 1, 8, []],
  ]);
  assert.equal(r.accesses.filter((a) => a.status === 'unknown').length, 0);
});

test('inline PTX on a shared address: ldmatrix x4 and x1, ld.shared.v2, st.shared, cp.async', () => {
  const { text, result } = analyzeFile('test/fixtures/inline-ptx.cu');
  const row = (a: AccessFinding) => [a.range.start.line + 1, a.array, a.kind, a.status, a.degree, a.wavefronts, a.idealWavefronts, a.elementBytes];
  const asm = (n: number) => lineOf(text, 'asm volatile', n) + 1;
  const first = asm(0), second = asm(first), third = asm(second), fourth = asm(third), fifth = asm(fourth), sixth = asm(fifth), seventh = asm(sixth);
  assert.deepEqual(result.accesses.map(row), [
    [first + 2, 'plain', 'load', 'conflict', 8, 32, 4, 16], // rows 0-7 of chunk 0: one 16-byte bank group
    [second + 2, 'swizzled', 'load', 'conflict-free', 1, 4, 4, 16], // chunk ^ (row % 8): eight bank groups
    [third + 2, 'tile', 'load', 'conflict', 8, 8, 1, 16], // x1: lanes 0-7 only
    [fourth, 'f', 'load', 'conflict', 2, 4, 2, 8], // v2.f32 at 4-word stride, half-warps
    [fifth, 'f', 'store', 'conflict', 32, 32, 1, 4],
    [sixth, 'f', 'store', 'conflict-free', 1, 4, 4, 16],
    [seventh, 'base', 'load', 'conflict', 2, 2, 1, 4], // base + lane * 8 bytes: two words apart
  ]);
  assert.equal(result.accesses[2].worst!.activeLanes, 8);
  assert.ok(result.accesses[0].assumptions.some((x) => /ldmatrix \.x4.*lanes 0-31/.test(x)));
  assert.match(result.accesses[5].message, /\(uncertain for cp\.async writes: treated as a store\)$/);
});

test('a whole struct or 3-vector less aligned than it is long is copied in pieces of its alignment, each a request', () => {
  const src = `struct P { float x, y; };
struct M { int a; double b; };
struct __align__(16) Q { float a; };
__global__ void k(P *o, float3 *f3, M *m, float *g) {
  __shared__ P s[64];
  __shared__ float3 v3[64];
  __shared__ M u[64];
  __shared__ Q q[64];
  s[threadIdx.x] = o[threadIdx.x];
  float3 y = v3[threadIdx.x];
  M x = u[threadIdx.x];
  g[threadIdx.x] = q[threadIdx.x].a;
  o[threadIdx.x] = s[threadIdx.x ^ 1]; f3[threadIdx.x] = y; m[threadIdx.x] = x;
}
int main() { k<<<1, 32>>>(0, 0, 0, 0); }
`;
  const r = analyzeText(src);
  const row = (a: AccessFinding) => [a.range.start.line, a.array, a.kind, a.status, a.degree, a.wavefronts, a.elementBytes];
  assert.deepEqual(r.accesses.map(row), [
    [8, 's', 'store', 'conflict', 2, 2, 4], // two f32 stores at an 8-byte stride
    [9, 'v3', 'load', 'conflict-free', 1, 1, 4], // three f32 loads at a 12-byte stride
    [10, 'u', 'load', 'conflict', 2, 4, 8], // two 8-byte loads at a 16-byte stride
    [11, 'q', 'load', 'conflict', 4, 4, 4], // __align__(16): 16-byte elements
    [12, 's', 'load', 'conflict', 2, 2, 4],
  ]);
  assert.ok(r.accesses[1].assumptions.includes('a whole `float3` (12 bytes, aligned to 4) is copied as 3 accesses of 4 bytes, as nvcc emits it; each is its own request'));
  assert.deepEqual(r.accesses[0].cases, []); // the pieces differ by whole words: the same figures
});

test('a padding that leaves the worst degree as it was says so: "the worst access stays 2-way", not "goes from 2-way to 2-way"', () => {
  // block 16x16, rows of 17: T[ty][tx] puts word 0 and word 32 in bank 0 (2-way), T[tx][ty] likewise; rows of 18 clear
  // the transposed read (18tx + ty: 32 banks) and leave the store 2-way (18ty + tx, ty = 1 wraps onto banks 0 and 1)
  const text = `
#define B 16
__global__ void tile2(float *A)
{
  __shared__ float T[B][B + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  T[ty][tx] = A[ty * B + tx];
  __syncthreads();
  A[tx * B + ty] = T[tx][ty];
}
int main() { float *f; tile2<<<1, dim3(B, B)>>>(f); }
`;
  const result = analyzeText(text, { budgetMs: 60_000 });
  const fix = result.arrays.find((a) => a.name === 'T')!.fix!;
  assert.equal(fix.title, 'Pad T to [B][B + 2]: the worst access stays 2-way; 1 of 2 conflicting accesses becomes conflict-free; wavefronts 32 -> 24 (2 accesses checked)');
});
