// Facts of one file, read off the syntax tree: functions and kernels, macros, types, enums, file-scope constants
// and __shared__ declarations, launch sites, explicit instantiations and block-shape directives.
import { parse, type Node, type Tree } from '../syntax/parser';
import { Macro, readMacro, readDirectives, callArguments, substitute, keywordMark, MACRO_SHARED_MARK } from '../syntax/preprocess';

export interface TemplateParam {
  name: string;
  isType: boolean;
  /** a template template parameter (`template <typename> class B`): it takes the name of a template. */
  isTemplate?: boolean;
  /** a parameter pack (`int... Pads`, `typename... Ts`): it takes every argument from its place on. */
  isPack?: boolean;
  defaultNode: Node | null;
}

export interface FunctionFact {
  name: string;
  node: Node; // function_definition
  /** the top-level node (template_declaration or the function itself), for ranges and cache keys. */
  outer: Node;
  isKernel: boolean;
  isDevice: boolean;
  templateParams: TemplateParam[];
  /** the template parameters of the class template the function is a member of (`R<T>::get`), else []. */
  classTemplateParams: TemplateParam[];
  params: { name: string; node: Node }[];
  body: Node;
  /** the first argument of `__launch_bounds__(N[, M])` on the function (its most threads per block), else null. */
  launchBounds: Node | null;
  /** returns a reference (`float &at(int i)`, `-> float &`): what it returns is a place, read or written at the call. */
  returnsRef?: boolean;
}

export interface LaunchFact {
  kernel: string;
  templateArgs: Node[] | null;
  grid: Node | null;
  block: Node | null;
  /** the third launch parameter: bytes of dynamic shared memory. */
  shmem: Node | null;
  node: Node;
  /** the function the launch sits in (for dim3 and const locals). */
  caller: FunctionFact | null;
  /** `cudaLaunchKernel(k, grid, block, args, ...)`: the call's arguments are not the kernel's. */
  api?: boolean;
  /** `cudaLaunchKernelEx(&config, k, a, b)`: the kernel's arguments start at this index of the call's. */
  argsFrom?: number;
  /** what the assumptions call it: `the launch` unless said (`the CUDA graph kernel node`). */
  what?: string;
  /** a launch through a function pointer: the assignment in the launching function that gave it this kernel. */
  via?: Node;
  /** a launch through a function pointer given `c ? k1 : k2`: the conditions that pick this kernel, and which way. */
  picked?: { cond: Node; way: boolean }[];
  /**
   * the driver API's `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, ...)` gives each extent as its own argument: the grid's
   * and the block's three (`grid` and `block` are then their x arguments, for the text).
   */
  gridAxes?: Node[];
  blockAxes?: Node[];
}

export interface FileFacts {
  macros: Map<string, Macro>;
  functions: Map<string, FunctionFact[]>;
  kernels: FunctionFact[];
  /** struct/class/union specifiers and typedef/using aliases by name, resolved lazily by eval. */
  typeDecls: Map<string, Node>;
  enums: Map<string, Node>; // enumerator name -> enumerator node
  constants: Map<string, Node>; // file-scope `const`/`constexpr` variables -> init_declarator
  /**
   * names with their scopes (`Cfg::TILE`, `ns::W`, `Layout::RowMajor`) -> an enumerator, the init_declarator of a
   * namespace's constant, or the field_declaration of a `static const`/`static constexpr` member with its value.
   */
  scoped: Map<string, Node>;
  fileShared: Node[]; // file-scope declarations with __shared__
  /**
   * file-scope `__constant__` scalars that are not `const` (`__constant__ int d_dims;`, set by the host with
   * `cudaMemcpyToSymbol`) -> their declaration: the same value on every thread of a launch, not known here
   */
  constantVars: Map<string, Node>;
  /**
   * file-scope arrays whose elements are their braced initializer's (`constexpr int kOff[4] = {...}`, `static const`,
   * and `__constant__ int c_ring[16] = {...}` where the file never copies into it with `cudaMemcpyToSymbol` or takes
   * its address with `cudaGetSymbolAddress`) -> their init_declarator
   */
  constantTables: Map<string, Node>;
  /** file-scope one-dimensional `__constant__` arrays (`__constant__ int c_umax[32];`) -> their declaration */
  constantArrays: Map<string, Node>;
  launches: LaunchFact[];
  /** `template void f<float>(float *);` (args), or `template void f(float *);` (no args: `params` deduce them). */
  instantiations: { kernel: string; args: Node[]; node: Node; params?: Node | null }[];
  directives: { line: number; blocks: [number, number, number][] }[];
  /** text of everything outside the kernels: a change there can change any kernel's result. */
  signature: string;
  /**
   * the tree of the file with the launch macros its host functions use expanded (see macroLaunches), which the nodes
   * of those launches belong to: its owner deletes it with the file's tree.
   */
  expanded?: Tree;
  /**
   * host functions as that copy reads them, where a macro used there expands to a call of a host function that
   * launches (catboost's `#define COMPUTE(k) RunKernel<blockSize, Bits, k>(...)`, used as `COMPUTE(1)`): the calls
   * that bind a launcher's template parameters and arguments are read there
   */
  hostCopies?: Map<FunctionFact, FunctionFact>;
  /**
   * the names the file's own text defines more than once or `#undef`s (`#define STRIDE 2` ... `#undef STRIDE` /
   * `#define STRIDE 1` between two kernels, or a kernel's own `#define IDX(i)` ... `#undef IDX` in each of two
   * kernels): each `#define` and `#undef` (null) of them by its offset, in the order of the text. `macros` holds the
   * last definition; macrosFor() gives a function the ones in force where it stands.
   */
  macroHistory?: Map<string, { at: number; macro: Macro | null }[]>;
}

/**
 * A node's named children, and all its children. Kept on the node (evaluation visits the same nodes once per loop
 * iteration, and each read is a round trip into wasm): the arrays are shared, never modify them.
 */
type ChildMemo = { __named?: Node[]; __kids?: Node[] };
const NONE: Node[] = [];
/** What a function body must contain for the facts walk to enter it: a launch (a graph node's `.func =`), a macro, a type or enum definition. */
const BODY_FACTS = /<<<|\b(?:cuda|hip|cu|hipModule)Launch(?:Cooperative)?Kernel(?:Ex|ExC|GGL)?\b|\.func\s*=|#\s*define|\b(?:struct|class|union|enum|typedef|using)\b/;

export const named = (n: Node | null | undefined): Node[] =>
  n ? ((n as Node & ChildMemo).__named ??= n.namedChildren.filter((c) => c !== null) as Node[]) : NONE;
