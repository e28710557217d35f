// Regressions from the eighth sweep of unseen kernels, helper A (karpathy/llm.c dev/cuda and llmc patterns):
// figures from a brute-force lane oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen8a.cu';

test('a device function called through a function-pointer template parameter or a function-pointer argument is followed', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `run_stage<gather_pairs>` from `launch_stage<gather_pairs>`, block 32x4: rows of 66 floats, 16 lanes a row
  const st = accessAt(result, text, 'cells[t / 16][t % 16] = in[t];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.equal(st.kernel, 'run_stage');
  assert.deepEqual(st.block, [32, 4, 1]);
  const ld = accessAt(result, text, 'out[t] = cells[t % 16][2 * (t / 16)];', 'load');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.equal(ld.worst!.distinctWords, 32);
  // `apply_stage(&scatter_cols, ...)`, block 32x8: rows of 8 floats read down a column
  const col = accessAt(result, text, 'strip[threadIdx.x][threadIdx.y] = in[threadIdx.x];', 'store');
  assert.equal(col.kernel, 'run_by_pointer');
  assert.equal(col.degree, 8);
  assert.equal(col.wavefronts, 8);
  const row = accessAt(result, text, 'out[threadIdx.x] = strip[threadIdx.y][threadIdx.x % 8];', 'load');
  assert.equal(row.status, 'conflict-free');
  assert.equal(row.worst!.distinctWords, 8);
});

test('a block size passed down to the launch through parameters, a dispatcher and a loop over a local array gives one instance per size', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 64, 128 and 256 from `sizes[j]` through `dispatch(0, ...)`; `dispatch(2, out, 512)` does not reach `case 0:`
  const s = accessAt(result, text, 'rows[threadIdx.x * (blockDim.x / 32)] = out[threadIdx.x];', 'store');
  assert.equal(s.status, 'conflict');
  assert.equal(s.degree, 8);
  assert.equal(s.wavefronts, 8);
  assert.deepEqual(s.block, [256, 1, 1]);
  assert.deepEqual(s.cases!.map((c) => [c.block, c.degree]), [[[64, 1, 1], 2], [[128, 1, 1], 4], [[256, 1, 1], 8]]);
  assert.ok(s.assumptions.some((a) => a.startsWith('block 256x1x1 from the launch at line 72 in `launch_strided` (the call at line 91, from the call at line 102 with `j` = 2 (the loop at line 100))')));
  // `threads = 128;` before the launch: every call gives 128
  const f = accessAt(result, text, 'cols[threadIdx.x * (blockDim.x / 32)] = out[threadIdx.x];', 'store');
  assert.deepEqual(f.block, [128, 1, 1]);
  assert.equal(f.degree, 4);
  assert.equal(f.cases.length, 0);
  // `if (threads < 128) threads = 128;` under `default:`: only `dispatch(2, out, 512)` reaches it, and 512 is not clamped
  const c = accessAt(result, text, 'pairs[threadIdx.x * 2] = out[threadIdx.x];', 'store');
  assert.deepEqual(c.block, [512, 1, 1]);
  assert.equal(c.degree, 2);
  assert.deepEqual(c.cases, []);
  assert.ok(c.assumptions.includes('block 512x1x1 from the launch at line 82 where `threads < 128` (line 81) does not hold in `launch_clamped` (the call at line 93, from the call at line 105)'), c.assumptions.join('\n'));
  // `sizes[k]` passed as the argument itself, k = 1 and 2
  const h = accessAt(result, text, 'half_rows[threadIdx.x * (blockDim.x / 64)] = out[threadIdx.x];', 'store');
  assert.equal(h.degree, 4);
  assert.deepEqual(h.cases!.map((x) => [x.block, x.degree]), [[[128, 1, 1], 2], [[256, 1, 1], 4]]);
});

test('a `break` in a switch leaves the switch, not the enclosing loop; a subject known for every thread runs only its cases', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // MODE = 2: `case 2:` and the `case 3:` it falls into run, in both passes; `case 1:` and `default:` never
  const one = accessAt(result, text, 'case 1: grid_a[threadIdx.x * 4] = out[threadIdx.x]; break;', 'store');
  assert.equal(one.status, 'unknown');
  assert.match(one.reason!, /^no thread runs this access: `MODE` is 2 for every thread at the switch at line 117 /);
  const two = accessAt(result, text, 'case 2: grid_a[threadIdx.x * 8] = out[threadIdx.x];', 'store');
  assert.equal(two.degree, 8);
  assert.equal(two.wavefronts, 8);
  const three = accessAt(result, text, 'case 3: grid_a[threadIdx.x * 2 + pass] = 1.f; break;', 'store');
  assert.equal(three.degree, 2);
  assert.equal(three.worst!.activeLanes, 32);
  assert.equal(accessAt(result, text, 'default: grid_a[threadIdx.x] = 0.f; break;', 'store').status, 'unknown');
  const after = accessAt(result, text, 'grid_b[threadIdx.x + 32 * pass] = out[pass];', 'store');
  assert.equal(after.status, 'conflict-free');
  assert.equal(after.worst!.activeLanes, 32);
  assert.ok(!after.assumptions.some((a) => a.includes('cases of the switch')));
  // `mode` not known: every case for every lane, said so; the code after the switch still runs in both passes
  const d = accessAt(result, text, 'default: grid_c[2 * threadIdx.x] = 2.f; break;', 'store');
  assert.equal(d.degree, 2);
  assert.ok(d.assumptions.includes('the cases of the switch at line 131 are each assumed to run for every lane'));
  for (const kind of ['load', 'store'] as const) {
    const a = accessAt(result, text, 'grid_c[threadIdx.x + 32 * pass] += out[pass];', kind);
    assert.equal(a.status, 'conflict-free');
    assert.equal(a.worst!.activeLanes, 32);
  }
});

