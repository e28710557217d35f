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
  const depthAt = braceDepths(src);
  const useRe = /^[ \t]*([A-Za-z_]\w*)[ \t]*\(/gm;
  const own = src.split('\n');
  const ownLines = own.length;
  const out = text.split('');
  const appended: string[] = [];
  const segments: ExpansionSegment[] = [];
  for (let m; (m = useRe.exec(src)); ) {
    const at = m.index + m[0].indexOf(m[1]);
    if (depthAt(at) !== 0) continue;
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

/** The brace depth at an offset of `text`, past comments, string and character literals and `#` lines. */
function braceDepths(text: string): (at: number) => number {
  const depth = new Int32Array(text.length + 1);
  let d = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    depth[i] = d;
    if (c === '\n') {
      lineStart = true;
      continue;
    }
    if (lineStart && c === '#') {
      // a directive, continued with `\`
      while (i < text.length && !(text[i] === '\n' && text[i - 1] !== '\\')) depth[i++] = d;
      i--;
      continue;
    }
    if (!/\s/.test(c)) lineStart = false;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') depth[i++] = d;
      i--;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const stop = e < 0 ? text.length : e + 2;
      while (i < stop) depth[i++] = d;
      i--;
    } else if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) {
        depth[i] = d;
        if (text[i] === '\\') depth[++i] = d;
      }
      if (i < text.length) depth[i] = d;
    } else if (c === '{') d++;
    else if (c === '}' && d > 0) d--;
  }
  depth[text.length] = d;
  return (at) => depth[Math.min(Math.max(at, 0), text.length)];
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