/** The arguments of a call's or a template's argument list, without the comments written among them (a comment naming a parameter). */
export const argumentNodes = (n: Node | null | undefined): Node[] => named(n?.childForFieldName('arguments')).filter((c) => c.type !== 'comment');
/** A condition or expression without the parentheses (and `if (...)`'s condition clause) around it. */
export function unparenthesized(n: Node | null): Node | null {
  while (n && (n.type === 'parenthesized_expression' || n.type === 'condition_clause')) n = n.childForFieldName('value') ?? named(n)[0] ?? null;
  return n;
}
export const kids = (n: Node): Node[] => ((n as Node & ChildMemo).__kids ??= n.children.filter((c) => c !== null) as Node[]);

/** C++'s alternative tokens (`and`, `or`, `not`, `bitand`, `not_eq`, `and_eq`, ...), spelled as their symbols. */
const ALTERNATIVE_TOKENS: Record<string, string> = {
  and: '&&', or: '||', not: '!', bitand: '&', bitor: '|', xor: '^', compl: '~', not_eq: '!=', and_eq: '&=', or_eq: '|=', xor_eq: '^=',
};

/** The operator of a binary, unary or assignment expression, an alternative token spelled as its symbol (`and`: `&&`). */
export function operatorOf(n: Node, fallback?: string): string | undefined {
  const text = n.childForFieldName('operator')?.text ?? (n.type === 'unary_expression' ? kids(n)[0]?.text : kids(n)[1]?.text) ?? fallback;
  return text === undefined ? undefined : ALTERNATIVE_TOKENS[text] ?? text;
}
/** The index of a subscript `a[i]` (the grammar puts it under `indices` or `index`); null for any other node. */
export const subscriptIndex = (n: Node | null | undefined): Node | null =>
  n?.type === 'subscript_expression' ? named(n.childForFieldName('indices'))[0] ?? n.childForFieldName('index') : null;
/** The file's root node, above any node of it (a function's `outer`). */
export function fileRoot(n: Node): Node {
  let root = n;
  for (let i = 0; root.parent && i < 256; i++) root = root.parent;
  return root;
}

/** The names (identifiers) written in `n`, in no particular order, with repeats. */
export function identifiersIn(n: Node): string[] {
  const out: string[] = [];
  const stack = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'identifier') out.push(c.text);
    for (const k of named(c)) stack.push(k);
  }
  return out;
}

/** Whether a tree's text holds a keyword macro's mark (preprocess.ts keywordMark): looked up once per tree. */
const markedTrees = new WeakMap<object, boolean>();
function holdsMarks(n: Node): boolean {
  let m = markedTrees.get(n.tree);
  if (m === undefined) markedTrees.set(n.tree, (m = /[\u0003\u0004\u0005]/.test(n.tree.rootNode.text)));
  return m;
}

export function hasToken(n: Node, tok: string): boolean {
  // a keyword macro's use the preprocessor spelled as a mark (preprocess.ts keywordMark): among the node's own
  // children (`static SHARED float s[8];`) or just before it (`SHARED float s[8];`, `KERNEL void k()`)
  if ((tok === '__shared__' || tok === '__global__') && holdsMarks(n)) {
    const marks = tok === '__shared__' ? [keywordMark(tok), MACRO_SHARED_MARK] : [keywordMark(tok)];
    if (n.previousSibling?.type === 'comment' && marks.includes(n.previousSibling.text)) return true;
    if (kids(n).some((c) => c.type === 'comment' && marks.includes(c.text))) return true;
  }
  for (const c of kids(n)) {
    if (c.type === tok || (c.type === 'type_qualifier' && c.text === tok)) return true;
    if (c.type === 'storage_class_specifier' && c.text === tok) return true;
  }
  return false;
}

export function isSharedDecl(n: Node): boolean {
  return n.type === 'declaration' && hasToken(n, '__shared__');
}

/** The name identifier inside a declarator chain (pointer, array, function, init, reference, qualified). */
export function declaratorName(d: Node | null): Node | null {
  let cur = d;
  for (let i = 0; cur && i < 64; i++) {
    if (cur.type === 'identifier' || cur.type === 'field_identifier' || cur.type === 'type_identifier') return cur;
    if (cur.type === 'qualified_identifier') cur = cur.childForFieldName('name');
    else if (cur.type === 'template_function') cur = cur.childForFieldName('name');
    else if (cur.type === 'destructor_name' || cur.type === 'operator_name') return cur;
    else cur = cur.childForFieldName('declarator') ?? named(cur).find((c) => c.type.endsWith('declarator') || c.type === 'identifier') ?? null;
  }
  return null;
}

function readFunction(fn: Node, outer: Node, templateParams: TemplateParam[], classTemplateParams: TemplateParam[] = []): FunctionFact | null {
  const body = fn.childForFieldName('body');
  const decl = fn.childForFieldName('declarator');
  let fdecl: Node | null = decl;
  // `float &at(int i)`, `T *get()`: the function declarator is inside a reference or pointer declarator (a
  // reference declarator holds it as a plain child, not in a `declarator` field)
  let returnsRef = false;
  for (let i = 0; fdecl && fdecl.type !== 'function_declarator' && i < 16; i++) {
    if (fdecl.type === 'reference_declarator') returnsRef = true;
    fdecl = fdecl.childForFieldName('declarator') ?? named(fdecl).find((c) => c.type.endsWith('declarator')) ?? null;
  }
  if (!body || !fdecl) return null;
  if (named(fdecl).some((c) => c.type === 'trailing_return_type' && /&\s*$/.test(c.text))) returnsRef = true;
  const nameNode = declaratorName(fdecl.childForFieldName('declarator'));
  if (!nameNode) return null;
  const params: { name: string; node: Node }[] = [];
  for (const p of named(fdecl.childForFieldName('parameters'))) {
    const n = declaratorName(p.childForFieldName('declarator'));
    if (n) params.push({ name: n.text, node: p });
  }
  const lb = kids(fn).find((c) => c.type === 'launch_bounds');
  return {
    name: nameNode.text,
    node: fn,
    outer,
    isKernel: hasToken(fn, '__global__'),
    isDevice: hasToken(fn, '__device__'),
    templateParams,
    classTemplateParams,
    params,
    body,
    launchBounds: (lb && named(lb)[0]) ?? null,
    ...(returnsRef ? { returnsRef } : {}),
  };
}

