// Conditional compilation: `#if` / `#elif` / `#ifdef` decided from the file's own macros and the chosen
// architecture's `__CUDA_ARCH__` range; undecidable conditions keep every branch.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';
import { decide, ConditionEnv } from '../../server/engine/syntax/conditionals';
import { blankInactive } from '../../server/engine/syntax/preprocess';
import { archRange, profileFor } from '../../server/engine/model/bankModel';

before(() => ready);

const env = (arch = { lo: 500, hi: Infinity }, defs: [string, string | null][] = []): ConditionEnv =>
  ({ defined: new Map(defs), undefined: new Set(['GONE']), arch });

test('conditions: literals, file macros, defined(), __CUDA_ARCH__ ranges; undecidable is null', () => {
  const sm80 = { lo: 800, hi: 800 };
  assert.equal(decide('__CUDA_ARCH__ >= 800', env(sm80)), true);
  assert.equal(decide('__CUDA_ARCH__ >= 800', env()), null); // 5.x and newer: may or may not be
  assert.equal(decide('__CUDA_ARCH__ < 500', env()), false);
  assert.equal(decide('__CUDA_ARCH__ >= 700 && __CUDA_ARCH__ < 800', env({ lo: 700, hi: 799 })), true);
  assert.equal(decide('defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)', env({ lo: 750, hi: 750 })), true);
  assert.equal(decide('defined FOO || 0', env(sm80, [['FOO', '']])), true);
  assert.equal(decide('defined(GONE)', env()), false);
  assert.equal(decide('defined(FROM_A_HEADER)', env()), null);
  assert.equal(decide('FROM_A_HEADER > 2', env()), null);
  assert.equal(decide('0 && FROM_A_HEADER', env()), false);
  assert.equal(decide('N * 2 == 0x40', env(sm80, [['N', '(1 << 5)']])), true);
  assert.equal(decide('010 == 8', env()), true);
  assert.equal(decide('F(1)', env(sm80, [['F', null]])), null);
  assert.equal(decide('1 +', env()), null);
});

test('archRange: sm_80 is 800, sm_8x 800-899, sm_100 is 1000, no arch is the default 5.x and newer', () => {
  assert.deepEqual(archRange('sm_80'), { lo: 800, hi: 800 });
  assert.deepEqual(archRange('sm_90a'), { lo: 900, hi: 900 });
  assert.deepEqual(archRange('sm_8x'), { lo: 800, hi: 899 });
  assert.deepEqual(archRange('sm_100'), { lo: 1000, hi: 1000 });
  assert.deepEqual(archRange('sm_3x-8B'), { lo: 300, hi: 399 });
  assert.deepEqual(archRange(undefined), { lo: 500, hi: Infinity });
  assert.deepEqual(archRange('sm_50+'), { lo: 500, hi: Infinity });
  assert.equal(profileFor('sm_100')?.name, 'sm_50+');
  assert.equal(profileFor('sm_120a')?.name, 'sm_50+');
});

test('blanking keeps every offset; a fully decided chain loses its directive lines, an undecided one keeps them', () => {
  const src = '#if 0\nA\n#elif __CUDA_ARCH__ >= 800\nB\n#else\nC\n#endif\n';
  const out80 = blankInactive(src, { lo: 800, hi: 800 });
  assert.equal(out80.length, src.length);
  assert.deepEqual(out80.split('\n').map((l) => l.trim()), ['', '', '', 'B', '', '', '', '']);
  const outAny = blankInactive(src, { lo: 500, hi: Infinity });
  assert.deepEqual(outAny.split('\n').map((l) => l.trim()), ['#if 0', '', '#elif __CUDA_ARCH__ >= 800', 'B', '#else', 'C', '#endif', '']);
  // a continued directive, and a macro #undef'd before the test
  const cont = '#define X 1\n#undef X\n#if defined(X) || \\\n    __CUDA_ARCH__ < 300\nD\n#endif\nE\n';
  assert.deepEqual(blankInactive(cont, { lo: 800, hi: 800 }).split('\n').map((l) => l.trim()), ['#define X 1', '#undef X', '', '', '', '', 'E', '']);
});

test('only the branch the architecture compiles is analysed; file macros decide #if; unknown macros keep theirs', () => {
  const count = (arch?: string) => analyzeFile('test/fixtures/arch-branches.cu', arch ? { arch } : {});
  // sm_80: the strided store, the padded column store, the #ifdef'd load (undecidable: kept), the final load
  const { text, result } = count('sm_80');
  const lines = text.split('\n');
  const on = (snippet: string) => result.accesses.filter((a) => lines[a.range.start.line].includes(snippet));
  assert.equal(on('// sm_80 and newer')[0].degree, 2);
  assert.equal(on('// sm_70 - sm_7x').length, 0);
  assert.equal(on('// older').length, 0);
  assert.equal(accessAt(result, text, '// padded: conflict-free column write', 'store').status, 'conflict-free');
  assert.equal(on('tile[0][threadIdx.x] = buf[threadIdx.x];').length, 0);
  assert.equal(accessAt(result, text, '// may come from -D: kept', 'load').degree, 2); // words 0, 4, ..., 60 twice: 0 and 32 share bank 0
  assert.equal(on('// host compilers only').length, 0);
  assert.equal(result.accesses.filter((a) => a.kind === 'store').length, 2);
  // sm_75: the middle branch; the default (5.x and newer) cannot choose between the two newer branches
  const r75 = count('sm_75').result;
  assert.deepEqual(r75.accesses.filter((a) => a.kind === 'store').map((a) => lines[a.range.start.line].trim().split(' ')[0]), ['buf[threadIdx.x]', 'tile[threadIdx.x][0]']);
  const rAny = count().result;
  // the default architecture (sm_50+) leaves the chain undecided: one notice, at its first condition on __CUDA_ARCH__
  // and the `#ifdef` on a macro the file does not define, whose branch holds an access, is said to be kept
  const kept = '`NOT_DEFINED_HERE` is neither defined in this file nor given (`-D`), so this condition is not decided: every branch it does not rule out is analysed (give the macro with `-D`, or the `defines` setting, to analyse only the branch it takes)';
  assert.deepEqual(rAny.notices.map((n) => [n.range.start.line, n.message]), [[12,
    'this condition on `__CUDA_ARCH__` is true for some of the architectures sm_50+ covers and false for others: every branch it does not rule out is analysed (choose one architecture, such as sm_80, to analyse only its branch)'], [24, kept]]);
  assert.deepEqual(result.notices.map((n) => [n.range.start.line, n.message]), [[24, kept]]);
  assert.equal(count('sm_7x').result.notices.length, 1); // 700-799: the first condition is false, the second true; the `#ifdef` is said
  assert.deepEqual(rAny.accesses.filter((a) => a.kind === 'store').map((a) => lines[a.range.start.line].trim().split(' ')[0]),
    ['buf[2', 'buf[threadIdx.x]', 'buf[threadIdx.x', 'tile[threadIdx.x][0]']);
});
