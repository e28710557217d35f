// Hostile input: the engine runs on every half-typed keystroke of every file a user opens, so no input may make it
// throw, hang or overrun its budget. A seeded fuzzer mutates the real kernels (every .cu under examples/ and
// test/fixtures/), adds hand-made pathological inputs and binary junk, and checks for each one that analyzeText
// returns, within its budget plus a margin, a result that keeps the FileAnalysis invariants (helpers/fuzz-worker.ts).
//
// The engine runs in a worker thread under a watchdog, so a hang is caught (the worker is terminated) instead of
// hanging the test run. Every failing input is written to test/fixtures/fuzz-regressions/ (.txt or .bin, never .cu:
// nvcc.test.ts compiles every .cu under test/fixtures/), and that directory is replayed first.
//
//   npm test                      a fixed number of cases (FUZZ_CASES, default 300), under 30 s on two cores
//   npm run fuzz                  20,000 cases
//   FUZZ_SEED=123 FUZZ_CASES=5000 node --import tsx --test test/unit/fuzz.test.ts
//
// Also FUZZ_SLACK_MS (time allowed over the budget), FUZZ_HANG_MS (when the watchdog calls it a hang, default 30 s)
// and FUZZ_CORPUS (another folder for the regression corpus).
//
// The time check is "does not hang", not a benchmark: 500 ms of budget plus 1.5 s of slack (FUZZ_SLACK_MS), plus
// 10 ms per KiB beyond 64 KiB for parsing, which the budget does not cover; a slow case is retried once before it
// counts as a failure.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AnalyzeOptions } from '../../server/engine';
import type { FuzzRequest, FuzzResponse } from './helpers/fuzz-worker';
import { cuFiles, seededRandom, ROOT } from './helpers/common';

const CORPUS = process.env.FUZZ_CORPUS ? path.resolve(process.env.FUZZ_CORPUS) : path.join(ROOT, 'test', 'fixtures', 'fuzz-regressions');
const WORKER = path.join(__dirname, 'helpers', 'fuzz-worker.ts');
const BUDGET_MS = 500;
const SLACK_MS = Number(process.env.FUZZ_SLACK_MS ?? 1500);
/**
 * Parsing is not under the budget (docs/robustness.md): inputs over 64 KiB get 10 ms more per KiB, about three times
 * what tree-sitter needs for junk on a loaded machine. Enough for a slow parse, far too little for a hang.
 */
const PARSE_MS_PER_KIB = 10;
const allowance = (c: { bytes: Buffer; options: AnalyzeOptions }) =>
  (c.options.budgetMs ?? BUDGET_MS) + SLACK_MS + PARSE_MS_PER_KIB * Math.max(0, c.bytes.length / 1024 - 64);