export function readTemplateParams(list: Node | null): TemplateParam[] {
  const out: TemplateParam[] = [];
  for (const p of named(list)) {
    const isType = p.type.includes('type_parameter');
    let nameNode: Node | null = null;
    // `template <typename> class Op`: its name is in the declaration after its own parameter list; dropping it would
    // bind every later parameter to the argument before its own
    if (p.type === 'template_template_parameter_declaration') {
      const decl = named(p).find((c) => c.type.includes('type_parameter'));
      nameNode = decl ? named(decl).find((c) => c.type === 'type_identifier') ?? null : null;
    } else if (isType) nameNode = p.childForFieldName('name') ?? named(p).find((c) => c.type === 'type_identifier') ?? null;
    else nameNode = declaratorName(p.childForFieldName('declarator'));
    if (!nameNode) continue;
    const isTemplate = p.type === 'template_template_parameter_declaration';
    const isPack = p.type.startsWith('variadic_');
    out.push({ name: nameNode.text, isType, ...(isTemplate ? { isTemplate } : {}), ...(isPack ? { isPack } : {}), defaultNode: p.childForFieldName('default_value') ?? p.childForFieldName('default_type') });
  }
  return out;
}

/**
 * Every parameter a function declares, named or not (`params` holds the named ones only: a tag `std::true_type`, an
 * `int` left without a name, are left out there), in order.
 */
export function declaredParams(def: FunctionFact): Node[] {
  let out = declaredMemo.get(def);
  if (out) return out;
  const list = def.params[0]?.node.parent ?? null;
  let fd: Node | null = def.node.childForFieldName('declarator');
  for (let i = 0; fd && fd.type !== 'function_declarator' && i < 16; i++) fd = fd.childForFieldName('declarator') ?? named(fd).find((c) => c.type.endsWith('declarator')) ?? null;
  const all = named((list?.type === 'parameter_list' ? list : fd?.childForFieldName('parameters')) ?? null).filter((c) => /^(optional_|variadic_)?parameter_declaration$/.test(c.type));
  declaredMemo.set(def, (out = all.length > def.params.length ? all : def.params.map((p) => p.node)));
  return out;
}
const declaredMemo = new WeakMap<FunctionFact, Node[]>();

/** How many parameters a function declares, named or not (see declaredParams). */
export const paramCount = (def: FunctionFact): number => declaredParams(def).length;

/**
 * Where a function declares an unnamed parameter, the position among all its parameters of each named one (see
 * declaredParams); null where every parameter is named.
 */
export function paramPositions(def: FunctionFact): number[] | null {
  if (positionMemo.has(def)) return positionMemo.get(def)!;
  const all = declaredParams(def);
  let out: number[] | null = all.length > def.params.length ? def.params.map((p) => all.findIndex((c) => c.id === p.node.id)) : null;
  if (out?.some((k) => k < 0)) out = null;
  positionMemo.set(def, out);
  return out;
}
const positionMemo = new WeakMap<FunctionFact, number[] | null>();

/** The named parameter declared at position `i` among all of a function's parameters (see paramPositions). */
export function paramAt(def: FunctionFact, i: number): { name: string; node: Node } | undefined {
  const at = paramPositions(def);
  return at ? def.params[at.indexOf(i)] : def.params[i];
}

/** Reads a top-level function (plain or template) the way collectFacts does, for reusing the rest of the facts. */
export function readTopLevelFunction(node: Node): FunctionFact | null {
  if (node.type === 'function_definition') return readFunction(node, node, []);
  if (node.type !== 'template_declaration') return null;
  const inner = named(node).find((c) => c.type === 'function_definition');
  return inner ? readFunction(inner, node, readTemplateParams(node.childForFieldName('parameters'))) : null;
}

/** An init_declarator of an array (`t[16]`, `t[]`, `t[2][4]`) given a braced initializer. */
function tableDeclarator(d: Node): boolean {
  return d.type === 'init_declarator' && d.childForFieldName('declarator')?.type === 'array_declarator' && d.childForFieldName('value')?.type === 'initializer_list';
}

/**
 * Whether the `__constant__` table `name` may be written (so that its initializer need not hold): the file names it
 * other than to read an element (`c_ring[i]`), as `cudaMemcpyToSymbol(c_ring, ...)`, `cudaGetSymbolAddress(&p,
 * c_ring)` or a wrapper given the symbol do, or takes an element's address. Comments are not read.
 */
function writtenSymbol(text: string, name: string, decl: Node): boolean {
  const code = text.slice(0, decl.startIndex) + ' '.repeat(decl.endIndex - decl.startIndex) + text.slice(decl.endIndex);
  const bare = code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '));
  const uses = new RegExp(`(&\\s*)?\\b${name}\\b(\\s*\\[)?`, 'g');
  // the range of a range-based `for` (`for (int s : c_steps)`) reads each element
  for (let m; (m = uses.exec(bare)); ) if ((m[1] || !m[2]) && !/\bfor\s*\([^;(){}]*[^:]:\s*$/.test(bare.slice(Math.max(0, m.index - 200), m.index))) return true;
  return false;
}

/** nodes whose children are items of the file scope when they are. */
const TOP_CONTAINERS = new Set(['namespace_definition', 'declaration_list', 'linkage_specification', 'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif']);

/**
 * The names defined more than once, or `#undef`ined (the text's `#undef` lines: branches decided false are blank),
 * with each definition and `#undef` by offset, in file order; undefined when there is none.
 */
function macroHistory(defined: { at: number; macro: Macro }[], text: string, ownEnd: number): FileFacts['macroHistory'] {
  const undone = text.includes('undef') ? [...text.matchAll(/^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)/gm)].filter((m) => m.index! < ownEnd) : [];
  const count = new Map<string, number>();
  for (const d of defined) count.set(d.macro.name, (count.get(d.macro.name) ?? 0) + 1);
  const names = new Set([...count].filter(([, n]) => n > 1).map(([k]) => k));
  for (const m of undone) names.add(m[1]);
  if (!names.size) return undefined;
  const out = new Map<string, { at: number; macro: Macro | null }[]>();
  const add = (name: string, at: number, macro: Macro | null) => {
    if (!names.has(name)) return;
    const list = out.get(name) ?? [];
    list.push({ at, macro });
    out.set(name, list);
  };
  for (const d of defined) add(d.macro.name, d.at, d.macro);
  for (const m of undone) add(m[1], m.index!, null);
  for (const list of out.values()) list.sort((a, b) => a.at - b.at);
  return out;
}

/**
 * `ownEnd`: where the file's own text ends in a text that goes on with other files' (a header's declarations, the
 * files that include it: see analyze.ts's asAppended): a name defined in the file keeps the file's definition.
 */
