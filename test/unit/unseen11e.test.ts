// Regressions from the eleventh sweep of unseen kernels, helper E (scientific and sparse codes: LAMMPS's GPU package,
// OpenMM, GROMACS, HOOMD-blue, CUSP): qualifiers spelled through macros (LAMMPS's `__kernel` / `__local`), a halo
// store under a guard on a parameter, a per-warp row from a remainder, warp votes, statement macros without braces,
// and a warp's cursor reset in one inner loop and stepped in another (OpenMM's skipTiles). Figures from a brute-force
// lane oracle of the bank model (scratch/unseen11e/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen11e.cu';

test('a kernel and a __shared__ array spelled through macros (`ENTRY`, `SMEM`, an empty `GMEM`) are analysed (was: 0 accesses)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  assert.ok(!result.notices.some((n) => /is not closed/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  const s = accessAt(result, text, 'tile[ty][tx] = in[ty * 16 + tx];', 'store');
  assert.equal(s.kernel, 'columns_read');
  assert.equal(s.sharedArray, 'tile');
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.degree, 1);
  assert.equal(s.wavefronts, 1);
  assert.equal(s.worst!.distinctWords, 32);
  assert.deepEqual(s.block, [16, 16, 1]);
  // a 16x16 block puts two rows of ty in a warp: words 16 * tx + ty, eight of them in each of banks 0, 1, 16, 17
  const l = accessAt(result, text, 'out[ty * 16 + tx] = tile[tx][ty];', 'load');
  assert.equal(l.status, 'conflict');
  assert.equal(l.degree, 8);
  assert.equal(l.wavefronts, 8);
  assert.equal(l.worst!.distinctWords, 32);
  assert.equal(l.worst!.activeLanes, 32);
  assert.ok(l.assumptions.some((a) => /block 16x16x1 from the launch at line \d+/.test(a)), l.assumptions.join('\n'));
});

test('qualifier macros given from outside (-D __kernel=..., __local=__shared__, __global=) make an OpenCL-style kernel CUDA', () => {
  const src = [
    '__kernel void k_sum(__global float *out, const __global float *in) {',
    '  __local float s[128];',
    '  __local float red[4][64];',
    '  int t = threadIdx.x;',
    '  s[t * 2] = in[t];',
    '  red[2][t] = in[t];',
    '  __syncthreads();',
    '  out[t] = s[t] + red[2][t];',
    '}',
    '',
  ].join('\n');
  const defines = { __kernel: 'extern "C" __global__', __local: '__shared__', __global: '' };
  const before = analyzeText(src, { budgetMs: 60_000, block: [64, 1, 1] });
  assert.equal(before.accesses.length, 0);
  const r = analyzeText(src, { budgetMs: 60_000, block: [64, 1, 1], defines });
  const line = (snippet: string) => src.split('\n').findIndex((l) => l.includes(snippet));
  const st = r.accesses.filter((a) => a.range.start.line === line('s[t * 2] = in[t];'));
  assert.equal(st.length, 1);
  assert.equal(st[0].kind, 'store');
  assert.equal(st[0].degree, 2);
  assert.equal(st[0].wavefronts, 2);
  assert.equal(st[0].worst!.distinctWords, 32);
  const rd = r.accesses.filter((a) => a.range.start.line === line('red[2][t] = in[t];'));
  assert.equal(rd.length, 1);
  assert.equal(rd[0].status, 'conflict-free');
  assert.equal(rd[0].worst!.distinctWords, 32);
  assert.equal(r.accesses.length, 4);
});

test('an index past the extent on lanes a guard on a parameter may stop is no out-of-bounds error (was: error for lane 8)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'if (fid < order) rows[pid][32 + fid] = 0.0f;', 'store');
  assert.equal(a.kernel, 'halo_guard');
  assert.equal(a.outOfBounds, undefined);
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 1);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  assert.ok(a.assumptions.some((s) => /the guard `fid < order` at line \d+ could not be evaluated per lane/.test(s)), a.assumptions.join('\n'));
  const l = accessAt(result, text, 'out[threadIdx.x] = rows[pid][fid + 3];', 'load');
  assert.equal(l.degree, 1);
  assert.equal(l.worst!.distinctWords, 32);
});