/** an analysis still running after this long is a hang: the worker is terminated. */
const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? 30_000);
const CASES = Number(process.env.FUZZ_CASES ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
/** stop collecting after this many failures (each is saved; a broken engine would otherwise fill the corpus). */
const MAX_FAILURES = 20;

// ------------------------------------------------------------------------------------------------ randomness

const mulberry32 = seededRandom;

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

// ------------------------------------------------------------------------------------------------ seeds


const SEED_FILES = [...cuFiles('examples'), ...cuFiles('test/fixtures')];
const SEEDS: Buffer[] = SEED_FILES.map((f) => fs.readFileSync(path.join(ROOT, f)));

// ------------------------------------------------------------------------------------------------ mutations

/** Fragments that stress a parser, a preprocessor or an evaluator when dropped anywhere into a kernel. */
const SNIPPETS = [
  '{', '}', '(', ')', '[', ']', ';', ',', '<', '>', '<<<', '>>>', '::', '->', '.', '*', '&', '#', '\\\n', '"', "'", '/*', '*/', '//',
  '\n#if 0\n', '\n#if 1\n', '\n#else\n', '\n#endif\n', '\n#define A A\n', '\n#define B(x) B(x)\n', '\n#define TILE_DIM\n',
  '\n#define TILE_DIM (1LL << 40)\n', '\n#define TILE 0\n', '\n#undef TILE_DIM\n', '\n#include "x.cu"\n',
  'threadIdx.x', 'threadIdx.y', 'blockIdx.x', 'blockDim.x', 'warpSize', '__syncthreads();',
  ' / 0', ' % 0', ' << 40', ' >> 64', ' << -1', ' * 0x7fffffffffffffff', '-1', '(1LL << 62)', '1e308', '0.0 / 0.0',
  '__shared__ float z[1LL << 40];', '__shared__ float z[-1];', '__shared__ float z[0];', '__shared__ double z[32][0x7fffffff];',
  'extern __shared__ float dyn[];', '__shared__ float *sp;', 'float ******p = 0;', 'int (*f)(int) = 0;',
  'for (;;) ', 'while (1) ', 'do { } while (1);', 'goto L; L: ', 'return; ', 'break; ', 'continue; ',
  'for (int i = 0; i < 1000000; i++) ', 'for (int q = 0; q < 64; q++) for (int r = 0; r < 64; r++) ',
  'if (threadIdx.x < 16) ', 'else ', 'switch (threadIdx.x) { case 0: ', 'case 1: ', 'default: ',
  'template <int N> ', '<32>', 'typename ', 'typedef float T; ', 'struct S { S s; }; ', 'union U { float f[1LL<<40]; }; ',
  'atomicAdd(&', 'reinterpret_cast<float4*>(', 'static_cast<int>(', '(int)', 'sizeof(', 'dim3(1 << 20, 1 << 20)',
  '// bank-lens: block=1024\n', '// bank-lens: block=0x0\n', '// bank-lens: block=99999999999999999999\n',
  '__global__ void g() {', '__device__ int f(int x) { return f(x); }', 'asm volatile("bar.sync 0;");',
  '\u0000', '\uFEFF', '\u2028', '\u00e9', '\u{1F680}', '\r', '\r\n', '\t', '\f', '\v',
];

function tokens(s: string): string[] {
  return s.match(/[A-Za-z_]\w*|\d[\w.]*|\s+|\/\/[^\n]*|[\s\S]/g) ?? [];
}

type Mutator = (b: Buffer, rng: Rng) => Buffer;

const MUTATORS: Record<string, Mutator> = {
  /** a few bytes flipped or replaced. */
  flip: (b, rng) => {
    const out = Buffer.from(b);
    if (!out.length) return out;
    for (let k = 1 + rng.int(8); k > 0; k--) {
      const i = rng.int(out.length);
      out[i] = rng.chance(0.5) ? out[i] ^ (1 << rng.int(8)) : rng.int(256);
    }
    return out;
  },
  /** the file cut at a random point: a half-typed file. */
  truncate: (b, rng) => b.subarray(0, rng.int(b.length + 1)),
  /** a random range copied to a random place (a paste). */
  duplicate: (b, rng) => {
    const a = rng.int(b.length + 1);
    const e = Math.min(b.length, a + rng.int(2048));
    const at = rng.int(b.length + 1);
    const piece = b.subarray(a, e);
    const times = rng.chance(0.1) ? 2 + rng.int(30) : 1;
    return Buffer.concat([b.subarray(0, at), ...Array(times).fill(piece), b.subarray(at)]);
  },
  /** a random range deleted. */
  cut: (b, rng) => {
    const a = rng.int(b.length + 1);
    const e = Math.min(b.length, a + rng.int(512));
    return Buffer.concat([b.subarray(0, a), b.subarray(e)]);
  },
  /** tokens swapped, dropped, repeated, or a window of them shuffled (latin1 keeps bytes one to one). */
  tokens: (b, rng) => {
    const t = tokens(b.toString('latin1'));
    if (t.length < 2) return b;
    for (let k = 1 + rng.int(6); k > 0; k--) {
      const i = rng.int(t.length);
      const j = rng.int(t.length);
      switch (rng.int(4)) {
        case 0:
          [t[i], t[j]] = [t[j], t[i]];
          break;
        case 1:
          t.splice(i, 1);
          break;
        case 2:
          t.splice(i, 0, t[j]);
          break;
        default: {
          const w = t.slice(i, i + 2 + rng.int(12));
          for (let x = w.length - 1; x > 0; x--) {
            const y = rng.int(x + 1);
            [w[x], w[y]] = [w[y], w[x]];
          }
          t.splice(i, w.length, ...w);
        }
      }
    }
    return Buffer.from(t.join(''), 'latin1');
  },
  /** a hostile fragment inserted, most often just after a `;` or `{` (inside a kernel). */
  insert: (b, rng) => {
    const s = Buffer.from(rng.pick(SNIPPETS), 'utf8');
    let at = rng.int(b.length + 1);
    if (rng.chance(0.7)) {
      for (let i = at; i < b.length; i++)
        if (b[i] === 0x3b || b[i] === 0x7b) {
          at = i + 1;
          break;
        }
    }
    return Buffer.concat([b.subarray(0, at), s, b.subarray(at)]);
  },
  /** part of another kernel file spliced in. */
  splice: (b, rng) => {
    const other = rng.pick(SEEDS);
    const a = rng.int(other.length + 1);
    const e = Math.min(other.length, a + rng.int(3000));
    const at = rng.int(b.length + 1);
    return Buffer.concat([b.subarray(0, at), other.subarray(a, e), b.subarray(at)]);
  },
  /** a run of random bytes dropped in. */
  junk: (b, rng) => {
    const at = rng.int(b.length + 1);
    return Buffer.concat([b.subarray(0, at), rng.bytes(1 + rng.int(64)), b.subarray(at)]);
  },
};
const MUTATOR_NAMES = Object.keys(MUTATORS);

const ARCHES = [undefined, undefined, undefined, 'sm_1x', 'sm_20', 'sm_30', 'sm_30:8B', 'sm_90'];
const BLOCKS: (AnalyzeOptions['block'])[] = [undefined, undefined, undefined, [16, 16, 1], [1024, 1, 1], [1, 1, 1], [7, 3, 5], [64, 2, 2]];

function randomOptions(rng: Rng): AnalyzeOptions {
  const o: AnalyzeOptions = { budgetMs: BUDGET_MS };
  const arch = rng.pick(ARCHES);
  const block = rng.pick(BLOCKS);
  if (arch) o.arch = arch;
  if (block) o.block = block;
  return o;
}

/** One mutated kernel file: 1 to 4 mutations of a seed; what was done is its label. */
function mutatedCase(rng: Rng): { bytes: Buffer; label: string } {
  const seed = rng.int(SEEDS.length);
  let b = SEEDS[seed];
  const done: string[] = [];
  for (let k = 1 + rng.int(4); k > 0; k--) {
    const m = rng.pick(MUTATOR_NAMES);
    b = MUTATORS[m](b, rng);
    done.push(m);
  }
  return { bytes: b, label: `${path.basename(SEED_FILES[seed], '.cu')}-${done.join('+')}` };
}

// ------------------------------------------------------------------------------------------------ hostile inputs

const K = (body: string, decl = 'float s[64];', pre = '') =>
  Buffer.from(`${pre}__global__ void k(float *out, int n)\n{\n  __shared__ ${decl}\n  ${body}\n}\n\nint main() { k<<<1, 32>>>(0, 0); return 0; }\n`);

/** Hand-made pathological inputs: deep nesting, self-referential macros, huge extents, endless loops. */
const HOSTILE: Record<string, Buffer> = {
  'empty file': Buffer.alloc(0),
  'one NUL byte': Buffer.from([0]),
  'only whitespace': Buffer.from(' \n\t\r\n'.repeat(1000)),
  '10,000 nested parentheses in a subscript': K(`out[0] = s[${'('.repeat(10000)}threadIdx.x${')'.repeat(10000)}];`),
  '10,000 unclosed parentheses': K(`out[0] = s[${'('.repeat(10000)}threadIdx.x];`),
  '10,000 nested braces': K(`${'{'.repeat(10000)} s[threadIdx.x] = 1; ${'}'.repeat(10000)}`),
  '10,000 unclosed braces': K(`${'{'.repeat(10000)} s[threadIdx.x] = 1;`),
  '10,000 closing braces': K(`s[threadIdx.x] = 1; ${'}'.repeat(10000)}`),
  '10,000 nested ifs': K(`${'if (threadIdx.x < 64) '.repeat(10000)}s[threadIdx.x] = 1;`),
  '10,000 nested braced ifs': K(`${'if (threadIdx.x < 64) {'.repeat(10000)} s[threadIdx.x] = 1; ${'}'.repeat(10000)}`),
  '10,000 else-ifs': K(`if (threadIdx.x == 0) s[0] = 1; ${Array.from({ length: 10000 }, (_, i) => `else if (threadIdx.x == ${i + 1}) s[${i % 64}] = 1;`).join(' ')}`),
  '2,000 nested loops': K(`${'for (int i = 0; i < 2; i++) '.repeat(2000)}s[threadIdx.x] = 1;`),
  '50 nested loops of 1,000': K(`${'for (int i = 0; i < 1000; i++) '.repeat(50)}s[threadIdx.x] = 1;`),
  '10,000 nested calls': K(`out[0] = s[${'min('.repeat(10000)}threadIdx.x${', 1)'.repeat(10000)}];`),
  '10,000 unary minus signs': K(`out[0] = s[${'-'.repeat(10000)}threadIdx.x];`),
  '10,000 negations': K(`out[0] = s[${'~'.repeat(10000)}threadIdx.x];`),
  '10,000 casts': K(`out[0] = s[${'(int)'.repeat(10000)}threadIdx.x];`),
  '3,000 nested conditionals': K(`out[0] = s[${'threadIdx.x ? '.repeat(3000)}1${' : 0'.repeat(3000)}];`),
  '20,000-term sum': K(`out[0] = s[${Array(20000).fill('threadIdx.x').join(' + ')}];`),
  '20,000 loads in one expression': K(`out[0] = s[0]${' + s[threadIdx.x]'.repeat(20000)};`),
  '20,000-operand comma expression': K(`out[0] = s[(${Array(20000).fill('threadIdx.x').join(', ')})];`),
  '5,000 subscripts of one name': K(`out[0] = s${'[threadIdx.x]'.repeat(5000)};`),
  '5,000 extents': K('s[0] = 1;', `float s${'[2]'.repeat(5000)};`),
  '5,000 member accesses': K(`out[0] = s[threadIdx.x]${'.a'.repeat(5000)};`),
  '10,000 statements': K('s[threadIdx.x] = 1;\n'.repeat(10000)),
  '#define A A': K('s[A] = 1; out[0] = s[A + threadIdx.x];', undefined, '#define A A\n'),
  '#define B(x) B(x)': K('s[B(threadIdx.x)] = 1; out[0] = s[B(1)];', undefined, '#define B(x) B(x)\n'),
  'mutually recursive macros': K('s[A] = 1; s[F(1)] = 2;', undefined, '#define A B\n#define B A\n#define F(x) G(x)\n#define G(x) F(x)\n'),
  'exponential macro expansion': K('s[X40] = 1;', undefined, `#define X0 threadIdx.x\n${Array.from({ length: 40 }, (_, i) => `#define X${i + 1} (X${i} + X${i})`).join('\n')}\n`),
  'exponential function-like macro expansion': K('s[F40(threadIdx.x)] = 1;', undefined, `#define F0(x) (x)\n${Array.from({ length: 40 }, (_, i) => `#define F${i + 1}(x) (F${i}(x) + F${i}(x))`).join('\n')}\n`),
  'self-referential constant': K('s[C] = 1;', undefined, 'const int C = C + 1;\n'),
  'self-referential enumerator': K('s[E] = 1;', undefined, 'enum { E = E + 1 };\n'),
  'doubling constants': K('s[threadIdx.x + C60] = 1;', undefined, `const int C0 = 1;\n${Array.from({ length: 60 }, (_, i) => `const int C${i + 1} = C${i} + C${i};`).join('\n')}\n`),
  'T with 5,000 stars': K(`float ${'*'.repeat(5000)}p = 0; s[threadIdx.x] = 1;`),
  'typedef with 5,000 stars': K('T p = 0; s[threadIdx.x] = (float)sizeof(T);', undefined, `typedef float ${'*'.repeat(5000)}T;\n`),
  'cast to 5,000 stars': K(`out[0] = s[(int)(long)(float${'*'.repeat(5000)})threadIdx.x];`),
  'parameter with 5,000 stars': K('s[threadIdx.x] = 1; h(0);', undefined, `__device__ void h(float ${'*'.repeat(5000)}q) { }\n`),
  'recursive struct': K('s[0].x = 1;', 'S s[32];', 'struct S { S s; int x; };\n'),
  'struct with a 2^40 member': K('s[threadIdx.x].a[0] = 1;', 'S s[32];', 'struct S { float a[1LL << 40]; };\n'),
  'typedef cycle': K('s[threadIdx.x] = 1;', 'A s[32];', 'typedef B A;\ntypedef A B;\n'),
  'loop of 1,000,000 iterations': K('for (int i = 0; i < 1000000; i++) s[i % 32] += 1;'),
  'nested loops of 1,000,000 iterations': K('for (int i = 0; i < 1000000; i++) for (int j = 0; j < 1000000; j++) s[(i + j) % 32] += 1;'),
  'while (1)': K('while (1) { s[threadIdx.x] = 1; }'),
  'for (;;)': K('for (;;) s[threadIdx.x] = 1;'),
  'endless do-while': K('int i = 0; do { s[i % 64] = 1; i++; } while (i >= 0);'),
  'goto loop': K('L: s[threadIdx.x] = 1; goto L;'),
  'pointer walking 100,000 steps': K('float *p = s; for (int i = 0; i < 100000; i++) { p += 1; *p = 1; }'),
  'division by zero': K('s[threadIdx.x / 0] = 1; s[threadIdx.x % 0] = 2; out[0] = s[1 / (threadIdx.x - threadIdx.x)]; out[1] = s[(int)(0.0 / 0.0)];'),
  'shifts past the width': K('s[threadIdx.x << 40] = 1; s[1 << 31] = 1; s[threadIdx.x >> 64] = 1; s[(1LL << 63) >> threadIdx.x] = 1; s[threadIdx.x << -1] = 1; s[1u << 32] = 1;'),
  'overflowing arithmetic': K('s[0x7fffffff + threadIdx.x] = 1; s[-2147483647 - 1 - threadIdx.x] = 1; s[9223372036854775807LL * threadIdx.x] = 1; s[(int)1e300] = 1;'),
  'huge literals': K('s[99999999999999999999999999999] = 1; s[0x7fffffffffffffffffff] = 1; s[1e99999] = 1;'),
  '__shared__ float s[1LL << 40]': K('s[threadIdx.x] = 1; out[0] = s[(1LL << 40) - 1];', 'float s[1LL << 40];'),
  '__shared__ float s[1LL << 40][1LL << 40]': K('s[threadIdx.x][threadIdx.x] = 1;', 'float s[1LL << 40][1LL << 40];'),
  '__shared__ double s[0xFFFFFFFFFFFFFFFF]': K('s[threadIdx.x] = 1;', 'double s[0xFFFFFFFFFFFFFFFF];'),
  'negative extent': K('s[threadIdx.x] = 1;', 'float s[-5];'),
  'zero extent': K('s[threadIdx.x] = 1;', 'float s[0];'),
  'negative indices': K('s[-1] = 1; s[threadIdx.x - 100] = 2; out[0] = s[-threadIdx.x]; out[1] = s[-2147483648];'),
  'a 1024x1024 array indexed by 1,024 threads': K('s[threadIdx.x][threadIdx.x] = 1;', 'float s[1024][1024];', '// bank-lens: block=1024\n'),
  '1,024 threads, 1,024 iterations': K('for (int i = 0; i < 1024; i++) s[(threadIdx.x * i) % 64] += 1;', undefined, '// bank-lens: block=1024\n'),
  'infinite recursion': K('s[f(threadIdx.x)] = 1;', undefined, '__device__ int f(int x) { return f(x + 1); }\n'),
  'branching recursion': K('g(s, threadIdx.x);', undefined, '__device__ void g(float *p, int x) { p[x] = 1; g(p, x + 1); g(p, x + 2); }\n'),
  'recursive template': K('s[f<1>()] = 1;', undefined, 'template <int N> __device__ int f() { return f<N + 1>(); }\n'),
  'kernel launching itself': Buffer.from('template <int N> __global__ void k(float *o) { __shared__ float s[N]; s[threadIdx.x * N] = 1; k<N + 1><<<1, 32>>>(o); }\nint main() { k<1><<<1, 32>>>(0); }\n'),
  'impossible launches': Buffer.from('__global__ void k(float *o) { __shared__ float s[32]; s[threadIdx.x] = 1; }\nint main() { k<<<1, 1LL << 40>>>(0); k<<<1, dim3(1 << 20, 1 << 20)>>>(0); k<<<1, -1>>>(0); k<<<1, 0>>>(0); k<<<1, 0.5>>>(0); }\n'),
  'impossible block directives': K('s[threadIdx.x] = 1;', undefined, '// bank-lens: block=99999999999999999999x9999999999999999\n// bank-lens: block=0x0x0\n'),
  'atomics with missing arguments': K('atomicAdd(); atomicAdd(s); atomicCAS(&s[threadIdx.x]); atomicAdd(&s[threadIdx.x / 0], 1);'),
  'malformed character literals': K("s['\\x7f'] = 1; s['ab'] = 2; s['\\u12'] = 3; s[''] = 4;"),
  '5,000 nested #if 1': Buffer.concat([Buffer.from('#if 1\n'.repeat(5000)), K('s[threadIdx.x] = 1;'), Buffer.from('#endif\n'.repeat(5000))]),
  'unbalanced #if 0': Buffer.concat([Buffer.from('#if 0\n'.repeat(5000)), K('s[threadIdx.x] = 1;'), Buffer.from('#endif\n'.repeat(4000))]),
  '#include of files that must not be read': K('s[threadIdx.x] = 1;', undefined, '#include "self.cu"\n#include </dev/zero>\n#include "/etc/passwd"\n#include "../../../../../../etc/shadow"\n'),
  'unterminated comment': K('s[threadIdx.x] = 1; /* never closed'),
  'unterminated string': K('const char *m = "never closed; s[threadIdx.x] = 1;'),
  'line continuations everywhere': Buffer.from(K('s[threadIdx.x] = 1;').toString().split('').join('\\\n')),
  'CR line ends': Buffer.from(K('s[threadIdx.x] = 1;').toString().replace(/\n/g, '\r')),
  'CRLF line ends': Buffer.from(K('s[threadIdx.x] = 1;').toString().replace(/\n/g, '\r\n')),
  'BOM, NULs, line separators and emoji': Buffer.from(`\uFEFF${K('s[threadIdx.x] = 1;\u2028 s[0] = 2; /* \u{1F680}\u0000 */ out[0] = s[\u00e9];').toString()}`),
  'a 100,000-character line': K(`out[0] = s[threadIdx.x]; /* ${'x'.repeat(100000)} */`),
  '20,000 empty kernels': Buffer.from('__global__ void k(){}\n'.repeat(20000)),
  '2,000 kernels with one access each': Buffer.from(Array.from({ length: 2000 }, (_, i) => `__global__ void k${i}(){ __shared__ float s${i}[64]; s${i}[threadIdx.x * ${i % 33}] = 1; }`).join('\n')),
  'invalid UTF-8': Buffer.concat([K('s[threadIdx.x] = 1;'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe, 0xed, 0xa0, 0x80])]),
};

// ------------------------------------------------------------------------------------------------ the worker

type Outcome = { kind: 'ok'; r: FuzzResponse } | { kind: 'hang' } | { kind: 'crash'; message: string };

/** The engine in a worker thread, with a watchdog per case. */
class EngineWorker {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private nextId = 1;
  private pending: { id: number; settle: (o: Outcome) => void } | null = null;

  private start(): Promise<Worker> {
    const bootstrap = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(WORKER)});`;
    // the stack of the CLI's and the server's main thread (about 1 MB), not a worker's default 4 MB
    const w = new Worker(bootstrap, { eval: true, resourceLimits: { stackSizeMb: 1, maxOldGenerationSizeMb: 2048 } });
    this.worker = w;
    this.ready = new Promise((resolve, reject) => {
      const onReady = (m: { ready?: boolean; error?: string }) => {
        if (m.ready) resolve(w);
        else reject(new Error(`the fuzz worker did not start: ${m.error}`));
      };
      w.once('message', onReady);
      w.once('error', reject);
    });
    w.on('message', (m: FuzzResponse & { ready?: boolean }) => {
      if (this.worker !== w || m.ready !== undefined || !this.pending || m.id !== this.pending.id) return;
      const p = this.pending;
      this.pending = null;
      p.settle({ kind: 'ok', r: m });
    });
    w.on('error', (e) => this.fail(w, `the worker died: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
    w.on('exit', (code) => this.fail(w, `the worker exited with status ${code}`));
    return this.ready;
  }

  /** the worker `w` died; a worker terminated for a hang (already replaced) is ignored. */
  private fail(w: Worker, message: string): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.ready = null;
    const p = this.pending;
    this.pending = null;
    p?.settle({ kind: 'crash', message });
  }

  async run(req: Omit<Extract<FuzzRequest, { op: 'analyze' }>, 'id'> | Omit<Extract<FuzzRequest, { op: 'session' }>, 'id'>): Promise<Outcome> {
    const w = await (this.ready ?? this.start());
    const id = this.nextId++;
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending?.id !== id) return;
        this.pending = null;
        this.worker = null;
        this.ready = null;
        void w.terminate();
        resolve({ kind: 'hang' });
      }, HANG_MS);
      this.pending = {
        id,
        settle: (o) => {
          clearTimeout(timer);
          resolve(o);
        },
      };
      w.postMessage({ ...req, id });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) {
      w.removeAllListeners('exit');
      w.removeAllListeners('error');
      await w.terminate();
    }
  }
}