export function collectFacts(root: Node, text: string, ownEnd = Infinity): FileFacts {
  const facts: FileFacts = {
    macros: new Map(),
    functions: new Map(),
    kernels: [],
    typeDecls: new Map(),
    enums: new Map(),
    constants: new Map(),
    scoped: new Map(),
    fileShared: [],
    constantVars: new Map(),
    constantTables: new Map(),
    constantArrays: new Map(),
    launches: [],
    instantiations: [],
    directives: readDirectives(text),
    signature: '',
  };
  const sig: Node[] = [];
  /** every definition of the file's own text, for macroHistory */
  const defined: { at: number; macro: Macro }[] = [];
  const launching = new Set<FunctionFact>();
  /** Map.set, but a definition after the file's own text does not replace one of the file's. */
  const put = <V>(m: Map<string, V>, k: string, v: V, at: Node): void => {
    if (at.startIndex >= ownEnd && m.has(k)) return;
    m.set(k, v);
  };
  /**
   * `put` for a constant or an enumerator by its plain name: one of the global namespace is not replaced by a
   * namespace's of the same name (a kernel in the namespace finds that one by its scopes: `facts.scoped`).
   */
  const putConstant = (m: Map<string, Node>, k: string, v: Node): void => {
    const had = m.get(k);
    if (had && !inNamespace(had) && inNamespace(v)) return;
    put(m, k, v, v);
  };
  /** a constant under its scopes' names: `ns::In::K`; an enumerator of an unscoped enum also without the enum's. */
  const addScoped = (node: Node, name: string) => {
    const path: string[] = [];
    let unscopedEnum = false;
    for (let p = node.parent; p; p = p.parent) {
      // a local is not one; a class template's member is (evaluated where its arguments are bound: `R<double>::get`)
      if (p.type === 'function_definition') return;
      if (p.type === 'namespace_definition' || p.type === 'struct_specifier' || p.type === 'class_specifier' || p.type === 'union_specifier' || p.type === 'enum_specifier') {
        const n = p.childForFieldName('name');
        if (p.type === 'enum_specifier' && !kids(p).some((c) => c.type === 'class' || c.type === 'struct')) {
          if (path.length === 0) unscopedEnum = true;
        }
        if (n) path.unshift(n.text);
      }
    }
    const add = (parts: string[]) => { if (parts.length) put(facts.scoped, [...parts, name].join('::'), node, node); };
    add(path);
    if (unscopedEnum) add(path.slice(0, -1));
  };
  const addFn = (f: FunctionFact) => {
    const list = facts.functions.get(f.name) ?? [];
    list.push(f);
    facts.functions.set(f.name, list);
    if (f.isKernel) facts.kernels.push(f);
    else sig.push(f.outer);
  };
  // explicit stack: deep input must not overflow the JS stack
  // `top`: the node is an item of the file scope (its parent is the root or a namespace, `extern "C"` or `#if` body
  // at file scope). Tree-sitter makes a new Node object per lookup, so `node.parent === root` is never true.
  // `cls`: the parameters of the class template the node is inside (its member functions are bound by `R<T>::f`)
  const stack: { node: Node; fn: FunctionFact | null; depth: number; top: boolean; cls: TemplateParam[] }[] = [{ node: root, fn: null, depth: 0, top: false, cls: [] }];
  while (stack.length) {
    const { node, fn, depth, top, cls } = stack.pop()!;
    if (depth > 2000) continue;
    const container = node === root || (top && TOP_CONTAINERS.has(node.type));
    const push = (n: Node, f: FunctionFact | null, c = cls) => stack.push({ node: n, fn: f, depth: depth + 1, top: !f && container, cls: c });
    // a function body holds facts only where it launches a kernel or defines a macro or a type (walking every node
    // of every kernel costs as much as the parse): its text says whether to look
    const pushBody = (f: FunctionFact) => {
      if (BODY_FACTS.test(f.body.text)) push(f.body, f);
    };
    switch (node.type) {
      case 'preproc_def':
      case 'preproc_function_def': {
        const m = readMacro(node);
        if (m) put(facts.macros, m.name, m, node);
        if (m && node.startIndex < ownEnd) defined.push({ at: node.startIndex, macro: m });
        if (!fn) sig.push(node);
        continue;
      }
      case 'template_declaration': {
        const tp = readTemplateParams(node.childForFieldName('parameters'));
        const inner = named(node).find((c) => c.type === 'function_definition');
        if (inner) {
          const f = readFunction(inner, node, tp, cls);
          if (f) {
            addFn(f);
            pushBody(f);
          }
        } else {
          for (const c of named(node)) push(c, fn, [...cls, ...tp]);
          if (!fn) sig.push(node);
        }
        continue;
      }
      case 'function_definition': {
        const f = readFunction(node, node, [], cls);
        if (f) {
          addFn(f);
          pushBody(f);
        }
        continue;
      }
      case 'template_instantiation': {
        const d = node.childForFieldName('declarator');
        let fd: Node | null = d;
        for (let i = 0; fd && fd.type !== 'function_declarator' && i < 8; i++) fd = fd.childForFieldName('declarator');
        const tf = fd?.childForFieldName('declarator');
        if (tf && tf.type === 'template_function') {
          const name = tf.childForFieldName('name')?.text;
          const args = argumentNodes(tf);
          if (name) facts.instantiations.push({ kernel: name, args, node });
        } else if (tf && (tf.type === 'identifier' || tf.type === 'qualified_identifier')) {
          // `template void launch(float *dst, int n);`: the arguments are deduced from the parameter types
          let id: Node | null = tf;
          for (let i = 0; id && id.type === 'qualified_identifier' && i < 16; i++) id = id.childForFieldName('name');
          if (id?.type === 'identifier') facts.instantiations.push({ kernel: id.text, args: [], node, params: fd?.childForFieldName('parameters') ?? null });
        }
        if (!fn) sig.push(node);
        continue;
      }
      case 'struct_specifier':
      case 'class_specifier':
      case 'union_specifier': {
        const n = node.childForFieldName('name');
        if (n && node.childForFieldName('body')) put(facts.typeDecls, n.text, node, node);
        // a class template declared and never defined, only specialized (`template <typename T> struct SharedMemory;`):
        // its parameters tell which specialization an instance is (a definition, before or after, wins)
        else if (n?.type === 'type_identifier' && node.parent?.type === 'template_declaration' && !facts.typeDecls.has(n.text)) put(facts.typeDecls, n.text, node, node);
        break; // nested definitions and enums inside
      }
      case 'type_definition': {
        for (const d of node.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
          const n = declaratorName(d);
          if (n) put(facts.typeDecls, n.text, node, node);
        }
        break;
      }
      case 'alias_declaration': {
        const n = node.childForFieldName('name');
        if (n) put(facts.typeDecls, n.text, node, node);
        if (!fn) sig.push(node);
        continue;
      }
      case 'enumerator': {
        const n = node.childForFieldName('name');
        if (n) {
          putConstant(facts.enums, n.text, node);
          addScoped(node, n.text);
        }
        continue;
      }
      case 'field_declaration': {
        // `static constexpr int TILE = 32;` in a struct or class: read as `Cfg::TILE`
        const n = declaratorName(node.childForFieldName('declarator'));
        if (n && node.childForFieldName('default_value') && hasToken(node, 'static') && (hasToken(node, 'const') || hasToken(node, 'constexpr')))
          addScoped(node, n.text);
        // `enum { value = sizeof(T) / 4 };` in a struct (a traits class's constant): its enumerators are `Words::value`
        const ft = node.childForFieldName('type');
        if (ft?.type === 'enum_specifier') push(ft, fn);
        continue;
      }
      case 'declaration': {
        if (!fn) {
          sig.push(node);
          if (isSharedDecl(node)) facts.fileShared.push(node);
          else if (hasToken(node, '__constant__') && !/\b(const|constexpr)\b/.test(node.text.split('=')[0] ?? '')) {
            // a scalar only: the declarator is the name, or the name with an initializer
            for (const d of node.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
              const n = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
              if (n?.type === 'identifier') put(facts.constantVars, n.text, node, node);
              // a table with its values, which the host never replaces: the values are the initializer's
              const name = declaratorName(d)?.text;
              if (name && tableDeclarator(d) && !writtenSymbol(text, name, node)) put(facts.constantTables, name, d, node);
              const a = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
              if (name && a?.type === 'array_declarator' && a.childForFieldName('declarator')?.type === 'identifier') put(facts.constantArrays, name, node, node);
            }
          } else if (/\b(const|constexpr)\b/.test(node.text.split('=')[0] ?? '')) {
            for (const d of node.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
              const n = declaratorName(d);
              // `constexpr dim3 kBlock(32, 8);`, which the grammar reads as a function declaration, is a constant too
              if (n && (d.type === 'init_declarator' || (d.type === 'function_declarator' && node.childForFieldName('type')?.text === 'dim3'))) {
                putConstant(facts.constants, n.text, d);
                addScoped(d, n.text);
                if (tableDeclarator(d)) put(facts.constantTables, n.text, d, d);
              }
            }
          }
        }
        break;
      }
      case 'assignment_expression': {
        const g = fn && !fn.isKernel ? graphNodeLaunch(node, fn.body) : null;
        if (g && fn) facts.launches.push({ ...g, node, caller: fn, api: true });
        break;
      }
      case 'call_expression': {
        const l = launchAt(node, fn);
        if (l) facts.launches.push(l);
        // a launch inside a kernel (dynamic parallelism) gives another kernel its shape: the launching kernel's
        // text must be part of what every kernel's cached result depends on
        if (l && !l.api && fn?.isKernel && !launching.has(fn)) {
          launching.add(fn);
          sig.push(fn.outer);
        }
        break;
      }
      case 'comment':
        continue;
    }
    if (!fn && node !== root && node.type !== 'declaration' && !node.type.startsWith('preproc_if') &&
      node.type !== 'namespace_definition' && node.type !== 'declaration_list' && node.type !== 'linkage_specification') {
      if (top) sig.push(node);
    }
    const cs = named(node);
    for (let i = cs.length - 1; i >= 0; i--) push(cs[i], fn);
  }
  // which overload of a kernel name a launch is of depends on every overload's parameters (contexts.ts)
  for (const k of facts.kernels) {
    const d = k.node.childForFieldName('declarator');
    if (d && (facts.functions.get(k.name) ?? []).some((o) => o !== k && o.isKernel)) sig.push(d);
  }
  facts.signature = sig.map((n) => `${n.startPosition.row}:${n.text}`).join('\n');
  const history = macroHistory(defined, text, ownEnd);
  if (history) facts.macroHistory = history;
  macroLaunches(facts, text, root);
  return facts;
}

