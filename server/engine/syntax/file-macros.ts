// Kernels a macro defines at file scope (`#define DEFINE_COPY(T) __global__ void copy_##T(T *p) { ... }`, used as
// `DEFINE_COPY(float)`, or through an X-macro list: `#define TYPES(X) X(float) X(double)` then `TYPES(DEFINE_COPY)`).
// The grammar sees no function there, so the kernels, their shared memory and their launches were not analysed. This
// pass writes each expansion after the file's text, line for line as the macro's definition is written, so that a
// finding in it maps back to the definition's line. Pure text: offsets of the file's own text are kept.
import { blankInactive, callArguments, substitute, type Macro } from './preprocess';
import type { Range } from './conditionals';

/** One expansion appended after the file: its first line in the combined text (0-based), the macro, its use. */
export interface ExpansionSegment {
  /** first line of the expansion in the combined text, and the line after its last (0-based). */
  from: number;
  to: number;
  /** the kernel-defining macro and the line of its `#define` (0-based): line `from + k` is the definition's line `defLine + k`. */
  macro: string;
  defLine: number;
  /** the use at file scope that expands to it (0-based line), and the list macro it went through, if any. */
  useLine: number;
  via?: string;
}

export interface FileMacroExpansion {
  text: string;
  segments: ExpansionSegment[];
  /** the lines of the file's own text (the combined text's lines below this one are expansions). */
  ownLines: number;
}

/** A function-like `#define` whose body holds `__global__`, as the text writes it (lines continued with `\`). */
interface KernelMacro extends Macro {
  params: string[];
  /** the definition's lines after the name and parameters: the first line's start blanked, each `\` removed. */
  lines: string[];
}

const KERNEL_MACRO_HINT = /^[ \t]*#[ \t]*define[ \t]+\w+\([^)\n]*\)(?:[^\n\\]|\\\r?\n|\\)*\b__global__\b/m;

/** How deep a list macro may hand a kernel macro on (`ALL(X)` -> `FLOATS(X) INTS(X)` -> `X(float) ...`). */
const LIST_DEPTH = 4;
/** At most this many kernels expanded per file. */
const MAX_EXPANSIONS = 64;

/**
 * The file's text with each file-scope use of a macro that defines a kernel (or instantiates one: `template
 * __global__ void k<T>(T *);`) blanked, and the expansions appended; null when the file has none.
 */