// ------------------------------------------------------------------------------------------------ checking and saving

interface Case {
  label: string;
  bytes: Buffer;
  options: AnalyzeOptions;
}

/** engine milliseconds of the last case checked (for the slowest-cases diagnostic). */
let lastMs = 0;

/** What went wrong with a case, or null. A slow case is run again once before it counts. */
async function check(engine: EngineWorker, c: Case): Promise<string | null> {
  const limit = Math.round(allowance(c));
  lastMs = 0;
  for (let attempt = 0; ; attempt++) {
    const o = await engine.run({ op: 'analyze', bytes: c.bytes, options: c.options });
    if (o.kind === 'hang') return `hang: analyzeText did not return within ${HANG_MS} ms (the worker was terminated)`;
    if (o.kind === 'crash') return `crash: ${o.message}`;
    const r = o.r;
    lastMs = r.ms;
    if (r.error) return `throw: ${r.error.split('\n').slice(0, 8).join('\n')}`;
    if (r.problems.length) return `bad result: ${r.problems.slice(0, 5).join('; ')}${r.problems.length > 5 ? ` (and ${r.problems.length - 5} more)` : ''}`;
    if (r.ms < limit) return null;
    if (attempt === 1) return `slow: analyzeText took ${r.ms.toFixed(0)} ms with a budget of ${c.options.budgetMs} ms (limit ${limit} ms), twice`;
  }
}