/** The launch a call is, if any: `k<T><<<grid, block, shmem>>>(...)`, or `cudaLaunchKernel(k, ...)` in host code. */
function launchAt(node: Node, fn: FunctionFact | null): LaunchFact | null {
  const api = fn && !fn.isKernel ? apiLaunch(node, fn.body) : null;
  if (api && fn) return { ...api, node, caller: fn, ...(api.argsFrom === undefined ? { api: true } : {}) };
  const cfg = kids(node).find((c) => c.type === 'kernel_call_syntax');
  if (!cfg) return null;
  let f = node.childForFieldName('function');
  // `ns::kernel<T><<<...>>>`: the name is the qualified identifier's last part
  for (let i = 0; f && f.type === 'qualified_identifier' && i < 16; i++) f = f.childForFieldName('name');
  let name: string | null = null;
  let targs: Node[] | null = null;
  if (f?.type === 'template_function') {
    name = f.childForFieldName('name')?.text ?? null;
    targs = argumentNodes(f);
  } else if (f?.type === 'subscript_expression') {
    // `table[i]<<<...>>>`: one of the kernels of a table (contexts.ts reads the table)
    name = f.childForFieldName('argument')?.text ?? null;
  } else if (f) name = f.text.replace(/^.*::/, '');
  const cargs = named(cfg).filter((c) => c.type !== 'comment'); // `<<<grid, /* threads */ 128>>>`
  return name ? { kernel: name, templateArgs: targs, grid: cargs[0] ?? null, block: cargs[1] ?? null, shmem: cargs[2] ?? null, node, caller: fn } : null;
}

/**
 * Launches written in a function-like macro of the file that host functions use (Marlin's `CALL_IF(1, 8, 8, -1)`,
 * whose body is `else if (...) { ... Marlin<THREADS, 1, 8, 8, STAGES, -1><<<blocks, THREADS, SHARED_MEM, stream>>>(...); }`):
 * the compiler sees them where the macro is used. The file is parsed once more with each such use in a host function
 * replaced by its expansion (on one line, followed by the line breaks the use spanned, so every line keeps its
 * number), and each launch inside an expansion is a launch of that function as the copy reads it (its branches,
 * loops and locals around the use).
 */