test('a type deduced through host templates called without template arguments, and a block from `case N:` of `switch (block.y)`', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // T = short from `tiles_main` through `tiles_run(in, out, rows)` and `tiles_launch(in, out, rows)`; block 32x4 and 32x8
  const st = accessAt(result, text, 'cells16[threadIdx.y + r][threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.elementBytes, 2);
  assert.equal(st.worst!.distinctWords, 16);
  const ld = accessAt(result, text, 'out[threadIdx.x] = cells16[threadIdx.x][threadIdx.y];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.deepEqual(ld.block, [32, 4, 1]);
  assert.ok(ld.assumptions.some((a) => a.startsWith('block 32x4x1 from the launch at line 153 (inside `case 4:` of `switch (block.y)` at line 153) in `tiles_launch(...)` (the call at line 160 in `tiles_run(...)` (the call at line 164))')), ld.assumptions.join(' | '));
});

test('a launcher that is a function template its call binds no type for still takes the block size from the call', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const q = accessAt(result, text, 'quarter[threadIdx.x * (blockDim.x / 64)] = out[threadIdx.x];', 'store');
  assert.deepEqual(q.block, [256, 1, 1]);
  assert.equal(q.degree, 4);
  assert.equal(q.wavefronts, 4);
  assert.ok(q.assumptions.includes('block 256x1x1 from the launch at line 176 in `launch_typed` (the call at line 180)'), q.assumptions.join(' | '));
});

test('a launcher called more times than are read takes the first 16 calls, and says so', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // a = 1..4 with b = 1..4 are read: at most 512 threads, 16-way; (a, b) = (4, 8) would give 1024 threads, 32-way
  const w = accessAt(result, text, 'wide[threadIdx.x * (blockDim.x / 32)] = out[threadIdx.x];', 'store');
  assert.equal(w.degree, 16);
  assert.deepEqual(w.block, [512, 1, 1]);
  assert.ok(w.assumptions.some((a) => a.endsWith('; only the first 16 calls are read)')), w.assumptions.join(' | '));
});

test('a product with one value in each warp (`warp * n`, `threadIdx.y * n` in a block 32 wide) is an offset of that warp', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'for (int i = lane; i < n; i += 32) mine[i] = in[i];', 'store', 'mine');
  assert.equal(st.status, 'conflict-free');
  assert.deepEqual(st.block, [128, 1, 1]);
  const ld = accessAt(result, text, 'float acc = mine[2 * lane];', 'load');
  assert.equal(ld.degree, 2);
  assert.equal(ld.wavefronts, 2);
  assert.ok(ld.assumptions.includes('`4 * (warp * n)` adds the same offset to every lane; it does not change the degree (bank model rule 6)'));
  assert.equal(accessAt(result, text, 'row[threadIdx.x * 4] = acc;', 'store').degree, 4);
  // block 16x4: two rows in each warp, `n` apart: the degree depends on `n`
  const half = accessAt(result, text, 'row[threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(half.status, 'unknown');
  assert.equal(half.reason, '`threadIdx.y * n` combines the unknown warp-uniform value `n` with per-lane values');
});

test('a launch under `case V:` of a switch whose subject is known to hold another value makes no instance', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // `int threads = 128;`: `case 256:` never launches `picked<256>` (an 8-way instance that does not exist)
  const p = accessAt(result, text, 'picks[threadIdx.x * (N / 32)] = out[threadIdx.x];', 'store');
  assert.equal(p.degree, 4);
  assert.deepEqual(p.block, [128, 1, 1]);
  assert.equal(p.cases.length, 0);
  // `pick_by` is only called as `pick_by(out, 64)`: its `case 512:` launch never runs
  const q = accessAt(result, text, 'picks2[threadIdx.x * (blockDim.x / 32)] = out[threadIdx.x];', 'store');
  assert.equal(q.degree, 2);
  assert.deepEqual(q.block, [64, 1, 1]);
  assert.equal(q.cases.length, 0);
});