const isText = (b: Buffer) => Buffer.from(b.toString('utf8'), 'utf8').equals(b) && !/[\u0000-\u0008\u000e-\u001f\u007f]/.test(b.toString('utf8'));

/** file name parts for non-default options (`.arch=sm_1x.block=16x16x1`), read back by optionsOf(). */
function optionSuffix(o: AnalyzeOptions): string {
  return `${o.arch ? `.arch=${o.arch.replace(/:/g, '-')}` : ''}${o.block ? `.block=${o.block.join('x')}` : ''}`;
}

function optionsOf(name: string): AnalyzeOptions {
  const o: AnalyzeOptions = { budgetMs: BUDGET_MS };
  for (const part of name.split('.')) {
    const arch = /^arch=(.+)$/.exec(part);
    const block = /^block=(\d+)x(\d+)x(\d+)$/.exec(part);
    if (arch) o.arch = arch[1];
    if (block) o.block = [Number(block[1]), Number(block[2]), Number(block[3])];
  }
  return o;
}

/**
 * Writes a failing input into the regression corpus (once per content and options); returns its path. `step`
 * names the texts of an editing session: `.before` is analysed first by the same EngineDocument, then `.after`.
 */
function save(c: Case, step?: 'before' | 'after', hashOf?: Buffer): string {
  fs.mkdirSync(CORPUS, { recursive: true });
  const hash = crypto.createHash('sha1').update(hashOf ?? c.bytes).update(JSON.stringify([c.options.arch, c.options.block])).digest('hex').slice(0, 12);
  const label = c.label.replace(/[^\w+-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'case';
  const tail = `${optionSuffix(c.options)}${step ? `.${step}` : ''}.${isText(c.bytes) ? 'txt' : 'bin'}`;
  const existing = fs.readdirSync(CORPUS).find((f) => f.includes(hash) && f.endsWith(tail));
  if (existing) return path.join(CORPUS, existing);
  const file = path.join(CORPUS, `${label}-${hash}${tail}`);
  fs.writeFileSync(file, c.bytes);
  return file;
}

/** Removes chunks of a failing input while it still fails the same way (for throws and bad results only). */
async function minimize(engine: EngineWorker, c: Case, failure: string): Promise<Case | null> {
  const kind = failure.split('\n')[0].replace(/\d+/g, '#').slice(0, 80);
  let bytes = c.bytes;
  const deadline = Date.now() + 20_000;
  for (let chunk = Math.max(1, bytes.length >> 1); chunk >= 1 && Date.now() < deadline; chunk >>= 1) {
    for (let at = 0; at < bytes.length && Date.now() < deadline; ) {
      const smaller = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + chunk)]);
      const f = await check(engine, { ...c, bytes: smaller });
      if (f && f.split('\n')[0].replace(/\d+/g, '#').slice(0, 80) === kind) bytes = smaller;
      else at += chunk;
    }
  }
  return bytes.length < c.bytes.length ? { ...c, label: `${c.label}-min`, bytes } : null;
}

