// Regressions from the sixth sweep of unseen kernels, sweep B (sample-style code; scratch/samplesB/NOTES.md):
// figures from a brute-force lane oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';
import { analyzeText } from '../../server/engine';

before(() => ready);

test('a loop of unknown trip count with a per-lane best-so-far: accesses that do not use it keep exact figures', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const st = accessAt(result, text, 'window[threadIdx.y][threadIdx.x] = cost_in', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  const ld = accessAt(result, text, 'float here = window[threadIdx.y][2 * threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.ok(ld.assumptions.some((a) => a.includes('`c` treated as an unknown warp-uniform value')), ld.assumptions.join(' | '));
  // the access whose address is the per-lane value stays unknown, and says why
  const h = accessAt(result, text, 'float seen = history[threadIdx.y][best & 31];', 'load');
  assert.equal(h.status, 'unknown');
  assert.equal(h.reason, '`best` takes different values on different lanes in the loop at line 15, whose trip count is unknown');
});

test('a per-lane accumulator in a loop of unknown trip count (`acc = t`, `sel = t & 1`) leaves the load exact', () => {
  const text = [
    '__global__ void k(float *o, int n) {',
    '  __shared__ float s[1024];',
    '  float acc = 0.f;',
    '  for (int i = 0, sel = 0; i < n; i++) {',
    '    acc += s[2 * threadIdx.x];',
    '    acc = threadIdx.x;',
    '    s[sel * 64 + threadIdx.x] = acc;',
    '    sel = threadIdx.x & 1;',
    '  }',
    '  o[threadIdx.x] = acc;',
    '}',
  ].join('\n');
  const r = analyzeText(text);
  const ld = r.accesses.find((a) => a.range.start.line === 4)!;
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  const st = r.accesses.find((a) => a.range.start.line === 6)!;
  assert.equal(st.status, 'unknown');
  assert.equal(st.reason, '`sel` takes different values on different lanes in the loop at line 4, whose trip count is unknown');
});

test('an outermost extent that cannot be evaluated (a header constant) changes no address: figures are exact', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const z = accessAt(result, text, 'counts[threadIdx.x] = 0;', 'store');
  assert.equal(z.status, 'conflict-free');
  assert.ok(z.assumptions.includes('the extent `UCHAR_MAX + 1` of `counts` could not be evaluated (`UCHAR_MAX` is not known here): the outermost extent changes no address; indices past it are not checked'), z.assumptions.join(' | '));
  const l = accessAt(result, text, 'lanes[threadIdx.x][threadIdx.x % 32] = 0;', 'store');
  assert.equal(l.status, 'conflict');
  assert.equal(l.degree, 2);
  const c = accessAt(result, text, 'out[threadIdx.x] = counts[4 * (threadIdx.x % 64)];', 'load');
  assert.equal(c.degree, 4);
  assert.equal(c.wavefronts, 4);
  // an inner extent still decides every row's address: unknown, with its reason
  const r = analyzeText('__global__ void k(float *o) {\n  __shared__ float t[32][ROW];\n  o[threadIdx.x] = t[threadIdx.x][0];\n}\n');
  assert.equal(r.accesses[0].status, 'unknown');
  assert.equal(r.accesses[0].reason, 'the extent `ROW` of `t` could not be evaluated (`ROW` is not known here)');
  // `sizeof` of such an array is not known either
  const s = analyzeText('__global__ void k(float *o) {\n  __shared__ float v[N];\n  o[threadIdx.x] = v[threadIdx.x * (sizeof(v) / 4)];\n}\n');
  assert.equal(s.accesses[0].status, 'unknown');
});

