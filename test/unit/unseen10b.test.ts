// Regressions from the tenth sweep of unseen kernels, helper B (template-heavy library kernels: kaldi's cudamatrix
// reductions, PyTorch's ATen reductions): figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen10b.cu';

test('a partial specialization of a class template is the class: its member reads the shared operands (were dropped)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `op` is a kernel parameter `const RedOp<K, V>`; the launch passes `RedOp<RED_SUM, float>()`, so K = RED_SUM and
  // V = float are deduced, and `RedOp<RED_SUM, W>` reads both references: stride 2 words, 2-way in 2 wavefronts
  const a = accessAt(result, text, 'V acc = op.merge(part[2 * t], part[2 * t + 1]);', 'load', 'part[2 * t]');
  assert.equal(a.status, 'conflict');
  assert.equal(a.kernel, 'pair_reduce');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.idealWavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [256, 1, 1]);
  assert.ok(!a.assumptions.some((s) => /is not bound/.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'V acc = op.merge(part[2 * t], part[2 * t + 1]);', 'load', 'part[2 * t + 1]');
  assert.equal(b.degree, 2);
  assert.equal(b.wavefronts, 2);
  // the primary template (which reads nothing) is not what runs: exactly these two loads on the line
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('V acc = op.merge(part[2 * t], part[2 * t + 1]);'));
  assert.equal(result.accesses.filter((x) => x.range.start.line === line).length, 2);
});

test('a partial specialization chosen for a local object of a class template instance (`RedOp<K, V> op;`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // K = RED_SUM from the launch, V = double deduced: `vals[4 * t]` of doubles is 4-way in each half-warp, 8 wavefronts
  const a = accessAt(result, text, 'V acc = op.merge(vals[4 * t], vals[t]);', 'load', 'vals[4 * t]');
  assert.equal(a.status, 'conflict');
  assert.equal(a.kernel, 'stride_reduce');
  assert.equal(a.elementBytes, 8);
  assert.equal(a.degree, 4);
  assert.equal(a.wavefronts, 8);
  assert.equal(a.idealWavefronts, 2);
  assert.equal(a.worst!.distinctWords, 64);
  assert.deepEqual(a.block, [64, 1, 1]);
  const b = accessAt(result, text, 'V acc = op.merge(vals[4 * t], vals[t]);', 'load', 'vals[t]');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.wavefronts, 2);
  assert.equal(b.worst!.distinctWords, 64);
});

test('a specialization for instances of another class template (`Combine<Pair2<A, B>>`) does not match a scalar', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // V = float: the primary `Combine<V>` runs; it reads the column (32-way) and the row (conflict-free)
  const col = accessAt(result, text, 'c.apply(rows[threadIdx.x][threadIdx.y], rows[threadIdx.y][threadIdx.x]);', 'load', 'rows[threadIdx.x]');
  assert.equal(col.status, 'conflict');
  assert.equal(col.degree, 32);
  assert.equal(col.wavefronts, 32);
  assert.deepEqual(col.block, [32, 8, 1]);
  const row = accessAt(result, text, 'c.apply(rows[threadIdx.x][threadIdx.y], rows[threadIdx.y][threadIdx.x]);', 'load', 'rows[threadIdx.y]');
  assert.equal(row.status, 'conflict-free');
  assert.equal(row.wavefronts, 1);
});

test('an anonymous union declared `__shared__` in a kernel template is laid out (was: the layout is not known)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // TD = 32, R = float, block 32x8: rows stored conflict-free, the column read 32-way, the flat sum conflict-free
  const st = accessAt(result, text, 'buf.tile[threadIdx.y + i][threadIdx.x] = in[', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.wavefronts, 1);
  assert.equal(st.worst!.distinctWords, 32);
  const col = accessAt(result, text, 'v += buf.tile[threadIdx.x][threadIdx.y + i];', 'load');
  assert.equal(col.status, 'conflict');
  assert.equal(col.degree, 32);
  assert.equal(col.wavefronts, 32);
  assert.equal(col.worst!.distinctWords, 32);
  assert.deepEqual(col.block, [32, 8, 1]);
  const sum = accessAt(result, text, 'if (tid < s) buf.flat[tid] += buf.flat[tid + s];', 'load', 'buf.flat[tid + s]');
  assert.equal(sum.status, 'conflict-free');
  assert.equal(sum.wavefronts, 1);
  assert.equal(sum.reason ?? null, null);
  const last = accessAt(result, text, 'if (tid == 0) out[blockIdx.x] = buf.flat[0];', 'load');
  assert.equal(last.worst!.activeLanes, 1);
  assert.equal(last.wavefronts, 1);
});

