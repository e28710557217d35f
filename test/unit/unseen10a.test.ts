// Regressions from the tenth sweep of unseen kernels, helper A (SGEMM and transpose tutorials: siboehm's SGEMM_CUDA,
// Lei Mao's transpose and GEMM, header macros as in ZhangGe6's and wangzyon's): figures from a brute-force lane
// oracle of docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ready, analyzeFile, accessAt, lineOf, ROOT } from './helpers/engine';
import { analyzeText, AnalyzeOptions } from '../../server/engine';
import { parseDefine } from '../../server/engine/syntax/preprocess';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen10a.cu';
const AS_VEC4 = { 'AS_VEC4(x)': '(reinterpret_cast<float4 *>(&(x))[0])' };

/** The fixture as the analysis sees a kernel whose `AS_VEC4` is in a header: its `#define` line blanked. */
function headerless(options: AnalyzeOptions = {}): ReturnType<typeof analyzeFile> {
  const text = fs.readFileSync(path.join(ROOT, FIXTURE), 'utf8');
  const blank = text.replace(/^#define AS_VEC4.*$/m, (line) => ' '.repeat(line.length));
  assert.notEqual(blank, text);
  return { text: blank, result: analyzeText(blank, { budgetMs: 60_000, ...options }) };
}

test('a launcher template that only a harness names by address (`&runColumns<double>`) binds the kernel\'s T', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // was unknown: the size of `T` is not known
  const st = accessAt(result, text, 'grid[threadIdx.y][threadIdx.x] = in[', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 2);
  assert.equal(st.idealWavefronts, 2);
  assert.equal(st.elementBytes, 8);
  assert.equal(st.worst!.distinctWords, 64);
  assert.deepEqual(st.block, [32, 8, 1]);
  // a column of 32 doubles: 16 lanes of a half-warp on one pair of banks, in each of the two phases
  const ld = accessAt(result, text, '= grid[threadIdx.x][threadIdx.y];', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 16);
  assert.equal(ld.wavefronts, 32);
  assert.equal(ld.worst!.distinctWords, 64);
  assert.equal(ld.worst!.activeLanes, 32);
  assert.deepEqual(ld.block, [32, 8, 1]);
  const launch = lineOf(text, 'columns<T, PAD><<<') + 1, ref = lineOf(text, 'checkAll<double>(&runColumns<double>') + 1;
  assert.ok(ld.assumptions.includes(`block 32x8x1 from the launch at line ${launch} in \`runColumns<double>\` (the reference at line ${ref})`), ld.assumptions.join('\n'));
});

test('`cuda::aligned_size_t<sizeof(float)>` is a constant alignment: one 4-byte cp.async a lane, not unknown', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // rows[(t % 8) * 64 + t / 8]: 8 rows 64 words apart share each bank, 4 lanes a row
  const st = accessAt(result, text, 'cuda::memcpy_async(&rows[r * COLS + c]', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 8);
  assert.equal(st.wavefronts, 8);
  assert.equal(st.elementBytes, 4);
  assert.equal(st.worst!.distinctWords, 32);
  assert.deepEqual(st.block, [128, 1, 1]);
  assert.ok(st.assumptions.some((a) => a.startsWith('a cp.async write')), st.assumptions.join('\n'));
});

test('the barrier an async copy completes on is not loaded: a shared `cuda::barrier` there is an unknown atomic', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const line = text.split('\n').findIndex((l) => l.includes('cuda::memcpy_async(&rows[r * COLS + c]'));
  const onBarrier = result.accesses.filter((a) => a.range.start.line === line && a.array === 'ready');
  // was a load whose figures were unknown for want of the barrier's size
  assert.deepEqual(onBarrier.map((a) => [a.kind, a.status]), [['atomic', 'unknown']]);
  assert.equal(onBarrier[0].reason, '`cuda::memcpy_async` signals its completion on `ready`, an object of type `barrier<cuda::thread_scope_block>` in shared memory: what it reads or writes there is not known');
  assert.ok(!result.accesses.some((a) => a.array === 'ready' && a.kind === 'load'));
});

