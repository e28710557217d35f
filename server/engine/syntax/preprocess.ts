// Our own small preprocessor pass: conditional regions decided false are blanked (offsets kept, so every
// position still maps to the user's text); `#define`s are collected from the tree and expanded lazily by eval.
import type { Node } from './parser';
import { decide, ALWAYS_DEFINED, NEVER_DEFINED, type ConditionEnv, type Range } from './conditionals';

export interface Macro {
  name: string;
  params: string[] | null;
  body: string;
  /** 0-based; -1 for a macro given from outside (`-D`). */
  line: number;
  /** the header it was read from (`#include "..."`), as the reader names it; its line is the header's. */
  from?: string;
}

/** A pointer cast, then a parenthesised name, then `+` or `-` (see blankInactive). */
const POINTER_CAST_OF_NAME = /(\(\s*[A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*\s*\*+\s*(?:const\s*)?\))(\s*)(\(\s*)([A-Za-z_]\w*)(\s*\))(?=\s*[-+](?![-+=]))/g;

/** A kernel's head with no type or name: execution spaces, `__launch_bounds__(...)`, `static`, `inline` and the like. */
const HEAD_ONLY = /^\s*(?:(?:__global__|__device__|__host__|__forceinline__|__noinline__|__inline__|inline|static|extern\s+"C"|__launch_bounds__\s*\([^()]*\))\s*)+$/;

/** A line of nothing but string literals (and a `//` comment). */
const STRING_LINE = /^\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+(?:\/\/.*)?$/;

/** A launch's `<<<` and `>>>` spelled with blanks inside (`<< <`, `>> >`); `operator<< <T>` is no launch. */
const SPACED_LAUNCH = /(?<!\boperator\s*)<<([ \t]*)<(?!<)([^;{}]*?)>>([ \t]*)>/g;

/** `const float * GGML_CUDA_RESTRICT src0`: an all-caps macro between `*` and the declared name, a qualifier to blank. */
const QUALIFIER_MACRO_SRC = String.raw`(\*[ \t]*)([A-Z][A-Z0-9_]*)([ \t]+(?!const\b|volatile\b)[A-Za-z_]\w*[ \t]*(?:[=,;)]|\[))`;
const QUALIFIER_MACRO = new RegExp(QUALIFIER_MACRO_SRC);
const QUALIFIER_MACRO_G = new RegExp(QUALIFIER_MACRO_SRC, 'g');

/**
 * Replaces the text of inactive conditional regions with spaces, keeping line breaks, spells CUDA's
 * `__align__(n)` as the `alignas(n)` the grammar knows and a launch's `<< <` ... `>> >` as `<<<` ... `>>>` (same
 * length, so every offset still holds).
 * An `#if` / `#ifdef` / `#elif` / `#else` branch is blanked when its condition is decided false from this file alone
 * (conditionals.ts: literals, the file's own `#define`s and `#undef`s and those given from outside (`defines`, as `-D`
 * gives them), `__CUDA_ARCH__` as the bank model's range of architectures `arch`), or when an earlier branch of its
 * chain is decided true. A chain whose branches are all
 * decided loses its directive lines too; a chain with an undecided branch keeps them, and all its undecided branches.
 * The line of the first undecided condition on `__CUDA_ARCH__` of each chain goes to `archUndecided` (0-based).
 * The offset of each use of a macro that opens or closes a block whose expansion does not fit in place goes to
 * `braceUnfit` (see spellBraceMacros).
 * `#pragma` lines (`#pragma unroll`) are blanked too: nothing in them changes an address, and the grammar reads one
 * between a `for (...)` and its body as the end of the loop (an empty body), leaving the body outside it. A
 * `#pragma pack(...)` line is kept: it changes the layout of the structs after it.
 */
export function blankInactive(text: string, arch: Range = { lo: 500, hi: Infinity }, archUndecided?: number[], defines?: Record<string, string>, braceUnfit?: { at: number; name: string }[], undecided?: UndecidedChain[]): string {
  // control characters are no C; the evaluator marks its own texts with \u0000 and \u0002 (values.ts THREAD, the
  // interpreter's UNKNOWN): a source that holds them must not pass for such a mark
  if (/[\u0000-\u0008]/.test(text)) text = text.replace(/[\u0000-\u0008]/g, ' ');
  if (/__launch_bounds__|__cluster_dims__|__maxnreg__/.test(text)) text = spellLaunchBoundsMacros(text);
  if (/\)\s*__global__\b/.test(text)) text = blankAttributeMacrosBeforeKernels(text);
  if (/\]\s*(?:__device__|__host__|[A-Z_][A-Z0-9_]*)\s*\(/.test(text)) text = blankLambdaSpaces(text);
  if (/^[ \t]*#[ \t]*define\b/m.test(text) || defines) text = spellKeywordMacros(text, defines);
  // a function-like macro that declares shared memory (`#define SMEM(T, name, n) __shared__ T name[n]`)
  if (/^[ \t]*#[ \t]*define[ \t]+\w+\([^)\n]*\)[ \t]*(?:(?:extern|static|volatile)[ \t]+)*__shared__\b/m.test(text) || text.includes('HIP_DYNAMIC_SHARED(')) text = spellSharedDeclarationMacros(text);
  // a macro that opens or closes a block (`#define BEGIN_GUARD(c) if (c) {`): as its expansion, where that fits
  if (/^[ \t]*#[ \t]*define\b/m.test(text)) text = spellBraceMacros(text, braceUnfit);
  // a macro that is a loop or `if` header (`#define FOR(i, n) for (int i = 0; i < (n); ++i)`) heading one statement
  if (/^[ \t]*#[ \t]*define[ \t]+\w+(?:\([^)\n]*\))?[ \t]*(?:for|while|if)\b/m.test(text)) text = braceHeaderMacroStatements(text);
  // a function-like macro, or an object-like one whose body (continued over `\` lines: GVDB's `#define GVDB_COPY_SMEM_F
  // \` ... `__syncthreads ();`) ends in `;`; a continued one was missed, its use and the next statement were lost
  if (/^[ \t]*#[ \t]*define[ \t]+\w+(?:\(|(?:[^\n\\]|\\\r?\n|\\)*;[ \t]*$)/m.test(text)) text = terminateStatementMacros(text);
  if (text.includes('__align__')) text = text.replace(/__align__(\s*)\(/g, (_m, ws: string) => `alignas  ${ws}(`);
  // `k << <grid, block >> > (args)`, as Visual Studio's formatter spaces a launch (nvcc accepts it): `<<<` and `>>>`
  if (/<<[ \t]+<|>>[ \t]+>/.test(text)) text = text.replace(SPACED_LAUNCH, (_m, ws1: string, config: string, ws2: string) => `<<<${ws1}${config}>>>${ws2}`);
  // `(int4 *)(p) + lane`: the grammar reads `(p)` as a cast of `+ lane` to a type `p` (and `% 32` after it as applying
  // to the whole cast); after a pointer cast, a parenthesised name followed by `+` or `-` is the value: unparenthesised
  if (/\*\s*(?:const\s*)?\)\s*\(/.test(text)) text = text.replace(POINTER_CAST_OF_NAME, (_m, cast: string, ws: string, open: string, name: string, close: string) =>
    `${cast}${ws}${' '.repeat(open.length)}${name}${' '.repeat(close.length)}`);
  // `#if __has_include(<cub/cub.cuh>)`: the grammar reads neither a `<path>` nor a `"path"` in a condition (the error
  // swallows the next definition); `0` padded to the same length parses, and the condition stays undecided as before
  if (text.includes('__has_include')) text = text.replace(/(__has_include(?:_next)?[ \t]*\([ \t]*)(<[^<>\n"]*>|"[^"\n]*")/g, (_m, head: string, path: string) => `${head}0${' '.repeat(path.length - 1)}`);
  // `const float * GGML_CUDA_RESTRICT src0 = p;`: a macro between `*` and the declared name can only be a qualifier
  // (`__restrict__`, or nothing), and the grammar reads no unknown name there (the error swallowed the kernel); blanked
  // like `#pragma`, outside preprocessor lines, only an all-capitals name followed by a declared name
  if (QUALIFIER_MACRO.test(text)) text = text.replace(/^(?![ \t]*#).*$/gm, (line) => (line.includes('*') ? line.replace(QUALIFIER_MACRO_G, (_m, star: string, mac: string, rest: string) => `${star}${' '.repeat(mac.length)}${rest}`) : line));
  // but `#pragma pack(...)`, which lays out the structs after it (the interpreter reads it, see packingAt)
  if (text.includes('pragma')) text = text.replace(/^[ \t]*#[ \t]*pragma\b(?![ \t]+pack\b)[^\n]*/gm, (m) => m.replace(/[^\s]/g, ' '));
  // and `_Pragma("unroll")` written in code (a macro's body keeps it: readMacro drops it there, and a `#define` line
  // must keep its text for the tree)
  if (text.includes('_Pragma')) text = text.replace(/^(?![ \t]*#).*$/gm, (line) => line.replace(PRAGMA_OPERATOR, (m) => m.replace(/[^\s]/g, ' ')));
  if (!/^[ \t]*#[ \t]*if/m.test(text)) return text;
  const lines = text.split('\n');
  // macros given from outside (`-D`) hold from the first line, as a compiler's do
  const env: ConditionEnv = { defined: new Map(Object.entries(defines ?? {}).map(([k, v]) => [definedMacro(k, v).name, v])), undefined: new Set(), arch };
  /** one `#if` chain: whether a branch was decided true, whether one was undecided, its directive lines. */
  interface Chain { taken: boolean; unsure: boolean; parentBlank: boolean; directives: number[]; archNoted?: number; inList: boolean; noted?: { line: number; names: string[] }; defs?: Map<string, number> }
  /** the first undecided condition of a chain that is not on `__CUDA_ARCH__` (that one has its own notice), and the names it does not know. */
  const note = (chain: Chain, line: number, cond: string) => {
    if (chain.noted || cond.includes('__CUDA_ARCH__')) return;
    const names = [...new Set((cond.replace(/\bdefined\b/g, ' ').match(/\b[A-Za-z_]\w*\b/g) ?? []).filter((n) => !env.defined.has(n) && !env.undefined.has(n) && !ALWAYS_DEFINED.has(n) && !NEVER_DEFINED.has(n)))];
    chain.noted = { line, names };
  };
  const stack: Chain[] = [];
  const blankLines = new Uint8Array(lines.length);
  // the directive lines of branches decided false, and true: where their chain keeps its directives, `#if 0` (`#elif
  // 1`) in their place tells the interpreter that no build (every build that reaches it) takes that branch (see
  // Interp.execPreprocChain)
  const decided: { lines: number[]; yes: boolean }[] = [];
  let blank = false;
  // how many parentheses the code read so far leaves open: a directive inside a parameter or argument list
  const parens = openParens();
  for (let i = 0; i < lines.length; i++) {
    const m = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|undef)\b(.*)$/.exec(lines[i]);
    if (!m) {
      if (blank) blankLines[i] = 1;
      else if (!/^[ \t]*#/.test(lines[i])) parens.read(lines[i]);
      continue;
    }
    // a directive continued with backslashes: its lines go with it
    let rest = m[2];
    const first = i;
    while (/\\\s*$/.test(lines[i]) && i + 1 < lines.length) rest = rest.replace(/\\\s*$/, ' ') + lines[++i];
    const own = Array.from({ length: i - first + 1 }, (_, k) => first + k);
    const kw = m[1];
    const top = stack[stack.length - 1];
    const cond = rest.replace(/\/\/.*|\/\*.*?\*\//g, '').trim();
    if (kw === 'define' || kw === 'undef') {
      if (blank) own.forEach((k) => (blankLines[k] = 1));
      else {
        const d = /^([A-Za-z_]\w*)(\()?\s*([\s\S]*)$/.exec(cond);
        // a definition under an undecided branch may or may not hold: its name is left unknown
        const unsure = stack.some((c) => c.unsure);
        if (d && kw === 'undef') {
          env.defined.delete(d[1]);
          if (unsure) env.undefined.delete(d[1]);
          else env.undefined.add(d[1]);
        } else if (d) {
          env.undefined.delete(d[1]);
          // a definition in an undecided branch: the tree holds it, and the facts take the last one (analyze.ts says so)
          const top = stack[stack.length - 1];
          if (unsure && top?.unsure) (top.defs ??= new Map()).set(d[1], first);
          if (unsure) env.defined.delete(d[1]);
          else env.defined.set(d[1], d[2] ? null : d[3]);
        }
      }
      continue;
    }
    if (kw === 'if' || kw === 'ifdef' || kw === 'ifndef') {
      const chain: Chain = { taken: false, unsure: false, parentBlank: blank, directives: own, inList: parens.depth() > 0 };
      stack.push(chain);
      if (!blank) {
        const name = cond.split(/\s/)[0];
        // an include guard (`#ifndef X` then `#define X`) is open the first time the file is read; a default
        // (`#ifndef WARP_SIZE` / `#define WARP_SIZE 32`) for a name given from outside is not taken
        const guard = kw === 'ifndef' && !env.defined.has(name) && /^[A-Za-z_]\w*$/.test(name) && new RegExp(`^[ \\t]*#[ \\t]*define[ \\t]+${name}\\b`).test(lines[i + 1] ?? '');
        const yes = guard ? true : decide(kw === 'if' ? cond : `${kw === 'ifndef' ? '!' : ''}defined(${name})`, env);
        if (yes === null && kw === 'if' && cond.includes('__CUDA_ARCH__')) {
          archUndecided?.push(first);
          chain.archNoted = first;
        }
        if (yes === null && !guard) note(chain, first, kw === 'if' ? cond : name);
        if (yes !== null && !guard) decided.push({ lines: [...own], yes });
        open(chain, yes);
      }
    } else if ((kw === 'elif' || kw === 'else') && top) {
      top.directives.push(...own);
      if (!top.parentBlank) {
        const yes = top.taken ? false : kw === 'else' ? true : decide(cond, env);
        if (yes === null && cond.includes('__CUDA_ARCH__') && top.archNoted === undefined) {
          archUndecided?.push(first);
          top.archNoted = first;
        }
        if (yes === null) note(top, first, cond);
        if (yes !== null && kw === 'elif') decided.push({ lines: [...own], yes });
        open(top, yes);
      }
    } else if (kw === 'endif' && top) {
      stack.pop();
      top.directives.push(...own);
      const settled = !top.parentBlank && (!top.unsure || onlyStrings(top.directives) || oneBranchInList(top) || oneHead(top));
      if (settled) for (const k of top.directives) blankLines[k] = 1;
      // every branch of it is read: the analysis says so where a branch holds an access (analyze.ts)
      if (!settled && top.unsure && (top.noted || top.defs) && !top.parentBlank) {
        const line = top.noted?.line ?? top.archNoted ?? top.directives[0];
        undecided?.push({ line, end: first, names: top.noted?.names ?? [], arch: !top.noted, defines: [...(top.defs ?? [])].map(([name, at]) => ({ name, line: at })) });
      }
      blank = top.parentBlank;
    }
    // inside a blanked region every line goes; otherwise a directive line stays until its chain is known decided
    const mine = kw === 'if' || kw === 'ifdef' || kw === 'ifndef' ? stack[stack.length - 1] : top;
    if (mine?.parentBlank) own.forEach((k) => (blankLines[k] = 1));
  }
  // a chain left open at the end of the file (half-typed) that is decided loses its directive lines as well
  for (const c of stack) if (!c.unsure && !c.parentBlank) for (const k of c.directives) blankLines[k] = 1;
  // an undecided chain whose branches hold only string literals (pieces of an inline asm string, `#if
  // __CUDACC_VER_MAJOR__ >= 11` choosing an instruction's spelling) sits inside an expression, where the grammar
  // cannot read a directive: its directive lines go and every branch's pieces stay, so each branch's text is read
  function onlyStrings(directives: number[]): boolean {
    const own = new Set(directives);
    let strings = 0;
    for (let k = Math.min(...directives) + 1; k < Math.max(...directives); k++) {
      if (own.has(k) || blankLines[k]) continue;
      if (STRING_LINE.test(lines[k])) strings++;
      else if (lines[k].trim() !== '') return false;
    }
    return strings > 0;
  }
  // an undecided chain inside a parameter or argument list (`short w,` / `#ifndef FIXED_WIDTH` / `short pitch,` /
  // `#endif`): the grammar reads no directive there, and the error swallowed the whole kernel. Where one branch is
  // left (the others decided false, or none), its directive lines go and the branch is read, as an undecided branch
  // between statements is; where two are left, their texts would both stand in the list, and nothing changes
  function oneBranchInList(chain: Chain): boolean {
    if (!chain.inList) return false;
    const ds = [...chain.directives].sort((a, b) => a - b);
    let kept = 0;
    for (let d = 0; d + 1 < ds.length; d++) {
      for (let k = ds[d] + 1; k < ds[d + 1]; k++) {
        if (!blankLines[k] && lines[k].trim() !== '') {
          kept++;
          break;
        }
      }
    }
    return kept <= 1;
  }
  // an undecided chain whose branches each hold only a kernel's specifiers, the same execution space in each (ccminer's
  // `#if __CUDA_ARCH__ == 500` / `__global__ __launch_bounds__(TPB50, 1)` / `#else` / `__global__
  // __launch_bounds__(TPB52, 1)` / `#endif` before `void kernel(...)`): both heads in a row are no C, and the error took
  // the kernel. The bounds change no address: the first branch left is read, the others and the directive lines go
  function oneHead(chain: Chain): boolean {
    const ds = [...chain.directives].sort((a, b) => a - b);
    const branches: number[][] = [];
    for (let d = 0; d + 1 < ds.length; d++) {
      const own = [];
      for (let k = ds[d] + 1; k < ds[d + 1]; k++) if (!blankLines[k] && lines[k].replace(/\/\/.*|\/\*.*?\*\//g, '').trim() !== '') own.push(k);
      if (own.length) branches.push(own);
    }
    if (branches.length < 2) return false;
    const spaces = branches.map((own) => {
      const head = own.map((k) => lines[k].replace(/\/\/.*|\/\*.*?\*\//g, '')).join(' ');
      if (!HEAD_ONLY.test(head)) return null;
      return ['__global__', '__device__', '__host__'].filter((w) => new RegExp(`\\b${w}\\b`).test(head)).join(' ');
    });
    if (spaces.some((s) => s === null || s === '' || s !== spaces[0])) return false;
    for (const own of branches.slice(1)) for (const k of own) blankLines[k] = 1;
    // no branch the choice of architecture would change is left: no notice for it
    const at = chain.archNoted === undefined ? -1 : archUndecided?.indexOf(chain.archNoted) ?? -1;
    if (at >= 0) archUndecided!.splice(at, 1);
    return true;
  }
  function open(chain: Chain, yes: boolean | null): void {
    if (yes === null) chain.unsure = true;
    if (yes === true) chain.taken = true;
    blank = yes === false;
  }
  for (const { lines: [head, ...rest], yes } of decided) {
    if (blankLines[head]) continue;
    const m = /^([ \t]*#[ \t]*)(if|ifdef|ifndef|elif)\b/.exec(lines[head])!;
    const spelled = `${m[1]}${m[2] === 'elif' ? 'elif' : 'if'} ${yes ? 1 : 0}`;
    if (spelled.length > lines[head].length) continue;
    lines[head] = spelled.padEnd(lines[head].length, ' ');
    for (const k of rest) blankLines[k] = 1;
  }
  for (let i = 0; i < lines.length; i++) if (blankLines[i]) lines[i] = lines[i].replace(/[^\s]/g, ' ');
  return lines.join('\n');
}

/** An `#if` chain whose condition is not decided (a name the file does not define): lines 0-based, `end` its `#endif`. */
export interface UndecidedChain {
  line: number;
  end: number;
  /** the names in the condition that are neither defined nor known undefined here. */
  names: string[];
  /** the chain's undecided condition is on `__CUDA_ARCH__` (its own notice says so). */
  arch: boolean;
  /** the macros its branches define, each with the line of its last definition there. */
  defines: { name: string; line: number }[];
}

/**
 * A macro that stands for `__launch_bounds__(...)` (PyTorch's `C10_LAUNCH_BOUNDS_1(256)`) between a kernel's return
 * type and its name leaves the grammar reading the macro as the declared name and the kernel as a function with no
 * type. Each use outside a `#` line is rewritten in place: as the `__launch_bounds__(...)` it expands to, padded with
 * spaces, where that fits in the use's own length, else blanked (the bound changes no address). Offsets are kept.
 */
function spellLaunchBoundsMacros(text: string): string {
  const defs = new Map<string, { params: string[] | null; body: string }>();
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(([^)\n]*)\))?[ \t]+((?:__launch_bounds__|__cluster_dims__|__maxnreg__)\b[^\n]*)$/gm;
  for (let m; (m = defRe.exec(text)); ) {
    const params = m[2] === undefined ? null : m[3].split(',').map((p) => p.trim()).filter((p) => p);
    defs.set(m[1], { params, body: m[4].replace(/\/\/.*$|\/\*.*?\*\//g, '').trim() });
  }
  return blankKernelAttributes(spellInPlace(text, defs, true));
}

/** The names the file `#define`s, each with the rest of its `#define` line (parameters and the first line of the body). */
function definedNames(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]*([^\n]*)$/gm)].map((m) => [m[1], m[2]]));
}

/**
 * A use of a function-like macro the file does not define, in capitals, right before `__global__` (PyTorch's
 * `template <typename T>` / `C10_LAUNCH_BOUNDS_1(1024)` / `__global__ void k(...)`, the macro from a header): a
 * kernel's attribute, which changes no address. The grammar read it as a declaration's type or name and, inside a
 * namespace, lost every kernel after it. Blanked, offsets kept.
 */
function blankAttributeMacrosBeforeKernels(text: string): string {
  const defined = definedNames(text);
  const out = text.split('');
  let changed = false;
  const re = /(^|[\s>;{}])([A-Z_][A-Z0-9_]*)[ \t]*\(/gm;
  for (let m; (m = re.exec(text)); ) {
    const at = m.index + m[1].length;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    if (defined.has(m[2]) || /^[ \t]*#/.test(text.slice(lineStart, at + 1))) continue;
    const call = callArguments(text, m.index + m[0].length - 1);
    if (!call || !/^\s*__global__\b/.test(text.slice(call.end + 1, call.end + 400))) continue;
    for (let k = at; k <= call.end; k++) if (!/\s/.test(text[k])) out[k] = ' ';
    changed = true;
    re.lastIndex = call.end + 1;
  }
  return changed ? out.join('') : text;
}

/**
 * An extended lambda's execution space between its captures and its parameters (`[] __device__ (float x) { ... }`,
 * `[=] __host__ __device__ (int i)`, PyTorch's `[] GPU_LAMBDA (T a)` with the macro from a header) is no C++ the grammar
 * knows: the error reached past the host function that holds it and the file's constants after it were lost (an
 * extent `kTile` not known). It changes no address: blanked, offsets kept. Only after `(`, `,` or `=` (a lambda
 * passed or assigned) and only those words or a name in capitals the file does not define as anything else.
 */
function blankLambdaSpaces(text: string): string {
  const defined = definedNames(text);
  const space = (w: string) => w === '__device__' || w === '__host__' || (/^[A-Z_][A-Z0-9_]*$/.test(w) && (!defined.has(w) || /^(?:__host__|__device__|\s)*$/.test(defined.get(w)!)));
  return text.replace(/([(,=]\s*\[[^\[\]\n]*\])(\s*)((?:[A-Za-z_]\w*\s+)*?[A-Za-z_]\w*)(\s*\()/g, (m, head: string, ws: string, words: string, open: string) =>
    words.split(/\s+/).every(space) ? `${head}${ws}${words.replace(/[^\s]/g, ' ')}${open}` : m);
}

/**
 * `__cluster_dims__(2, 1, 1)` (a thread block cluster's shape, cc 9.0) and `__maxnreg__(N)` between a kernel's return
 * type and its name are no C the grammar knows: it read the attribute as the declared name and lost the kernel, every
 * access of it unreported. Neither changes a shared-memory address: each use outside a `#` line is blanked (offsets kept).
 */
function blankKernelAttributes(text: string): string {
  if (!/__cluster_dims__|__maxnreg__/.test(text)) return text;
  const out = text.split('');
  const re = /\b(?:__cluster_dims__|__maxnreg__)\b/g;
  for (let m; (m = re.exec(text)); ) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, m.index + 1))) continue;
    let i = m.index + m[0].length;
    while (i < text.length && /\s/.test(text[i])) i++;
    const call = callArguments(text, i);
    const end = call ? call.end + 1 : m.index + m[0].length;
    for (let k = m.index; k < end; k++) if (!/\s/.test(text[k])) out[k] = ' ';
    re.lastIndex = end;
  }
  return out.join('');
}

/**
 * Each use (outside `#` lines) of the macros `defs` rewritten in place as its expansion (the arguments substituted,
 * parenthesised), padded with spaces, where that fits in the use's own length on its line. A use whose expansion
 * does not fit is blanked (`blankUnfit`) or left as it is; its offset goes to `unfit`. Offsets and lines are kept.
 */
function spellInPlace(text: string, defs: Map<string, { params: string[] | null; body: string }>, blankUnfit: boolean, unfit?: { at: number; end: number; name: string }[]): string {
  if (defs.size === 0) return text;
  const names = [...defs.keys()].map((n) => n.replace(/\$/g, '\\$')).join('|');
  const useRe = new RegExp(`\\b(${names})\\b`, 'g');
  const out = text.split('');
  for (let m; (m = useRe.exec(text)); ) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, m.index + 1))) continue;
    const def = defs.get(m[1])!;
    let end = m.index + m[1].length;
    let args: string[] = [];
    if (def.params) {
      let i = end;
      while (i < text.length && /\s/.test(text[i])) i++;
      const call = callArguments(text, i);
      if (!call) continue;
      args = call.args;
      if (args.length === 1 && args[0] === '' && def.params.length === 0) args = [];
      end = call.end + 1;
    }
    const map = new Map((def.params ?? []).map((p, k) => [p, args[k] ?? '']));
    const expansion = def.body.replace(/\b[A-Za-z_]\w*\b/g, (tok) => (map.has(tok) ? `(${map.get(tok)})` : tok)).replace(/\s+/g, ' ');
    const span = text.slice(m.index, end);
    const fits = expansion.length <= span.length && !span.includes('\n');
    if (!fits) unfit?.push({ at: m.index, end, name: m[1] });
    if (fits || blankUnfit)
      for (let k = m.index; k < end; k++) {
        const r = k - m.index;
        out[k] = fits ? (expansion[r] ?? ' ') : /\s/.test(text[k]) ? text[k] : ' ';
      }
    useRe.lastIndex = end;
  }
  return out.join('');
}

/**
 * A macro whose body opens or closes a brace it does not close or open (`#define BEGIN_GUARD(c) if (c) {`,
 * `#define END_GUARD }`, `#define FOR_ROWS for (int r = 0; r < 4; ++r) {`): the grammar reads neither use as a
 * statement, and the code between them (its accesses, and the rest of the kernel) was lost without a word. Each
 * use is spelled as its expansion where that fits in the use's length (see spellInPlace). A use whose expansion is
 * longer, of a macro whose body ends with the one brace it opens, keeps its text and gets that `{` in the blanks just
 * after it or at the start of the next line, after a `;`: the grammar reads `FOR_ROWS;{`, a macro then a block,
 * which the interpreter runs as the block the macro heads (execMacroHeader). Where any other use does not fit, no
 * use is spelled (their braces must stay balanced) and the offsets of those that do not fit go to `unfit`, for a notice.
 */
function spellBraceMacros(text: string, unfit?: { at: number; name: string }[]): string {
  const defs = new Map<string, { params: string[] | null; body: string }>();
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(([^)\n]*)\))?((?:[^\n\\]|\\\r?\n|\\)*)$/gm;
  const count = (body: string, c: RegExp) => (body.match(c) ?? []).length;
  const seen = new Set<string>();
  for (let m; (m = defRe.exec(text)); ) {
    const body = m[4].replace(/\\\r?\n/g, ' ').replace(/\/\/.*$|\/\*[\s\S]*?\*\//g, '').trim();
    const opens = count(body, /\{/g), closes = count(body, /\}/g);
    const again = seen.has(m[1]);
    seen.add(m[1]);
    // a string or character literal holding a brace is no block
    if ((opens === closes && !defs.has(m[1])) || /["']/.test(body)) continue;
    // defined again (`#ifdef CUDA_CODE` ... `#else` with a CPU loop instead): which one holds is not decided here
    if (again) return text;
    // a macro that opens anything but a statement's block (`#define NS_BEGIN namespace lib {`, `extern "C" {`): its
    // closing macro cannot be told from a statement's, so none of the file's brace macros is spelled (as before)
    if (opens > closes && !/\b(?:if|for|while|switch|do)\b/.test(body)) return text;
    const params = m[2] === undefined ? null : m[3].split(',').map((p) => p.trim()).filter((p) => p);
    defs.set(m[1], { params, body });
  }
  if (!defs.size) return text; // no block macro: nothing to spell (a walk and a copy of the whole text saved per keystroke)
  const left: { at: number; end: number; name: string }[] = [];
  const out = spellInPlace(text, defs, false, left).split('');
  const missed: { at: number; name: string }[] = [];
  for (const u of left) {
    const body = defs.get(u.name)!.body;
    const opener = body.endsWith('{') && count(body, /\{/g) === count(body, /\}/g) + 1;
    const nl = text.indexOf('\n', u.end);
    const rest = text.slice(u.end, nl < 0 ? text.length : nl);
    // only blanks (or a comment) after the use on its line: the block it opens starts on the next line
    const blank = (i: number) => text[i] === ' ' || text[i] === '\t';
    const at = !opener || !/^[ \t]*(?:\/\/.*|\/\*.*\*\/[ \t]*)?\r?$/.test(rest) ? -1
      : blank(u.end) && blank(u.end + 1) ? u.end
      : nl >= 0 && blank(nl + 1) && blank(nl + 2) ? nl + 1 : -1;
    if (at >= 0) {
      out[at] = ';';
      out[at + 1] = '{';
    } else missed.push({ at: u.at, name: u.name });
  }
  // one use left as it is would leave the braces of the others unbalanced: then none is spelled, and each use left is said
  if (missed.length) {
    unfit?.push(...missed);
    return text;
  }
  return out.join('');
}

/**
 * The mark a shared declaration spelled from a function-like macro's use begins with, in place of `__shared__` (see
 * spellSharedDeclarationMacros): facts read it as `__shared__`, the interpreter as an array declared in a macro's
 * expansion (no padding fix edits it). No comment of the user's reads as one: blankInactive replaces control characters.
 */
export const MACRO_SHARED_MARK = '/*\u0005*/';

/**
 * A function-like macro whose body declares one shared array (`#define SMEM(T, name, n) __shared__ T name[n]`,
 * `#define SHARED_TILE(name, T, N) __shared__ T s_##name[N]`), used as a statement (`SMEM(float, sm, 64);`): the
 * grammar reads a use with a type among its arguments as a broken declaration, and the array and every access of it
 * were lost without a word. Each use that starts a statement is spelled in place as its expansion (`##` pasted,
 * spaces squeezed, `__shared__` written as MACRO_SHARED_MARK) where that fits in the use's length; one that does not
 * fit is left as it was. Offsets and lines are kept.
 */
function spellSharedDeclarationMacros(text: string): string {
  const defs = new Map<string, Macro>();
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n\\]|\\\r?\n|\\)*)$/gm;
  for (let m; (m = defRe.exec(text)); ) {
    const body = m[3].replace(/\\\r?\n/g, ' ').replace(/\/\/.*$|\/\*[\s\S]*?\*\//g, '').trim().replace(/;$/, '').trim();
    // defined again: which one holds at a use is not decided here
    if (defs.has(m[1])) defs.set(m[1], { name: m[1], params: null, body: '', line: -1 });
    else if (/^(?:(?:extern|static|volatile)\s+)*__shared__\s+[^;{}=]*\[[^;{}]*\]$/.test(body)) defs.set(m[1], { name: m[1], params: m[2].split(',').map((p) => p.trim()).filter((p) => p), body, line: -1 });
  }
  for (const [k, d] of defs) if (!d.params) defs.delete(k);
  // HIP's header macro for the dynamic shared array (`HIP_DYNAMIC_SHARED(float, sdata)`, often with no `;`), where
  // the file does not define the name itself
  if (text.includes('HIP_DYNAMIC_SHARED(') && !/^[ \t]*#[ \t]*define[ \t]+HIP_DYNAMIC_SHARED\b/m.test(text))
    defs.set('HIP_DYNAMIC_SHARED', { name: 'HIP_DYNAMIC_SHARED', params: ['type', 'var'], body: 'extern __shared__ type var[]', line: -1 });
  if (!defs.size) return text;
  const out = text.split('');
  const useRe = new RegExp(`(^|[;{}])([ \\t]*)(${[...defs.keys()].join('|')})[ \\t]*\\(`, 'gm');
  for (let m; (m = useRe.exec(text)); ) {
    const at = m.index + m[1].length + m[2].length;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, at + 1)) || /\\\r?$/.test(text.slice(at, text.indexOf('\n', at) >>> 0))) continue;
    const mac = defs.get(m[3])!;
    const call = callArguments(text, m.index + m[0].length - 1);
    if (!call || call.args.length !== mac.params!.length) continue;
    // a name, a type and a number stand bare; an extent that is the whole subscript needs no parentheses
    const expansion = squeeze(substitute(mac, call.args, true).replace(/\[\(([^()[\]]*)\)\]/g, '[$1]')).replace(/\b__shared__\s*/, MACRO_SHARED_MARK);
    const span = text.slice(at, call.end + 1);
    // a use with no `;` after it (as HIP's is often written) ends its declaration where that fits
    const ended = /^[ \t]*;/.test(text.slice(call.end + 1, call.end + 80)) ? expansion : `${expansion};`;
    if (span.includes('\n') || ended.length > span.length) continue;
    for (let k = 0; k < span.length; k++) out[at + k] = ended[k] ?? ' ';
    useRe.lastIndex = call.end + 1;
  }
  return out.join('');
}

/** A C text with the blanks that separate no two words taken out. */
function squeeze(c: string): string {
  return c.replace(/\s+/g, ' ').replace(/ ?([^\w\s]) ?/g, '$1').trim();
}

/** The qualifiers and specifiers a keyword macro's body may hold (`#define GLOBAL extern "C" __global__`). */
const SPECIFIERS = new Set(['__global__', '__device__', '__host__', '__shared__', '__constant__', '__managed__', '__forceinline__', '__noinline__',
  '__inline__', 'inline', 'static', 'extern', '"C"', '__restrict__', 'restrict', 'volatile']);

/**
 * The comment a keyword macro's use is spelled as where its expansion does not fit in its own length
 * (`#define __local __shared__`, then `__local int s[64];`): a comment of one control character, \u0003 for
 * `__shared__`, \u0004 for `__global__`. No comment of the user's reads as one: blankInactive replaces control characters.
 */
export function keywordMark(keyword: '__shared__' | '__global__'): string {
  return keyword === '__shared__' ? '/*\u0003*/' : '/*\u0004*/';
}

/**
 * An object-like macro whose body is nothing but qualifiers and specifiers (`#define KERNEL __global__`,
 * `#define __local __shared__`, `#define __global` with no body, OpenCL-style code and its CUDA header) leaves the
 * grammar reading its use as a type name and the real type as an error: the kernel and its `__shared__` arrays were
 * lost. Each use outside a `#` line is rewritten in place: as its expansion where that fits in the use's own length,
 * else as the keyword's mark (keywordMark) where the body holds `__shared__` or `__global__` (facts read the mark as
 * the keyword), else blanked (the other specifiers change no address). Macros given from outside (`-D`) count too.
 */
function spellKeywordMacros(text: string, defines?: Record<string, string>): string {
  const bodies = new Map<string, string[]>();
  const add = (name: string, body: string) => {
    const words = body.replace(/\/\/.*$|\/\*.*?\*\//g, '').trim().split(/\s+/).filter((w) => w);
    if (words.every((w) => SPECIFIERS.has(w))) bodies.set(name, [...(bodies.get(name) ?? []), words.join(' ')]);
    else bodies.set(name, ['\u0000']); // also defined as something else: not a keyword macro
  };
  for (const [k, v] of Object.entries(defines ?? {})) if (/^[A-Za-z_]\w*$/.test(k)) add(k, v);
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])((?:[^\n\\]|\\(?!\r?\n))*)$/gm;
  for (let m; (m = defRe.exec(text)); ) add(m[1], m[2]);
  const spelled = new Map<string, string>();
  for (const [name, list] of bodies) if (!list.includes('\u0000')) spelled.set(name, list.reduce((a, b) => (b.length > a.length ? b : a)));
  if (spelled.size === 0) return text;
  // the blanks after a use are room too (`SMEM float s[8];`: `SMEM ` holds a mark); an expansion keeps one of them
  const useRe = new RegExp(`\\b(${[...spelled.keys()].join('|')})\\b([ \\t]*)`, 'g');
  return text.replace(/^(?![ \t]*#).*$/gm, (line) => line.replace(useRe, (use: string, name: string, blanks: string) => {
    const body = spelled.get(name)!;
    if (body.length + (blanks ? 1 : 0) <= use.length) return body.padEnd(use.length);
    const keyword = /\b__shared__\b/.test(body) ? '__shared__' : /\b__global__\b/.test(body) ? '__global__' : null;
    const mark = keyword ? keywordMark(keyword) : '';
    return mark.length <= use.length ? mark.padEnd(use.length) : ' '.repeat(use.length);
  }));
}

/**
 * A macro that is a loop or `if` header (`#define FOR(i, n) for (int i = 0; i < (n); ++i)`, `#define FOREACH_ROW
 * for (int r = 0; r < 4; ++r)`), heading one statement without braces (`FOR(j, 4) s[tid][j] = 0;`, also on the
 * next line, or under another such use): the grammar reads the use and the statement as one expression, and the
 * statement's accesses were lost or unknown. The statement gets braces in blanks: a `{` in a blank between the use
 * and the statement, a `}` in a blank just after the statement's `;` or at the start of the next line. The grammar
 * then reads a macro and a block, which the interpreter runs as the block the macro heads (execMacroHeader). Only a
 * simple statement (no braces, strings or keywords that head another statement) is braced; offsets and lines are kept.
 */
function braceHeaderMacroStatements(text: string): string {
  const headers = new Set<string>();
  const objects = new Set<string>();
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n\\]|\\\r?\n|\\)*)$/gm;
  const twice = new Set<string>();
  for (let m; (m = defRe.exec(text)); ) {
    const body = m[3].replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|\\\r?\n/g, ' ').trim();
    if (headers.has(m[1])) twice.add(m[1]);
    // function-like only: an object-like one before a block is read as a compound literal (see the interpreter)
    const head = /^(?:for|while|if)\s*\(/.exec(body);
    const close = head ? callArguments(body, head[0].length - 1) : null;
    if (close && close.end === body.length - 1 && !/[{};"']/.test(body.replace(/^for\s*\(([^()]*|\([^()]*\))*\)/, ''))) (m[2] ? headers : objects).add(m[1]);
  }
  for (const n of twice) {
    headers.delete(n);
    objects.delete(n);
  }
  if (!headers.size && !objects.size) return text;
  const out = text.split('');
  const blank = (c: string | undefined) => c === ' ' || c === '\t';
  const useRe = new RegExp(`\\b(${[...headers, ...objects].join('|')})\\b`, 'g');
  /** the end of the use of a header macro at `at` (its `)`, or its name's last character), or -1. */
  const useEnd = (at: number): number => {
    const m = /^([A-Za-z_]\w*)[ \t]*\(/.exec(text.slice(at, at + 200));
    if (!m || !headers.has(m[1])) return -1;
    return callArguments(text, at + m[0].length - 1)?.end ?? -1;
  };
  for (let m; (m = useRe.exec(text)); ) {
    // a use that starts a statement: after `;`, `{` or `}` (blanks and line breaks between)
    let b = m.index - 1;
    while (b >= 0 && /\s/.test(text[b])) b--;
    if (b >= 0 && !';{}'.includes(text[b])) continue;
    if (/^[ \t]*#/.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index + 1))) continue;
    if (objects.has(m[1])) {
      // an object-like one (`IF_LEADER s[w] = v;`, `IF_LEADER {`): the grammar reads the first as a declaration of
      // an array `s` of a type `IF_LEADER`, the second as a compound literal. A `;` in the blank just before what
      // follows, touching it, makes the use a statement of its own (the interpreter runs what touches it as its body)
      let p = m.index + m[0].length;
      while (p < text.length && /\s/.test(text[p])) p++;
      if (p === m.index + m[0].length || !blank(text[p - 1]) || text[p] === ';' || text[p] === '=' || text[p] === '(') continue;
      out[p - 1] = ';';
      useRe.lastIndex = p;
      continue;
    }
    // the chain of uses (`FOR(i, 4) FOR(j, 4) stmt;`), a `{` blank after each
    const opens: number[] = [];
    let at = m.index;
    let ok = true;
    for (;;) {
      const end = useEnd(at);
      if (end < 0) break;
      let p = end + 1;
      let slot = -1;
      while (p < text.length && /\s/.test(text[p])) {
        if (slot < 0 && blank(text[p])) slot = p;
        p++;
      }
      if (slot < 0 || text[p] === '{' || text[p] === ';') {
        ok = false;
        break;
      }
      opens.push(slot);
      at = p;
    }
    if (!ok || !opens.length) {
      useRe.lastIndex = m.index + m[0].length;
      continue;
    }
    // the statement: up to its `;` outside brackets; nothing that heads or holds another statement
    if (/^(?:if|for|while|do|switch|else|case|default|goto|try)\b/.test(text.slice(at, at + 8))) continue;
    let depth = 0;
    let semi = -1;
    for (let j = at; j < text.length && j < at + 4000; j++) {
      const c = text[j];
      if (c === '{' || c === '}' || c === '"' || c === "'" || c === '#' || (c === '/' && (text[j + 1] === '/' || text[j + 1] === '*'))) break;
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') {
        if (--depth < 0) break;
      } else if (c === ';' && depth === 0) {
        semi = j;
        break;
      }
    }
    if (semi < 0) continue;
    // as many blanks after the `;` as there are uses: on its line, or at the start of the next
    let q = semi + 1;
    if (!blank(text[q])) {
      if (text[q] === '\r') q++;
      if (text[q] !== '\n') continue;
      q++;
    }
    let room = 0;
    while (room < opens.length && blank(text[q + room])) room++;
    // too few blanks (`;` then the function's `}` at the start of the next line): the `;` itself becomes the first
    // `}` (the grammar supplies the `;` a statement lacks before a `}`)
    const closes = room >= opens.length ? Array.from(opens, (_, k) => q + k) : room + 1 >= opens.length ? [semi, ...Array.from({ length: opens.length - 1 }, (_, k) => q + k)] : null;
    if (!closes) continue;
    for (const o of opens) out[o] = '{';
    for (const c of closes) out[c] = '}';
    useRe.lastIndex = semi + 1;
  }
  return out.join('');
}

/**
 * A macro of the file whose body ends with `;` (`#define vload(v, a) v = *((float4 *)(a));`, `#define INIT t = 0;`) is
 * a statement, and is used without one (`vload(Av, &sa[i])` or `INIT` on a line of its own). The grammar reads such a use and
 * the next statement as one expression, and both are lost. A blank just after the use, or at the start of the next
 * line, becomes the `;` the expansion ends with; offsets and lines are kept.
 */
function terminateStatementMacros(text: string): string {
  const names: string[] = [], objects: string[] = [];
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n\\]|\\\r?\n|\\)*)$/gm;
  for (let m; (m = defRe.exec(text)); ) if (/;$/.test(m[3].replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|\\\r?\n/g, ' ').trim())) (m[2] ? names : objects).push(m[1]);
  if (!names.length && !objects.length) return text;
  // a function-like use ends at its `)`; an object-like one (`#define INIT tid = threadIdx.x;`, used as `INIT`) at its name
  const useRe = new RegExp([names.length ? `\\b(${names.join('|')})\\s*\\(` : '', objects.length ? `\\b(${objects.join('|')})\\b(?!\\s*\\()` : ''].filter((r) => r).join('|'), 'g');
  const out = text.split('');
  for (let m; (m = useRe.exec(text)); ) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, m.index + 1)) || /\\\r?$/.test(text.slice(m.index, text.indexOf('\n', m.index) >>> 0))) continue;
    const call = m[0].endsWith('(') ? callArguments(text, m.index + m[0].length - 1) : { end: m.index + m[0].length - 1 };
    if (!call) continue;
    // the next token after the use, past blanks and comments: a `;` (or the `\` of a macro body) needs nothing
    const rest = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text.slice(call.end + 1))![0];
    const next = text[call.end + 1 + rest.length];
    if (next === undefined || next === ';' || next === ')' || next === ',' || next === '\\') continue;
    const after = call.end + 1;
    const nl = text.indexOf('\n', after);
    const at = text[after] === ' ' || text[after] === '\t' ? after : nl >= 0 && (text[nl + 1] === ' ' || text[nl + 1] === '\t') && nl + 1 < after + rest.length ? nl + 1 : -1;
    if (at >= 0) out[at] = ';';
    useRe.lastIndex = call.end + 1;
  }
  return out.join('');
}

/**
 * The arguments of a macro call whose `(` is at `open`, split at top-level commas and trimmed, and the index of its
 * closing `)`; null when `open` is not a `(` or the call is not closed.
 */
export function callArguments(text: string, open: number): { args: string[]; end: number } | null {
  if (text[open] !== '(') return null;
  const args: string[] = [];
  let depth = 0, start = open + 1;
  for (let j = open; j < text.length; j++) {
    const c = text[j];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      args.push(text.slice(start, j).trim());
      return { args, end: j };
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, j).trim());
      start = j + 1;
    }
  }
  return null;
}