test('a remainder of the block and warp index (`(blockIdx.x * 4 + warp) % nrows`) is one unknown per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'out[blockIdx.x * 128 + threadIdx.x] = tab[row * 64 + lane * 2];', 'load');
  assert.equal(a.kernel, 'pencil_rows');
  assert.equal(a.status, 'conflict');
  assert.equal(a.degree, 2);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
});

test('warp votes: a ballot of a per-lane predicate is exact; of a loaded value, one unknown per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // __popc(__ballot_sync(~0u, lane < 8)) = 8: words 8 * lane, eight in each of banks 0, 8, 16, 24
  const a = accessAt(result, text, 'bins[lane * stride] = lane;', 'store');
  assert.equal(a.kernel, 'vote_counts');
  assert.equal(a.degree, 8);
  assert.equal(a.wavefronts, 8);
  assert.equal(a.worst!.distinctWords, 32);
  assert.deepEqual(a.block, [64, 1, 1]);
  const b = accessAt(result, text, 'bins[n + lane * 3] = v;', 'store');
  assert.equal(b.status, 'conflict-free');
  assert.equal(b.degree, 1);
  assert.equal(b.worst!.distinctWords, 32);
  // __popc(__activemask()) under `lane < 16` = 16: words 16 * lane + 1, eight in each of banks 1 and 17
  const c = accessAt(result, text, 'bins[lane * active + 1] = v;', 'store');
  assert.equal(c.degree, 8);
  assert.equal(c.wavefronts, 8);
  assert.equal(c.worst!.distinctWords, 16);
  assert.equal(c.worst!.activeLanes, 16);
  const d = accessAt(result, text, 'if (__any_sync(0xffffffffu, v < 0)) bins[lane + 256] = 0;', 'store');
  assert.equal(d.status, 'conflict-free');
  assert.equal(d.worst!.activeLanes, 32);
  // `threadIdx.x < 40` over a block of 64: warp 0 has 32 bits, warp 1 has 8, so only warp 0 passes `> 10`; the guard
  // is decided per warp (over the whole block: warp mode cannot give the predicate per lane)
  const e = accessAt(result, text, 'if (__popc(lowWarp) > 10) bins[lane * 2 + 320] = v;', 'store');
  assert.equal(e.degree, 2);
  assert.equal(e.wavefronts, 2);
  assert.equal(e.worst!.distinctWords, 32);
  assert.equal(e.worst!.activeLanes, 32);
  assert.ok(!e.assumptions.some((s) => /could not be evaluated/.test(s)), e.assumptions.join('\n'));
});

test('statement macros without braces run their assignments: `LANE_SETUP(tid, part, 4);` and a bare `COL_SETUP` (was: unknown, 0 accesses)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const s = accessAt(result, text, 'red[part][tid] = in[tid];', 'store');
  assert.equal(s.kernel, 'split_rows');
  assert.equal(s.status, 'conflict-free');
  assert.equal(s.worst!.distinctWords, 32);
  assert.deepEqual(s.block, [128, 1, 1]);
  const a = accessAt(result, text, 'out[tid] = red[0][part * 32] + red[1][col * 16];', 'load', 'red[0]');
  assert.equal(a.degree, 4);
  assert.equal(a.wavefronts, 4);
  assert.equal(a.worst!.distinctWords, 4);
  assert.equal(a.worst!.activeLanes, 32);
  const b = accessAt(result, text, 'out[tid] = red[0][part * 32] + red[1][col * 16];', 'load', 'red[1]');
  assert.equal(b.degree, 4);
  assert.equal(b.wavefronts, 4);
  assert.equal(b.worst!.distinctWords, 8);
});

test('a warp cursor reset to its base in one inner loop and stepped in another is its base plus one unknown per warp (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 'while (marks[cursor] < pos)', 'load');
  assert.equal(a.kernel, 'skip_scan');
  assert.equal(a.status, 'broadcast');
  assert.equal(a.degree, 1);
  assert.equal(a.wavefronts, 2);
  assert.equal(a.worst!.distinctWords, 2);
  assert.equal(a.worst!.activeLanes, 32);
  assert.deepEqual(a.block, [128, 1, 1]);
  assert.ok(a.assumptions.some((s) => /`cursor` treated as its value before the loop plus an unknown warp-uniform amount/.test(s)), a.assumptions.join('\n'));
  const b = accessAt(result, text, 'out[pos * 32 + lane] = marks[cursor];', 'load');
  assert.equal(b.status, 'broadcast');
  assert.equal(b.wavefronts, 2);
});
