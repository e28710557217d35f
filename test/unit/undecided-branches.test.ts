// `#if` chains between statements that the file does not decide (test/fixtures/undecided-branches.cu): each branch is
// the code of some build, run from the state before the chain; a value the branches leave different is not known
// after it, and a `return` in one branch leaves only where every branch does.
// (was: the branches ran one after another, so `st *= 2` then `st *= 16` gave a 32-way conflict no build has, and an
// architecture branch's `return` hid the rest of the kernel from every architecture)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, warpFigures } from './helpers/engine';

before(() => ready);
const FILE = 'test/fixtures/undecided-branches.cu';

test('a stride each branch multiplies is unknown after an undecided chain, and exact once -D decides it', () => {
  const { text, result } = analyzeFile(FILE);
  const after = accessAt(result, text, 'out[threadIdx.x] = s[threadIdx.x * st]', 'load');
  assert.equal(after.status, 'unknown', after.message);
  assert.match(after.message, /`threadIdx\.x \* st` combines the unknown warp-uniform value `st@10` with per-lane values/);
  // inside its own branch the stride is that build's: 2, words 2 t, 2-way
  warpFigures(accessAt(result, text, 's[threadIdx.x * st] = 0', 'store'), 'conflict', 2, 2, 32, 32);
  assert.ok(result.notices.some((n) => n.range.start.line === 9 && n.message.startsWith('`WIDE_STRIDE` is neither defined')));
  // -D WIDE_STRIDE=1: stride 2 (2-way); =0: stride 16, words 16 t in banks 0 and 16: 16-way
  const wide = analyzeFile(FILE, { defines: { WIDE_STRIDE: '1' } });
  warpFigures(accessAt(wide.result, wide.text, 'out[threadIdx.x] = s[threadIdx.x * st]', 'load'), 'conflict', 2, 2, 32, 32);
  const narrow = analyzeFile(FILE, { defines: { WIDE_STRIDE: '0' } });
  warpFigures(accessAt(narrow.result, narrow.text, 'out[threadIdx.x] = s[threadIdx.x * st]', 'load'), 'conflict', 16, 16, 32, 32);
});

test('a return under an undecided __CUDA_ARCH__ branch leaves the rest of the kernel to the other architectures', () => {
  const { text, result } = analyzeFile(FILE);
  // tile[t][0]: word 32 t, bank 0 for every lane: 32-way; tile[0][t]: conflict-free
  warpFigures(accessAt(result, text, 'tile[threadIdx.x][0] = 1.0f', 'store'), 'conflict', 32, 32, 32, 32);
  const read = accessAt(result, text, 'out[threadIdx.x] = tile[0][threadIdx.x]', 'load');
  warpFigures(read, 'conflict-free', 1, 1, 32, 32);
  assert.ok(read.assumptions.includes('the `#if` at line 23 is not decided here: the `return` in some of its branches is taken in some builds only; the code after it is analysed for the others'), read.assumptions.join('\n'));
  // sm_70 takes the return: nothing after it is reached; sm_80 does not
  const old = analyzeFile(FILE, { arch: 'sm_70' });
  assert.match(accessAt(old.result, old.text, 'out[threadIdx.x] = tile[0][threadIdx.x]', 'load').message, /no lane of block 32x1x1 reaches this access/);
  const ampere = analyzeFile(FILE, { arch: 'sm_80' });
  warpFigures(accessAt(ampere.result, ampere.text, 'tile[threadIdx.x][0] = 1.0f', 'store'), 'conflict', 32, 32, 32, 32);
});

test('an offset that differs by build is an unknown warp-uniform value: the degree stands', () => {
  const { text, result } = analyzeFile(FILE);
  const a = accessAt(result, text, 'w[threadIdx.x + off] = 0.0f', 'store');
  warpFigures(a, 'conflict-free', 1, 1, 32, 32);
  assert.ok(a.assumptions.includes('`4 * off@37` adds the same offset to every lane; it does not change the degree (bank model rule 6)'), a.assumptions.join('\n'));
});

test('a branch decided false is no build, and after a branch decided true neither is the #else nor no branch', () => {
  const { text, result } = analyzeFile(FILE);
  // MODE is 2: `#if MODE == 1` (pitch 8) is no build; the two others set 2: words 2 t, 2-way
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = p[threadIdx.x * pitch]', 'load'), 'conflict', 2, 2, 32, 32);
  // `#ifdef USE_QUADS` and `#elif MODE == 2` set 4; the #else (64) is no build: words 4 t, 4-way
  warpFigures(accessAt(result, text, 'out[threadIdx.x] = q[threadIdx.x * pitch]', 'load'), 'conflict', 4, 4, 32, 32);
});

test('a constant declared in each branch is unknown after the chain where the branches differ, exact with -D', () => {
  const { text, result } = analyzeFile(FILE);
  const r = accessAt(result, text, 'out[threadIdx.x] = r[threadIdx.x * rowPitch]', 'load');
  assert.equal(r.status, 'unknown', r.message);
  assert.match(r.message, /`rowPitch@80`/);
  const odd = analyzeFile(FILE, { defines: { ODD_PITCH: '1' } });
  warpFigures(accessAt(odd.result, odd.text, 'out[threadIdx.x] = r[threadIdx.x * rowPitch]', 'load'), 'conflict-free', 1, 1, 32, 32);
});
