// The declarations of a header that a file's kernels can use without the header's code: types (structs, classes,
// unions, enums, typedefs, `using`), constants (`constexpr`, `const`, `__constant__` tables) and class templates,
// inside their namespaces. The engine reads them after the file's own text (see analyze.ts's asAppended).
import { parse, type Node } from './parser';
import { blankInactive } from './preprocess';
import type { Range } from './conditionals';

export interface HeaderDecls {
  /** the declarations, one after the other; empty when the header has none. */
  text: string;
  /** for each line of `text` that starts a declaration (0-based): the header's line it came from (0-based). */
  lines: { at: number; line: number }[];
  /**
   * names declared differently in two branches of an `#if` the file cannot decide: the last declaration stands, said
   * so (`line`: the header's line of that `#if`, 0-based; `last`: the declaration read; `read`: another of the
   * header's declarations names it).
   */
  undecided?: { name: string; line: number; last: string; read: boolean }[];
}

const TYPES = new Set(['struct_specifier', 'class_specifier', 'union_specifier', 'enum_specifier']);
const memo = new Map<string, { defines: string; decls: HeaderDecls }>();
const MEMO_MAX = 256;

/**
 * `text`'s declarations (see above), its `#if`s decided with `defines` as the file's are. A member function keeps
 * its declaration and loses its body (`void score(float *bins) const;`): a call of it is one the file does not see,
 * as before, not one whose accesses would fall in the header. The branches of an undecided `#if` are read one after
 * the other (the last declaration of a name stands, as in the file's own text).
 */
export function headerDeclarations(path: string, text: string, arch: Range, defines: Record<string, string>): HeaderDecls {
  const key = JSON.stringify(defines) + `${arch.lo}:${arch.hi}`;
  const hit = memo.get(path + '\u0000' + text);
  if (hit && hit.defines === key) return hit.decls;
  const decls = read(text, arch, defines);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(path + '\u0000' + text, { defines: key, decls });
  return decls;
}

function read(text: string, arch: Range, defines: Record<string, string>): HeaderDecls {
  const out: string[] = [];
  const lines: { at: number; line: number }[] = [];
  let at = 0;
  if (!/\b(struct|class|union|enum|typedef|using|const|constexpr|__constant__)\b/.test(text)) return { text: '', lines };
  const src = blankInactive(text, arch, undefined, defines);
  const tree = parse(src);
  try {
    // the declarations each undecided chain's branches make, by name: the chain's `#if` node, the branch, the text
    const inChains = new Map<string, { chain: Node; branch: number; text: string }[]>();
    let chain: { root: Node; branch: number } | null = null;
    const emit = (piece: string, line: number, n?: Node) => {
      lines.push({ at, line });
      out.push(piece);
      at += piece.split('\n').length;
      if (chain && n) for (const name of declaredNames(n)) {
        const list = inChains.get(name) ?? [];
        list.push({ chain: chain.root, branch: chain.branch, text: n.text.replace(/\s+/g, ' ').trim() });
        inChains.set(name, list);
      }
    };
    const visit = (parent: Node, depth: number, wrap: (s: string) => string) => {
      if (depth > 8) return;
      for (const n of parent.namedChildren) {
        if (!n || n.hasError) continue;
        if (n.type === 'namespace_definition') {
          const name = n.childForFieldName('name')?.text;
          const body = n.childForFieldName('body');
          if (body) visit(body, depth + 1, (s) => wrap(name ? `namespace ${name} { ${s} }` : `namespace { ${s} }`));
          continue;
        }
        // an `#if` the file cannot decide (`#if defined(ENABLE_BF16)` / `typedef __nv_bfloat16 floatX;` / `#else` /
        // `typedef float floatX;`): every branch's declarations, in order, so the last one stands, as in the file's own
        // text (was: none, and `floatX` was not known)
        if (/^preproc_(?:if|ifdef|elif|elifdef|else)$/.test(n.type)) {
          const outer = chain;
          // a chain's `#elif` / `#else` is a child of the branch before it: the next branch of the same chain
          chain = /^preproc_(?:if|ifdef)$/.test(n.type) || !outer ? { root: n, branch: 0 } : { root: outer.root, branch: outer.branch + 1 };
          visit(n, depth + 1, wrap);
          chain = outer;
          continue;
        }
        if (n.type === 'linkage_specification') {
          const body = n.childForFieldName('body');
          if (body?.type === 'declaration_list') visit(body, depth + 1, wrap);
          else if (body && wanted(body)) emit(wrap(withoutBodies(body, src)), body.startPosition.row);
          continue;
        }
        if (wanted(n)) emit(wrap(withoutBodies(n, src) + (TYPES.has(n.type) ? ';' : '')), n.startPosition.row, n);
      }
    };
    visit(tree.rootNode, 0, (s) => s);
    const all = out.join('\n');
    const undecided: NonNullable<HeaderDecls['undecided']> = [];
    for (const [name, list] of inChains) {
      const last = list[list.length - 1];
      const rivals = list.filter((x) => x.chain.id === last.chain.id && x.branch !== last.branch && x.text !== last.text);
      if (!rivals.length) continue;
      // read by another of the header's declarations (`typedef Packed128<floatX> x128;`), not only declared
      const re = new RegExp(`\\b${name}\\b`, 'g');
      const uses = (t: string) => t.match(re)?.length ?? 0;
      const read = uses(all) > list.reduce((k, x) => k + uses(x.text), 0);
      undecided.push({ name, line: last.chain.startPosition.row, last: last.text, read });
    }
    return { text: all, lines, ...(undecided.length ? { undecided } : {}) };
  } finally {
    tree.delete();
  }
}

