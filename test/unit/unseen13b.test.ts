// Regressions from the thirteenth sweep of unseen kernels, helper B (sparse linear algebra and graph analytics:
// cuDPP's CR, PCR and CR-PCR tridiagonal solvers, CSR-vector SpMV, cusp, scans for stream compaction): a loop whose
// trip count is a CUDA math function of known numbers (`(int)log2(T(n / 2))` with T a template's type,
// `ceilf(len / 32.0f)`, `rint(log2((float)n))`) was run once symbolically, so the stride it doubles was unknown.
// Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen13b.cu';

test('cyclic reduction counted by `(int)log2(T(n / 2))` with T = float: each level enumerated (was: unknown, the stride unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 64, n = 128, levels = log2(64) = 6, three levels: stride 2 (64 lanes, words 2t+1: 2-way), 4 (32 lanes,
  // words 4t+3: 4-way), 8 (16 lanes, words 8t+7: 4 words in each of 4 banks, 4-way); the worst has 32 lanes
  for (const [expr, kind] of [['a[i]', 'load'], ['b[i - half]', 'load']] as const) {
    const a = accessAt(result, text, 'const T k = a[i] / b[i - half];', kind, expr);
    figures(a, 'conflict', 4, 4, 32, 32);
    assert.deepEqual(a.block, [64, 1, 1]);
    assert.deepEqual(a.cases!.map((c) => [c.context.j, c.degree]), [[0, 2], [1, 4], [2, 4]]);
  }
  const s = accessAt(result, text, 'b[i] = b[i] - k * b[i - half];', 'store');
  figures(s, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(s.cases!.map((c) => [c.context.j, c.degree]), [[0, 2], [1, 4], [2, 4]]);
  assert.ok(!result.accesses.some((a) => a.kernel === 'cr_forward' && a.status === 'unknown'),
    result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('log2 of a number that is not a power of two gives no value: its truncation is not known (not a guessed trip count)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = accessAt(result, text, 's[stride * t] = x_g[t];', 'store');
  assert.equal(a.status, 'unknown');
  assert.equal(a.degree, null);
  assert.ok(a.assumptions.some((m) => /log2\(T\(48\)\)` is exact only for a power of two/.test(m)), a.assumptions.join('\n'));
});

test('a CSR row run of `(int)ceilf(ROW_NNZ / 32.0f)` words per lane: stride 4, 4-way (was: unknown, `the result of ceilf(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // span = ceil(100 / 32) = 4: words 4 * lane + p, 8 banks with 4 words each, in each of the 4 passes
  figures(accessAt(result, text, 'run[lane * span + p] = val[', 'store'), 'conflict', 4, 4, 32, 32);
  figures(accessAt(result, text, 'sum += run[lane * span + p];', 'load'), 'conflict', 4, 4, 32, 32);
});

test('PCR counted by `rint(log2((float)PCR_SYS))`: the neighbour read is guarded per level, lanes 0..delta-1 idle (was: every lane assumed active)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // five levels, delta 1..16: lanes delta..31 read words t - delta; the most lanes is 31, at delta 1
  const n = accessAt(result, text, 'v -= d[i - delta];', 'load');
  figures(n, 'conflict-free', 1, 1, 31, 31);
  assert.ok(!n.assumptions.some((m) => /trip count that cannot be computed/.test(m)), n.assumptions.join('\n'));
  figures(accessAt(result, text, 'float v = d[i];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('a warp-aggregated atomicAdd broadcast by __shfl_sync from the leader is one value per warp (was: unknown, `the result of __shfl_sync(...)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lane 5 pushes nothing; the others push at words 2 * (base + rank), rank 0..30: 31 words, two in each of 15 banks
  for (const snippet of ['s_pairs[2 * (base + rank)] = v;', 's_pairs[2 * (base + rank) + 1] = blockIdx.x;']) {
    const a = accessAt(result, text, snippet, 'store');
    figures(a, 'conflict', 2, 2, 31, 31);
    assert.deepEqual(a.block, [256, 1, 1]);
  }
  figures(accessAt(result, text, 'base = atomicAdd(&s_tail, __popc(ballot));', 'atomic'), 'conflict-free', 1, 1, 1, 1);
});

test('shuffles of a width below 32 move lane indices by the Programming Guide\'s rules (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // __shfl_up_sync(.., lane, 4, 16): lanes 0..3 of each 16 keep their lane, the others read lane - 4: 24 rows, 2-way
  figures(accessAt(result, text, 'float a = s[up * 2];', 'load'), 'conflict', 2, 2, 24, 32);
  // __shfl_sync(.., lane, 3, 8): lane 3 of each group of 8, rows 3, 11, 19, 27 at 8 words: bank 24 four times
  figures(accessAt(result, text, 'float b = s[pick * 8];', 'load'), 'conflict', 4, 4, 4, 32);
  // a lane that reads a lane not taking part reads an undefined value: no figure, said so
  const far = accessAt(result, text, 'g[32 + lane] = s[far];', 'load');
  assert.equal(far.status, 'unknown');
  assert.match(far.reason ?? '', /reads a lane that is not active/);
});

test('a launcher called `csr_vector<2>(exec, A, y)` whose other template parameters are deduced from arguments of types not in the file is still read with LANES = 2 and 8 (was: unknown, `LANES` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // partial[lane][vec], words lane * VECTORS + vec: LANES 2 (VECTORS 64) 2-way, LANES 8 (VECTORS 16) 4-way
  const p = accessAt(result, text, 'partial[lane][vec] = sum;', 'store');
  figures(p, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(p.cases!.map((c) => [c.context.LANES, c.degree]).sort(), [[2, 2], [8, 4]]);
  assert.ok(p.assumptions.some((m) => /csr_vector<8>/.test(m)), p.assumptions.join('\n'));
  // ptrs[vec][lane] under lane < 2: every lane at LANES 2 (words t), 8 lanes at LANES 8
  figures(accessAt(result, text, 'ptrs[vec][lane] = Ap[row + lane];', 'store'), 'conflict-free', 1, 1, 32, 32);
  // partial[k][vec] by the lanes with lane == 0: 16 of them at LANES 2, consecutive words
  figures(accessAt(result, text, 'total += partial[k][vec];', 'load'), 'conflict-free', 1, 1, 16, 16);
  assert.equal(accessAt(result, text, 'for (int jj = ptrs[vec][0] + lane; jj < ptrs[vec][1]; jj += LANES)', 'load', 'ptrs[vec][0]').status, 'conflict-free');
});