test('a variable declared without a value and set under a guard is exact for the lanes that set it', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const a = accessAt(result, text, 'edge[slot] = in[threadIdx.x];', 'store');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 4);
  assert.equal(a.worst!.activeLanes, 16);
  const b = accessAt(result, text, 'edge[row * 40 + col] = in[col];', 'store');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.worst!.activeLanes, 32);
  // set on both branches of an `if`: each lane has its own branch's value (lane 0 reads word 0, lane 31 word 32)
  const p = accessAt(result, text, 'out[threadIdx.x] = edge[pick];', 'load');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 2);
  // read by lanes that never set it: unknown, never a guess
  const s = accessAt(result, text, 'out[threadIdx.x] += edge[slot];', 'load');
  assert.equal(s.status, 'unknown');
  assert.equal(s.reason, '`slot` is read on a lane that has not assigned it');
});

test('a negative literal (`-16` as a launch argument, `* -1` in a subscript) is an integer', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const a = accessAt(result, text, 'out[threadIdx.x] = buf[threadIdx.x * (to - from)];', 'load');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.ok(a.assumptions.includes(`\`from\` = -16 from the launch at line ${lineOf(text, 'signed_window<<<') + 1}`), a.assumptions.join(' | '));
  const b = accessAt(result, text, 'out[threadIdx.x] += buf[threadIdx.x * -1 + 63];', 'load');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.worst!.activeLanes, 32);
});

test('a loop left only by a break whose guard is not known per lane (`for (;;) { if (tile >= tiles) break; ... }`) is run once more symbolically, not to the iteration cap', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const st = accessAt(result, text, 'stage[threadIdx.y][threadIdx.x] = in[tile * 1024', 'store');
  assert.equal(st.status, 'conflict-free');
  const ld = accessAt(result, text, '= stage[threadIdx.x][threadIdx.y];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 32);
  assert.equal(ld.wavefronts, 32);
  // one note for the break, not one per iteration up to the cap
  assert.equal(ld.assumptions.filter((a) => a.includes('every lane is assumed to go on past its `break`')).length, 1, ld.assumptions.join(' | '));
  assert.ok(result.notices.every((n) => !n.message.includes('iterations')), result.notices.map((n) => n.message).join(' | '));
  const w = analyzeText('__global__ void k(float *o, int n) {\n  __shared__ float s[2048];\n  int i = threadIdx.x;\n  while (true) {\n    if (i >= n) break;\n    o[i] = s[2 * i];\n    i += blockDim.x;\n  }\n}\n');
  assert.equal(w.accesses.length, 1);
  assert.equal(w.accesses[0].status, 'conflict');
  assert.equal(w.accesses[0].degree, 2);
});

test('a probing loop `while (true) { if (atomicCAS(...) == 0u) break; }` is not run to the iteration cap: its trip count is unknown', () => {
  const src = '__global__ void k(const unsigned *keys) {\n  __shared__ unsigned t[512];\n  unsigned h = keys[threadIdx.x] & 511;\n  while (true) {\n    unsigned prev = atomicCAS(&t[threadIdx.x], 0u, 1u);\n    if (prev == 0u) break;\n    h = (h + 1) & 511;\n  }\n}\n';
  const r = analyzeText(src);
  assert.equal(r.accesses.length, 1);
  assert.equal(r.accesses[0].status, 'conflict-free');
  assert.ok(r.notices.every((n) => !/runs more than/.test(n.message)), r.notices.map((n) => n.message).join(' | '));
  // where the probe address is a value loaded from memory, the access says so
  const h = analyzeText(src.replace('t[threadIdx.x]', 't[h]'));
  assert.equal(h.accesses[0].status, 'unknown');
  assert.equal(h.accesses[0].reason, '`keys[threadIdx.x]` is a value loaded from memory that is not shared');
});

test('an extern array of rows (`extern __shared__ float rows[][40]`) is indexed row by row (was: its accesses were missed)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const st = accessAt(result, text, 'rows[threadIdx.x][1] = 0.f;', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 8);
  const ld = accessAt(result, text, 'out[threadIdx.x] = rows[1][threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.worst!.activeLanes, 32);
});

test('a pointer cast of a parenthesised name (`*((float4 *)(base) + k) = v`) is the cast pointer plus k (was: read as a cast of `+k` to a type `base`, and missed)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const st = accessAt(result, text, '*((float4 *)(base) + 2 * (threadIdx.x % 8)) = in[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.elementBytes, 16);
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 8);
});