interface Failure {
  c: Case;
  failure: string;
  saved: string[];
}

async function runCases(
  engine: EngineWorker, cases: Iterable<Case>, opts: { save: boolean; minimize?: boolean; diagnostic?: (m: string) => void },
): Promise<{ count: number; failures: Failure[] }> {
  const failures: Failure[] = [];
  const slowest: { label: string; ms: number }[] = [];
  let count = 0;
  let total = 0;
  for (const c of cases) {
    count++;
    const failure = await check(engine, c);
    total += lastMs;
    slowest.push({ label: c.label, ms: lastMs });
    slowest.sort((a, b) => b.ms - a.ms).splice(3);
    if (!failure) continue;
    const saved: string[] = [];
    if (opts.save) {
      saved.push(save(c));
      if (opts.minimize && !failure.startsWith('hang') && !failure.startsWith('slow') && !failure.startsWith('crash')) {
        const small = await minimize(engine, c, failure);
        if (small) saved.push(save(small));
      }
    }
    failures.push({ c, failure, saved });
    if (failures.length >= MAX_FAILURES) break;
  }
  opts.diagnostic?.(`${count} cases, ${total.toFixed(0)} ms in the engine; slowest: ${slowest.map((x) => `${x.label} ${x.ms.toFixed(0)} ms`).join(', ')}`);
  return { count, failures };
}

