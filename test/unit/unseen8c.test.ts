// Regressions from the eighth sweep of unseen kernels, helper C (public CUDA GEMM kernels: XOR swizzles, ldmatrix,
// cp.async, statement macros): figures from a brute-force oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen8c.cu';

test('same-arity overloads are told apart by the class of their arguments (`fetch(OperandA&, p)` / `fetch(OperandB&, p)`)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // the A operand: 16 rows 144 bytes apart, two 16-byte columns: each quarter-warp in distinct 16-byte bank groups
  const a = accessAt(result, text, '"=r"(op.r[0]), "=r"(op.r[1]), "=r"(op.r[2]), "=r"(op.r[3]) : "r"(a));', 'load');
  assert.equal(a.sharedArray, 'panel_a');
  assert.equal(a.status, 'conflict-free');
  assert.equal(a.wavefronts, 4);
  assert.equal(a.worst!.activeLanes, 32);
  // the B operand (an element of a local array of OperandB): lanes 0-15 give rows 128 bytes apart, 8-way in each phase
  const b = accessAt(result, text, '"=r"(op.r[0]), "=r"(op.r[1]) : "r"(a));', 'load');
  assert.equal(b.sharedArray, 'panel_b');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 8);
  assert.equal(b.wavefronts, 16);
  assert.equal(b.idealWavefronts, 2);
  assert.equal(b.worst!.activeLanes, 16);
  assert.equal(b.worst!.banksUsed, 4);
});

test('a static member function of a class template, reached through a type parameter or an alias, sees the instance\'s parameters', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // XorMap<BITS, 4, 3> over rows 128 bytes apart: BITS = 3 spreads a quarter-warp over 8 groups, BITS = 1 over 2
  const put = accessAt(result, text, 'rows[Map::apply(byte) / 16] = make_float4', 'store');
  assert.equal(put.status, 'conflict');
  assert.equal(put.degree, 4);
  assert.equal(put.wavefronts, 16);
  const byBits = new Map(put.cases.map((c) => [c.context.BITS, c.degree]));
  assert.equal(byBits.get(3), 1);
  assert.equal(byBits.get(1), 4);
  const plain = accessAt(result, text, 'rows[byte / 16] = make_float4', 'store');
  assert.equal(plain.degree, 8);
  assert.equal(plain.wavefronts, 32);
  const spelled = accessAt(result, text, 'rows[XorMap<3, 4, 3>::apply(byte) / 16].y = 2.f;', 'store');
  assert.equal(spelled.degree, 4);
  assert.equal(spelled.wavefronts, 4);
  assert.equal(spelled.worst!.banksUsed, 8);
  const x = accessAt(result, text, 'out[threadIdx.x] = rows[Map::apply(byte) / 16].x;', 'load');
  assert.equal(x.degree, 16);
  assert.equal(x.wavefronts, 16);
  assert.equal(x.worst!.banksUsed, 2);
  assert.deepEqual(new Map(x.cases.map((c) => [c.context.BITS, c.degree])), new Map([[3, 4], [1, 16]]));
});

test('a function-like macro whose expansion is a block runs where it is used; each of its accesses is a site there', () => {
  const { text, result } = analyzeFile(FIXTURE);
  for (const use of ['STAGE_ROWS(0)', 'STAGE_ROWS(2)']) {
    const line = lineOf(text, use, lineOf(text, '__global__ void statement_macros'));
    const here = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'store');
    assert.equal(here.length, 2);
    const wide = here.find((a) => a.sharedArray === 'wide')!;
    assert.equal(wide.status, 'conflict');
    assert.equal(wide.degree, 2);
    assert.equal(wide.wavefronts, 2);
    assert.equal(wide.worst!.banksUsed, 16);
    const narrow = here.find((a) => a.sharedArray === 'narrow')!;
    assert.equal(narrow.status, 'conflict-free');
    assert.equal(narrow.wavefronts, 1);
    // the loop of the expansion is run, one context per iteration
    assert.ok(narrow.assumptions.includes('2 contexts evaluated (loop iterations, instances, calls and pieces of a copy); the figures are those of the worst'));
    assert.ok(!narrow.assumptions.some((s) => /trip count/.test(s)));
  }
});

test('an `ldmatrix` with no state space takes its generic address, here a macro that names a shared row', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const m = accessAt(result, text, '"l"(ROW_OF(lane % 8))', 'load');
  assert.equal(m.sharedArray, 'rows8');
  assert.equal(m.status, 'conflict');
  assert.equal(m.degree, 8);
  assert.equal(m.wavefronts, 8);
  assert.equal(m.idealWavefronts, 1);
  assert.equal(m.worst!.activeLanes, 8);
});

test('two loads of one statement macro, each through a macro naming its own array, are two sites with their own figures', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = lineOf(text, 'PULL(1, 1)', lineOf(text, '__global__ void nested_macros'));
  const here = result.accesses.filter((a) => a.range.start.line === line && a.kind === 'load');
  assert.equal(here.length, 2);
  const front = here.find((a) => a.sharedArray === 'front')!;
  assert.equal(front.status, 'conflict-free');
  assert.equal(front.wavefronts, 1);
  const back = here.find((a) => a.sharedArray === 'back')!;
  assert.equal(back.status, 'conflict');
  assert.equal(back.degree, 2);
  assert.equal(back.wavefronts, 2);
  assert.equal(back.worst!.banksUsed, 16);
});

