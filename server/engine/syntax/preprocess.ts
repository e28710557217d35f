// Our own small preprocessor pass: `#if 0` / `#if 1 ... #else` regions are blanked (offsets kept, so every
// position still maps to the user's text); `#define`s are collected from the tree and expanded lazily by eval.
import type { Node } from './parser';

export interface Macro {
  name: string;
  params: string[] | null;
  body: string;
  line: number;
}

/** A pointer cast, then a parenthesised name, then `+` or `-` (see blankInactive). */
const POINTER_CAST_OF_NAME = /(\(\s*[A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*\s*\*+\s*(?:const\s*)?\))(\s*)(\(\s*)([A-Za-z_]\w*)(\s*\))(?=\s*[-+](?![-+=]))/g;

/**
 * Replaces the text of inactive `#if 0` regions (and the `#else` of `#if 1`) with spaces, keeping line breaks, and
 * spells CUDA's `__align__(n)` as the `alignas(n)` the grammar knows (same length, so every offset still holds).
 * `#pragma` lines (`#pragma unroll`) are blanked too: nothing in them changes an address, and the grammar reads one
 * between a `for (...)` and its body as the end of the loop (an empty body), leaving the body outside it.
 */
export function blankInactive(text: string): string {
  if (text.includes('__launch_bounds__')) text = spellLaunchBoundsMacros(text);
  if (text.includes('__align__')) text = text.replace(/__align__(\s*)\(/g, (_m, ws: string) => `alignas  ${ws}(`);
  // `(int4 *)(p) + lane`: the grammar reads `(p)` as a cast of `+ lane` to a type `p` (and `% 32` after it as applying
  // to the whole cast); after a pointer cast, a parenthesised name followed by `+` or `-` is the value: unparenthesised
  if (/\*\s*(?:const\s*)?\)\s*\(/.test(text)) text = text.replace(POINTER_CAST_OF_NAME, (_m, cast: string, ws: string, open: string, name: string, close: string) =>
    `${cast}${ws}${' '.repeat(open.length)}${name}${' '.repeat(close.length)}`);
  if (text.includes('pragma')) text = text.replace(/^[ \t]*#[ \t]*pragma\b[^\n]*/gm, (m) => m.replace(/[^\s]/g, ' '));
  if (!/^[ \t]*#[ \t]*if/m.test(text)) return text;
  const lines = text.split('\n');
  const stack: { ours: boolean; taking: boolean; parentBlank: boolean }[] = [];
  let blank = false;
  for (let i = 0; i < lines.length; i++) {
    const m = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/.exec(lines[i]);
    let blankLine = blank;
    if (m) {
      const [, kw, rest] = m;
      const top = stack[stack.length - 1];
      if (kw === 'if' || kw === 'ifdef' || kw === 'ifndef') {
        const cond = rest.replace(/\/\/.*|\/\*.*?\*\//g, '').trim();
        const ours = kw === 'if' && /^(0|1|false|true)$/.test(cond);
        stack.push({ ours, taking: !ours || cond === '1' || cond === 'true', parentBlank: blank });
        if (ours) blankLine = true;
        blank = blank || !stack[stack.length - 1].taking;
      } else if ((kw === 'else' || kw === 'elif') && top?.ours) {
        top.taking = !top.taking;
        blankLine = true;
        blank = top.parentBlank || !top.taking;
      } else if (kw === 'endif' && top) {
        stack.pop();
        if (top.ours) blankLine = true;
        blank = top.parentBlank;
      }
    }
    if (blankLine) lines[i] = lines[i].replace(/[^\s]/g, ' ');
  }
  return lines.join('\n');
}

/**
 * A macro that stands for `__launch_bounds__(...)` (PyTorch's `C10_LAUNCH_BOUNDS_1(256)`) between a kernel's return
 * type and its name leaves the grammar reading the macro as the declared name and the kernel as a function with no
 * type. Each use outside a `#` line is rewritten in place: as the `__launch_bounds__(...)` it expands to, padded with
 * spaces, where that fits in the use's own length, else blanked (the bound changes no address). Offsets are kept.
 */
function spellLaunchBoundsMacros(text: string): string {
  const defs = new Map<string, { params: string[] | null; body: string }>();
  const defRe = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(([^)\n]*)\))?[ \t]+(__launch_bounds__\b[^\n]*)$/gm;
  for (let m; (m = defRe.exec(text)); ) {
    const params = m[2] === undefined ? null : m[3].split(',').map((p) => p.trim()).filter((p) => p);
    defs.set(m[1], { params, body: m[4].replace(/\/\/.*$|\/\*.*?\*\//g, '').trim() });
  }
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
    for (let k = m.index; k < end; k++) {
      const r = k - m.index;
      out[k] = fits ? (expansion[r] ?? ' ') : /\s/.test(text[k]) ? text[k] : ' ';
    }
    useRe.lastIndex = end;
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

/** Reads a `preproc_def` or `preproc_function_def` node. */
export function readMacro(node: Node): Macro | null {
  const name = node.childForFieldName('name')?.text;
  if (!name) return null;
  const value = node.childForFieldName('value');
  const body = (value?.text ?? '').replace(/\\\r?\n/g, ' ').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').trim();
  let params: string[] | null = null;
  if (node.type === 'preproc_function_def') {
    const p = node.childForFieldName('parameters');
    params = p ? p.namedChildren.filter((c): c is Node => !!c).map((c) => c.text) : [];
  }
  return { name, params, body, line: node.startPosition.row };
}

/** Substitutes a function-like macro's parameters (whole identifiers only) by the parenthesised arguments. */
export function substitute(macro: Macro, args: string[]): string {
  if (!macro.params || macro.params.length === 0) return macro.body;
  const map = new Map(macro.params.map((p, i) => [p, args[i] ?? '']));
  return macro.body.replace(/#?#?\b[A-Za-z_]\w*\b/g, (tok) => {
    if (tok.startsWith('#')) return tok; // stringising and pasting are not expanded
    const a = map.get(tok);
    return a === undefined ? tok : `(${a})`;
  });
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

/** `32`, `16x16`, `32x8x1` -> [x, y, z]; null if malformed or over 1,024 threads. */
export function parseBlock(s: string): [number, number, number] | null {
  const m = /^(\d+)(?:[xX](\d+))?(?:[xX](\d+))?$/.exec(s);
  if (!m) return null;
  const b: [number, number, number] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)];
  if (b.some((v) => v < 1) || b[0] * b[1] * b[2] > 1024) return null;
  return b;
}