test('`cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(...), pipe)` writes 16 bytes per lane to shared memory; a group-wide copy is unknown, with its reason', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const c = accessAt(result, text, 'cuda::memcpy_async(&tile[threadIdx.y][8 * threadIdx.x]', 'store');
  assert.equal(c.elementBytes, 16);
  assert.equal(c.status, 'conflict');
  assert.equal(c.degree, 2);
  assert.equal(c.wavefronts, 8);
  const g = accessAt(result, text, 'cooperative_groups::memcpy_async(block, &tile[0][0]', 'store');
  assert.equal(g.status, 'unknown');
  assert.equal(g.reason, '`cooperative_groups::memcpy_async` with a group: which lane writes which bytes is not documented');
});

test('a guard `unknown && per-lane` (`blockIdx.x < rows && lane < 8`) runs its branch on the lanes the per-lane part picks (was: every lane, a false 4-way conflict)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const s = accessAt(result, text, 'line[threadIdx.x / 32][4 * (threadIdx.x % 32)] = in[threadIdx.x];', 'store');
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.degree, 1);
  assert.equal(s.worst!.activeLanes, 8);
  assert.ok(s.assumptions.some((a) => a.startsWith('the guard `blockIdx.x < rows && threadIdx.x % 32 < 8` at line ') && a.endsWith('`blockIdx.x < rows` assumed true for every lane, `threadIdx.x % 32 < 8` evaluated per lane')), s.assumptions.join(' | '));
});

test('`uint` and `ushort` (from <sys/types.h>) are 4- and 2-byte unsigned integers (was: the size of `uint` is not known)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const w = accessAt(result, text, 'words[threadIdx.x] = threadIdx.x;', 'store');
  assert.equal(w.elementBytes, 4);
  assert.equal(w.status, 'conflict-free');
  const h = accessAt(result, text, 'halves[2 * threadIdx.x] = 1;', 'store');
  assert.equal(h.elementBytes, 2);
  assert.equal(h.status, 'conflict-free');
  const l = accessAt(result, text, 'out[threadIdx.x] = words[2 * (threadIdx.x % 32)]', 'load', 'words');
  assert.equal(l.degree, 2);
});

test('a launch through `cudaLaunchCooperativeKernel((void *)k, grid, block, ...)` or `cudaLaunchKernel(reinterpret_cast<void *>(&k<8>), ...)` gives the block and template arguments (was: one warp of 32 assumed)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const a = accessAt(result, text, 'if (threadIdx.x >= 96) out[threadIdx.x] = part[0][2 * (threadIdx.x - 96)];', 'load');
  assert.deepEqual(a.block, [128, 1, 1]);
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.ok(a.assumptions.includes(`block 128x1x1 from the launch at line ${lineOf(text, 'cudaLaunchCooperativeKernel((void *)api_launched') + 1}`), a.assumptions.join(' | '));
  const t = accessAt(result, text, 'out[threadIdx.x] = cells[threadIdx.x % ROWS][0];', 'load');
  assert.deepEqual(t.block, [64, 1, 1]);
  assert.equal(t.degree, 8);
});

test('a launch through a function-pointer variable (`kernel = &k; kernel<<<1, dim3(32, 4)>>>`) is a launch of each kernel assigned to it (was: one warp of 32 assumed, the guarded access never reached)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen6b.cu');
  const a = accessAt(result, text, 'if (threadIdx.y == 3) out[threadIdx.x] = grid_a[threadIdx.x][0];', 'load');
  assert.deepEqual(a.block, [32, 4, 1]);
  assert.equal(a.degree, 32);
  const b = accessAt(result, text, 'if (threadIdx.y == 3) out[threadIdx.x] = grid_b[threadIdx.x][0];', 'load');
  assert.deepEqual(b.block, [32, 4, 1]);
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.worst!.activeLanes, 32);
});