test('a pointer a loop of unknown trip count moves is still an access of its array: stepped, exact; flipped, unknown', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const step = accessAt(result, text, 'row[0] = 1.f;', 'store');
  assert.equal(step.sharedArray, 'ring');
  assert.equal(step.status, 'conflict');
  assert.equal(step.degree, 2);
  assert.equal(step.wavefronts, 2);
  assert.ok(step.assumptions.some((s) => s.includes('adds the same offset to every lane')));
  const flip = accessAt(result, text, 'asm volatile("st.shared.f32 [%0], %1;\\n" : : "r"(addr), "f"(v));', 'store');
  assert.equal(flip.sharedArray, 'ring');
  assert.equal(flip.status, 'unknown');
  assert.equal(flip.reason, `\`slot\` is changed by the loop at line ${lineOf(text, 'for (int s = 0; s < steps; ++s) {') + 1}, whose trip count is unknown`);
});

test('a buffer index flipped under a guard the same on every thread stays warp-uniform; under a per-lane guard, not', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows of 34 words: a column is read at stride 34, 2-way
  const st = accessAt(result, text, 'stage[cur][threadIdx.x][0] = 1.f;', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.equal(st.worst!.banksUsed, 16);
  const ld = accessAt(result, text, 'out[threadIdx.x] = stage[cur][0][threadIdx.x];', 'load');
  assert.equal(ld.status, 'conflict-free');
  const sp = accessAt(result, text, 'spare[pos][threadIdx.x][0] = 1.f;', 'store');
  assert.equal(sp.status, 'unknown');
  assert.equal(sp.reason, `\`pos\` takes different values on different lanes in the loop at line ${lineOf(text, 'for (int t = 0; t < k; t += 32) {') + 1}, whose trip count is unknown`);
});

test('a launch inside a static member function of a class template is read once per instance the host code names', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = accessAt(result, text, 'tile[threadIdx.x][0] = 1.f;', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 32);
  assert.equal(st.wavefronts, 32);
  assert.deepEqual(st.block, [64, 1, 1]);
  assert.deepEqual(new Map(st.cases.map((c) => [c.context.PAD, c.degree])), new Map([[0, 32], [1, 1]]));
  assert.ok(st.assumptions.some((s) => /^block 64x1x1 from the launch at line \d+ in `PaddedLauncher<0, 2>` \(at line \d+\)$/.test(s)), st.assumptions.join(' | '));
});

test('an offset named by an expression is parenthesised in the messages; a callee\'s `return` is no exit of the guard around the call', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const ring = accessAt(result, text, 'for (int it = 0; it < n; ++it) ring[it % 3][threadIdx.x][1] = 1.f;', 'store');
  assert.equal(ring.status, 'conflict-free');
  assert.ok(ring.assumptions.includes('`4224 * (it % 3)` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), ring.assumptions.join(' | '));
  const twice = accessAt(result, text, 'if (n > 3) ring[0][0][twice_of(threadIdx.x)] = 2.f;', 'store');
  assert.equal(twice.degree, 2);
  const after = accessAt(result, text, 'out[threadIdx.x] = ring[0][0][threadIdx.x];', 'load');
  assert.equal(after.status, 'conflict-free');
  assert.ok(!after.assumptions.some((s) => s.includes('`return`')), after.assumptions.join(' | '));
});

test('an object-like macro that names locals is evaluated where it is used, each time (it was cached from its first use)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // step 1, 2, 4: the worst is stride 4, 4-way
  const sp = accessAt(result, text, 'for (int step = 1; step <= 4; step *= 2) cells[SPREAD] = 1.f;', 'store');
  assert.equal(sp.status, 'conflict');
  assert.equal(sp.degree, 4);
  assert.equal(sp.wavefronts, 4);
  assert.equal(sp.worst!.banksUsed, 8);
  assert.deepEqual(new Map(sp.cases.map((c) => [c.context.step, c.degree])), new Map([[1, 1], [2, 2], [4, 4]]));
  // rows 256 bytes apart: the 8 row addresses of the matrix in one bank group
  const m = accessAt(result, text, '"l"(PANEL + (threadIdx.x % 8) * 128)', 'load');
  assert.equal(m.sharedArray, 'panel');
  assert.equal(m.degree, 8);
  assert.equal(m.wavefronts, 8);
  assert.equal(m.idealWavefronts, 1);
});

test('a block shape passed to a launch helper as a `dim3` parameter is the one every call of the helper passes', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // a 16x16 block: a warp holds two values of threadIdx.y; words 16 * x + y fall in 4 banks, 8 each (32 threads
  // in one row, the default shape, would give 16-way)
  const st = accessAt(result, text, 'frame[threadIdx.x][threadIdx.y] = 1.f;', 'store');
  assert.deepEqual(st.block, [16, 16, 1]);
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 8);
  assert.equal(st.wavefronts, 8);
  // the launch in the helper, read with the values a call of it passes
  assert.ok(st.assumptions.some((a) => a.startsWith(`block 16x16x1 from the launch at line ${lineOf(text, 'framed_tile<<<grid, block>>>(out);') + 1} in \`run_framed\` (the call at line `)), st.assumptions.join(' | '));
});

test('a pointer a loop of unknown trip count reassigns (`q = q + 64`) is stepped when the pass finds the same step on every lane', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const q = accessAt(result, text, 'q[0] = 1.f;', 'store');
  assert.equal(q.sharedArray, 'band');
  assert.equal(q.status, 'conflict');
  assert.equal(q.degree, 4);
  assert.equal(q.wavefronts, 4);
  assert.equal(q.worst!.banksUsed, 8);
  const r = accessAt(result, text, 'r[0] = 2.f;', 'store');
  assert.equal(r.sharedArray, 'band');
  assert.equal(r.status, 'unknown');
  assert.equal(r.reason, `\`r\` is changed by the loop at line ${lineOf(text, 'for (int s = 0; s < steps; ++s) {', lineOf(text, 'reassigned_pointers')) + 1}, whose trip count is unknown`);
});