function macroLaunches(facts: FileFacts, text: string, root: Node): void {
  const launching = new Map([...facts.macros.values()].filter((m) => m.params !== null && /<<<|\b(?:cuda|hip)Launch(?:Cooperative)?Kernel(?:Ex|ExC|GGL)?\b/.test(m.body)).map((m) => [m.name, m]));
  // a macro that calls a host function of the file that launches (`#define COMPUTE(k) run<blockSize, k>(out, nb);`):
  // what that call binds is read where the macro is used
  const launchers = [...new Set(facts.launches.filter((l) => l.caller && !l.caller.isKernel).map((l) => l.caller!.name))].filter((n) => /^\w+$/.test(n));
  const callsLauncher = launchers.length ? new RegExp(`\\b(?:${launchers.join('|')})\\s*[<(]`) : null;
  if (callsLauncher)
    for (const m of facts.macros.values()) if (m.params !== null && !launching.has(m.name) && callsLauncher.test(m.body)) launching.set(m.name, m);
  // a macro that calls the function template one of its arguments names (nvcomp's `NVCOMP_TYPE_ONE_SWITCH(type_var,
  // func, ...)`: `case NVCOMP_TYPE_CHAR: func<int8_t>(__VA_ARGS__); break;`): a use that names a launcher launches
  const byArgument = new Set<string>();
  if (callsLauncher)
    for (const m of facts.macros.values())
      if (m.params?.length && !launching.has(m.name) && m.params.some((p) => /^[A-Za-z_]\w*$/.test(p) && new RegExp(`\\b${p}\\s*<(?![<=])[^<>;{}]*>\\s*\\(`).test(m.body))) {
        launching.set(m.name, m);
        byArgument.add(m.name);
      }
  if (!launching.size) return;
  // a macro that uses one (LeetCUDA's `DISPATCH_RMS_NORM_F32_KERNEL(N, K)`, a `switch` whose cases are
  // `LANUCH_RMS_NORM_F32_KERNEL(64) break;`) launches too, four levels deep as `expand` follows them
  for (let depth = 0, grew = true; grew && depth < 4; depth++) {
    grew = false;
    const calls = new RegExp(`\\b(?:${[...launching.keys()].join('|')})\\s*\\(`);
    for (const m of facts.macros.values())
      if (m.params !== null && !launching.has(m.name) && calls.test(m.body)) {
        launching.set(m.name, m);
        grew = true;
      }
  }
  const uses = () => new RegExp(`\\b(${[...launching.keys()].join('|')})\\s*\\(`, 'g');
  /** each use of a launching macro in `src` replaced by its expansion (uses inside that too, four levels deep). */
  const expand = (src: string, depth = 0): string => {
    if (depth > 4) return src;
    const re = uses();
    let out = '';
    let last = 0;
    for (let m; (m = re.exec(src)); ) {
      const call = callArguments(src, m.index + m[0].length - 1);
      const mac = launching.get(m[1])!;
      const args = call && (call.args.length === 1 && call.args[0] === '' ? [] : call.args);
      // `...` is no named parameter in the tree: a body that uses `__VA_ARGS__` takes the arguments after the named ones
      const variadic = /\b__VA_ARGS__\b/.test(mac.body);
      if (!call || !args || (variadic ? args.length < mac.params!.length : args.length !== mac.params!.length)) continue;
      // an argument that is one name stands bare: `(launch)<int8_t>(...)` and `(k)<T, kEff><<<...>>>` would read as
      // comparisons, `k<(T)>` as a value
      let text = substitute(mac, args.slice(0, mac.params!.length), true);
      if (variadic) text = text.replace(/\b__VA_ARGS__\b/g, args.slice(mac.params!.length).join(', '));
      out += src.slice(last, m.index) + expand(text, depth + 1);
      last = re.lastIndex = call.end + 1;
    }
    return out + src.slice(last);
  };
  // `fn` null: a use at file scope that defines the host function (LeetCUDA's `TORCH_BINDING_HIST(i32x4, ...)`, whose
  // body is `torch::Tensor histogram_##packed_type(torch::Tensor a) { ... histogram_##packed_type##_kernel<<<grid,
  // block>>>(...); }`): each function of its expansion is one as the copy reads it
  const edits: { start: number; end: number; with: string; use: string; fn: FunctionFact | null }[] = [];
  const re = uses();
  for (let m; (m = re.exec(text)); ) {
    // on a line of its own, outside every function, macro definition and comment
    if (!/(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    let n: Node | null = root.descendantForIndex(m.index);
    while (n && n !== root && !/^(?:function_definition|preproc_(?:function_)?def|comment|string_literal|raw_string_literal|lambda_expression|class_specifier|struct_specifier)$/.test(n.type)) n = n.parent;
    if (n && n !== root) continue;
    const call = callArguments(text, m.index + m[0].length - 1);
    if (!call) continue;
    const use = text.slice(m.index, call.end + 1);
    const expansion = expand(use);
    re.lastIndex = call.end + 1;
    if (expansion === use || !/\{/.test(expansion) || (byArgument.has(m[1]) && !callsLauncher!.test(expansion))) continue;
    edits.push({ start: m.index, end: call.end + 1, with: expansion.replace(/\r?\n/g, ' ') + use.replace(/[^\n]/g, ''), use, fn: null });
  }
  for (const list of facts.functions.values())
    for (const fn of list) {
      if (fn.isKernel || fn.classTemplateParams.length) continue;
      const body = fn.body.text;
      const re = uses();
      for (let m; (m = re.exec(body)); ) {
        const call = callArguments(body, m.index + m[0].length - 1);
        if (!call) continue;
        const use = body.slice(m.index, call.end + 1);
        const expansion = expand(use);
        re.lastIndex = call.end + 1;
        if (expansion === use || (byArgument.has(m[1]) && !callsLauncher!.test(expansion))) continue;
        // on one line, then the use's own line breaks: the lines after it keep their numbers
        edits.push({ start: fn.body.startIndex + m.index, end: fn.body.startIndex + call.end + 1, with: expansion.replace(/\r?\n/g, ' ') + use.replace(/[^\n]/g, ''), use, fn });
      }
    }
  if (!edits.length) return;
  edits.sort((a, b) => a.start - b.start);
  let copy = '';
  let last = 0;
  /** where each expansion stands in the copy. */
  const spans: { start: number; end: number; edit: (typeof edits)[number] }[] = [];
  for (const e of edits) {
    copy += text.slice(last, e.start);
    spans.push({ start: copy.length, end: copy.length + e.with.length, edit: e });
    copy += e.with;
    last = e.end;
  }
  copy += text.slice(last);
  const tree = parse(copy);
  facts.expanded = tree;
  /** where an offset of the file is in the copy. */
  const shifted = (at: number) => edits.reduce((d, e) => (e.end <= at ? d + e.with.length - (e.end - e.start) : d), at);
  const copies = new Map<FunctionFact, FunctionFact | null>();
  /** the launches in `fn`'s body between `start` and `end` of the copy. */
  const collect = (fn: FunctionFact, start: number, end: number, use: string) => {
    const stack: Node[] = [fn.body];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.endIndex <= start || n.startIndex >= end) continue;
      // a macro that is only the launch configuration (`k KERNEL_ARGS2(grid, block)(args)`, whose body is `<<<grid,
      // block>>>`, there so that editors parse the file) launches the kernel named before it
      const within = n.startIndex >= start || kids(n).some((c) => c.type === 'kernel_call_syntax' && c.startIndex >= start && c.startIndex < end);
      const l = n.type === 'call_expression' && within ? launchAt(n, fn) : null;
      if (l) facts.launches.push({ ...l, what: `${l.what ?? 'the launch'} in the macro \`${use.replace(/\s+/g, ' ')}\`` });
      for (const c of named(n)) stack.push(c);
    }
  };
  for (const { start, end, edit } of spans) {
    if (!edit.fn) {
      // the functions the expansion defines, at file scope (or in a namespace or `extern "C"` there), or the one it
      // stands in where the grammar did not read that as a function (`void f(...) { DISPATCH(n, k) }`, a body of one
      // macro use without a `;`, reads as a declaration with a braced initializer)
      const stack: Node[] = named(tree.rootNode);
      while (stack.length) {
        const n = stack.pop()!;
        if (n.endIndex <= start || n.startIndex >= end) continue;
        const fn = readTopLevelFunction(n);
        if (fn && !fn.isKernel) collect(fn, start, end, edit.use);
        else if (TOP_CONTAINERS.has(n.type)) for (const c of named(n)) stack.push(c);
      }
      continue;
    }
    if (!copies.has(edit.fn)) {
      // the function as the copy reads it: its top-level node, where the function's starts
      const at = shifted(edit.fn.outer.startIndex);
      let n: Node | null = tree.rootNode.descendantForIndex(at);
      while (n && !(n.startIndex === at && n.type === edit.fn.outer.type)) n = n.parent;
      const read = n ? readTopLevelFunction(n) : null;
      copies.set(edit.fn, read?.name === edit.fn.name ? read : null);
    }
    const fn = copies.get(edit.fn);
    if (fn) collect(fn, start, end, edit.use);
    if (fn && callsLauncher?.test(edit.with)) (facts.hostCopies ??= new Map()).set(edit.fn, fn);
  }
}

/**
 * The kernel a launch API is given: `k`, `(void *)k`, `&k`, `reinterpret_cast<void *>(k)`, `k<T>`, `ns::k`, and HIP's
 * `HIP_KERNEL_NAME(k<T, N>)` (a macro that is its argument, there so the template's commas survive the launch macro).
 */
export function kernelRef(k: Node | null): { name: string; targs: Node[] | null } | null {
  for (let i = 0; k && i < 8; i++) {
    if (k.type === 'cast_expression') k = k.childForFieldName('value');
    else if (k.type === 'parenthesized_expression') k = named(k)[0] ?? null;
    else if (k.type === 'pointer_expression' && k.childForFieldName('operator')?.text === '&') k = k.childForFieldName('argument');
    else if (k.type === 'call_expression' && /_cast$|^HIP_KERNEL_NAME$/.test(k.childForFieldName('function')?.text.replace(/<.*$/s, '') ?? '')) k = argumentNodes(k)[0] ?? null;
    else break;
  }
  let targs: Node[] | null = null;
  // `ns::k<T>` is a qualified name whose last part is the template: unwrap the scopes on both sides of the arguments
  for (let i = 0; k && k.type === 'qualified_identifier' && i < 16; i++) k = k.childForFieldName('name');
  if (k?.type === 'template_function') {
    targs = argumentNodes(k);
    k = k.childForFieldName('name');
  }
  for (let i = 0; k && k.type === 'qualified_identifier' && i < 16; i++) k = k.childForFieldName('name');
  return k && k.type === 'identifier' ? { name: k.text, targs } : null;
}

type ApiLaunch = Pick<LaunchFact, 'kernel' | 'templateArgs' | 'grid' | 'block' | 'shmem' | 'argsFrom' | 'what' | 'gridAxes' | 'blockAxes'>;

/**
 * The kernel name a driver-API function handle was looked up by: `cuModuleGetFunction(&f, module, "name")` (or
 * `hipModuleGetFunction`) in the launching function before the launch, else anywhere in the file (a handle kept in a
 * member or a global). Null where no such call gives `f` a string literal, or two give it different names.
 */
function handleName(f: Node, body: Node | null, before: number): string | null {
  const found = (root: Node, limit: number): Set<string> => {
    const names = new Set<string>();
    const stack = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.startIndex >= limit) continue;
      if (n.type === 'call_expression' && /^(?:cu|hip)ModuleGetFunction$/.test(n.childForFieldName('function')?.text ?? '')) {
        const a = argumentNodes(n);
        let h: Node | null = a[0] ?? null;
        if (h?.type === 'pointer_expression' && h.childForFieldName('operator')?.text === '&') h = h.childForFieldName('argument');
        const lit = a[2];
        if (h && h.text === f.text && lit?.type === 'string_literal' && /^"\w+"$/.test(lit.text)) names.add(lit.text.slice(1, -1));
        continue;
      }
      for (const c of named(n)) stack.push(c);
    }
    return names;
  };
  let names = body ? found(body, before) : new Set<string>();
  if (!names.size) {
    let root: Node = f;
    while (root.parent) root = root.parent;
    names = found(root, Infinity);
  }
  return names.size === 1 ? [...names][0] : null;
}