export function expandFileScopeKernelMacros(text: string, arch: Range, defines?: Record<string, string>): FileMacroExpansion | null {
  if (!KERNEL_MACRO_HINT.test(text)) return null;
  const src = blankInactive(text, arch, undefined, defines);
  const kernels = new Map<string, KernelMacro>();
  const lists = new Map<string, Macro>();
  const defRe = /^([ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\))((?:[^\n\\]|\\\r?\n|\\)*)$/gm;
  const twice = new Set<string>();
  for (let m; (m = defRe.exec(src)); ) {
    const name = m[2];
    const params = m[3].split(',').map((p) => p.trim()).filter((p) => p && p !== '...');
    const raw = m[4];
    const body = raw.replace(/\\\r?\n/g, ' ').replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ').trim();
    const line = countLines(src.slice(0, m.index));
    if (kernels.has(name) || lists.has(name)) twice.add(name);
    if (/\b__global__\b/.test(body)) {
      const lines = (' '.repeat(m[1].length) + raw).split('\n').map((l) => l.replace(/\\\r?$/, ' ').replace(/\r$/, ''));
      kernels.set(name, { name, params, body, line, lines });
    } else lists.set(name, { name, params, body, line });
  }
  // a macro defined twice (`#undef X` and again for the next list): which one a use means is not decided here
  for (const n of twice) {
    kernels.delete(n);
    lists.delete(n);
  }
  if (!kernels.size) return null;
  const scopeAt = braceScopes(src);
  // a use starts a line, or follows a brace or `;` on its line (`namespace ops { DEFINE_COPY(float) }`)
  const useRe = /(?:^|[{};])[ \t]*([A-Za-z_]\w*)[ \t]*\(/gm;
  const own = src.split('\n');
  const ownLines = own.length;
  const out = text.split('');
  const appended: string[] = [];
  const segments: ExpansionSegment[] = [];
  for (let m; (m = useRe.exec(src)); ) {
    const at = m.index + m[0].indexOf(m[1]);
    const where = scopeAt(at);
    if (where.depth !== 0) continue;
    const open = m.index + m[0].length - 1;
    const call = callArguments(src, open);
    if (!call) continue;
    const calls = kernelCalls(m[1], call.args, kernels, lists, LIST_DEPTH);
    if (!calls.length) continue;
    const useLine = countLines(src.slice(0, at));
    for (const c of calls) {
      if (segments.length >= MAX_EXPANSIONS) break;
      const k = kernels.get(c.name)!;
      const lines = k.lines.map((l) => substitute({ ...k, body: l }, c.args, true));
      if (where.openers.length) inScopes(lines, where.openers);
      const from = ownLines + appended.length;
      appended.push(...lines);
      segments.push({ from, to: from + lines.length, macro: k.name, defLine: k.line, useLine, ...(c.via ? { via: c.via } : {}) });
    }
    // the use itself is read no more: its text would be a declaration the grammar does not know
    let end = call.end + 1;
    if (src[end] === ';') end++;
    for (let i = at; i < end; i++) if (!/\s/.test(out[i])) out[i] = ' ';
    useRe.lastIndex = call.end + 1;
  }
  if (!segments.length) return null;
  return { text: out.join('') + '\n' + appended.join('\n'), segments, ownLines };
}

/**
 * An expansion used inside `namespace ops { ... }` or `extern "C" { ... }` is put back in them (its kernels keep their
 * qualified names), on its own lines: the openers where the first line is blank (the `#define`'s, usually only `\`),
 * the closing braces after the last.
 */
function inScopes(lines: string[], openers: string[]): void {
  const open = openers.map((o) => `${o} {`).join(' ');
  const first = lines[0];
  const lead = first.length - first.trimStart().length;
  if (!first.trim()) lines[0] = open;
  else if (lead > open.length) lines[0] = open + first.slice(open.length);
  else lines[0] = `${open} ${first}`;
  lines[lines.length - 1] += ' }'.repeat(openers.length);
}

/** The kernel macros a use at file scope calls: itself, or through list macros (`TYPES(DEFINE_COPY)`). */
function kernelCalls(name: string, args: string[], kernels: Map<string, KernelMacro>, lists: Map<string, Macro>, depth: number, via?: string): { name: string; args: string[]; via?: string }[] {
  const k = kernels.get(name);
  const list = args.length === 1 && args[0] === '' ? [] : args;
  if (k) return list.length === k.params.length || /\b__VA_ARGS__\b/.test(k.body) ? [{ name, args: list, ...(via ? { via } : {}) }] : [];
  const l = lists.get(name);
  if (!l || depth <= 0 || !l.params || (list.length !== l.params.length && !/\b__VA_ARGS__\b/.test(l.body))) return [];
  // only a list of calls: a macro name handed to it, and called in its body
  const body = substitute(l, list, true);
  const out: { name: string; args: string[]; via?: string }[] = [];
  const re = /\b([A-Za-z_]\w*)\s*\(/g;
  for (let m; (m = re.exec(body)); ) {
    const c = callArguments(body, m.index + m[0].length - 1);
    if (!c) break;
    out.push(...kernelCalls(m[1], c.args, kernels, lists, depth - 1, via ?? name));
    re.lastIndex = c.end + 1;
  }
  return out;
}

/**
 * Where an offset of `text` is, past comments, string and character literals and `#` lines: how many braces that are
 * not a namespace's or a linkage block's (`namespace ops {`, `namespace {`, `extern "C" {`) enclose it, and the
 * openers of those that do (outermost first), so that an expansion can be put back in them.
 */
function braceScopes(text: string): (at: number) => { depth: number; openers: string[] } {
  const depth = new Int32Array(text.length + 1);
  const scope = new Int32Array(text.length + 1);
  const chains: string[][] = [[]];
  // per open brace: the chain index it opened (namespace) or -1 (any other brace)
  const stack: number[] = [];
  let d = 0;
  let chain = 0;
  let lineStart = true;
  let last = 0; // the offset after the last `;`, `{` or `}`: where an opener's text starts
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    depth[i] = d;
    scope[i] = chain;
    if (c === '\n') {
      lineStart = true;
      continue;
    }
    if (lineStart && c === '#') {
      // a directive, continued with `\`
      while (i < text.length && !(text[i] === '\n' && text[i - 1] !== '\\')) (depth[i] = d), (scope[i++] = chain);
      i--;
      last = i + 1;
      continue;
    }
    if (!/\s/.test(c)) lineStart = false;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') (depth[i] = d), (scope[i++] = chain);
      i--;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const stop = e < 0 ? text.length : e + 2;
      while (i < stop) (depth[i] = d), (scope[i++] = chain);
      i--;
    } else if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) {
        depth[i] = d;
        scope[i] = chain;
        if (text[i] === '\\') (depth[++i] = d), (scope[i] = chain);
      }
      if (i < text.length) (depth[i] = d), (scope[i] = chain);
    } else if (c === '{') {
      const opener = d === 0 ? NAMESPACE_OPENER.exec(text.slice(Math.max(last, i - 200), i).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ')) : null;
      if (opener) {
        chains.push([...chains[chain], opener[1].replace(/\s+/g, ' ')]);
        chain = chains.length - 1;
        stack.push(chain);
      } else {
        stack.push(-1);
        d++;
      }
      last = i + 1;
    } else if (c === '}') {
      const top = stack.pop();
      if (top === -1) d--;
      else if (top !== undefined) chain = chainParent(chains, top);
      last = i + 1;
    } else if (c === ';') last = i + 1;
  }
  depth[text.length] = d;
  scope[text.length] = chain;
  return (at) => {
    const k = Math.min(Math.max(at, 0), text.length);
    return { depth: depth[k], openers: chains[scope[k]] };
  };
}

/** The text before a `{` that opens a namespace or a linkage block (what the brace encloses is still file scope). */
const NAMESPACE_OPENER = /(?:^|[\s;}])((?:inline\s+)?namespace(?:\s+[A-Za-z_][\w:]*)?|extern\s*"C(?:\+\+)?")\s*$/;

/** The chain a namespace brace's chain was made from: the same list less its last opener. */
function chainParent(chains: string[][], k: number): number {
  const want = chains[k].length - 1;
  for (let j = k - 1; j >= 0; j--) if (chains[j].length === want && chains[j].every((o, x) => o === chains[k][x])) return j;
  return 0;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