test('an integer every thread reads from one shared word is one value for all lanes: its uses are exact (were unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `m = first[0]`: `BIN_AT(m)` is one word for 32 lanes, a broadcast
  const bin = accessAt(result, text, 'int v = BIN_AT(m);', 'load');
  assert.equal(bin.status, 'broadcast');
  assert.equal(bin.wavefronts, 1);
  assert.equal(bin.worst!.distinctWords, 1);
  assert.equal(bin.worst!.activeLanes, 32);
  assert.deepEqual(bin.block, [256, 1, 1]);
  // `spread[2 * t + (m & 63)]`: stride 2 words at a uniform offset, 2-way whatever m is (rule 6), and said so
  const sp = accessAt(result, text, 'spread[2 * t + (m & 63)] = v;', 'store');
  assert.equal(sp.status, 'conflict');
  assert.equal(sp.degree, 2);
  assert.equal(sp.wavefronts, 2);
  assert.equal(sp.worst!.distinctWords, 32);
  assert.ok(sp.assumptions.some((a) => a.startsWith('`4 * (m & 63)` adds the same offset to every lane')), sp.assumptions.join('\n'));
  // the padded table shifted by one: in warp 1, thread 32 writes word 31 and thread 63 word 63, both in bank 31
  const sh = accessAt(result, text, 'if (t >= 1) BIN_AT(t - 1) = v;', 'store');
  assert.equal(sh.status, 'conflict');
  assert.equal(sh.degree, 2);
  assert.equal(sh.wavefronts, 2);
});

test('a type parameter deduced through class template parameters passed by const reference (was: `T` not bound)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `column_scan_u32` calls the host `column_scan(const Strip<T> &, ...)` with a `const Strip<unsigned> &`; it launches
  // the kernel of the same name with that view: T = unsigned. `sums[32][9]` read at [tx/8 + 4ty][tx%8]: the fourth
  // group of 8 lanes reaches words 32..34 of banks 0..2, which the first group uses: 2-way
  const st = accessAt(result, text, 'sums[threadIdx.x][threadIdx.y] = img.row(threadIdx.y)[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.elementBytes, 4);
  assert.deepEqual(st.block, [32, 8, 1]);
  assert.ok(!st.assumptions.some((a) => /is not bound/.test(a)), st.assumptions.join('\n'));
  const ld = accessAt(result, text, 'T part = sums[k][j];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.equal(ld.worst!.distinctWords, 32);
  assert.ok(ld.assumptions.some((a) => a.startsWith('block 32x8x1 from the launch at line') && a.includes('in `column_scan(...)`')), ld.assumptions.join('\n'));
});

test('a class template instance\'s constant (`TilePad<T>::value`, an enumerator `Words<T>::value`) is evaluated per instance', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = float: the full specialization pads to 33 (conflict-free); T = int: the primary pads nothing (32-way)
  const st = accessAt(result, text, 'tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.kernel, 'traits_transpose');
  const ld = accessAt(result, text, 'out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y * Words<T>::value];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 32);
  assert.equal(ld.wavefronts, 32);
  assert.deepEqual(ld.block, [32, 8, 1]);
  assert.deepEqual(ld.cases.map((c) => [c.context, c.degree, c.wavefronts]), [[{ T: 'float' }, 1, 1], [{ T: 'int' }, 32, 32]]);
});

test('a static data member and a member function declared in a class take no room in its objects (was: 2-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const [snippet, expr] of [['lanes[threadIdx.x].value = out[threadIdx.x];', 'lanes'], ['cells[threadIdx.x].value = out[threadIdx.x + 32];', 'cells']]) {
    const st = accessAt(result, text, snippet, 'store', expr);
    assert.equal(st.status, 'conflict-free', snippet);
    assert.equal(st.degree, 1);
    assert.equal(st.wavefronts, 1);
    assert.equal(st.worst!.distinctWords, 32);
  }
  const line = 'out[threadIdx.x] = lanes[threadIdx.x + Lane::kCount].value + cells[threadIdx.x + 32].twice();';
  // the read in `twice()` is reported at the call, its expression the member `value` in the function's body
  const at = lineOf(text, line);
  const loads = result.accesses.filter((a) => a.range.start.line === at && a.kind === 'load').sort((a, b) => a.range.start.character - b.range.start.character);
  assert.deepEqual(loads.map((a) => [a.array, a.status, a.degree, a.wavefronts]), [['lanes', 'conflict-free', 1, 1], ['cells', 'conflict-free', 1, 1]]);
});