function report(failures: Failure[]): string {
  return failures
    .map((f) => `- ${f.c.label} (${f.c.bytes.length} bytes, options ${JSON.stringify(f.c.options)})${f.saved.length ? `, saved as ${f.saved.map((s) => path.relative(ROOT, s)).join(' and ')}` : ''}:\n  ${f.failure.replace(/\n/g, '\n  ')}`)
    .join('\n');
}

function sessionFailure(o: Outcome, texts: Buffer[], options: AnalyzeOptions): string | null {
  if (o.kind === 'hang') return `hang: an editing session did not finish within ${HANG_MS} ms`;
  if (o.kind === 'crash') return `crash: ${o.message}`;
  if (o.r.error) return `throw: ${o.r.error.split('\n').slice(0, 8).join('\n')}`;
  if (o.r.problems.length) return o.r.problems.slice(0, 5).join('; ');
  if (o.r.ms > allowance({ bytes: texts[o.r.slowest], options })) return `slow: edit ${o.r.slowest} took ${o.r.ms.toFixed(0)} ms`;
  return null;
}

// ------------------------------------------------------------------------------------------------ the tests

const engine = new EngineWorker();
after(() => engine.close());

test('replays every input that ever failed (test/fixtures/fuzz-regressions/)', async () => {
  const files = fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((f) => /\.(txt|bin)$/.test(f)).sort() : [];
  const read = (f: string) => fs.readFileSync(path.join(CORPUS, f));
  const single = files.filter((f) => !/\.(before|after)\.(txt|bin)$/.test(f));
  const cases = single.map((f): Case => ({ label: f, bytes: read(f), options: optionsOf(f) }));
  const { failures } = await runCases(engine, cases, { save: false });
  // editing sessions: X.before.txt then X.after.txt through one EngineDocument, compared with a fresh analysis
  for (const after of files.filter((f) => /\.after\.(txt|bin)$/.test(f))) {
    const stem = after.replace(/\.after\.(txt|bin)$/, '.before.');
    const before = files.find((f) => f.startsWith(stem));
    const texts = before ? [read(before), read(after)] : [read(after)];
    const failure = sessionFailure(await engine.run({ op: 'session', texts, options: optionsOf(after), compareFresh: true }), texts, optionsOf(after));
    if (failure) failures.push({ c: { label: after, bytes: texts[texts.length - 1], options: optionsOf(after) }, failure, saved: [] });
  }
  assert.equal(failures.length, 0, `${failures.length} of ${files.length} saved regressions fail again:\n${report(failures)}`);
});