test('a header\'s macro assigned to (`AS_VEC4(panel[r][c]) = ...`) makes its shared arguments unknown, not 4-byte loads', () => {
  const { text, result } = headerless();
  // were: a 4-way 4-byte load at the store, and a 16-way 4-byte load where the code loads float4s (8-way, 32 wavefronts)
  const st = accessAt(result, text, 'AS_VEC4(panel[r][c]) =', 'store');
  assert.equal(st.status, 'unknown');
  assert.equal(st.degree, null);
  const at = lineOf(text, 'AS_VEC4(panel[r][c]) =') + 1;
  assert.equal(st.reason, `\`AS_VEC4(...)\` is not defined in this file and is assigned to at line ${at} (a macro from a header, or a function that returns a reference): how it reads or writes \`panel[r][c]\` is not known`);
  assert.ok(!result.accesses.some((a) => a.range.start.line === st.range.start.line && a.array === 'panel' && a.kind === 'load'));
  const ld = accessAt(result, text, '= AS_VEC4(panel[threadIdx.x % 16]', 'load');
  assert.equal(ld.status, 'unknown');
  assert.equal(ld.degree, null);
  // a plain read of the same array is analysed as before
  const col = accessAt(result, text, 'out[1024 + threadIdx.x] = panel[', 'load');
  assert.equal(col.status, 'conflict');
  assert.equal(col.degree, 16);
  assert.equal(col.wavefronts, 16);
  assert.equal(col.worst!.distinctWords, 32);
});

test('-D takes a function-like macro (`AS_VEC4(x)=...`): the float4 copies through it are analysed', () => {
  assert.deepEqual(parseDefine('OFFSET(row, col, ld)=((row)*(ld)+(col))'), ['OFFSET(row,col,ld)', '((row)*(ld)+(col))']);
  assert.deepEqual(parseDefine('W=32'), ['W', '32']);
  assert.equal(parseDefine('F(1)=2'), null);
  const { text, result } = headerless({ defines: AS_VEC4 });
  const st = accessAt(result, text, 'AS_VEC4(panel[r][c]) =', 'store');
  assert.equal(st.status, 'conflict-free');
  assert.equal(st.degree, 1);
  assert.equal(st.wavefronts, 4);
  assert.equal(st.idealWavefronts, 4);
  assert.equal(st.elementBytes, 16);
  assert.equal(st.worst!.distinctWords, 128);
  const ld = accessAt(result, text, '= AS_VEC4(panel[threadIdx.x % 16]', 'load');
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 8);
  assert.equal(ld.wavefronts, 32);
  assert.equal(ld.elementBytes, 16);
  assert.equal(ld.worst!.distinctWords, 128);
  assert.deepEqual(ld.block, [256, 1, 1]);
});

test('a header\'s macro named in capitals and only read (`float4 v = AS_VEC4(strip[4 * t])`) is no 4-byte load either', () => {
  const { text, result } = headerless();
  // was a 4-byte load at stride 4 words: 4-way; the code reads float4s, 16 bytes a lane, conflict-free
  const ld = accessAt(result, text, 'float4 v = AS_VEC4(strip[', 'load');
  assert.equal(ld.status, 'unknown');
  assert.equal(ld.degree, null);
  assert.equal(ld.reason, '`AS_VEC4(...)` is not defined in this file and is named in capitals, as a macro from a header is (give it with -D to analyse it): how it reads or writes `strip[threadIdx.x * 4]` is not known');
  const given = headerless({ defines: AS_VEC4 });
  const v = accessAt(given.result, given.text, 'float4 v = AS_VEC4(strip[', 'load');
  assert.equal(v.status, 'conflict-free');
  assert.equal(v.degree, 1);
  assert.equal(v.wavefronts, 4);
  assert.equal(v.elementBytes, 16);
  assert.equal(v.worst!.distinctWords, 128);
  assert.deepEqual(v.block, [256, 1, 1]);
});

test('statement macros of the file: a use without its `;` and the statement after it are analysed, and each statement of an expansion', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // both were missing: `LOAD_PAIR(v, &in[...])` on its own line swallowed the next line, and SPLIT's two statements
  // were dropped whole. (p)[0] and (p)[1] at 4 words a lane: 4-way each
  const st = accessAt(result, text, 'SPLIT(v, &buf[threadIdx.x * 4])', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 4);
  assert.equal(st.wavefronts, 4);
  assert.equal(st.worst!.distinctWords, 32);
  assert.deepEqual(st.block, [32, 1, 1]);
  // float2 at 8 bytes a lane: 2 wavefronts, the ideal
  const ld = accessAt(result, text, 'LOAD_PAIR(v, &buf[threadIdx.x * 2])', 'load');
  assert.equal(ld.status, 'conflict-free');
  assert.equal(ld.degree, 1);
  assert.equal(ld.wavefronts, 2);
  assert.equal(ld.elementBytes, 8);
  assert.equal(ld.worst!.distinctWords, 64);
  assert.deepEqual(result.notices.filter((n) => /syntax error/.test(n.message)), []);
});