/**
 * The preprocessor's rescan, for an expansion whose braces do not balance on their own: each use in `text` of a
 * function-like macro of `macros` (and of an object-like one whose body has a brace) is replaced by its expansion,
 * rescanned in turn, `depth` levels deep; a macro is not expanded inside its own expansion. xGPU's
 * `#define TWO_BY_TWO_COMPUTE(s) TWO_BY_TWO_PRELOAD(s) sum += ...;}`, whose `{` is opened by the macro it uses, is
 * one block only so.
 */
export function rescanMacros(text: string, macros: Map<string, Macro>, depth: number, outer: ReadonlySet<string> = new Set()): string {
  if (depth <= 0) return text;
  const re = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\b[A-Za-z_]\w*\b/g;
  let out = '';
  let last = 0;
  for (let m; (m = re.exec(text)); ) {
    const mac = /^[A-Za-z_]/.test(m[0]) && !outer.has(m[0]) ? macros.get(m[0]) : undefined;
    if (!mac) continue;
    let end = m.index + m[0].length - 1;
    let expansion: string;
    if (mac.params) {
      const open = /^\s*\(/.exec(text.slice(end + 1));
      const call = open ? callArguments(text, end + open[0].length) : null;
      if (!call) continue;
      const args = call.args.length === 1 && call.args[0] === '' ? [] : call.args;
      if (args.length !== mac.params.length) continue;
      expansion = substitute(mac, args);
      end = call.end;
    } else if (/[{}]/.test(mac.body)) expansion = mac.body;
    else continue;
    out += text.slice(last, m.index) + ' ' + rescanMacros(expansion, macros, depth - 1, new Set([...outer, mac.name])) + ' ';
    last = re.lastIndex = end + 1;
  }
  return out + text.slice(last);
}

/** Whether `text`'s braces balance, outside string and character literals. */
export function bracesBalance(text: string): boolean {
  let depth = 0;
  for (const c of text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""')) {
    if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

/** `_Pragma("unroll 4")`, the operator form of `#pragma`. */
const PRAGMA_OPERATOR = /\b_Pragma\s*\(\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+\)/g;

/** Reads a `preproc_def` or `preproc_function_def` node. */
export function readMacro(node: Node): Macro | null {
  const name = node.childForFieldName('name')?.text;
  if (!name) return null;
  const value = node.childForFieldName('value');
  // `_Pragma("unroll")` (a loop macro's `#pragma`) changes no address and is no C the grammar reads: it goes, as `#pragma` lines do
  const body = (value?.text ?? '').replace(/\\\r?\n/g, ' ').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').replace(PRAGMA_OPERATOR, ' ').trim();
  let params: string[] | null = null;
  if (node.type === 'preproc_function_def') {
    const p = node.childForFieldName('parameters');
    params = p ? p.namedChildren.filter((c): c is Node => !!c).map((c) => c.text) : [];
  }
  return { name, params, body, line: node.startPosition.row };
}

/**
 * Substitutes a function-like macro's parameters (whole identifiers only) by the parenthesised arguments, as the
 * compiler does: an operand of `##` is its argument as written, pasted to its neighbour (`k_##tag##_kernel` with `tag`
 * `f32` is `k_f32_kernel`), and `#p` is the argument as a string literal.
 */
export function substitute(macro: Macro, args: string[], bareNames = false, variadic?: boolean): string {
  // `...` is no named parameter (the tree leaves it out; a `-D F(a,...)` keeps it): `__VA_ARGS__` stands for the
  // arguments after the named ones, as written, with their commas (`#define AT(a, ...) a[IDX(__VA_ARGS__)]`); where the
  // caller passes only the named ones (`variadic` false) it is left for the caller
  const named = (macro.params ?? []).filter((p) => p !== '...');
  const rest = /\b__VA_ARGS__\b/.test(macro.body) && (variadic ?? args.length > named.length) ? args.slice(named.length).map((a) => a.trim()).join(', ') : undefined;
  if (named.length === 0 && rest === undefined) return macro.body;
  const map = new Map(named.map((p, i) => [p, args[i] ?? '']));
  // `bareNames`: an argument that is one name stands as written, where a declaration (`constexpr static bool NAME`,
  // `using T = float;`) or template arguments (`func<T>`, `(k)<T>` would compare) need it bare
  const wrap = (a: string) => (bareNames && /^\s*[A-Za-z_][\w:]*\s*$/.test(a) ? a.trim() : `(${a})`);
  if (!macro.body.includes('#')) return macro.body.replace(/\b[A-Za-z_]\w*\b/g, (tok) => {
    if (tok === '__VA_ARGS__' && rest !== undefined) return rest;
    const a = map.get(tok);
    return a === undefined ? tok : wrap(a);
  });
  const toks = macro.body.match(/##|#\s*[A-Za-z_]\w*|[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\s+|[^]/g) ?? [];
  /** the nearest token on one side of `i` that is not white space. */
  const near = (i: number, d: number) => {
    for (let j = i + d; j >= 0 && j < toks.length; j += d) if (!/^\s+$/.test(toks[j])) return toks[j];
    return '';
  };
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '##') {
      // the white space on either side of the operator goes: the two neighbours become one token
      while (out.length && /^\s+$/.test(out[out.length - 1])) out.pop();
      while (i + 1 < toks.length && /^\s+$/.test(toks[i + 1])) i++;
      // `, ## __VA_ARGS__` with no variadic argument: the comma goes too (GNU, and what nvcc's front end does)
      if (toks[i + 1] === '__VA_ARGS__' && rest === '' && out[out.length - 1] === ',') out.pop();
      continue;
    }
    if (tok === '__VA_ARGS__' && rest !== undefined) {
      out.push(rest);
      continue;
    }
    const str = /^#\s*([A-Za-z_]\w*)$/.exec(tok);
    if (str) {
      const a = map.get(str[1]);
      const b = str[1] === '__VA_ARGS__' && rest !== undefined ? rest : a;
      out.push(b === undefined ? tok : JSON.stringify(b.trim().replace(/\s+/g, ' ')));
      continue;
    }
    const a = /^[A-Za-z_]/.test(tok) ? map.get(tok) : undefined;
    if (a === undefined) out.push(tok);
    else out.push(near(i, -1) === '##' || near(i, 1) === '##' ? a.trim() : wrap(a));
  }
  return out.join('');
}

/** `// bank-lens: block=16x16` (also `32`, `32x8x1`, several separated by commas) on each line. */
export function readDirectives(text: string): { line: number; blocks: [number, number, number][] }[] {
  const out: { line: number; blocks: [number, number, number][] }[] = [];
  if (!text.includes('bank-lens:')) return out;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /bank-lens:\s*block\s*=\s*([0-9xX, ]+)/.exec(lines[i]);
    if (!m) continue;
    const blocks: [number, number, number][] = [];
    for (const part of m[1].split(',')) {
      const b = parseBlock(part.trim());
      if (b) blocks.push(b);
    }
    if (blocks.length) out.push({ line: i, blocks });
  }
  return out;
}

/** `NAME=VALUE` (or `NAME`, which is `NAME=1`, as `-D` reads it): a macro given from outside; null when NAME is no identifier. */
export function parseDefine(text: string): [string, string] | null {
  // `NAME(a, b)=BODY`, a function-like macro as a compiler's `-D` takes it: the key keeps its parameter list
  const m = /^\s*([A-Za-z_]\w*)(\(\s*(?:[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)?\s*\))?(?:=(.*))?$/s.exec(text);
  return m ? [m[1] + (m[2] ? m[2].replace(/\s+/g, '') : ''), m[3] ?? '1'] : null;
}

/** A macro given from outside, keyed as parseDefine keys it (`N`, or `F(a,b)` for a function-like one). */
export function definedMacro(key: string, body: string): Macro {
  const m = /^(\w+)(?:\(([^)]*)\))?$/.exec(key);
  const params = m?.[2] === undefined ? null : m[2].split(',').filter((p) => p);
  return { name: m?.[1] ?? key, params, body: body.trim(), line: -1 };
}

/** `32`, `16x16`, `32x8x1` -> [x, y, z]; null if malformed or over 1,024 threads. */
export function parseBlock(s: string): [number, number, number] | null {
  const m = /^(\d+)(?:[xX](\d+))?(?:[xX](\d+))?$/.exec(s);
  if (!m) return null;
  const b: [number, number, number] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)];
  if (b.some((v) => v < 1) || b[0] * b[1] * b[2] > 1024) return null;
  return b;
}

/**
 * Counts the parentheses a text leaves open, line by line, past comments (also a block comment over several lines),
 * string and character literals.
 */
function openParens(): { read(line: string): void; depth(): number } {
  let depth = 0;
  let comment = false;
  return {
    depth: () => depth,
    read(line: string): void {
      for (let k = 0; k < line.length; k++) {
        const c = line[k];
        if (comment) {
          if (c === '*' && line[k + 1] === '/') {
            comment = false;
            k++;
          }
        } else if (c === '/' && line[k + 1] === '/') return;
        else if (c === '/' && line[k + 1] === '*') {
          comment = true;
          k++;
        } else if (c === '"' || c === "'") {
          for (k++; k < line.length && line[k] !== c; k++) if (line[k] === '\\') k++;
        } else if (c === '(') depth++;
        else if (c === ')' && depth > 0) depth--;
      }
    },
  };
}