test('a base class is part of a record, and a member\'s alignas moves it (were: 4- and 8-byte records, wrong degrees)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // KeyVal : Key is 8 bytes: `.val` at 4, stride 2 words, 2-way (was conflict-free); `.key` through the base is found
  const val = accessAt(result, text, 'kv[threadIdx.x].val = out[threadIdx.x];', 'store');
  assert.equal(val.status, 'conflict');
  assert.equal(val.degree, 2);
  assert.equal(val.wavefronts, 2);
  const line = 'out[threadIdx.x] = kv[threadIdx.x].key + sp[threadIdx.x].x;';
  const key = accessAt(result, text, line, 'load', 'kv');
  assert.equal(key.degree, 2);
  assert.equal(key.reason ?? null, null);
  // Spaced { float x; alignas(16) float y; } is 32 bytes: stride 8 words, 8-way (was 2-way)
  const y = accessAt(result, text, 'sp[threadIdx.x].y = out[threadIdx.x];', 'store');
  assert.equal(y.status, 'conflict');
  assert.equal(y.degree, 8);
  assert.equal(y.wavefronts, 8);
  assert.equal(y.worst!.distinctWords, 32);
  assert.equal(accessAt(result, text, line, 'load', 'sp').degree, 8);
});

test('an integer read at a shared place that is not known per lane is not one value for all lanes: what it indexes is unknown', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ld = accessAt(result, text, 'out[threadIdx.x] = vals[j & 63];', 'load');
  assert.equal(ld.status, 'unknown');
  assert.equal(ld.degree, null);
  assert.equal(ld.reason, '`order[perm[32 + threadIdx.x] & 63]` is a value loaded from shared memory');
});

test('an element type a class template instance defines (`typename AccOf<T>::type`, a typedef) is resolved (was unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = short: the full specialization `AccOf<short>` makes it int (the primary's short would be conflict-free)
  const p = accessAt(result, text, 'pairs[2 * threadIdx.x] = acc_t(in[threadIdx.x]);', 'store');
  assert.equal(p.status, 'conflict');
  assert.equal(p.elementBytes, 4);
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 2);
  assert.deepEqual(p.block, [128, 1, 1]);
  const w = accessAt(result, text, 'wide[threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(w.status, 'conflict-free');
  assert.equal(w.elementBytes, 8);
  assert.equal(w.wavefronts, 2);
  assert.equal(w.idealWavefronts, 2);
  assert.equal(w.worst!.distinctWords, 64);
});

test('`std::conditional_t<B, X, Y>` and `std::conditional<B, X, Y>::type` pick their type (were unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = short, kWide = true: acc is double (2 wavefronts, ideal 2); sizeof(short) > 2 is false: spread is float, 2-way
  const a = accessAt(result, text, 'acc[threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.elementBytes, 8);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.worst!.distinctWords, 64);
  const s = accessAt(result, text, 'spread[2 * threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(s.status, 'conflict');
  assert.equal(s.elementBytes, 4);
  assert.equal(s.degree, 2);
  assert.equal(s.wavefronts, 2);
});

test('a full specialization written with a space before its arguments (`class SharedMem <float>`) is the class', async () => {
  const { analyzeText } = await import('../../server/engine');
  const src = `
template <class T> class SharedMem { public: __device__ T *get() { extern __shared__ T s_any[]; return s_any; } };
template <> class SharedMem <double> { public: __device__ double *get() { extern __shared__ double s_double[]; return s_double; } };
template <class T>
__global__ void k(T *o) {
  SharedMem<T> shared;
  T *sd = shared.get();
  sd[threadIdx.x * 2] = o[threadIdx.x];
}
void run(double *b) { k<double><<<1, 32, 1024>>>(b); }
`;
  const [a] = analyzeText(src).accesses;
  assert.equal(a.sharedArray, 's_double');
  // 8-byte elements 16 bytes apart: in each half-warp phase lanes t and t + 8 share a bank, 2-way in 4 wavefronts
  assert.equal(a.elementBytes, 8);
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 4);
});