/**
 * `cudaLaunchKernel((void *)k, grid, block, args, shmem, stream)` and `cudaLaunchCooperativeKernel(...)` (HIP's
 * `hipLaunchKernel`, `hipLaunchCooperativeKernel` alike): a launch of
 * `k` with that grid, block and dynamic shared memory. `cudaLaunchKernelEx(&config, k, args...)` (and `...ExC`): the
 * shape is what the function set in `config` before the call (`config.blockDim = ...`, or `.blockDim = ...` where
 * it is declared); the C++ form passes the kernel's arguments after `k`.
 */
function apiLaunch(node: Node, body: Node | null): ApiLaunch | null {
  const f = node.childForFieldName('function');
  const name = f?.type === 'identifier' ? f.text : f?.type === 'qualified_identifier' ? f.childForFieldName('name')?.text : null;
  const args = () => argumentNodes(node);
  if (name === 'hipLaunchKernelGGL') {
    // HIP's launch macro, also in CUDA files through hipify or a portability header:
    // `hipLaunchKernelGGL(k, grid, block, shmem, stream, args...)`, the kernel's arguments after the stream
    const a = args();
    const k = kernelRef(a[0] ?? null);
    if (!k || a.length < 3) return null;
    return { kernel: k.name, templateArgs: k.targs, grid: a[1], block: a[2], shmem: a[3] ?? null, argsFrom: 5 };
  }
  if (name === 'cuLaunchKernel' || name === 'cuLaunchCooperativeKernel' || name === 'hipModuleLaunchKernel') {
    // the driver API: `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra)`, `f` looked up by name;
    // the kernel's arguments go through `void **params`: not the call's
    const a = args();
    const k = a[0]?.type === 'identifier' || a[0]?.type === 'field_expression' ? handleName(a[0], body, node.startIndex) : null;
    if (!k || a.length < 7) return null;
    return { kernel: k, templateArgs: null, grid: a[1], block: a[4], shmem: a[7] ?? null, gridAxes: a.slice(1, 4), blockAxes: a.slice(4, 7) };
  }
  if (name === 'cudaLaunchKernel' || name === 'cudaLaunchCooperativeKernel' || name === 'hipLaunchKernel' || name === 'hipLaunchCooperativeKernel') {
    const a = args();
    const k = kernelRef(a[0] ?? null);
    if (!k || a.length < 3) return null;
    return { kernel: k.name, templateArgs: k.targs, grid: a[1], block: a[2], shmem: a[4] ?? null };
  }
  if ((name === 'cudaLaunchKernelEx' || name === 'cudaLaunchKernelExC') && body) {
    const a = args();
    const k = kernelRef(a[1] ?? null);
    let c: Node | null = a[0] ?? null;
    if (c?.type === 'pointer_expression' && c.childForFieldName('operator')?.text === '&') c = c.childForFieldName('argument');
    if (!k || c?.type !== 'identifier') return null;
    const field = (f: string) => configField(body, c!.text, f, node.startIndex);
    return {
      kernel: k.name, templateArgs: k.targs, grid: field('gridDim'), block: field('blockDim'), shmem: field('dynamicSmemBytes'),
      ...(name === 'cudaLaunchKernelEx' ? { argsFrom: 2 } : {}),
    };
  }
  return null;
}

