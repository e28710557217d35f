// Owns tree-sitter: loads web-tree-sitter and the CUDA grammar once, parses text (incrementally when asked).
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { Parser, Language, Tree, Node, Edit } from 'web-tree-sitter';

export type { Tree, Node };
export { Edit };

// Evaluation walks the same nodes once per loop iteration and template instance. web-tree-sitter makes a new Node
// (and a wasm round trip) for every field lookup and for `parent`, and crosses into wasm for `type`, `text`,
// `endIndex`, `endPosition` and `hasError`; a tree never changes (an edit is made on a copy, see analyze.ts), so each
// is memoised on the instance and read once per node. One getter per property with its own slot keeps each property
// read monomorphic.
{
  type Memo = { __fields?: Map<string, Node | null> };
  const proto = Node.prototype as unknown as Record<string, unknown>;
  const field = proto.childForFieldName as (this: Node, name: string) => Node | null;
  proto.childForFieldName = function (this: Node & Memo, name: string) {
    const m = (this.__fields ??= new Map());
    let v = m.get(name);
    if (v === undefined) m.set(name, (v = field.call(this, name)));
    return v;
  };
  const getter = (key: string) => Object.getOwnPropertyDescriptor(Node.prototype, key)!.get!;
  const memo = (key: string, get: (this: Record<string, unknown>, raw: () => unknown) => unknown) => {
    const raw = getter(key);
    Object.defineProperty(Node.prototype, key, { configurable: true, get(this: Record<string, unknown>) { return get.call(this, raw); } });
  };
  memo('type', function (raw) { return (this.__type ??= raw.call(this)); });
  memo('text', function (raw) { return (this.__text ??= raw.call(this)); });
  memo('parent', function (raw) { return this.__parent === undefined ? (this.__parent = raw.call(this)) : this.__parent; });
  memo('endIndex', function (raw) { return (this.__endIndex ??= raw.call(this)); });
  memo('endPosition', function (raw) { return (this.__endPosition ??= raw.call(this)); });
  memo('hasError', function (raw) { return (this.__hasError ??= raw.call(this)); });
}

let language: Language | null = null;
let initPromise: Promise<void> | null = null;

const GRAMMAR = 'tree-sitter-cuda.wasm';
const RUNTIME = 'web-tree-sitter.wasm';

/** Folders searched for the two .wasm files: next to the bundle (dist/), then node_modules. */
function candidates(file: string, extra?: string): string[] {
  const dirs = [extra, __dirname, path.join(__dirname, '..'), path.join(__dirname, '..', 'dist'),
    path.join(__dirname, '..', '..', '..', 'dist')].filter((d): d is string => !!d);
  const out = dirs.map((d) => path.join(d, file));
  try {
    out.push(require.resolve(file === GRAMMAR ? 'tree-sitter-cuda/tree-sitter-cuda.wasm' : 'web-tree-sitter/web-tree-sitter.wasm'));
  } catch {
    /* not installed: bundled use */
  }
  return out;
}

function find(file: string, extra?: string): string {
  for (const c of candidates(file, extra)) if (fs.existsSync(c)) return c;
  throw new Error(`cannot find ${file} (looked in: ${candidates(file, extra).join(', ')})`);
}

/**
 * Loads the runtime and grammar once; later calls return the same promise. `baselineWasm`: compile the grammar with
 * V8's baseline compiler only (Liftoff), never tiering up to the optimising one. The grammar is 4 MB of wasm; in a
 * fresh process the optimising compile of its hot functions costs more than it saves over a few files (on two
 * cores, the first parse of a 5,000-line file took several times as long), so a short-lived process (the command
 * line) asks for this; a long-lived one (the language server) keeps the default and parses faster once tiered up.
 * It sets a process-wide V8 flag: call it before anything else compiles wasm.
 */
export function initParser(options: { wasmDir?: string; baselineWasm?: boolean } = {}): Promise<void> {
  if (!initPromise) {
    if (options.baselineWasm) v8.setFlagsFromString('--liftoff-only');
    initPromise = (async () => {
      const runtime = find(RUNTIME, options.wasmDir);
      await Parser.init({ locateFile: () => runtime });
      language = await Language.load(fs.readFileSync(find(GRAMMAR, options.wasmDir)));
    })();
  }
  return initPromise;
}

let shared: Parser | null = null;

export function parse(text: string, old?: Tree | null): Tree {
  if (!language) throw new Error('initEngine() must finish before parsing');
  if (!shared) {
    shared = new Parser();
    shared.setLanguage(language);
  }
  const tree = shared.parse(text, old ?? null);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}

const exprCache = new Map<string, { tree: Tree; expr: Node } | null>();
const EXPR_CACHE_SIZE = 2000;

/**
 * Parses a standalone expression (a macro body, a constructor argument); null when it does not parse cleanly.
 * Results are cached and owned by the cache: callers must not delete the tree.
 */
export function parseExpression(text: string): { tree: Tree; expr: Node } | null {
  const hit = exprCache.get(text);
  if (hit !== undefined) return hit;
  return remember(exprCache, text, parseExpressionUncached(text));
}

/** Keeps a parse in a bounded cache: the oldest entry's tree is deleted when the cache is full. */
function remember<T extends { tree: Tree } | null>(cache: Map<string, T>, text: string, result: T): T {
  if (cache.size >= EXPR_CACHE_SIZE) {
    const [oldest, entry] = cache.entries().next().value as [string, T];
    entry?.tree.delete();
    cache.delete(oldest);
  }
  cache.set(text, result);
  return result;
}

function parseExpressionUncached(text: string): { tree: Tree; expr: Node } | null {
  const tree = parse(`int __bank_lens_x = (${text});`);
  const decl = tree.rootNode.firstNamedChild;
  const value = decl?.childForFieldName('declarator')?.childForFieldName('value');
  if (!decl || tree.rootNode.hasError || !value) {
    tree.delete();
    return null;
  }
  // unwrap the parentheses we added
  const expr = value.type === 'parenthesized_expression' && value.namedChildCount === 1 ? value.namedChild(0)! : value;
  return { tree, expr };
}

const stmtCache = new Map<string, { tree: Tree; stmts: Node[] } | null>();

/**
 * Parses statements standing alone (a statement-like macro's expansion followed by `{}`, starting on line `row`); null
 * when they do not parse cleanly. Cached and owned by the cache, like parseExpression's results.
 */
export function parseStatements(text: string, row = 1): { tree: Tree; stmts: Node[] } | null {
  // `row`: the line (0-based) the text starts on, so that a message naming a line of it names the user's line
  const key = row > 1 ? `${row}\u0000${text}` : text;
  const hit = stmtCache.get(key);
  if (hit !== undefined) return hit;
  const tree = parse(`void __bank_lens_f() {${'\n'.repeat(Math.max(1, row))}${text}\n}`);
  const body = tree.rootNode.firstNamedChild?.childForFieldName('body');
  let result: { tree: Tree; stmts: Node[] } | null = null;
  if (body && !tree.rootNode.hasError) result = { tree, stmts: body.namedChildren.filter((c): c is Node => !!c) };
  else tree.delete();
  return remember(stmtCache, key, result);
}