test('hand-made hostile inputs: deep nesting, self-referential macros, huge extents, endless loops, junk', async (t) => {
  const cases = Object.entries(HOSTILE).map(([label, bytes]): Case => ({ label, bytes, options: { budgetMs: BUDGET_MS } }));
  const { failures } = await runCases(engine, cases, { save: true, diagnostic: (m) => t.diagnostic(m) });
  assert.equal(failures.length, 0, `${failures.length} of ${cases.length} hostile inputs fail:\n${report(failures)}`);
});

test('binary junk with a .cu name', async (t) => {
  const rng = new Rng(SEED ^ 0x5eed);
  const wasm = fs.readFileSync(require.resolve('tree-sitter-cuda/tree-sitter-cuda.wasm'));
  const images = path.join(ROOT, 'docs', 'images');
  const png = fs.existsSync(images) ? fs.readdirSync(images).find((f) => f.endsWith('.png')) : undefined;
  function* cases(): Generator<Case> {
    yield { label: 'the grammar .wasm, first 256 KiB', bytes: wasm.subarray(0, 256 * 1024), options: { budgetMs: BUDGET_MS } };
    if (png) yield { label: `docs/images/${png}`, bytes: fs.readFileSync(path.join(images, png)).subarray(0, 256 * 1024), options: { budgetMs: BUDGET_MS } };
    for (const n of [1, 2, 3, 16, 255, 4096, 65536, 200_000]) yield { label: `random-${n}-bytes`, bytes: rng.bytes(n), options: randomOptions(rng) };
    // random bytes of a kernel's alphabet: more of it gets past the parser into the evaluator
    const alphabet = Buffer.from('{}[]()<>;,.*&+-/%=!?:#"\'\\ \n\t0123456789xabcs_ threadIdx blockDim __shared__ float for if while int ');
    for (const n of [100, 1000, 10_000, 100_000]) {
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) b[i] = alphabet[rng.int(alphabet.length)];
      yield { label: `kernel-alphabet-${n}`, bytes: b, options: randomOptions(rng) };
    }
  }
  const { count, failures } = await runCases(engine, cases(), { save: true, minimize: true, diagnostic: (m) => t.diagnostic(m) });
  assert.equal(failures.length, 0, `${failures.length} of ${count} junk inputs fail:\n${report(failures)}`);
});