/** The names a declaration of wanted() declares: a typedef's, a `using`'s, a type's, a constant's. */
function declaredNames(n: Node): string[] {
  if (n.type === 'template_declaration') {
    const inner = n.namedChildren.find((c) => c && c.type !== 'template_parameter_list');
    return inner ? declaredNames(inner) : [];
  }
  if (TYPES.has(n.type)) return [n.childForFieldName('name')?.text].filter((x): x is string => !!x);
  if (n.type === 'alias_declaration') return [n.childForFieldName('name')?.text].filter((x): x is string => !!x);
  const out: string[] = [];
  for (const d of n.childrenForFieldName('declarator')) {
    let cur: Node | null = d;
    while (cur && cur.type !== 'identifier' && cur.type !== 'type_identifier' && cur.type !== 'field_identifier') cur = cur.childForFieldName('declarator') ?? cur.namedChildren.find((c) => !!c) ?? null;
    if (cur) out.push(cur.text);
  }
  return out;
}

/** A type, a constant or a class template: not a function. */
function wanted(n: Node): boolean {
  if (TYPES.has(n.type)) return !!n.childForFieldName('body');
  if (n.type === 'type_definition' || n.type === 'alias_declaration') return true;
  if (n.type === 'template_declaration') {
    const inner = n.namedChildren.find((c) => c && c.type !== 'template_parameter_list');
    return !!inner && (TYPES.has(inner.type) || inner.type === 'alias_declaration' || (inner.type === 'declaration' && constant(inner)));
  }
  if (n.type === 'declaration') return constant(n) || /\b__constant__\b/.test(n.text.split(/[=;{]/)[0] ?? '');
  return false;
}

/** `constexpr int TILE = 32;`, `static const float kScale = 0.5f;`: a constant with its value, not a function. */
function constant(n: Node): boolean {
  const head = n.text.split('=')[0] ?? '';
  if (!/\b(const|constexpr)\b/.test(head) || /\b(__shared__|extern)\b/.test(head)) return false;
  return n.childrenForFieldName('declarator').some((d) => d?.type === 'init_declarator');
}

/**
 * A node's text with the body of every function defined in it (member functions) replaced by `;` (a constructor's
 * initializer list with it).
 */
function withoutBodies(n: Node, src: string): string {
  const cuts: [number, number][] = [];
  const stack: Node[] = [n];
  while (stack.length) {
    const m = stack.pop()!;
    if (m.type === 'function_definition') {
      const body = m.childForFieldName('body');
      const init = m.namedChildren.find((c) => c?.type === 'field_initializer_list');
      if (body) cuts.push([(init ?? body).startIndex, body.endIndex]);
      continue;
    }
    for (const c of m.namedChildren) if (c) stack.push(c);
  }
  if (!cuts.length) return n.text;
  cuts.sort((a, b) => a[0] - b[0]);
  let s = '';
  let from = n.startIndex;
  for (const [a, b] of cuts) {
    s += src.slice(from, a) + ';';
    from = b;
  }
  return s + src.slice(from, n.endIndex);
}
