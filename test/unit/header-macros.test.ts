// Loop and `if` headers written as function-like macros, heading one statement without braces
// (test/fixtures/header-macros.cu). Figures worked out lane by lane: a float row of 33 words puts lane t's word j in
// bank (t + j) % 32 (conflict-free); a stride of S words over 32 lanes uses 32 / S banks, S lanes each (S-way).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText, AccessFinding, FileAnalysis } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, lineOf } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/header-macros.cu';

const at = (r: FileAnalysis, text: string, snippet: string, kind: AccessFinding['kind']) => accessAt(r, text, snippet, kind);
const contexts = (a: AccessFinding) => a.assumptions.find((x) => /contexts evaluated/.test(x));

test('`FOR(j, 4) s[tid][j] = ...;` on one line runs the statement as the loop body (was: the access was missing, without a word)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = at(result, text, 'FOR(j, 4) s[threadIdx.x][j] = out[j];', 'store');
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.match(contexts(a)!, /^4 contexts evaluated/);
  assert.equal(a.range.start.character, text.split('\n')[a.range.start.line].indexOf('s[threadIdx.x]'));
});

test('a header macro with the statement on the next line (was: unknown, "`j` is not known here")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = at(result, text, 'u[threadIdx.x * 4 + j] = 1.0f;', 'store');
  figures(a, 'conflict', 4, 4, 32, 32);
  assert.match(contexts(a)!, /^4 contexts evaluated/);
});

test('two header macros in a row, and an `if` header macro: each heads what follows (was: missing)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const st = at(result, text, 't[r][threadIdx.x * 2 + c] = 0.0f;', 'store');
  figures(st, 'conflict', 2, 2, 32, 32);
  assert.match(contexts(st)!, /^16 contexts evaluated/);
  // only lanes 0..15 pass the guard: 16 words 4 apart, two in each of 8 banks
  const ld = at(result, text, 'WHEN(threadIdx.x < 16) out[threadIdx.x] = t[0][threadIdx.x * 4];', 'load');
  figures(ld, 'conflict', 2, 2, 16, 16);
});

test('a header macro whose statement ends just before the kernel\'s closing brace (was: unknown)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const a = at(result, text, 'out[r] = v[r * 32 + threadIdx.x];', 'load');
  figures(a, 'conflict-free', 1, 1, 32, 32);
  assert.match(contexts(a)!, /^4 contexts evaluated/);
});

test('`FOR(j, 4);` is an empty loop: the next statement runs once; an object-like `if` macro before a block runs it on the lanes it lets through (was: on all 32 lanes)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const once = at(result, text, 'w[threadIdx.x * 2] = 1.0f;', 'store');
  figures(once, 'conflict', 2, 2, 32, 32);
  assert.equal(contexts(once), undefined);
  const lead = at(result, text, 'w[threadIdx.x] = 2.0f;', 'store');
  figures(lead, 'conflict-free', 1, 1, 1, 1);
});

test('object-like header macros before a statement (was: read as a declaration of a local array, and every later access of the shared array was lost)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // one leader per warp (block 64x1x1), each on its own word
  figures(at(result, text, 'IF_LEADER x[threadIdx.x / 32][0] = 1.0f;', 'store'), 'conflict-free', 1, 1, 1, 1);
  const rows = at(result, text, 'EACH_ROW x[r][threadIdx.x] = 2.0f;', 'store');
  figures(rows, 'conflict-free', 1, 1, 32, 32);
  assert.match(contexts(rows)!, /^4 contexts evaluated/);
  // 32 lanes down a column of 32-float rows: one bank
  const col = at(result, text, 'out[r] = x[threadIdx.x][r];', 'load');
  figures(col, 'conflict', 32, 32, 32, 32);
  assert.match(contexts(col)!, /^4 contexts evaluated/);
  // after them, the array is still the shared one
  figures(at(result, text, 'out[threadIdx.x] = x[0][threadIdx.x];', 'load'), 'conflict-free', 1, 1, 32, 32);
});

test('an object-like header macro on a line of its own, its block on the next: the block runs on the lanes it lets through', () => {
  const { text, result } = analyzeFile(FIXTURE);
  figures(at(result, text, 'x[0][threadIdx.x] = 3.0f;', 'store'), 'conflict-free', 1, 1, 1, 1);
});

test('an object-like header macro whose `{` starts the next line (no blank to spell a `;` in): its block is unknown, with the reason (was: run on every lane)', () => {
  const src = `#define IF_LEADER if ((threadIdx.x & 31) == 0)
__global__ void k(float *out)
{
  __shared__ float x[64];
  IF_LEADER
{
    x[threadIdx.x * 2 % 64] = 3.0f;
  }
}
int main() { float *o; k<<<1, 32>>>(o); }
`;
  const [a] = analyzeText(src).accesses;
  assert.equal(a.status, 'unknown');
  assert.equal(a.reason, 'the block after `IF_LEADER` at line 5 is not analysed: the macro is a header (`if ((threadIdx.x & 31) == 0)`), read with its block as one expression');
});

test('a header macro before an `if` statement is left to the interpreter, which already ran it as the loop body', () => {
  const src = `#define FOR(i, n) for (int i = 0; i < (n); ++i)
__global__ void k(float *out)
{
  __shared__ float s[64];
  FOR(j, 2) if (threadIdx.x < 8) s[threadIdx.x * 2 + j] = 0.0f;
}
int main() { float *o; k<<<1, 32>>>(o); }
`;
  const [a] = analyzeText(src).accesses;
  // lanes 0..7, words 0, 2, ..., 14 (+ j): 8 banks, one lane each
  figures(a, 'conflict-free', 1, 1, 8, 8);
  assert.match(contexts(a)!, /^2 contexts evaluated/);
});