/**
 * A CUDA graph kernel node (`params.func = (void *)k;`): a launch of `k` with the shape the function sets in
 * `params` (`params.blockDim = ...`, before or after: the node is added later). Its arguments go through
 * `kernelParams` (`void **`): not the kernel's.
 */
function graphNodeLaunch(node: Node, body: Node | null): ApiLaunch | null {
  const left = node.childForFieldName('left');
  if (!body || left?.type !== 'field_expression' || left.childForFieldName('field')?.text !== 'func') return null;
  const p = left.childForFieldName('argument');
  const k = kernelRef(node.childForFieldName('right'));
  if (!k || p?.type !== 'identifier') return null;
  const field = (f: string) => configField(body, p.text, f, body.endIndex);
  return { kernel: k.name, templateArgs: k.targs, grid: field('gridDim'), block: field('blockDim'), shmem: field('sharedMemBytes'), what: 'the CUDA graph kernel node' };
}

/**
 * The value a function gives `name.field` (or `name->field`) before `before`: the last assignment, or the designated
 * initializer `.field = ...` where `name` is declared.
 */
function configField(body: Node, name: string, field: string, before: number): Node | null {
  let best: Node | null = null;
  let at = -1;
  const stack = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.startIndex >= before) continue;
    if (n.type === 'assignment_expression' && n.childForFieldName('operator')?.text === '=') {
      const l = n.childForFieldName('left');
      if (l?.type === 'field_expression' && l.childForFieldName('field')?.text === field && l.childForFieldName('argument')?.text === name && n.startIndex > at) {
        best = n.childForFieldName('right');
        at = n.startIndex;
      }
    } else if (n.type === 'init_declarator' && declaratorName(n)?.text === name) {
      const init = n.childForFieldName('value');
      for (const pair of init?.type === 'initializer_list' ? named(init) : []) {
        if (pair.type !== 'initializer_pair') continue;
        const d = pair.childForFieldName('designator');
        if ((d?.type === 'field_designator' ? named(d)[0]?.text ?? d.text.replace(/^\./, '') : null) === field && n.startIndex > at) {
          best = pair.childForFieldName('value');
          at = n.startIndex;
        }
      }
    }
    for (const c of named(n)) stack.push(c);
  }
  return best;
}

/**
 * The macros as the function `fn` sees them, for the names the file defines more than once or `#undef`s
 * (macroHistory): a definition inside its own text (the first), else the one in force where it starts. Where none of
 * the file's is in force there (before its first `#define`, after an `#undef`), a name from outside (`-D`, a header)
 * holds, or none. Every other name is the file's, as in `facts.macros`.
 */
export function macrosFor(facts: FileFacts, fn: FunctionFact): Map<string, Macro> {
  const history = facts.macroHistory;
  if (!history) return facts.macros;
  const start = fn.outer.startIndex, end = fn.outer.endIndex;
  let out: Map<string, Macro> | null = null;
  for (const [name, h] of history) {
    let before: { macro: Macro | null } | undefined;
    let inside: Macro | undefined;
    for (const e of h) {
      if (e.at < start) before = e;
      else if (e.at < end && e.macro && !inside) inside = e.macro;
    }
    const had = facts.macros.get(name);
    const outside = had && (had.line === -1 || had.from !== undefined) ? had : undefined;
    const m = inside ?? before?.macro ?? outside;
    if (m === had) continue;
    out ??= new Map(facts.macros);
    if (m) out.set(name, m);
    else out.delete(name);
  }
  return out ?? facts.macros;
}

/** The node is inside a named or unnamed namespace. */
function inNamespace(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'namespace_definition') return true;
  return false;
}

/**
 * The names of the namespaces around a node, outermost first (`namespace a::b {` gives two); unnamed ones left out.
 */
export function namespacePath(node: Node): string[] {
  const out: string[] = [];
  for (let p = node.parent; p; p = p.parent)
    if (p.type === 'namespace_definition') {
      const n = p.childForFieldName('name');
      if (n) out.unshift(...n.text.split('::').map((x) => x.trim()).filter(Boolean));
    }
  return out;
}
