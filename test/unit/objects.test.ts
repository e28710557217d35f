// Shared memory reached through local objects (a struct holding a tile pointer and its row length, its member
// functions, an operator[]) and through functions that return a reference. Figures checked by hand: a row length of
// 33 words puts a column in 32 banks, 32 words puts it in one.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, lineOf } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('objects: members from a braced list, a copy, one by one; member functions see them; a reference return is a place', () => {
  const { text, result } = analyzeFile('test/fixtures/objects.cu');
  const end = lineOf(text, 'template <typename T, int LD>'); // the first kernel's part of the file
  const rows = result.accesses.filter((a) => a.range.start.line < end).map((a) => [a.range.start.line + 1, a.array, a.kind, a.status, a.degree]);
  assert.deepEqual(rows, [
    [lineOf(text, 'float get(int r, int c)') + 1, 'plain.p', 'load', 'conflict-free', 1],
    [lineOf(text, 'float &at(int r, int c)') + 1, 'padded.p', 'store', 'conflict', 32],
    [lineOf(text, 'float &operator[](int i)') + 1, 'plain.p', 'load', 'conflict', 32],
    [lineOf(text, 'float &elem(float *base, int i)') + 1, 'base', 'store', 'conflict', 4],
    [lineOf(text, 'copy.p[threadIdx.x * copy.ld]') + 1, 'copy.p', 'load', 'conflict', 2],
    [lineOf(text, 'plain.p[threadIdx.x * plain.ld]') + 1, 'plain.p', 'load', 'conflict', 32],
  ]);
  // `at` is called on both objects: the padded one's column write is conflict-free, the plain one's 32-way
  const at = result.accesses[1];
  assert.deepEqual(at.cases.map((c) => [c.context.call, c.degree]).sort(), [
    [`line ${lineOf(text, 'padded.at(threadIdx.x, 0)') + 1}`, 1],
    [`line ${lineOf(text, 'plain.at(threadIdx.x, 0)') + 1}`, 32],
  ]);
});

test('a class template object binds its parameters; pointers to rows and references to arrays are declarations', () => {
  const { text, result } = analyzeFile('test/fixtures/objects.cu');
  const at = (snippet: string) => result.accesses.find((a) => a.range.start.line === lineOf(text, snippet))!;
  const strided = at('T &at(int r, int c) { return p[r * LD + c]; }');
  assert.deepEqual([strided.array, strided.kind, strided.degree], ['st.p', 'load', 32]);
  assert.deepEqual(strided.cases.map((c) => [c.context.call, c.degree]).sort(), [
    [`line ${lineOf(text, 'out[2] = st.at(threadIdx.x, 0);') + 1}`, 32],
    [`line ${lineOf(text, 'out[3] = pad.at(threadIdx.x, 0);') + 1}`, 1],
  ]);
  assert.equal(at('// rows of 33: conflict-free').status, 'conflict-free');
  assert.equal(at('out[1] = buf[0][threadIdx.x * 2];').degree, 2);
});

test('a member no one has given a value leaves the access unknown; an object passed by value is a copy', () => {
  const src = `struct V { float *p; int ld; };
__device__ float pick(V v, int i) { v.ld = 1; return v.p[i * v.ld]; }
__global__ void k(float *o)
{
  __shared__ float s[1024];
  V a{s, 32};
  o[threadIdx.x] = pick(a, threadIdx.x);
  o[threadIdx.x] += a.p[threadIdx.x * a.ld];
  V b;
  b.p = s;
  o[threadIdx.x] += b.p[threadIdx.x * b.ld];
}
`;
  const r = analyzeText(src);
  assert.deepEqual(r.accesses.map((a) => [a.range.start.line, a.status, a.degree]), [[1, 'conflict-free', 1], [7, 'conflict', 32], [10, 'unknown', null]]);
  assert.equal(r.accesses[2].reason, '`b.ld` has no value');
});

test('a __shared__ struct of buffers: unions defined in place, anonymous unions; an unknown layout is reported unknown', () => {
  const { text, result } = analyzeFile('test/fixtures/struct-members.cu');
  const at = (snippet: string) => result.accesses.find((a) => a.range.start.line === lineOf(text, snippet))!;
  assert.equal(at('// rows of 33 words: conflict-free').status, 'conflict-free');
  assert.equal(at('// a column: conflict-free').status, 'conflict-free');
  assert.equal(at('// 2-way').degree, 2);
  assert.equal(at('smem.x.f[threadIdx.x]').status, 'conflict-free');
  assert.equal(at('// 264 + 4 + 4 * lane: conflict-free').status, 'conflict-free');
  const d = at('// 8-byte words, two half-warp phases: conflict-free');
  assert.deepEqual([d.status, d.wavefronts, d.idealWavefronts], ['conflict-free', 2, 2]);
  assert.equal(result.accesses.length, 6);
  // a member whose type comes from a header: the members before it keep their offsets (`a` at 0); one after it is
  // there, unknown, with the reason
  const r = analyzeText('struct S { float a[32]; cub::TempStorage t; float b[32]; };\n__global__ void k(float *o)\n{\n  __shared__ S s;\n  o[threadIdx.x] = s.a[threadIdx.x] + s.b[threadIdx.x];\n}\n');
  assert.deepEqual(r.accesses.map((a) => [a.status, a.reason]), [['conflict-free', undefined], ['unknown', 'the layout of `S` is not known']]);
});

test('a member function the file does not define, called on a shared object, is an unknown access there, not a load', () => {
  const src = `#include <cuda/barrier>
__global__ void k(float *o)
{
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float s[64];
  s[threadIdx.x] = o[threadIdx.x];
  bar.arrive_and_wait();
  o[threadIdx.x] = s[2 * threadIdx.x];
}
`;
  const r = analyzeText(src);
  assert.deepEqual(r.accesses.map((a) => [a.range.start.line, a.array, a.kind, a.status]),
    [[5, 's', 'store', 'conflict-free'], [6, 'bar', 'atomic', 'unknown'], [7, 's', 'load', 'conflict']]);
  assert.equal(r.accesses[1].reason, '`bar.arrive_and_wait()` is a member function of `barrier<cuda::thread_scope_block>` that this file does not define, called on an object in shared memory: what it reads or writes is not known');
});