test(`${CASES} mutated kernels from ${SEED_FILES.length} files (seed ${SEED})`, async (t) => {
  assert.ok(SEED_FILES.includes('examples/transpose.cu'), `the seeds should include the examples: ${SEED_FILES.join(', ')}`);
  const rng = new Rng(SEED);
  function* cases(): Generator<Case> {
    for (let i = 0; i < CASES; i++) {
      const { bytes, label } = mutatedCase(rng);
      yield { label, bytes, options: randomOptions(rng) };
    }
  }
  const { count, failures } = await runCases(engine, cases(), { save: true, minimize: true, diagnostic: (m) => t.diagnostic(m) });
  assert.equal(failures.length, 0, `${failures.length} of ${count} mutated kernels fail (FUZZ_SEED=${SEED}):\n${report(failures)}`);
});

test('editing sessions: one EngineDocument through keystrokes gives what a fresh analysis gives', async () => {
  const rng = new Rng(SEED ^ 0xed17);
  const sessions = Math.max(3, Math.round(CASES / 50));
  const failures: Failure[] = [];
  for (let s = 0; s < sessions; s++) {
    const seed = rng.int(SEEDS.length);
    let text = SEEDS[seed];
    const texts: Buffer[] = [text];
    for (let k = 0; k < 12; k++) {
      const at = rng.int(text.length + 1);
      switch (rng.int(5)) {
        case 0: // type a few characters
          text = Buffer.concat([text.subarray(0, at), Buffer.from(rng.pick(['[', ']', '(', ')', '{', '}', ';', 'x', '1', ' ', '\n', '+ 1', 'threadIdx.', '__sh', '/*', '"'])), text.subarray(at)]);
          break;
        case 1: // backspace
          text = Buffer.concat([text.subarray(0, Math.max(0, at - 1 - rng.int(4))), text.subarray(at)]);
          break;
        case 2: // paste a line from elsewhere
          text = MUTATORS.duplicate(text, rng);
          break;
        case 3: // undo to an earlier version
          text = texts[rng.int(texts.length)];
          break;
        default:
          text = MUTATORS[rng.pick(MUTATOR_NAMES)](text, rng);
      }
      texts.push(text);
    }
    const options = randomOptions(rng);
    if (process.env.FUZZ_DUMP) fs.writeFileSync(`${process.env.FUZZ_DUMP}-${s}.json`, JSON.stringify({ options, texts: texts.map((t) => t.toString('base64')) }));
    const o = await engine.run({ op: 'session', texts, options, compareFresh: true });
    const label = `session-${path.basename(SEED_FILES[seed], '.cu')}-${s}`;
    const failure = sessionFailure(o, texts, options);
    if (!failure) continue;
    // the corpus keeps the step that failed and the one before it: X.before.txt, X.after.txt
    const m = /edit (\d+)/.exec(failure);
    const step = m ? Number(m[1]) : o.kind === 'ok' ? o.r.slowest : texts.length - 1;
    const pairHash = Buffer.concat([texts[Math.max(0, step - 1)], Buffer.from([0]), texts[step]]);
    const saved = [];
    if (step > 0) saved.push(save({ label: `${label}-edit${step}`, bytes: texts[step - 1], options }, 'before', pairHash));
    saved.push(save({ label: `${label}-edit${step}`, bytes: texts[step], options }, 'after', pairHash));
    failures.push({ c: { label, bytes: texts[step], options }, failure, saved });
  }
  assert.equal(failures.length, 0, `${failures.length} of ${sessions} editing sessions fail:\n${report(failures)}`);
});
