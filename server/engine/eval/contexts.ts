// Which (template instance, block shape) pairs a kernel runs with, in the order of the issue: a
// `// bank-lens: block=...` directive, launches in the same file, the caller's --block / setting, else 32 threads.
import { parseExpression, parseStatements } from '../syntax/parser';
import type { Node } from '../syntax/parser';
import { substitute } from '../syntax/preprocess';
import { FileFacts, FunctionFact, named, argumentNodes, unparenthesized, operatorOf, declaratorName, hasToken, LaunchFact, kernelRef, identifiersIn, subscriptIndex, fileRoot, paramPositions, paramAt, paramCount } from '../facts/collect';
import { CType, typeName, INT, BUILTINS, LIBRARY_TYPES } from '../facts/ctypes';
import { Interp, DEFAULT_CAPS, Caps, warpSizeNote, factsFor, BudgetExceeded } from './interpreter';
import { Value, uniformValue, convert, num, binary, andList, valuePack, unk } from './values';

export interface Instance {
  values: Map<string, Value>;
  types: Map<string, CType>;
  block: [number, number, number];
  /** where the block shape comes from, for the assumptions. */
  blockSource: string;
  /** template bindings as a context label, e.g. { blockSize: 256 }. */
  label: Record<string, number | string>;
  /** set when the kernel cannot be evaluated in this instance (a template parameter nobody binds). */
  unbound?: string;
  /** the block shape is our default, not the user's: out-of-bounds findings would be our own invention. */
  assumedBlock?: boolean;
  /** bytes of dynamic shared memory the launch gives (0 without a third parameter); null when not known. */
  dynamicShared: number | null;
  /** scalar integer kernel parameters the launch passes a constant for, and the assumptions that say so. */
  args: Map<string, Value>;
  argSources: string[];
  /**
   * the launch's grid, per axis (null: not known there, as `(n + 255) / 256`), and where it comes from: only for a
   * kernel that reads `gridDim` (see readsGrid), so that launches of other kernels with other grids stay one instance.
   */
  grid?: { dims: (number | null)[]; source: string };
}

const fmt = (b: [number, number, number]) => b.join('x');

/**
 * An evaluator for host code: constants, macros, and the caller's local declarations before `at`. `path`: what the
 * branches around a launch say a name equals there (`case 512:` of `switch (threads)`); a use is added to `used`.
 */
function hostInterp(facts: FileFacts, caller: FunctionFact | null, at: number, deadline: number, caps: Caps, bind?: Binding, path?: PathFacts, params?: Map<string, Value>): Interp {
  const visiting = new Set<string>();
  // a name's value before the write being read (`n = (n / 32) * 32;`): what the write's own right side sees
  const before = new Map<string, Value | null>();
  // where the names being read stand: the declaration or write being evaluated, else the launch (see PathFacts.eq)
  const readAt: number[] = [];
  const holds = (fact: { after?: number } | undefined): boolean => !!fact && (fact.after === undefined || (readAt.length ? readAt[readAt.length - 1] : at) >= fact.after);
  const it: Interp = new Interp({
    facts: caller ? factsFor(facts, caller) : facts, block: [1, 1, 1], values: bind?.values ?? new Map(), types: bind?.types ?? new Map(), deadline, caps, host: true, decide: bind?.decide,
    fallback: (name) => {
      if (before.has(name)) return before.get(name)!;
      if (!caller || visiting.has(name)) return null;
      const known = path?.eq.get(name);
      if (known && holds(known)) {
        visiting.add(name);
        try {
          const v = it.rvalue(known.value);
          if (uniformValue(v) !== null) {
            if (!path!.used.includes(known.where)) path!.used.push(known.where);
            return v;
          }
        } finally {
          visiting.delete(name);
        }
      }
      // read where the declaration or write being evaluated stands (`dim3 b(m);` before `m = 64;` reads m as it was
      // there), else at the launch
      const here = readAt.length ? readAt[readAt.length - 1] : at;
      const decl = findDeclaration(caller.body, name, here);
      // a parameter of the caller, with the value one call of it passes (see callerBindings)
      const isParam = !decl && caller.params.some((p) => p.name === name);
      const param = isParam ? params?.get(name) : undefined;
      // a parameter no call gives a value still has one after the function sets it (`block_dim = 256;` before a
      // `switch (block_dim)`), where nothing else can write it
      if (!decl && !isParam) return null;
      if (decl && !settled(caller, facts, decl, name, here)) return null;
      if (isParam && !param && !settledParam(caller, facts, name, here)) return null;
      visiting.add(name);
      try {
        readAt.push(decl ? decl.startIndex : here);
        let v: Value | null;
        try {
          v = decl ? it.valueOfDeclaration(decl, name) : param ?? null;
        } finally {
          readAt.pop();
        }
        const ran = new Set<number>();
        // later assignments before the launch: `dim3 b; b.x = 32; b.y = 8;`, `threads = 256;`
        for (const w of writesTo(caller.body, name, decl ? decl.endIndex : caller.body.startIndex, here)) {
          // a parameter no call gives a value has one only from a write on every way to the launch: under an
          // undecided `if` (`if (threads < 128) threads = 128;`) the way that takes it holds only for values a call
          // would pass, and the file's calls, where there are any, say which
          if (!v && (w.member || !w.plain)) return null;
          // a counting loop before the launch that steps it in its header (fastWalshTransform's `for (; log2N >
          // ELEMENTARY_LOG2SIZE; log2N -= 2, N >>= 2)` before `k<<<M, N / 4>>>`): run, its value after the loop
          const loop = !w.plain && !w.member && caller ? headerLoop(w.node, caller.body, here) : null;
          if (loop) {
            if (ran.has(loop.id)) continue;
            const after = runHeaderLoop(loop, name, facts, caller, deadline, caps, bind, params, it);
            if (!after) return null;
            ran.add(loop.id);
            v = after;
            continue;
          }
          if (!w.plain) {
            // under `if`s whose conditions are decided here (`if (seq_len <= 32) block.x = 32; else if ...`)
            const taken = w.op === '=' ? decidedBranches(w.node, caller.body, at, it, bind?.decide) : null;
            if (taken === false) continue;
            if (taken !== true) return null; // inside a loop, a switch or an undecided branch, or `+=`, `++`: not one value
          }
          before.set(name, v);
          readAt.push(w.node.startIndex);
          let rhs: Value;
          try {
            rhs = it.rvalue(w.value);
          } finally {
            before.delete(name);
            readAt.pop();
          }
          if (!w.member) v = rhs;
          else if (v?.k === 'dim3') v = { ...v, [w.member]: rhs };
          else return null;
        }
        if (!v) return null;
        // what the branches around the launch say of its members (`case 8:` of `switch (block.y)`)
        for (const m of ['x', 'y', 'z'] as const) {
          const fact: { value: Node; where: string; after?: number } | undefined = v?.k === 'dim3' ? path?.eq.get(`${name}.${m}`) : undefined;
          const mv: Value | null = fact && holds(fact) ? it.rvalue(fact.value) : null;
          if (!fact || !mv || uniformValue(mv) === null || v?.k !== 'dim3') continue;
          v = { ...v, [m]: mv };
          if (!path!.used.includes(fact.where)) path!.used.push(fact.where);
        }
        return v;
      } finally {
        visiting.delete(name);
      }
    },
  });
  it.frames.push(it.newFrame(caller));
  return it;
}

/**
 * The `for` loop whose header (initializer or update) holds the write `w`, where that loop ends before `at` and runs
 * once, straight through `body` (not under an if, a loop or a switch); else null.
 */
function headerLoop(w: Node, body: Node, at: number): Node | null {
  let loop: Node | null = null;
  let child = w;
  for (let p = w.parent; p && p.id !== body.id; child = p, p = p.parent) {
    if (p.type === 'for_statement' && !loop) {
      const inHeader = [p.childForFieldName('initializer'), p.childForFieldName('update')].some((h) => h?.id === child.id);
      if (!inHeader || p.endIndex > at) return null;
      loop = p;
      continue;
    }
    // `while (t < n) t *= 2;`, `while (b < 100) { b <<= 1; }`, `do t *= 2; while (t < n);`: a loop whose body is only
    // steps of its counters, as the update of a `for` is
    if (!loop && p.type === 'expression_statement' && child.id === w.id) {
      const around = p.parent?.type === 'compound_statement' ? p.parent.parent : p.parent;
      if (!around || (around.type !== 'while_statement' && around.type !== 'do_statement')) return null;
      if (around.endIndex > at || !whileSteps(around)?.some((h) => h.id === w.id)) return null;
      loop = around;
      child = around;
      p = around;
      continue;
    }
    if (!loop) {
      if (p.type !== 'comma_expression' && p.type !== 'parenthesized_expression') return null;
      continue;
    }
    if (p.type !== 'compound_statement') return null;
  }
  return loop;
}

/**
 * The steps a `while` or `do` loop's body is made of, where it is only expression statements that assign or update a
 * name (`t *= 2;`, `{ t <<= 1; n++; }`); else null.
 */
function whileSteps(loop: Node): Node[] | null {
  const body = loop.childForFieldName('body');
  if (!body) return null;
  const stmts = body.type === 'compound_statement' ? named(body).filter((c) => c.type !== 'comment') : [body];
  const out: Node[] = [];
  for (const st of stmts) {
    const e = st.type === 'expression_statement' ? named(st)[0] : null;
    if (!e || (e.type !== 'assignment_expression' && e.type !== 'update_expression')) return null;
    out.push(e);
  }
  return out.length ? out : null;
}

/** The most passes runHeaderLoop makes of a loop before the launch. */
const MAX_HOST_LOOP_PASSES = 64;

/**
 * The value of `name` after the `for` loop `loop` (see headerLoop), run pass by pass on the host: its counters are the
 * names its initializer and update write, read where the loop begins; the body writes none of the names the header
 * reads and has no `break`, `return` or `goto`; the condition is known on every pass. Null where any of it is not so.
 */
function runHeaderLoop(loop: Node, name: string, facts: FileFacts, caller: FunctionFact, deadline: number, caps: Caps,
  bind: Binding | undefined, params: Map<string, Value> | undefined, it: Interp): Value | null {
  const isFor = loop.type === 'for_statement';
  const init = isFor ? loop.childForFieldName('initializer') : null;
  const cond = loop.childForFieldName('condition');
  const update = isFor ? loop.childForFieldName('update') : null;
  const body = isFor ? loop.childForFieldName('body') : null;
  const bodySteps = isFor ? null : whileSteps(loop);
  if (!cond || (isFor ? !body : !bodySteps) || init?.type === 'declaration') return null;
  const steps = (n: Node | null): Node[] => !n ? [] : n.type === 'comma_expression' ? named(n).flatMap(steps) : n.type === 'parenthesized_expression' ? named(n).flatMap(steps) : [n];
  const updates = bodySteps ?? steps(update);
  const header = [...steps(init), ...updates];
  const counters = new Set<string>();
  for (const h of header) {
    const target = h.type === 'assignment_expression' ? h.childForFieldName('left') : h.type === 'update_expression' ? h.childForFieldName('argument') : null;
    if (target?.type !== 'identifier') return null;
    counters.add(target.text);
  }
  if (!counters.has(name)) return null;
  if (body) {
    const read = new Set([...counters, ...[cond, ...header].flatMap((n) => identifiersIn(n))]);
    if (writesTo(body, '', body.startIndex, body.endIndex, true).some((w) => read.has(w.name))) return null;
    const stack: Node[] = [body];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'break_statement' || n.type === 'return_statement' || n.type === 'goto_statement' || n.type === 'throw_statement') return null;
      stack.push(...named(n));
    }
  }
  // read just before the loop (at its own first character, the loop would be one around the reading, see settled)
  const before = loop.startIndex - 1;
  const start = hostInterp(facts, caller, before, deadline, caps, bind, undefined, params);
  const env = new Map<string, Value>();
  for (const c of counters) {
    const v = start.cfg.fallback?.(c, start) ?? null;
    if (!v || uniformValue(v) === null) return null;
    env.set(c, v);
  }
  const at = (): Interp => hostInterp(facts, caller, before, deadline, caps,
    { values: new Map([...(bind?.values ?? []), ...env]), types: bind?.types ?? new Map(), label: bind?.label ?? {}, decide: bind?.decide }, undefined, params);
  const step = (h: Node): boolean => {
    const e = at();
    const target = (h.type === 'assignment_expression' ? h.childForFieldName('left') : h.childForFieldName('argument'))!.text;
    const old = env.get(target)!;
    const op = h.type === 'assignment_expression' ? (h.childForFieldName('operator')?.text ?? '=') : h.text.includes('++') ? '++' : '--';
    let v: Value;
    if (op === '=') v = e.rvalue(h.childForFieldName('right')!);
    else if (op === '++' || op === '--') v = binary(op[0], old, num(1, INT), h.text, null);
    else v = binary(op.slice(0, -1), old, e.rvalue(h.childForFieldName('right')!), h.text, null);
    if (v.k !== 'num' || uniformValue(v) === null) return false;
    env.set(target, old.k === 'num' ? convert(v, old.t) : v);
    return true;
  };
  for (const h of steps(init)) if (!step(h)) return null;
  for (let pass = 0; ; pass++) {
    if (pass > MAX_HOST_LOOP_PASSES || Date.now() > deadline) return null;
    // a `do` loop's body runs before its condition is first read
    if (!(loop.type === 'do_statement' && pass === 0)) {
      const c = uniformValue(at().rvalue(cond));
      if (c === null) return null;
      if (c === 0) break;
    }
    for (const h of updates) if (!step(h)) return null;
  }
  void it;
  return env.get(name)!;
}

/**
 * Writes to `name` (or to its member x, y or z) in `body` between `after` and `before`, in source order. `plain`: a
 * `=` in a statement that runs once, straight through the function body (not under an if, a loop or a switch).
 */
function writesTo(body: Node, name: string, after: number, before: number, anyName = false): { value: Node; member: 'x' | 'y' | 'z' | null; plain: boolean; op: string; node: Node; name: string; at: number }[] {
  const out: { value: Node; member: 'x' | 'y' | 'z' | null; plain: boolean; op: string; node: Node; name: string; at: number }[] = [];
  const stack: { n: Node; straight: boolean }[] = [{ n: body, straight: true }];
  while (stack.length) {
    const { n, straight } = stack.pop()!;
    if (n.endIndex <= after || n.startIndex >= before) continue;
    const target = n.type === 'assignment_expression' ? n.childForFieldName('left') : n.type === 'update_expression' ? n.childForFieldName('argument') : null;
    if (target) {
      let member: 'x' | 'y' | 'z' | null = null;
      let base: Node | null = target;
      if (target.type === 'field_expression') {
        const f = target.childForFieldName('field')?.text;
        member = f === 'x' || f === 'y' || f === 'z' ? f : null;
        base = member ? target.childForFieldName('argument') : null;
      }
      if (base?.type === 'identifier' && (anyName || base.text === name) && n.startIndex >= after) {
        const op = n.type === 'assignment_expression' ? (n.childForFieldName('operator')?.text ?? '=') : '++';
        const value = n.childForFieldName('right');
        out.push({ value: value ?? n, member, plain: straight && op === '=' && !!value, op, node: n, name: base.text, at: n.startIndex });
      }
    }
    const keeps = n.type === 'compound_statement' || n.type === 'expression_statement' || n.type === 'assignment_expression';
    for (const c of named(n)) stack.push({ n: c, straight: straight && keeps });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Where each name is written in `body` (see writesTo: assignments, `++`/`--`, `b.x = ...`), walked once per body. */
const writePositions = new WeakMap<Node, Map<string, number[]>>();
function writesByName(body: Node): Map<string, number[]> {
  let all = writePositions.get(body);
  if (!all) {
    all = new Map();
    for (const w of writesTo(body, '', body.startIndex, body.endIndex, true)) {
      const at = all.get(w.name) ?? [];
      at.push(w.at);
      all.set(w.name, at);
    }
    writePositions.set(body, all);
  }
  return all;
}
/** Whether `body` writes `name` anywhere before `before` (writesTo's question for a whole body, from one walk). */
const writtenBefore = (body: Node, name: string, before: number): boolean => writtenBetween(body, name, -Infinity, before);
/** Whether `body` writes `name` at a position from `after` to before `before` (from the same walk). */
function writtenBetween(body: Node, name: string, after: number, before: number): boolean {
  return (writesByName(body).get(name) ?? []).some((at) => at >= after && at < before);
}

/**
 * Whether `node` runs, when only `if`s stand between it and `body` and each of their conditions has one value here
 * (names in it that the function never assigns before `before`: constants, parameters, macros): true or false; null
 * when a loop, a switch or a condition not known decides it.
 */
function decidedBranches(node: Node, body: Node, before: number, it: Interp, decide?: Map<number, boolean>): boolean | null {
  let child = node;
  let undecided = false;
  for (let p = node.parent; p && p.id !== body.id; child = p, p = p.parent) {
    if (p.type === 'expression_statement' || p.type === 'compound_statement' || p.type === 'else_clause' || p.type === 'parenthesized_expression') continue;
    if (p.type !== 'if_statement') return null;
    const cond = p.childForFieldName('condition');
    const want = branchOf(p, child);
    if (!cond || want === null) return null;
    const taken = decide?.get(p.id);
    if (taken !== undefined) {
      if (taken !== want) return false;
      continue;
    }
    // an `if` not known here still leaves the node out where an outer one is known not to run it
    if ([...new Set(identifiersIn(cond))].some((n) => writtenBefore(body, n, before))) {
      undecided = true;
      continue;
    }
    const u = uniformValue(it.rvalue(cond));
    if (u === null) undecided = true;
    else if ((u !== 0) !== want) return false;
  }
  return undecided ? null : true;
}

/** Which branch of the `if` (or `?:`) `node` the child `child` is: true for the consequence, false for the alternative. */
function branchOf(node: Node, child: Node): boolean | null {
  return child.id === node.childForFieldName('consequence')?.id ? true : child.id === node.childForFieldName('alternative')?.id ? false : null;
}

/** `b.x`, `b.y` or `b.z` of a variable `b`. */
const isMember = (n: Node | null): boolean =>
  n?.type === 'field_expression' && n.childForFieldName('argument')?.type === 'identifier' && /^[xyz]$/.test(n.childForFieldName('field')?.text ?? '');

type PathFacts = {
  /**
   * `after`: where the name's last write before the branch ends (`if (argc > 1) threads = atoi(argv[1]);` above
   * `switch (threads)`); the fact holds for a read from there on (`dim3 block(threads, 1)` after that write), not for
   * one before it. Undefined: the caller never writes the name before the launch.
   */
  eq: Map<string, { value: Node; where: string; subject: Node; after?: number }>;
  /** under `default:` of `switch (x)`: x is none of the other cases' values. */
  ne: { subject: Node; values: Node[] }[];
  /**
   * Each `switch` around the launch, with the case label the launch is under: where the subject is known at the
   * launch (`block_dim = 256;` above `switch (block_dim)`), only the cases from the one it enters, through the ones it
   * falls into, run (see switchSkips).
   */
  sw: { subject: Node; cases: Node[]; at: number }[];
  used: string[];
};

/**
 * What the branches around `launch` in `caller` say a variable equals there: the then-branch of `if (x == 16)` (also
 * inside `&&`) and `case 512:` of `switch (x)` when no other case falls through into it. Only a variable the caller
 * never assigns before the launch counts, so the value holds wherever it was read (`dim3 b(threads)` above the switch);
 * the counter of a `for` around the launch, stepped only by the loop, holds one value in each pass (see ownStep).
 */
function pathFacts(caller: FunctionFact | null, launch: Node, facts: FileFacts): PathFacts {
  const eq = new Map<string, { value: Node; where: string; subject: Node; after?: number }>();
  const out: PathFacts = { eq, ne: [], sw: [], used: [] };
  if (!caller) return out;
  // `branch`: the `if` or `switch` whose condition says it
  const add = (subject: Node, value: Node, where: string, branch: Node) => {
    const name = subject.text;
    // `block.y` of a dim3 (`switch (block.y)`): the member's value, while nothing writes the variable itself
    const base = subject.type === 'field_expression' ? subject.childForFieldName('argument')!.text : name;
    if (eq.has(name)) return;
    // writes before the branch (PCC's `if (argc > 1) blocksize = atoi(argv[1]);` above `switch (blocksize)`) leave
    // the fact true of every read after the last of them; one from the branch on (`case 64: n = 32;`) leaves no fact
    const writes = writesTo(caller.body, base, caller.body.startIndex, launch.startIndex).filter((w) => !ownStep(w.node, name, launch));
    if (writes.some((w) => w.node.endIndex > branch.startIndex)) return;
    let after = writes.length ? Math.max(...writes.map((w) => w.node.endIndex)) : undefined;
    // a write no assignment shows (`scanf("%d", &n)`, a call that takes it by reference): none from the branch on;
    // one before it leaves the fact true only of reads from the branch on
    const hidden = escapeSites(caller.body, facts, caller.body.startIndex, base);
    if (hidden.some((e) => e > branch.startIndex)) return;
    if (hidden.length) after = Math.max(after ?? 0, ...hidden);
    const ids: Node[] = [value];
    while (ids.length) {
      const n = ids.pop()!;
      if (n.type === 'identifier' && n.text === name) return; // `x == x + 1`: not a value for x
      ids.push(...named(n));
    }
    eq.set(name, { value, where, subject, after });
  };
  // `x != v` (or, in an `else`, `x == v`), also each part of an `&&` (`||`) of them: x is not v there, where nothing
  // writes x from the `if` to the launch
  const inequalities = (c: Node | null, branch: Node, op: '==' | '!=', join: '&&' | '||') => {
    c = unparenthesized(c);
    if (c?.type !== 'binary_expression') return;
    const o = operatorOf(c);
    const l = unparenthesized(c.childForFieldName('left')), r = unparenthesized(c.childForFieldName('right'));
    if (o === join) {
      inequalities(l, branch, op, join);
      inequalities(r, branch, op, join);
    } else if (o === op && l && r) {
      const [subject, value] = l.type === 'identifier' || isMember(l) ? [l, r] : r.type === 'identifier' || isMember(r) ? [r, l] : [null, null];
      if (!subject || !value) return;
      const base = subject.type === 'field_expression' ? subject.childForFieldName('argument')!.text : subject.text;
      if (!writesTo(caller.body, base, branch.startIndex, launch.startIndex).length) out.ne.push({ subject, values: [value] });
    }
  };
  const equalities = (c: Node | null, where: string, branch: Node) => {
    c = unparenthesized(c);
    if (c?.type !== 'binary_expression') return;
    const op = operatorOf(c);
    const l = unparenthesized(c.childForFieldName('left')), r = unparenthesized(c.childForFieldName('right'));
    if (op === '&&') {
      equalities(l, where, branch);
      equalities(r, where, branch);
    } else if (op === '==' && l && r) {
      if (l.type === 'identifier' || isMember(l)) add(l, r, where, branch);
      else if (r.type === 'identifier' || isMember(r)) add(r, l, where, branch);
    }
  };
  for (let n: Node = launch, p = n.parent; p && n.startIndex >= caller.body.startIndex && !(n.startIndex === caller.body.startIndex && n.endIndex === caller.body.endIndex); n = p, p = p.parent) {
    if (p.type === 'if_statement' && p.childForFieldName('consequence')?.startIndex === n.startIndex) {
      const cond = p.childForFieldName('condition');
      equalities(cond, `\`if ${cond?.text ?? ''}\` at line ${p.startPosition.row + 1}`, p);
      inequalities(cond, p, '!=', '&&');
    } else if (p.type === 'if_statement' && p.childForFieldName('alternative')?.startIndex === n.startIndex) {
      // the `else` of `if (block_size == 16)` (the CUDA samples' matrixMul): block_size is not 16 there
      inequalities(p.childForFieldName('condition'), p, '==', '||');
    } else if (n.type === 'case_statement' && p.type === 'compound_statement' && p.parent?.type === 'switch_statement') {
      const value = n.childForFieldName('value');
      const subject = unparenthesized(p.parent.childForFieldName('condition'));
      if (!(subject?.type === 'identifier' || isMember(subject))) continue;
      // a case before this one that does not end in break/return falls through into it: more than one value
      const cases = named(p).filter((c) => c.type === 'case_statement');
      // the subject not written from the `switch` to the launch: its value at the launch is the one the switch tested
      const subjectBase = subject!.type === 'field_expression' ? subject!.childForFieldName('argument')!.text : subject!.text;
      if (!writesTo(caller.body, subjectBase, p.parent.startIndex, launch.startIndex).length)
        out.sw.push({ subject: subject!, cases, at: cases.findIndex((c) => c.startIndex === n.startIndex) });
      const prev = cases[cases.findIndex((c) => c.startIndex === n.startIndex) - 1];
      const last = prev ? named(prev).filter((c) => c.type !== 'comment').pop() : undefined;
      if (prev && (!last || last.startIndex === prev.childForFieldName('value')?.startIndex ||
        !['break_statement', 'return_statement', 'continue_statement', 'goto_statement'].includes(last.type))) continue;
      if (!value) {
        // `default:`: none of the values of the other cases
        const base = subject!.type === 'field_expression' ? subject!.childForFieldName('argument')!.text : subject!.text;
        if (!writtenBefore(caller.body, base, launch.startIndex))
          out.ne.push({ subject: subject!, values: cases.map((c) => c.childForFieldName('value')).filter((v): v is Node => !!v) });
        continue;
      }
      add(subject!, value, `\`case ${value.text}:\` of \`switch (${subject!.text})\` at line ${n.startPosition.row + 1}`, p.parent);
    }
  }
  return out;
}

/**
 * Whether `write` is the step of a `for` loop around `at` that declares `name` as its counter (`for (int k = 0; k < 8;
 * k++)`): within one pass `k` holds one value, so `case 3:` of a `switch (k)` in the body says what it is there.
 */
function ownStep(write: Node, name: string, at: Node): boolean {
  for (let f: Node | null = at.parent; f; f = f.parent) {
    if (f.type !== 'for_statement') continue;
    const update = f.childForFieldName('update');
    const init = f.childForFieldName('initializer');
    if (!update || write.startIndex < update.startIndex || write.endIndex > update.endIndex || init?.type !== 'declaration') continue;
    return init.childrenForFieldName('declarator').some((d) => !!d && declaratorName(d)?.text === name);
  }
  return false;
}

/** The branch facts of a launch, and for one through a function pointer, those around the assignment that gave it the kernel. */
function launchPath(l: LaunchFact, facts: FileFacts): PathFacts {
  const path = pathFacts(l.caller, l.node, facts);
  if (!l.via || !l.caller) return path;
  const body = l.caller.body;
  for (const [name, fact] of pathFacts(l.caller, l.via, facts).eq) {
    // still so at the launch: nothing writes it between the assignment and the launch
    const base = fact.subject.type === 'field_expression' ? fact.subject.childForFieldName('argument')!.text : name;
    if (!path.eq.has(name) && !writesTo(body, base, l.via.startIndex, l.node.startIndex).length) path.eq.set(name, fact);
  }
  // `fp[1] = k; ... fp[i]<<<...>>>`: k is launched where `i` is 1
  const target = l.via.type === 'assignment_expression' ? l.via.childForFieldName('left') : null;
  const fn = l.node.childForFieldName('function');
  const given = subscriptIndex(target), launched = subscriptIndex(fn);
  if (given && launched?.type === 'identifier' && !path.eq.has(launched.text) && target?.childForFieldName('argument')?.text === fn?.childForFieldName('argument')?.text)
    path.eq.set(launched.text, { value: given, where: `\`${l.via.text}\` at line ${l.via.startPosition.row + 1}`, subject: launched });
  return path;
}

/** The last declaration of `name` in `body` that starts before `before`. */
function findDeclaration(body: Node, name: string, before: number): Node | null {
  let found: Node | null = null;
  for (const n of declarationsIn(body).get(name) ?? []) {
    if (n.startIndex >= before || (found && n.startIndex <= found.startIndex)) continue;
    // only a declaration in scope at `before`: one in a block that closed before it (`if (...) { const int threads = ...; }`) is another variable
    if (!n.parent || n.parent.endIndex > before) found = n;
  }
  return found;
}

/**
 * The declarations in a function's body by the names they declare, read once per body: a `main` of 356 launches
 * asks for the declarations of each name each launch reads (see branchChoices), and a walk of the body per question
 * made that quadratic.
 */
const declarationIndex = new WeakMap<Node, Map<string, Node[]>>();
function declarationsIn(body: Node): Map<string, Node[]> {
  let index = declarationIndex.get(body);
  if (index) return index;
  index = new Map();
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'declaration')
      for (const d of n.childrenForFieldName('declarator')) {
        const name = d ? declaratorName(d)?.text : undefined;
        if (!name) continue;
        const list = index.get(name);
        if (!list) index.set(name, [n]);
        else if (list[list.length - 1] !== n) list.push(n);
      }
    for (const c of named(n)) stack.push(c);
  }
  declarationIndex.set(body, index);
  return index;
}

/**
 * A launch's grid as host code gives it, per axis: a dim3's components, or one number (y and z then 1); an axis whose
 * value is not known there (a runtime size, `(n + 255) / 256`) is null. Grids are not limited to 1024 threads.
 */
function gridOf(v: Value): (number | null)[] {
  const one = (c: Value) => {
    const u = uniformValue(c);
    return u !== null && Number.isInteger(u) && u >= 1 ? u : null;
  };
  if (v.k === 'dim3') return [one(v.x), one(v.y), one(v.z)];
  return [one(v), 1, 1];
}

/** The kernel, a device function or a macro of the file names `gridDim` (or HIP's `hipGridDim_x`): its launches' grids are read. */
function readsGrid(kernel: FunctionFact, facts: FileFacts): boolean {
  if (GRID_NAMES.test(kernel.outer.text)) return true;
  // whether some other function or a macro of the file does: the same for every kernel, read once per file
  let other = gridReaders.get(facts);
  if (other === undefined) {
    other = false;
    // (not a host function that names its own `dim3 gridDim(8, 16, Z)`, as PMPP's launchers do: that is no read of the built-in)
    for (const list of facts.functions.values()) for (const f of list) if (!other && !f.isKernel && GRID_NAMES.test(f.outer.text) && !OWN_GRID.test(f.outer.text)) other = true;
    for (const m of facts.macros.values()) if (!other && GRID_NAMES.test(m.body)) other = true;
    gridReaders.set(facts, other);
  }
  return other;
}
const GRID_NAMES = /\bgridDim\b|\bhipGridDim_[xyz]\b/;
const OWN_GRID = /\b(?:dim3|uint3|auto)\s*&?\s*gridDim\b/;
const gridReaders = new WeakMap<FileFacts, boolean>();

/** `grid 4x1x1 from the launch at line 24`, or the axes known where some are not. */
function gridText(dims: (number | null)[], l: LaunchFact, source: string): string {
  if (dims.every((d) => d !== null)) return `grid ${dims.join('x')} from ${source}`;
  const known = dims.map((d, i) => (d === null ? null : `gridDim.${'xyz'[i]} = ${d}`)).filter((x) => x);
  const unknownAxes = dims.map((d, i) => (d === null ? `gridDim.${'xyz'[i]}` : null)).filter((x) => x);
  return `${known.length ? `${known.join(', ')} from ${source}; ` : ''}${unknownAxes.join(', ')} not known from the grid \`${launchDimText(l, 'grid')}\` of ${source}`;
}

/** a launch's block (or grid) as a value: a dim3 of the driver API's three extent arguments where it gives them so. */
function launchDim(l: LaunchFact, it: Interp, which: 'block' | 'grid'): Value {
  const axes = which === 'block' ? l.blockAxes : l.gridAxes;
  if (axes?.length === 3) return { k: 'dim3', x: it.rvalue(axes[0]), y: it.rvalue(axes[1]), z: it.rvalue(axes[2]) };
  return it.rvalue(which === 'block' ? l.block! : l.grid!);
}
/** the source text of a launch's block (or grid): `128, 1, 1` of the driver API's three arguments. */
const launchDimText = (l: LaunchFact, which: 'block' | 'grid'): string | undefined =>
  (which === 'block' ? l.blockAxes : l.gridAxes)?.map((a) => a.text).join(', ') ?? (which === 'block' ? l.block : l.grid)?.text;

function blockOf(v: Value): [number, number, number] | null {
  const b = blockDims(v);
  return b && valid(b);
}
/** a block shape's three extents, each one number or null where it is not one number. */
function blockAxesKnown(v: Value): (number | null)[] | null {
  if (v.k !== 'dim3') return null;
  return [uniformValue(v.x), uniformValue(v.y), uniformValue(v.z)];
}
/** a block shape's three extents where each is one number, valid or not. */
function blockDims(v: Value): [number, number, number] | null {
  if (v.k === 'dim3') {
    const x = uniformValue(v.x), y = uniformValue(v.y), z = uniformValue(v.z);
    return x === null || y === null || z === null ? null : [x, y, z];
  }
  const u = uniformValue(v);
  return u === null ? null : [u, 1, 1];
}
const valid = (b: [number, number, number]): [number, number, number] | null =>
  b.every((x) => Number.isInteger(x) && x >= 1) && b[0] * b[1] * b[2] <= 1024 ? b : null;

/**
 * An argument the launch passes as an integer expression whose value at the launch is one the file states: literals,
 * macros, enumerators, file-scope constants, the caller's locals (as the host evaluator follows them: an initializer
 * and writes before the launch in straight code or decided branches; see settled), `known` names (the counters of
 * known loops around the launch; the caller's parameters, with what one call of it passes), and operators over them.
 * Any other parameter of the caller, or a call, is not.
 */
function isConstantArgument(arg: Node, facts: FileFacts, caller: FunctionFact | null, known?: Map<string, Value>, decide?: Map<number, boolean>): boolean {
  const stack: Node[] = [arg];
  while (stack.length) {
    const n = stack.pop()!;
    // a `?:` whose way is taken (see branchChoices): only that branch is read
    const way = n.type === 'conditional_expression' ? decide?.get(n.id) : undefined;
    if (way !== undefined) {
      stack.push(n.childForFieldName(way ? 'consequence' : 'alternative') ?? n.childForFieldName('condition')!);
      continue;
    }
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      if (f?.type !== 'identifier' || facts.macros.get(f.text)?.params == null) return false; // a function-like macro only
      stack.push(...argumentNodes(n));
      continue;
    }
    if (n.type === 'identifier') {
      const name = n.text;
      if (facts.macros.has(name) || facts.enums.has(name) || facts.constants.has(name) || known?.has(name)) continue;
      if (!caller || !findDeclaration(caller.body, name, arg.startIndex)) return false;
      continue;
    }
    if (n.type === 'sizeof_expression' || n.type === 'type_descriptor') continue;
    for (const c of named(n)) stack.push(c);
  }
  return true;
}

/** The kernel arguments a launch passes, in order (after the kernel itself, for an API launch). */
function launchArguments(l: LaunchFact): Node[] {
  return argumentNodes(l.node).slice(l.argsFrom ?? 0);
}

/** The kernel's scalar integer parameters that this launch passes a known value for, by name, with the assumptions. */
function bindArguments(kernel: FunctionFact, l: LaunchFact, facts: FileFacts, it: Interp, known?: Map<string, Value>): { values: Map<string, Value>; sources: string[] } {
  const values = new Map<string, Value>();
  const sources: string[] = [];
  if (l.api) return { values, sources };
  const args = launchArguments(l);
  const line = l.node.startPosition.row + 1;
  // a parameter left unnamed (`int /* unused */`, a tag) still takes its argument: each named one takes its own
  const at = paramPositions(kernel);
  kernel.params.forEach((p, i) => {
    const a = args[at ? at[i] : i];
    const typeNode = p.node.childForFieldName('type');
    if (!a || !typeNode || p.node.childForFieldName('declarator')?.type !== 'identifier') return; // pointers, references, arrays
    if (a.type === 'compound_literal_expression') return bindObjectArgument(kernel, p, a, typeNode, facts, l, it, known, values, sources);
    const t = it.resolveType(typeNode);
    if (t.kind !== 'int' || !isConstantArgument(a, facts, l.caller, known, it.cfg.decide)) return;
    const v = it.rvalue(a);
    if (v.k !== 'num' || v.t.kind !== 'int') return;
    const c = convert(v, t);
    const u = uniformValue(c);
    if (u === null || !Number.isInteger(u)) return;
    values.set(p.name, c);
    sources.push(`\`${p.name}\` = ${u} from the launch at line ${line}`);
  });
  return { values, sources };
}

/**
 * A struct passed by value as a braced temporary (a functor or a layout: `copyTile<<<g, b>>>(in, out, Pitched{33})`):
 * each integer member the braces give a constant, bound as `layout.ld` = 33 (the kernel's object of that parameter
 * takes it; the members the braces leave out stay unknown). The parameter's type is the temporary's class, or a type
 * parameter of the kernel. Was: every member unknown, so `r * layout.ld` left each access it indexes unknown.
 */
function bindObjectArgument(kernel: FunctionFact, p: { name: string }, a: Node, typeNode: Node, facts: FileFacts, l: LaunchFact, it: Interp,
  known: Map<string, Value> | undefined, values: Map<string, Value>, sources: string[]): void {
  const cls = a.childForFieldName('type');
  const init = a.childForFieldName('value');
  if (!cls || init?.type !== 'initializer_list') return;
  const t = it.resolveType(cls);
  const declared = kernel.templateParams.some((tp) => tp.isType && tp.name === typeNode.text.trim()) ? t : it.resolveType(typeNode);
  if (t.kind !== 'struct' || declared !== t) return;
  const elems = named(init).filter((c) => c.type !== 'comment');
  // designated (`{.ld = 33}`) or in the order of the members; a base class or a bit-field is not followed
  if (t.fields.some((f) => !f.name || f.bits !== undefined)) return;
  elems.forEach((e, i) => {
    const designated = e.type === 'initializer_pair' ? e.childForFieldName('designator')?.text.replace(/^\./, '') : undefined;
    const f = designated !== undefined ? t.fields.find((x) => x.name === designated) : e.type === 'initializer_pair' ? undefined : t.fields[i];
    const vn = e.type === 'initializer_pair' ? e.childForFieldName('value') : e;
    if (!f || !vn || f.type.kind !== 'int' || !isConstantArgument(vn, facts, l.caller, known, it.cfg.decide)) return;
    const v = it.rvalue(vn);
    if (v.k !== 'num' || v.t.kind !== 'int') return;
    const c = convert(v, f.type);
    const u = uniformValue(c);
    if (u === null || !Number.isInteger(u)) return;
    values.set(`${p.name}.${f.name}`, c);
    sources.push(`\`${p.name}.${f.name}\` = ${u} from the launch at line ${l.node.startPosition.row + 1}`);
  });
}

/**
 * Functions that take their arguments by value (a local passed to one keeps its value; HIP's and the driver API's
 * alike): also the ceiling-division
 * helpers that headers define (OpenCV's `cv::cuda::device::divUp(total, grain)`, `iDivUp`, `ceil_div`), in any namespace.
 */
const BY_VALUE_CALLS = /^(?:std::)?(printf|fprintf|sprintf|snprintf|puts|assert|max|min|fmax|fmin|abs|ceil|floor|sqrt|log2|pow|exp|malloc|calloc|dim3|cudaMalloc\w*|cudaMemset\w*|cudaMemcpy\w*|cudaLaunch\w*|cudaFuncSetAttribute|cudaDeviceSynchronize|cudaGetLastError|cudaGetErrorString|hipMalloc\w*|hipMemset\w*|hipMemcpy\w*|hipLaunch\w*|hipModuleLaunchKernel|hipDeviceSynchronize|hipGetLastError|cuLaunch\w*)$|^(?:\w+::)*(?:divUp|DivUp|iDivUp|div_up|DIV_UP|DIVUP|divRoundUp|DIV_ROUND_UP|ceil_div|ceilDiv|cdiv|CEIL_DIV)$/;

/**
 * Whether the host evaluator may take `name`, a local of `caller` declared by `decl`, to hold at `at` what its
 * initializer and the writes before `at` give: its address is never taken (`&n`, `scanf("%d", &n)`, `cin >> n`), it is
 * passed to no function that could take it by reference, and no loop around `at` that begins after `decl` writes it
 * (`for (...) { k<<<1, threads>>>(); threads *= 2; }` launches other shapes than the first).
 */
function settled(caller: FunctionFact, facts: FileFacts, decl: Node, name: string, at: number): boolean {
  if (hasToken(decl, 'const') || hasToken(decl, 'constexpr')) return true; // never written, whatever it is passed to
  const body = caller.body;
  let memo = escapeMemo.get(facts);
  if (!memo) escapeMemo.set(facts, (memo = new Map()));
  const key = `${decl.id}:${name}`;
  let kept = memo.get(key);
  if (kept === undefined) memo.set(key, (kept = !escapes(body, facts, decl, name)));
  if (!kept) return false;
  const here = body.descendantForIndex(at);
  for (let n: Node | null = here; n && n.startIndex > body.startIndex; n = n.parent)
    if ((n.type === 'for_statement' || n.type === 'while_statement' || n.type === 'do_statement' || n.type === 'for_range_loop') && n.startIndex > decl.startIndex && writesTo(n, name, n.startIndex, n.endIndex).length) return false;
  return true;
}
const escapeMemo = new WeakMap<FileFacts, Map<string, boolean>>();

/** settled for a parameter of `caller`: its address never taken nor passed where it could be written, and no loop around `at` writes it. */
function settledParam(caller: FunctionFact, facts: FileFacts, name: string, at: number): boolean {
  const body = caller.body;
  let memo = escapeMemo.get(facts);
  if (!memo) escapeMemo.set(facts, (memo = new Map()));
  const key = `param:${body.id}:${name}`;
  let kept = memo.get(key);
  if (kept === undefined) memo.set(key, (kept = !escapes(body, facts, body, name)));
  if (!kept) return false;
  for (let n: Node | null = body.descendantForIndex(at); n && n.startIndex > body.startIndex; n = n.parent)
    if ((n.type === 'for_statement' || n.type === 'while_statement' || n.type === 'do_statement' || n.type === 'for_range_loop') && writesTo(n, name, n.startIndex, n.endIndex).length) return false;
  return true;
}

/** Whether a local's address is taken, or it is passed where it could be written (see settled), after `decl`. */
function escapes(body: Node, facts: FileFacts, decl: Node, name: string): boolean {
  return escapeSites(body, facts, decl.startIndex, name, true).length > 0;
}

/** Where (the end of each node) `name` may be written without an assignment in `body` after `from`: `&name`, `cin >> name`, a call that could take it by reference. */
function escapeSites(body: Node, facts: FileFacts, from: number, name: string, first = false): number[] {
  const out: number[] = [];
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (first && out.length) break;
    if (n.endIndex <= from) continue;
    if (n.type === 'pointer_expression' && n.childForFieldName('operator')?.text === '&') {
      let x: Node | null = n.childForFieldName('argument');
      while (x && (x.type === 'field_expression' || x.type === 'subscript_expression' || x.type === 'parenthesized_expression'))
        x = x.type === 'parenthesized_expression' ? named(x)[0] ?? null : x.childForFieldName('argument');
      if (x?.type === 'identifier' && x.text === name) out.push(n.endIndex);
    } else if (n.type === 'binary_expression' && n.childForFieldName('operator')?.text === '>>' && n.childForFieldName('right')?.text === name && /\bcin\b|>>/.test(n.childForFieldName('left')?.text ?? '')) {
      out.push(n.endIndex);
    }
    else if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      const callee = f?.text.replace(/\s/g, '') ?? '';
      const args = argumentNodes(n);
      const i = args.findIndex((a) => a.type === 'identifier' && a.text === name);
      if (i >= 0 && !BY_VALUE_CALLS.test(callee) && !named(n).some((c) => c.type === 'kernel_call_syntax')) {
        // a function of the file: by value unless that parameter is a reference (every overload), by declared
        // position (an unnamed parameter, which the body cannot change, takes its argument too)
        const defs = facts.functions.get(callee) ?? [];
        const escapes = (d: FunctionFact) => {
          if (i >= paramCount(d)) return true;
          const p = paramAt(d, i);
          return p ? /&/.test(p.node.text) : false;
        };
        if (!defs.length || defs.some(escapes)) out.push(n.endIndex);
      }
    }
    for (const c of named(n)) stack.push(c);
  }
  return out;
}

type Binding = {
  values: Map<string, Value>; types: Map<string, CType>; label: Record<string, number | string>; unbound?: string;
  /** the outcome taken for each undecided `if` before the launch, by node id (see branchChoices). */
  decide?: Map<number, boolean>;
};

/** `base` (a host template's binding, or none) with a loop's counters, a dispatch's types or a way's decisions over it. */
function extendBinding(base: Binding | undefined, more: { values?: Map<string, Value>; types?: Map<string, CType>; decide?: Map<number, boolean> } | null): Binding | undefined {
  if (!more || (!more.values?.size && !more.types && !more.decide)) return base;
  return {
    values: new Map([...(base?.values ?? []), ...(more.values ?? [])]), types: new Map([...(base?.types ?? []), ...(more.types ?? [])]),
    label: base?.label ?? {}, decide: more.decide,
  };
}

/** A template parameter deduced from a call's arguments: a type, or (from an argument of a class template type) a value. */
type Deduced = { type: CType } | { value: Value };

function bindTemplate(kernel: FunctionFact, args: Node[] | null, it: Interp, deduced?: Map<string, Deduced>): Binding {
  const values = new Map<string, Value>();
  const types = new Map<string, CType>();
  const label: Record<string, number | string> = {};
  let unbound: string | undefined;
  kernel.templateParams.forEach((tp, i) => {
    // a pack of values (`template <int... Pads>` launched as `k<1, 1>`): the arguments from here on
    if (tp.isPack && !tp.isType) {
      const items = (args ?? []).slice(i).map((a) => it.rvalue(a));
      const us = items.map((v) => uniformValue(v));
      if (us.some((u) => u === null)) unbound ??= `the template arguments for the pack \`${tp.name}\` could not be evaluated`;
      values.set(`${tp.name}...`, valuePack(items));
      values.set(tp.name, unk(`\`${tp.name}\` is a parameter pack, named outside a pack expansion`));
      label[tp.name] = `<${us.join(', ')}>`;
      return;
    }
    const a = args?.[i] ?? tp.defaultNode;
    const d = !args?.[i] ? deduced?.get(tp.name) : undefined;
    if (d && 'type' in d) {
      types.set(tp.name, d.type);
      label[tp.name] = typeName(d.type);
      return;
    }
    if (d) {
      values.set(tp.name, d.value);
      label[tp.name] = uniformValue(d.value)!;
      return;
    }
    if (!a) {
      unbound ??= `the template parameter \`${tp.name}\` of \`${kernel.name}\` is not bound by any launch or explicit instantiation in this file`;
      return;
    }
    if (tp.isTemplate) {
      // a template's name (`caller<5, T, D, BrdRowReplicate>`, the border of a header): named, not evaluated; what is
      // made of it (`B<T> brd`) is a type of its own, known or not where it is used
      label[tp.name] = a.text;
      return;
    }
    if (tp.isType) {
      const t = it.resolveType(a.type === 'type_descriptor' ? (a.childForFieldName('type') ?? a) : a);
      types.set(tp.name, t);
      label[tp.name] = typeName(t);
      if (t.kind === 'unknown') unbound ??= `the type \`${a.text}\` bound to \`${tp.name}\` is not known`;
    } else {
      const v = it.rvalue(a);
      const u = uniformValue(v);
      // a function named for a function-pointer parameter (`template <fn_t F>`, `k<helper>`): calls of F call it
      const fn = v.k === 'other' && v.what.startsWith('function ') ? v.what.slice('function '.length) : null;
      if (fn) label[tp.name] = fn;
      else if (u === null) unbound ??= `the template argument \`${a.text}\` for \`${tp.name}\` could not be evaluated`;
      else label[tp.name] = u;
      values.set(tp.name, v);
    }
  });
  return { values, types, label, unbound };
}

/** Pointer declarators around a name (`**p` gives 2); null for any other declarator (a reference, an array). */
function pointerDepth(d: Node | null): number | null {
  let depth = 0;
  for (let cur = d; cur; cur = cur.childForFieldName('declarator')) {
    if (cur.type === 'identifier') return depth;
    if (cur.type !== 'pointer_declarator') return null;
    depth++;
  }
  return null;
}

/** The type descriptor of a cast (`(const float *)p`, `static_cast<float *>(p)`, `reinterpret_cast<T *>(p)`), else null. */
function castType(a: Node): Node | null {
  if (a.type === 'cast_expression') return a.childForFieldName('type');
  const f = a.type === 'call_expression' ? a.childForFieldName('function') : null;
  if (f?.type !== 'template_function' || !/^(static|reinterpret|const)_cast$/.test(f.childForFieldName('name')?.text ?? '')) return null;
  const targs = argumentNodes(f);
  return targs.length === 1 && targs[0].type === 'type_descriptor' ? targs[0] : null;
}

/** Abstract pointer declarators of a type descriptor (`float **` gives 2; none gives 0); null for any other (a reference, an array). */
function abstractPointerDepth(d: Node | null): number | null {
  let depth = 0;
  for (let cur = d; cur; cur = cur.childForFieldName('declarator')) {
    if (cur.type !== 'abstract_pointer_declarator') return null;
    depth++;
  }
  return depth;
}

/**
 * The type parameters an explicit instantiation without template arguments deduces (`template void launch(float *dst,
 * int n);` of `template <typename T> void launch(T *dst, int n)`): each parameter declared `T` with some stars, against
 * the instantiation's parameter at that place.
 */
function deducedFromInstantiation(fn: FunctionFact, params: Node, it: Interp): Map<string, Deduced> {
  const out = new Map<string, Deduced>();
  const given = named(params).filter((n) => n.type === 'parameter_declaration');
  // by declared position: an unnamed parameter before (`T *dst, int /*n*/, T *src`) has its place in the instantiation
  const at = paramPositions(fn);
  fn.params.forEach((p, i) => {
    const tp = fn.templateParams.find((t) => t.isType && t.name === p.node.childForFieldName('type')?.text.trim());
    const depth = pointerDepth(p.node.childForFieldName('declarator'));
    const g = given[at ? at[i] : i];
    if (!tp || depth === null || !g || out.has(tp.name)) return;
    const gd = g.childForFieldName('declarator');
    const argDepth = gd ? pointerDepth(gd) ?? abstractPointerDepth(gd) : 0;
    let t = it.resolveType(g.childForFieldName('type') ?? g);
    if (argDepth === null || argDepth < depth || t.kind === 'unknown') return;
    for (let k = depth; k < argDepth; k++) t = { kind: 'pointer', to: t };
    out.set(tp.name, { type: t });
  });
  return out;
}

/**
 * Whether a launch by name is of this kernel where the file defines several kernels of that name (DeepSpeed's
 * `LayerNormBackward2(const float *...)` and `LayerNormBackward2(const __half *...)`, launched with different shapes):
 * the overloads that take as many arguments, then those whose parameter types the arguments' declared types (a name
 * the caller declares, or a cast) do not contradict. A launch no overload fits, or every one, is of each.
 */
function launchesOverload(kernel: FunctionFact, l: LaunchFact, facts: FileFacts): boolean {
  const same = (facts.functions.get(kernel.name) ?? []).filter((k) => k.isKernel);
  if (same.length < 2 || l.api || !l.caller) return true;
  const args = launchArguments(l);
  const bare = (t: string) => t.replace(/\b(const|volatile|__restrict__|__restrict|struct|class)\b|\s+/g, '').replace(/^(?:::)?(?:std::)?/, '').replace(/^half$/, '__half');
  /** the type an argument is declared or cast with, and its stars; null where not written in the caller. */
  const argType = (a: Node): { base: string; depth: number } | null => {
    const cast = castType(a);
    const typeNode = cast ? cast.childForFieldName('type') : a.type === 'identifier' ? callerDeclaration(a, l)?.decl.childForFieldName('type') : null;
    const depth = cast ? abstractPointerDepth(cast.childForFieldName('declarator')) : a.type === 'identifier' ? pointerDepth(callerDeclaration(a, l)?.declarator ?? null) : null;
    return typeNode && depth !== null ? { base: bare(typeNode.text), depth } : null;
  };
  const fits = (k: FunctionFact) => {
    // arguments by declared position (an unnamed parameter takes one too)
    if (paramCount(k) !== args.length) return false;
    const at = paramPositions(k);
    return k.params.every((p, i) => {
      const typeNode = p.node.childForFieldName('type');
      const depth = pointerDepth(p.node.childForFieldName('declarator'));
      const given = argType(args[at ? at[i] : i]);
      if (!typeNode || depth === null || !given) return true;
      // a template parameter takes any type
      if (k.templateParams.some((tp) => tp.isType && new RegExp(`\\b${tp.name}\\b`).test(typeNode.text))) return true;
      return given.depth === depth && given.base === bare(typeNode.text);
    });
  };
  const fitting = same.filter(fits);
  return fitting.length === 0 || fitting.includes(kernel);
}

/** Where the launching function declares a name it passes (a parameter, or a local before the launch), and its declarator. */
function callerDeclaration(a: Node, l: LaunchFact): { decl: Node; declarator: Node | null } | null {
  const decl = l.caller!.params.find((q) => q.name === a.text)?.node ?? findDeclaration(l.caller!.body, a.text, l.node.startIndex);
  if (!decl) return null;
  let d = decl.type === 'declaration' ? decl.childrenForFieldName('declarator').find((x) => x && declaratorName(x)?.text === a.text) ?? null : decl.childForFieldName('declarator');
  if (d?.type === 'init_declarator') d = d.childForFieldName('declarator');
  return { decl, declarator: d };
}

/** A declarator of a name itself or of a reference to it (`x`, `&x`): an object of the declared type, not a pointer or an array. */
function byValueOrReference(d: Node): boolean {
  return d.type === 'identifier' || d.type === 'reference_declarator' && named(d).length === 1 && named(d)[0].type === 'identifier';
}

/**
 * The template arguments of a class template type an argument has (`Op<SUM, float>()`, `Op<SUM, float>{}`, or a name
 * the caller declares `Op<SUM, float> op`), when that class template is `cls`; else null.
 */
function classArgsOf(a: Node, cls: string, l: LaunchFact): Node[] | null {
  let t: Node | null = null;
  if (a.type === 'call_expression') t = a.childForFieldName('function');
  else if (a.type === 'compound_literal_expression') t = a.childForFieldName('type');
  else if (a.type === 'identifier') {
    const found = callerDeclaration(a, l);
    if (found?.declarator && byValueOrReference(found.declarator)) t = found.decl.childForFieldName('type');
  }
  t = t && unqualified(t);
  return t && (t.type === 'template_function' || t.type === 'template_type') && t.childForFieldName('name')?.text === cls ? argumentNodes(t) : null;
}

/** The name a qualified name ends in (`std::bool_constant<B>` gives `bool_constant<B>`); any other node itself. */
function unqualified(t: Node): Node {
  for (let i = 0; t.type === 'qualified_identifier' && i < 8; i++) {
    const n = t.childForFieldName('name');
    if (!n) break;
    t = n;
  }
  return t;
}

/**
 * Template parameters the launch's arguments deduce, as C++ deduces them: a type parameter from a kernel parameter
 * declared as it behind pointers (`k<<<g, b>>>(d)`, `d` declared `double *d` in the caller, for a kernel parameter
 * `T *p`: T = double), given a name declared in the caller (a parameter or a local before the launch) or a cast; and
 * any parameter named as an argument of a kernel parameter of class template type (`const Op<K, T> op` given
 * `Op<SUM, float>()`: K = SUM, T = float).
 */
function deduceTypes(kernel: FunctionFact, l: LaunchFact, it: Interp): Map<string, Deduced> {
  const out = new Map<string, Deduced>();
  if (l.api || !l.caller || !kernel.templateParams.length) return out;
  const args = launchArguments(l);
  // every parameter, named or not: a tag (`std::bool_constant<UseAux>`, `Int<N>`) is often left unnamed
  const fdecl = kernel.params[0]?.node.parent ?? declaredParameters(kernel);
  const all = named(fdecl).filter((c) => /^(optional_)?parameter_declaration$/.test(c.type)).map((node) => ({ node }));
  all.forEach((p, i) => {
    const a = args[i];
    const typeNode = p.node.childForFieldName('type') && unqualified(p.node.childForFieldName('type')!);
    if (!a || !typeNode) return;
    const pd = p.node.childForFieldName('declarator');
    if (typeNode.type === 'template_type' && (!pd || byValueOrReference(pd))) {
      const given = classArgsOf(a, typeNode.childForFieldName('name')?.text ?? '', l);
      argumentNodes(typeNode).forEach((pat, j) => {
        const tp = kernel.templateParams.find((t) => t.name === pat.text.trim());
        const g = given?.[j];
        if (!tp || !g || out.has(tp.name)) return;
        if (tp.isType) {
          const t = g.type === 'type_descriptor' && !g.childForFieldName('declarator') ? it.resolveType(g.childForFieldName('type') ?? g) : null;
          if (t && t.kind !== 'unknown') out.set(tp.name, { type: t });
        } else {
          const v = it.rvalue(g);
          if (uniformValue(v) !== null) out.set(tp.name, { value: v });
        }
      });
      return;
    }
    const tp = kernel.templateParams.find((t) => t.isType && t.name === typeNode.text.trim());
    // an unnamed parameter (`template <class Stride> __global__ void k(float *out, Stride)`) is taken by value
    const depth = pd ? pointerDepth(pd) : 0;
    if (!tp || depth === null || out.has(tp.name)) return;
    /** T from an argument of type `base` with `argDepth` stars, for a parameter `T` with `depth` of them. */
    const bind = (base: Node | null, argDepth: number | null) => {
      if (argDepth === null || argDepth < depth || !base) return;
      let t = it.resolveType(base);
      if (t.kind === 'unknown') return;
      for (let k = depth; k < argDepth; k++) t = { kind: 'pointer', to: t };
      out.set(tp.name, { type: t });
    };
    // `(const float *)src0->data`, `static_cast<float *>(p)`, `reinterpret_cast<half *>(p)`: the cast's type
    const cast = castType(a);
    if (cast) return bind(cast.childForFieldName('type'), abstractPointerDepth(cast.childForFieldName('declarator')));
    // a tensor's data (`x.data_ptr<scalar_t>()`, also `data<T>()`, `mutable_data_ptr<T>()`, `const_data_ptr<T>()`), an
    // image's row (`img.ptr<uchar>(y)`, `src.ptr<uint16_t>()`, as OpenCV's GpuMat and libSGM's DeviceImage have it): a `T *`
    const f = a.type === 'call_expression' ? a.childForFieldName('function') : null;
    const method = f?.type === 'field_expression' ? f.childForFieldName('field') : null;
    if (method?.type === 'template_method' && /^(data_ptr|data|mutable_data_ptr|const_data_ptr|ptr)$/.test(method.childForFieldName('name')?.text ?? '')) {
      const [t] = argumentNodes(method);
      if (t?.type === 'type_descriptor' && !t.childForFieldName('declarator')) return bind(t.childForFieldName('type'), 1);
    }
    const found = a.type === 'identifier' ? callerDeclaration(a, l) : null;
    const at = found?.decl.childForFieldName('type');
    if (found && at) return bind(at, pointerDepth(found.declarator));
    // a temporary of a class the file defines, for a parameter `T op` (a functor: `solve<<<g, b>>>(d, Sub())`,
    // `Pick{}`): T is that class
    const temp = depth === 0 && a.type === 'call_expression' ? a.childForFieldName('function')
      : depth === 0 && a.type === 'compound_literal_expression' ? a.childForFieldName('type') : null;
    if (temp && /^(type_)?identifier$/.test(temp.type) && it.cfg.facts.typeDecls.has(temp.text)) bind(temp, 0);
    // a tag of a class template instance (`Int<3>{}` of an alias template, `std::integral_constant<int, 4>{}`,
    // `std::true_type{}`): T is that class where it is known
    else if (temp && /^(template_type|qualified_identifier)$/.test(temp.type) && it.resolveType(temp).kind === 'struct') bind(temp, 0);
  });
  return out;
}

/** The parameter list of a function's declarator (a kernel's own, its parameters named or not). */
function declaredParameters(fn: FunctionFact): Node | null {
  let d: Node | null = fn.node.childForFieldName('declarator');
  for (let i = 0; d && d.type !== 'function_declarator' && i < 16; i++) d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.endsWith('declarator')) ?? null;
  return d?.childForFieldName('parameters') ?? null;
}

/** Every node of the host functions (not kernels, not `except`) whose body mentions `name`, with its function. */
function* hostNodesMentioning(facts: FileFacts, name: string, except?: FunctionFact): Generator<{ fn: FunctionFact; node: Node }> {
  for (const list of facts.functions.values())
    for (const orig of list) {
      // a function whose macros expand to calls of a launcher is read as the copy with them expanded (collect.ts)
      const fn = facts.hostCopies?.get(orig) ?? orig;
      if (fn.isKernel || orig === except || fn === except || !fn.body.text.includes(name)) continue;
      const stack: Node[] = [fn.body];
      while (stack.length) {
        const node = stack.pop()!;
        for (const c of named(node)) stack.push(c);
        yield { fn, node };
      }
    }
}

/**
 * The parameters a call that names only the first template arguments (`launch<2>(exec, A, y)` of `template <unsigned
 * N, typename Policy, typename Matrix> void launch(Policy &exec, const Matrix &A, float *y)`) leaves to deduction, as
 * C++ deduces them from its arguments; a type parameter named in a function parameter's type whose argument's type
 * this file does not give (a caller's own template parameter, a header's class) is a type not known, so that the
 * parameters given are still read (cusp's `__spmv_csr_vector<THREADS_PER_VECTOR>`), and what needs the type says so.
 */
function trailingDeduced(fn: FunctionFact, args: Node[], call: Node, caller: FunctionFact | null, it: Interp): Map<string, Deduced> | undefined {
  if (args.length >= fn.templateParams.length) return undefined;
  const out = deduceTypes(fn, { caller, node: call } as LaunchFact, it);
  // named in a parameter's type, alone or as a template argument there (`cuda::execution_policy<DerivedPolicy> &exec`)
  const declared = new Set(fn.params.flatMap((p) => p.node.childForFieldName('type')?.text.match(/\b\w+\b/g) ?? []));
  fn.templateParams.forEach((tp, i) => {
    if (i >= args.length && tp.isType && !tp.defaultNode && !out.has(tp.name) && declared.has(tp.name))
      out.set(tp.name, { type: { kind: 'unknown', name: tp.name } });
  });
  return out;
}

/** How many host function templates up a chain of calls is followed, and how many bindings one template keeps. */
const MAX_HOST_TEMPLATE_DEPTH = 4;
const MAX_HOST_TEMPLATE_BINDINGS = 64;

/**
 * The bindings a host function template gets in this file (`template <typename T> void launch(T *p) { k<T><<<...>>>(p); }`):
 * its explicit instantiations, the calls that name its template arguments (`launch<float>(p)`) and the calls whose
 * arguments deduce its type parameters (`launch(p)`), each evaluated where it is written (a call inside another host
 * function template, with each of that template's bindings, a few levels up). Only bindings that bind every parameter
 * count; none: the launch is read unbound, as before.
 */
function hostTemplateBindings(fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps, depth = 0,
  memo = new Map<FunctionFact, { bind: Binding; where: string }[]>()): { bind: Binding; where: string }[] {
  const known = memo.get(fn);
  if (known) return known;
  const out: { bind: Binding; where: string }[] = [];
  memo.set(fn, out); // a template that calls itself (recursion) gets no bindings from itself
  let cut = false;
  /** the bindings of the host template `caller` a call written in it is read with ([null]: none, or not a template). */
  const outerOf = (caller: FunctionFact | null): ({ bind: Binding; where: string } | null)[] => {
    const outer = caller && caller !== fn && caller.templateParams.length && depth < MAX_HOST_TEMPLATE_DEPTH
      ? hostTemplateBindings(caller, facts, deadline, caps, depth + 1, memo) : [];
    return outer.length ? outer : [null];
  };
  /** `as`: the parameters bound are a class template's (`Gemm<128, 64>`), named so. */
  const add = (args: Node[], caller: FunctionFact | null, at: Node, what: string, as?: { target: FunctionFact; where: string }) => {
    const where = as?.where ?? `\`${fn.name}<${args.map((a) => a.text).join(', ')}>\` (${what} at line ${at.startPosition.row + 1})`;
    // a call written in another host function template (`launch<pack_size, 256>(o)` in `dispatch<pack_size>`): read
    // once per binding that template gets
    for (const o of outerOf(caller)) {
      // written in an ATen dispatch (`launch<scalar_t>(...)` in `AT_DISPATCH_FLOATING_TYPES(...)`): once per type
      const ways: (LoopBinding | null)[] & { truncated?: boolean } = caller ? enclosingDispatches(caller, at, facts, deadline, caps) : [null];
      const cutWays = ways.truncated ? `; only the first ${MAX_CALLER_BINDINGS} combinations of the switches around the call are read` : '';
      for (const d of ways) {
        if (out.length >= MAX_HOST_TEMPLATE_BINDINGS) return void (cut = true);
        const it = hostInterp(facts, caller, at.startIndex, deadline, caps, extendBinding(o?.bind, d));
        const bind = bindTemplate(as?.target ?? fn, args, it, !as && at.type === 'call_expression' ? trailingDeduced(fn, args, at, caller, it) : undefined);
        if (!bind.unbound) out.push({ bind, where: `${where}${d?.where ?? ''}${cutWays}${o ? ` in ${o.where}` : ''}` });
      }
    }
  };
  for (const x of byKernel(facts).instantiations.get(fn.name) ?? []) {
    if (x.args.length || !x.params) {
      add(x.args, null, x.node, 'the explicit instantiation');
      continue;
    }
    const it = hostInterp(facts, null, 0, deadline, caps);
    const bind = bindTemplate(fn, null, it, deducedFromInstantiation(fn, x.params, it));
    if (!bind.unbound) out.push({ bind, where: `\`${fn.name}\` (the explicit instantiation at line ${x.node.startPosition.row + 1})` });
  }
  for (const { fn: caller, node: n } of hostNodesMentioning(facts, fn.name, fn)) {
    const f = n.type === 'call_expression' ? n.childForFieldName('function') : null;
    if (f?.type === 'template_function' && f.childForFieldName('name')?.text === fn.name)
      add(argumentNodes(f), caller, n, 'the call');
    else if (f?.type === 'identifier' && f.text === fn.name && fn.templateParams.length) {
      // `transpose(out, in, n)`: the types its arguments deduce, in each binding of a caller that is itself a template
      for (const up of outerOf(caller))
        for (const d of caller ? enclosingDispatches(caller, n, facts, deadline, caps) : [null]) {
          if (out.length >= MAX_HOST_TEMPLATE_BINDINGS) {
            cut = true;
            break;
          }
          const it = hostInterp(facts, caller, n.startIndex, deadline, caps, extendBinding(up?.bind, d));
          const bind = bindTemplate(fn, null, it, deduceTypes(fn, { caller, node: n } as LaunchFact, it));
          const where = `\`${fn.name}(...)\` (the call at line ${n.startPosition.row + 1}${d?.where ?? ''}${up ? ` in ${up.where}` : ''})`;
          if (!bind.unbound && !out.some((o) => JSON.stringify(o.bind.label) === JSON.stringify(bind.label))) out.push({ bind, where });
        }
    }
  }
  // `&launch<float>` or `launch<float>` passed as a value (a function pointer a test harness calls): an instance too
  for (const r of kernelReferences(fn, facts)) if (r.caller !== fn) add(r.args, r.caller, r.node, 'the reference');
  // a member function of a class template defined outside it (`template <class T> void S<T>::run(...) { ... }`):
  // each `S<float>` the host code names (an object declared `S<float> s;`) binds the class's parameters
  let scope: Node | null = fn.node.childForFieldName('declarator');
  for (let i = 0; scope && scope.type !== 'qualified_identifier' && i < 8; i++) scope = scope.childForFieldName('declarator');
  scope = scope?.childForFieldName('scope') ?? null;
  const cls = scope?.type === 'template_type' ? scope.childForFieldName('name')?.text : undefined;
  const own = scope ? argumentNodes(scope).map((a) => a.text.trim()) : [];
  if (cls && own.length === fn.templateParams.length && own.every((a, i) => a === fn.templateParams[i].name)) {
    for (const { fn: caller, node: n } of hostNodesMentioning(facts, cls, fn))
      if (n.type === 'template_type' && n.childForFieldName('name')?.text === cls) add(argumentNodes(n), caller, n, `\`${n.text}\``);
  }
  // a member function defined inside a class template (`template <int BM, int BN> struct Gemm { static void run() {
  // k<BM, BN><<<...>>>(); } };`): each `Gemm<128, 64>` the host code names binds the class's parameters
  if (!fn.templateParams.length && fn.classTemplateParams.length) {
    let body: Node | null = fn.node.parent;
    while (body && body.type !== 'struct_specifier' && body.type !== 'class_specifier') body = body.parent;
    const name = body?.childForFieldName('name')?.text;
    const asClass = { ...fn, templateParams: fn.classTemplateParams };
    if (name)
      for (const { fn: caller, node: n } of hostNodesMentioning(facts, name, fn))
        if (n.type === 'template_type' && n.childForFieldName('name')?.text === name)
          add(argumentNodes(n), caller, n, '', { target: asClass, where: `\`${n.text}\` (at line ${n.startPosition.row + 1})` });
  }
  // more instances than are read (OpenCV's tables of 5 borders x 32 kernel sizes): said with each one read
  if (cut) for (const o of out) o.where += `; only ${MAX_HOST_TEMPLATE_BINDINGS} of the instances of \`${fn.name}\` this file names are read`;
  return out;
}

/**
 * `k<256>` written in a host function other than as a launch or a call (a function pointer taken, a table of kernels,
 * `cudaFuncSetAttribute(k<256>, ...)`): the template arguments that name an instance of the kernel.
 */
function kernelReferences(kernel: FunctionFact, facts: FileFacts): { args: Node[]; caller: FunctionFact | null; node: Node }[] {
  const out: { args: Node[]; caller: FunctionFact | null; node: Node }[] = [];
  for (const { fn: caller, node: n } of hostNodesMentioning(facts, kernel.name)) {
    if (n.type !== 'template_function' || n.childForFieldName('name')?.text !== kernel.name) continue;
    const parent = n.parent;
    const called = parent?.type === 'call_expression' && parent.childForFieldName('function')?.startIndex === n.startIndex;
    if (!called) out.push({ args: argumentNodes(n), caller, node: n });
  }
  // a table of instances at file or namespace scope (OpenCV's `const static caller_t callers[] = { 0, caller<1>,
  // caller<2>, ... };`, indexed by a run-time value): each instance named there, read with no function around it
  for (const d of facts.constants.values()) {
    if (!d.text.includes(kernel.name)) continue;
    const stack: Node[] = [d];
    while (stack.length) {
      const n = stack.pop()!;
      for (const c of named(n)) stack.push(c);
      if (n.type === 'template_function' && n.childForFieldName('name')?.text === kernel.name && n.parent?.type !== 'call_expression')
        out.push({ args: argumentNodes(n), caller: null, node: n });
    }
  }
  return out;
}

/**
 * A launch through a function parameter (`void bench(Kernel k, dim3 block) { k<<<grid, block>>>(...); }`) and each
 * call that passes this kernel for that parameter (`bench(transposeNaive, threads)`, `bench(k<32>, b)`,
 * `bench(&k, b)`): a launch of the kernel, with the launching function's parameters bound to that call's arguments.
 */
function indirectLaunches(kernel: FunctionFact, facts: FileFacts): { l: LaunchFact; index: number; call: Node; site: FunctionFact; targs: Node[] | null }[] {
  const out: { l: LaunchFact; index: number; call: Node; site: FunctionFact; targs: Node[] | null }[] = [];
  for (const { l, host, index } of launchesOfParameters(facts)) {
    for (const { fn: site, node: n } of hostNodesMentioning(facts, host.name)) {
      if (n.type !== 'call_expression') continue;
      let f = n.childForFieldName('function');
      if (f?.type === 'template_function') f = f.childForFieldName('name');
      if (f?.text !== host.name) continue;
      let a: Node | undefined = argumentNodes(n)[index];
      if (a?.type === 'pointer_expression') a = a.childForFieldName('argument') ?? undefined;
      // `auto kernel = attention_kernel<64, 128>; launch_kernel(kernel, ...)`: a local variable of the calling function
      // that its declaration sets to the kernel and nothing assigns again
      const held = a?.type === 'identifier' && a.text !== kernel.name ? heldKernel(site, a.text, n.startIndex) : null;
      if (held) {
        if (held.name === kernel.name) out.push({ l, index, call: n, site, targs: held.targs });
      } else if (a?.type === 'identifier' && a.text === kernel.name) out.push({ l, index, call: n, site, targs: null });
      else if (a?.type === 'template_function' && a.childForFieldName('name')?.text === kernel.name)
        out.push({ l, index, call: n, site, targs: argumentNodes(a) });
    }
  }
  return out;
}

/** The launches whose kernel is a parameter of the host function they are in (`launch(K k) { k<<<...>>>() }`), once per file. */
function launchesOfParameters(facts: FileFacts): { l: LaunchFact; host: FunctionFact; index: number }[] {
  let list = parameterLaunches.get(facts);
  if (!list) {
    list = [];
    for (const l of facts.launches) {
      const host = l.caller;
      const k = host && !host.isKernel ? host.params.findIndex((p) => p.name === l.kernel) : -1;
      // (by declared position: the argument an unnamed parameter before it takes counts)
      const index = host && k >= 0 ? paramPositions(host)?.[k] ?? k : -1;
      if (host && index >= 0) list.push({ l, host, index });
    }
    parameterLaunches.set(facts, list);
  }
  return list;
}
const parameterLaunches = new WeakMap<FileFacts, { l: LaunchFact; host: FunctionFact; index: number }[]>();

/** The kernel a local variable of `fn` holds at `at`: set by its declaration (`auto k = f<64>;`, `= &f`), never assigned after. */
function heldKernel(fn: FunctionFact, name: string, at: number): { name: string; targs: Node[] | null } | null {
  const decl = fn.body ? findDeclaration(fn.body, name, at) : null;
  const d = decl?.childrenForFieldName('declarator').find((x) => x?.type === 'init_declarator' && declaratorName(x)?.text === name);
  const init = d?.childForFieldName('value');
  if (!init || !fn.body) return null;
  const stack: Node[] = [fn.body];
  while (stack.length) {
    const n = stack.pop()!;
    const target = n.type === 'assignment_expression' ? n.childForFieldName('left') : null;
    if (target?.type === 'identifier' && target.text === name) return null;
    for (const c of named(n)) stack.push(c);
  }
  return kernelRef(init);
}

/** A value known for every thread: a number, or a dim3 of numbers. */
const known = (v: Value): boolean => (v.k === 'dim3' ? [v.x, v.y, v.z].every((c) => uniformValue(c) !== null) : uniformValue(v) !== null);

/** The initializer list of `name`, a local array of `fn` declared before `at` (`int sizes[] = {32, 64};`) that nothing writes. */
function localArrayItems(fn: FunctionFact, name: string, at: number, declOut?: { decl?: Node }): Node[] | null {
  const decl = findDeclaration(fn.body, name, at);
  if (declOut && decl) declOut.decl = decl;
  const d = decl?.childrenForFieldName('declarator').find((x) => x?.type === 'init_declarator' && declaratorName(x)?.text === name);
  const inner = d?.childForFieldName('declarator');
  const init = d?.childForFieldName('value');
  if (inner?.type !== 'array_declarator' || init?.type !== 'initializer_list') return null;
  const stack: Node[] = [fn.body];
  while (stack.length) {
    const n = stack.pop()!;
    const target = n.type === 'assignment_expression' ? n.childForFieldName('left') : n.type === 'update_expression' ? n.childForFieldName('argument') : null;
    if (target?.type === 'subscript_expression' && target.childForFieldName('argument')?.text === name) return null;
    for (const c of named(n)) stack.push(c);
  }
  return named(init).filter((c) => c.type !== 'comment');
}

/** `sizes[j]` of such a local array, at an index `it` evaluates; null for anything else. */
function localArrayElement(fn: FunctionFact, node: Node, it: Interp): Value | null {
  // `cfg[i].t` of a table of structs filled in member order (a miner's autotuning list `struct { uint32_t t, g; }
  // cfg[] = {{128, 320}, {256, 160}}`): that member of that element
  if (node.type === 'field_expression' && !hasToken(node, '->')) {
    const el = node.childForFieldName('argument');
    const field = node.childForFieldName('field')?.text;
    const base = el?.type === 'subscript_expression' ? el.childForFieldName('argument') : null;
    const found: { decl?: Node } = {};
    const items = base?.type === 'identifier' ? localArrayItems(fn, base.text, node.startIndex, found) : null;
    const index = el ? subscriptIndex(el) : null;
    const i = items && index ? uniformValue(it.rvalue(index)) : null;
    const typeNode = found.decl?.childForFieldName('type');
    const t = typeNode ? it.resolveType(typeNode) : null;
    const k = t?.kind === 'struct' ? t.fields.findIndex((f) => f.name === field) : -1;
    const item = items && i !== null && Number.isInteger(i) && i >= 0 && i < items.length ? items[i] : null;
    const parts = item?.type === 'initializer_list' ? named(item).filter((c) => c.type !== 'comment') : null;
    return parts && k >= 0 && k < parts.length && parts.every((c) => c.type !== 'initializer_pair') ? it.rvalue(parts[k]) : null;
  }
  if (node.type !== 'subscript_expression') return null;
  const base = node.childForFieldName('argument');
  const items = base?.type === 'identifier' ? localArrayItems(fn, base.text, node.startIndex) : null;
  const index = subscriptIndex(node);
  const i = items && index ? uniformValue(it.rvalue(index)) : null;
  return items && i !== null && Number.isInteger(i) && i >= 0 && i < items.length ? it.rvalue(items[i]) : null;
}

/**
 * `block` or `blocks[d]` where that is a variable of the file scope (`dim3 blocks[3];`) that host code sets once:
 * `blocks[1] = dim3(4, 64, 1);` as a plain `=` straight through a function's body, the only write to that variable
 * (or to that element, at a constant index) anywhere in the file, of a value made of the file's names only. Its value
 * evaluated by `it` (the launching function, which reads the index), and the write; one never written, its initializer;
 * null for anything else (its address taken or passed by reference too). That the write runs before the launch is
 * assumed (and said).
 */
function fileScopeElement(node: Node, launcher: FunctionFact, facts: FileFacts, it: Interp, deadline: number): { value: Value; note: string } | null {
  // `blocks[d]`, also of an array of arrays (`block[1][0]`, Harris's finite-difference `dim3 grid[3][2], block[3][2];`)
  const chain = subscriptChain(node);
  if (!chain) return null;
  const name = chain.base.text;
  const local = (fn: FunctionFact, id: string, at: number) => fn.params.some((p) => p.name === id) || !!findDeclaration(fn.body, id, at);
  if (local(launcher, name, node.startIndex)) return null;
  const declared = named(fileRoot(launcher.outer)).find((d) => d.type === 'declaration' && !hasToken(d, 'const') && !hasToken(d, 'constexpr') &&
    d.childrenForFieldName('declarator').some((x) => declaratorName(x)?.text === name));
  if (!declared) return null;
  const want = chain.indices.map((i) => uniformValue(it.rvalue(i)));
  if (want.some((w) => w === null)) return null;
  let found: { value: Node; fn: FunctionFact } | null = null;
  for (const fn of [...facts.functions.values()].flat()) {
    // its own variable of that name, declared in its body (in scope at its closing brace: `auto block = cg::this_thread_block();`)
    if (local(fn, name, fn.body.endIndex - 1)) continue;
    if (escapes(fn.body, facts, fn.body, name)) return null; // `&blocks[1]`, `parse(argv, nthreads)` by reference
    const stack: Node[] = [fn.body];
    while (stack.length) {
      const n = stack.pop()!;
      stack.push(...named(n));
      const target = n.type === 'assignment_expression' ? n.childForFieldName('left') : n.type === 'update_expression' ? n.childForFieldName('argument') : null;
      if (!target || !identifiersIn(target).includes(name)) continue;
      // the whole element, at constant indices: `blocks[1] = ...`, `block[1][0] = ...`
      const at = subscriptChain(target);
      if (at?.base.text !== name || at.indices.length !== want.length) return null; // `blocks[1].x = 8`, `*p = ...`: not one value
      const c = at.indices.map((i) => evalConstant(facts, i, deadline));
      if (c.some((x) => x === null)) return null;
      if (c.some((x, k) => x !== want[k])) continue;
      // run once, straight through the body: not under an if, a loop or a switch
      const plain = n.childForFieldName('operator')?.text === '=' && n.parent?.type === 'expression_statement' && n.parent.parent?.id === fn.body.id;
      const value = n.childForFieldName('right');
      if (found || !plain || !value || identifiersIn(value).some((id) => local(fn, id, value.startIndex) || local(launcher, id, node.startIndex))) return null;
      found = { value, fn };
    }
  }
  if (found) return { value: it.rvalue(found.value), note: `\`${node.text}\` as \`${found.value.parent!.text}\` in \`${found.fn.name}\` at line ${found.value.startPosition.row + 1} sets it (assumed to run before the launch)` };
  // never written (`int nthreads = 128;` at file scope): its initializer
  const value = want.length ? null : it.valueOfDeclaration(declared, name);
  return value && (uniformValue(value) !== null || value.k === 'dim3') ? { value, note: `\`${name}\` as declared at line ${declared.startPosition.row + 1} (never written)` } : null;
}

/** `a`, `a[i]`, `a[i][j]`: the name and its indices, outermost first; null for anything else. */
function subscriptChain(node: Node): { base: Node; indices: Node[] } | null {
  const indices: Node[] = [];
  let n: Node | null = node;
  while (n?.type === 'subscript_expression') {
    const i = subscriptIndex(n);
    if (!i) return null;
    indices.unshift(i);
    n = n.childForFieldName('argument');
  }
  return n?.type === 'identifier' ? { base: n, indices } : null;
}

/** Names the file uses other than as the function of a call or a function's own declarator (an address taken). */
const referenced = new WeakMap<FileFacts, Set<string>>();
/** Whether `fn` is only ever called by name in this file (its address is never taken: no call can be hidden). */
function onlyCalled(fn: FunctionFact, facts: FileFacts): boolean {
  let names = referenced.get(facts);
  if (!names) {
    names = new Set();
    const stack: Node[] = [fileRoot(fn.node)];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'identifier' && facts.functions.has(n.text)) {
        const p = n.parent;
        const called = p?.type === 'call_expression' && p.childForFieldName('function')?.startIndex === n.startIndex;
        const declared = p?.type === 'function_declarator' && p.childForFieldName('declarator')?.startIndex === n.startIndex;
        if (!called && !declared) names.add(n.text);
      }
      for (const c of named(n)) stack.push(c);
    }
    referenced.set(facts, names);
  }
  return !names.has(fn.name);
}

/** Whether a branch fact around a launch or call (`case 2:` of `switch (which)`) is false where `it` knows the subject. */
function contradicted(path: PathFacts, it: Interp): boolean {
  for (const e of path.eq.values()) {
    const a = uniformValue(it.rvalue(e.subject)), b = uniformValue(it.rvalue(e.value));
    if (a !== null && b !== null && a !== b) return true;
  }
  for (const e of path.ne) {
    const a = uniformValue(it.rvalue(e.subject));
    if (a !== null && e.values.some((v) => uniformValue(it.rvalue(v)) === a)) return true;
  }
  return path.sw.some((e) => switchSkips(e, it));
}

const ENDS_CASE = ['break_statement', 'return_statement', 'continue_statement', 'goto_statement'];

/**
 * Whether a `switch` whose subject `it` knows never reaches the case at `e.at` (`default: case 32:` and `case 256:`
 * of `switch (block_dim)` where `block_dim` is 256: the launch under `case 32:` never runs). The switch enters the
 * case of that value (or `default:`, or none) and runs on through the cases after it until one ends in an
 * unconditional `break`, `return`, `continue` or `goto`. A case value not known leaves it undecided: false.
 */
function switchSkips(e: PathFacts['sw'][number], it: Interp): boolean {
  if (e.at < 0) return false;
  const v = uniformValue(it.rvalue(e.subject));
  if (v === null) return false;
  let entry = -1;
  for (let i = 0; i < e.cases.length; i++) {
    const label = e.cases[i].childForFieldName('value');
    if (!label) continue;
    const u = uniformValue(it.rvalue(label));
    if (u === null) return false;
    if (u === v && entry < 0) entry = i;
  }
  if (entry < 0) entry = e.cases.findIndex((c) => !c.childForFieldName('value'));
  if (entry < 0 || entry > e.at) return true;
  for (let i = entry; i < e.at; i++) {
    const last = named(e.cases[i]).filter((c) => c.type !== 'comment').pop();
    if (last && last.startIndex !== e.cases[i].childForFieldName('value')?.startIndex && ENDS_CASE.includes(last.type)) return true;
  }
  return false;
}

const MAX_CALLER_BINDINGS = 16;
/**
 * `assumed`: no call gives these values (a launcher's default arguments where no code of the file calls it).
 * `label`: where the called function is a host function template, the template binding the call gives it (its label's
 * JSON: `launch(d, n, 256)` deduces `{"T":"float"}`), so that a launch read once per binding takes only its own calls.
 */
type CallerBinding = { params: Map<string, Value>; where: string; assumed?: boolean; label?: string };

/**
 * The counters of the `for` loops around `call` in `fn` that run a known number of times (`for (int j = 0; j < 4; j++)`,
 * `j < sizeof(sizes) / sizeof(int)` over a local array, `for (int b = 32; b <= 256; b *= 2)`: see counterValues), one map per combination of their values, with the locals the
 * loop body sets from them before the call (`int block_size = sizes[j];`). A loop that is not of this form adds nothing.
 */
function loopBindings(fn: FunctionFact, call: Node, facts: FileFacts, deadline: number, caps: Caps, params?: Map<string, Value>, picked?: LaunchFact['picked']): LoopBinding[] & { truncated?: boolean } {
  // ATen's `AT_DISPATCH_FLOATING_TYPES(t, "name", [&] { k<scalar_t><<<...>>>(...); })`: once per type it dispatches to
  let combos: LoopBinding[] & { truncated?: boolean } = enclosingDispatches(fn, call, facts, deadline, caps);
  for (let n: Node | null = call.parent; n && n.startIndex >= fn.body.startIndex && n !== fn.body; n = n.parent) {
    if (n.type !== 'for_statement') continue;
    const init = n.childForFieldName('initializer');
    const body = n.childForFieldName('body');
    const d = init?.type === 'declaration' ? init.childrenForFieldName('declarator') : [];
    if (d.length !== 1 || d[0]?.type !== 'init_declarator' || !body || body.startIndex > call.startIndex) continue;
    const j = declaratorName(d[0])?.text;
    // each loop around the call walks its body once: in a definition the grammar nests deep (a half-typed one, its
    // braces unbalanced) that is a walk of most of the file per loop, so the clock is read here
    if (Date.now() > deadline) throw new BudgetExceeded();
    if (!j || writtenBetween(body, j, body.startIndex, body.endIndex)) continue;
    const it = hostInterp(facts, fn, n.startIndex, deadline, caps, undefined, undefined, params);
    const counts = counterValues(fn, n, j, d[0].childForFieldName('value'), it);
    if (!counts) continue;
    const next: typeof combos = [];
    next.truncated = combos.truncated || combos.length * counts.length > MAX_CALLER_BINDINGS;
    for (const c of combos)
      for (const v of counts) {
        if (next.length >= MAX_CALLER_BINDINGS) break;
        const values = new Map(c.values);
        values.set(j, num(v, INT));
        // locals the body declares from the counter before the call, written nowhere else before it
        const at = hostInterp(facts, fn, call.startIndex, deadline, caps, { values, types: c.types ?? new Map(), label: {} }, undefined, params);
        for (const s of named(body)) {
          if (s.startIndex >= call.startIndex) break;
          if (s.type !== 'declaration') continue;
          for (const x of s.childrenForFieldName('declarator')) {
            const name = x && declaratorName(x)?.text;
            const value = x?.type === 'init_declarator' ? x.childForFieldName('value') : null;
            if (!name || !value || writtenBetween(body, name, s.endIndex, call.startIndex)) continue;
            const e = localArrayElement(fn, value, at) ?? at.rvalue(value);
            if (known(e)) values.set(name, e);
          }
        }
        next.push({ values, types: c.types, where: `${c.where} with \`${j}\` = ${v} (the loop at line ${n.startPosition.row + 1})` });
      }
    combos = next;
  }
  // `if (n > 4096) threads = 256; else threads = 64;` before the launch: once per outcome of each such `if`
  const choices = branchChoices(fn, call, facts, deadline, caps, params, picked);
  if (!choices) return combos;
  const next: typeof combos = [];
  next.truncated = combos.truncated || combos.length * choices.length > MAX_CALLER_BINDINGS;
  for (const c of combos)
    for (const b of choices) if (next.length < MAX_CALLER_BINDINGS) next.push({ ...c, decide: b.decide, branches: b.where });
  return next;
}

/** Each `if` statement of a function body with the names its branches assign with `=` (see branchChoices). */
const assigningIfs = new WeakMap<Node, { node: Node; names: Set<string>; assigns: { name: string; node: Node }[] }[]>();
function ifsOf(body: Node): { node: Node; names: Set<string>; assigns: { name: string; node: Node }[] }[] {
  let out = assigningIfs.get(body);
  if (out) return out;
  out = [];
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'if_statement') {
      const names = new Set<string>();
      const assigns: { name: string; node: Node }[] = [];
      const inner: Node[] = named(n).filter((c) => c.type !== 'condition_clause');
      while (inner.length) {
        const m = inner.pop()!;
        const left = m.type === 'assignment_expression' && m.childForFieldName('operator')?.text === '=' ? m.childForFieldName('left') : null;
        const base = left?.type === 'field_expression' ? left.childForFieldName('argument') : left;
        if (base?.type === 'identifier') {
          names.add(base.text);
          assigns.push({ name: base.text, node: m });
        }
        inner.push(...named(m));
      }
      if (names.size) out.push({ node: n, names, assigns });
    } else if (n.type === 'conditional_expression') {
      // `int bc = tc ? 16 : 32;`, `bc = tc ? 16 : 32;`: the name it gives a value
      let p: Node | null = n.parent;
      while (p && p.type === 'parenthesized_expression') p = p.parent;
      const left = p?.type === 'assignment_expression' && p.childForFieldName('operator')?.text === '=' ? p.childForFieldName('left') : null;
      const name = p?.type === 'init_declarator' ? declaratorName(p)?.text : left?.type === 'identifier' ? left.text : undefined;
      if (name) out.push({ node: n, names: new Set([name]), assigns: [] });
    }
    for (const c of named(n)) stack.push(c);
  }
  out.sort((a, b) => a.node.startIndex - b.node.startIndex);
  assigningIfs.set(body, out);
  return out;
}

/** Whether the value of `right` (what `x = v` stores, a branch of a `?:`) is known where `at` stands. */
function valueKnownAt(right: Node | null, at: Node, fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps, params?: Map<string, Value>): boolean {
  if (!right) return false;
  const it = hostInterp(facts, fn, at.startIndex, deadline, caps, undefined, undefined, params);
  const v = localArrayElement(fn, right, it) ?? it.rvalue(right);
  return v.k === 'dim3' ? blockOf(v) !== null : uniformValue(v) !== null;
}

/** The value of the condition of `ifNode` where the `if` stands, null where it is not known there. */
function conditionAt(ifNode: Node, fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps, params?: Map<string, Value>): boolean | null {
  const cond = ifNode.childForFieldName('condition');
  const u = cond ? uniformValue(hostInterp(facts, fn, ifNode.startIndex, deadline, caps, undefined, undefined, params).rvalue(cond)) : null;
  return u === null ? null : u !== 0;
}

/** Whether each `if` a way through them took (see branchChoices) could go that way with what one call passes. */
function decisionsHold(decide: Map<number, boolean>, fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps, params: Map<string, Value>): boolean {
  for (const x of ifsOf(fn.body)) {
    const taken = decide.get(x.node.id);
    const u = taken === undefined ? null : conditionAt(x.node, fn, facts, deadline, caps, params);
    if (u !== null && u !== taken) return false;
  }
  return true;
}

/**
 * Of the ways through the `if`s before a launch or call (see branchChoices), each with what it gives (`key`: shape and
 * template arguments; `vals`: argument values, null where not known), those that give the same are one. Where every
 * way gives the same, the `if`s decide nothing here: the way is kept as `plain`, not said.
 */
function distinctWays<T>(ways: { entry: T; plain: T; key: string; vals: Map<string, number | null> }[]): T[] {
  const same = (a: (typeof ways)[number], b: (typeof ways)[number]) => a.key === b.key && a.vals.size === b.vals.size && [...a.vals].every(([k, x]) => b.vals.get(k) === x);
  const out: T[] = [];
  ways.forEach((w, i) => {
    if (ways.some((o, j) => j < i && same(o, w))) return;
    out.push(ways.length > 1 && ways.every((o) => same(o, w)) ? w.plain : w.entry);
  });
  return out;
}

/** A condition's text without parentheses and a leading `!`, and whether the condition holds where that text does. */
function conditionKey(cond: Node): { key: string; holds: boolean } {
  let text = cond.text.replace(/\s+/g, '');
  let holds = true;
  for (;;) {
    if (/^\((.*)\)$/.test(text) && balanced(text.slice(1, -1))) text = text.slice(1, -1);
    else if (/^!\(.*\)$|^![\w.]+$/.test(text) && (text[1] !== '(' || balanced(text.slice(2, -1)))) {
      text = text.slice(1);
      holds = !holds;
    } else break;
  }
  // `n >= 1024` is `n < 1024` not holding: one key for a comparison and its negation
  const cmp = /^([^<>=!&|?]+)(<=|>=|==|!=|<|>)([^<>=!&|?]+)$/.exec(text);
  const flip: Record<string, string> = { '>=': '<', '>': '<=', '!=': '==' };
  if (cmp && flip[cmp[2]]) return { key: `${cmp[1]}${flip[cmp[2]]}${cmp[3]}`, holds: !holds };
  return { key: text, holds };
}
const balanced = (t: string) => {
  let depth = 0;
  for (const c of t) if ((depth += c === '(' ? 1 : c === ')' ? -1 : 0) < 0) return false;
  return depth === 0;
};

/**
 * The names a declarator reads: its initializer's. `dim3 block(BX, BY);` parses as a function declaration whose
 * parameters are the types `BX` and `BY` (the interpreter reads it as a constructor call): those are names it reads.
 */
function namesReadBy(declarator: Node): string[] {
  if (declarator.type !== 'function_declarator') return identifiersIn(declarator);
  const out: string[] = [];
  const stack: Node[] = [...named(declarator.childForFieldName('parameters'))];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'identifier' || c.type === 'type_identifier') out.push(c.text);
    stack.push(...named(c));
  }
  return out;
}

/**
 * The names the conditions of the `if`s and `switch`es around the launches of `fn`'s body read (`kernel_number` of
 * `switch (kernel_number) { case A: k1<<<...>>>(...); ... }`), once per function.
 */
const steeringMemo = new WeakMap<FunctionFact, Set<string>>();
function launchSteering(fn: FunctionFact, facts: FileFacts): Set<string> {
  let out = steeringMemo.get(fn);
  if (out) return out;
  steeringMemo.set(fn, (out = new Set()));
  for (const l of facts.launches) if (l.caller === fn) branchNames(l.node, fn.body, out);
  return out;
}

/** Adds to `into` the names the conditions of the `if`s and `switch`es around `node` read, up to `top`. */
function branchNames(node: Node, top: Node, into: Set<string>): void {
  for (let p = node.parent; p && p.id !== top.id; p = p.parent) {
    const cond = p.type === 'if_statement' || p.type === 'switch_statement' ? p.childForFieldName('condition') : null;
    if (cond) for (const id of identifiersIn(cond)) into.add(id);
  }
}

/** The `return`s with a value in `n` (not in a lambda it holds). */
function returnsIn(n: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'return_statement' && named(c).length) out.push(c);
    else if (c.type !== 'lambda_expression') stack.push(...named(c));
  }
  return out;
}

/**
 * The `if`s, straight through the body of a host function of the file that one of `initializers` calls (`int tile =
 * pick_tile(major, sms);`), with a `return` of a value in a branch: `if (major <= 2) return 16; return 32;` gives the
 * name one value per way (see branchChoices; the interpreter follows the way decided for such an `if`).
 */
function returningIfs(initializers: Node[], facts: FileFacts, caller: FunctionFact): { node: Node; names: Set<string>; assigns: { name: string; node: Node }[]; fn: FunctionFact }[] {
  const out: { node: Node; names: Set<string>; assigns: { name: string; node: Node }[]; fn: FunctionFact }[] = [];
  const seen = new Set<FunctionFact>();
  for (const init of initializers) {
    const stack: Node[] = [init];
    while (stack.length) {
      const c = stack.pop()!;
      stack.push(...named(c));
      const f = c.type === 'call_expression' ? c.childForFieldName('function') : null;
      const defs = f?.type === 'identifier' ? facts.functions.get(f.text) ?? [] : [];
      // one definition, of the host: an overload or a template could be another
      if (defs.length !== 1 || defs[0].isKernel || defs[0] === caller || seen.has(defs[0]) || !defs[0].body) continue;
      const callee = defs[0];
      seen.add(callee);
      const inner: Node[] = [callee.body];
      while (inner.length) {
        const n = inner.pop()!;
        if (n.type === 'if_statement' && returnsIn(n).length) {
          let p = n.parent;
          while (p && p.id !== callee.body.id && /^(compound_statement|else_clause|if_statement)$/.test(p.type)) p = p.parent;
          if (p?.id === callee.body.id) out.push({ node: n, names: new Set(), assigns: [], fn: callee });
        }
        if (n.type !== 'lambda_expression') inner.push(...named(n));
      }
    }
  }
  return out.sort((a, b) => a.node.startIndex - b.node.startIndex);
}

/** at most this many undecided `if`s before a launch are taken both ways. */
const MAX_BRANCH_CHOICES = 4;

/**
 * The ways the `if`s before `call` in `fn` that assign a name the call reads (directly, or through a declaration's
 * initializer: `dim3 block(threads)`) can go, where their conditions are not known there (`if (n > 4096) threads =
 * 256; else threads = 64;`): one decision per path through them, each saying which way it went. Null when there is
 * no such `if`. A path is one the code has; two conditions that can only hold together are still taken apart.
 */
function branchChoices(fn: FunctionFact, call: Node, facts: FileFacts, deadline: number, caps: Caps, params?: Map<string, Value>, picked?: LaunchFact['picked']): { decide: Map<number, boolean>; where: string }[] | null {
  // the `if`s and `?:`s before the call, and the `?:`s in the call itself (`k<<<g, n < 256 ? 128 : 256>>>(...)`)
  const inCall: { node: Node; names: Set<string>; assigns: { name: string; node: Node }[] }[] = [];
  const stack: Node[] = [...named(call)];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'conditional_expression') inCall.push({ node: n, names: new Set(), assigns: [] });
    if (n.type !== 'lambda_expression') stack.push(...named(n));
  }
  inCall.sort((a, b) => a.node.startIndex - b.node.startIndex);
  // the names the call reads, and those their declarations' initializers read (three levels)
  const names = new Set(identifiersIn(call));
  const initializers: Node[] = [];
  let frontier = [...names];
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const more: string[] = [];
    for (const n of frontier) {
      const decl = findDeclaration(fn.body, n, call.startIndex);
      const own = decl?.childrenForFieldName('declarator').find((d) => d && declaratorName(d)?.text === n);
      if (own) initializers.push(own);
      for (const id of own ? namesReadBy(own) : []) if (!names.has(id)) (names.add(id), more.push(id));
    }
    frontier = more;
  }
  // the `if`s of the file's functions those initializers call whose branches return (`int tile = pick_tile(major);`)
  const returning = returningIfs(initializers, facts, fn);
  const foreign = new Map(returning.map((x) => [x.node.id, x.fn]));
  const ifs = [...ifsOf(fn.body).filter((x) => x.node.endIndex <= call.startIndex), ...inCall, ...returning];
  if (!ifs.length) return null;
  // the lambda the call is written in (an ATen dispatch's `[&] { ... }`): code in it before the call runs each time
  // the call does, as code of a function body would
  let lambda: Node | null = null;
  for (let p = call.parent; p && p.id !== fn.body.id && !lambda; p = p.parent) if (p.type === 'lambda_expression') lambda = p;
  const lambdaBody = lambda?.childForFieldName('body') ?? null;
  const straight = (n: Node) => {
    let p = n.parent;
    // a `?:` stands in its declaration or assignment statement
    if (n.type === 'conditional_expression')
      while (p && /^(parenthesized_expression|init_declarator|declaration|assignment_expression|expression_statement)$/.test(p.type)) p = p.parent;
    const top = lambdaBody && n.startIndex >= lambdaBody.startIndex && n.endIndex <= lambdaBody.endIndex ? lambdaBody : fn.body;
    for (; p && p.id !== top.id; p = p.parent) if (!/^(compound_statement|else_clause|if_statement)$/.test(p.type)) return false;
    return true;
  };
  // each condition as it is where its `if` stands (`if (t < 128) t = 128;` with `t` known there): known ones are
  // decided on every path, the others taken both ways
  const fixed = new Map<number, boolean>();
  const dropped: string[] = [];
  // the names the conditions of the `if`s and `switch`es around the call read
  let atCall: Set<string> | null = null;
  const decidedAtCall = () => {
    if (atCall) return atCall;
    atCall = new Set();
    branchNames(call, fn.body, atCall);
    return atCall;
  };
  // the names the call passes to parameters of its callee that the branches around the callee's launches read
  let steered: Set<string> | null = null;
  const steeredByCall = () => {
    if (steered) return steered;
    steered = new Set();
    const f = call.type === 'call_expression' ? call.childForFieldName('function') : null;
    const callee = f?.type === 'identifier' ? facts.functions.get(f.text)?.find((d) => !d.isKernel && paramCount(d) >= argumentNodes(call).length) : undefined;
    if (!callee) return steered;
    const read = launchSteering(callee, facts);
    argumentNodes(call).forEach((a, i) => {
      const p = paramAt(callee, i);
      if (p && read.has(p.name)) for (const id of identifiersIn(a)) steered!.add(id);
    });
    return steered;
  };
  const open = ifs.filter((x) => {
    const callee = foreign.get(x.node.id);
    if (callee) {
      // a way through it returns a value known there (`return 16;`): its condition is taken both ways
      if (conditionAt(x.node, callee, facts, deadline, caps) !== null) return false;
      return returnsIn(x.node).every((r) => valueKnownAt(named(r)[0] ?? null, r, callee, facts, deadline, caps));
    }
    if (!inCall.includes(x) && (![...x.names].some((n) => names.has(n)) || !straight(x.node))) return false;
    const u = conditionAt(x.node, fn, facts, deadline, caps, params);
    if (u !== null) fixed.set(x.node.id, u);
    if (u !== null) return false;
    // taken both ways only where each way gives known values
    if (x.node.type === 'conditional_expression') return ['consequence', 'alternative'].every((f) => valueKnownAt(x.node.childForFieldName(f), x.node, fn, facts, deadline, caps, params));
    const unknownOn = (way: Node | null) => x.assigns.filter((a) => names.has(a.name) && !!way && way.startIndex <= a.node.startIndex && a.node.endIndex <= way.endIndex &&
      !valueKnownAt(a.node.childForFieldName('right'), a.node, fn, facts, deadline, caps, params));
    const ways = [x.node.childForFieldName('consequence'), x.node.childForFieldName('alternative')];
    const lost = ways.map(unknownOn);
    if (!lost[0].length && !lost[1].length) return true;
    // one way sets a value not known (PCC's `if (argc > 1) dimx = atoi(argv[1]);`): the launch is taken the other way,
    // with what the program does when it is not taken, and says so; both ways unknown: the values stay unknown
    if (lost[0].length && lost[1].length) return false;
    // a launch inside a branch on what that way sets (`switch (blocksize) { case 1024: ... }`) is on that way: its
    // branch's fact gives the value (see the branch facts of hostInterp)
    // so is a call that passes what that way sets to a function whose launches stand in branches on it (`run(d,
    // selected_kernel)` into `switch (kernel_number) { case A: k1<<<...>>>; case B: k2<<<...>>>; }`): taking one way
    // would leave the other launches with no call that reaches them
    if (lost.flat().some((a) => decidedAtCall().has(a.name) || steeredByCall().has(a.name))) return false;
    const holds = !lost[0].length;
    fixed.set(x.node.id, holds);
    const set = [...new Set([...lost[holds ? 1 : 0]].sort((a, b) => a.node.startIndex - b.node.startIndex).map((a) => a.name))];
    const text = conditionText(x.node.childForFieldName('condition')!);
    dropped.push(`\`${text}\` (line ${x.node.startPosition.row + 1}) ${holds ? 'holds' : 'does not hold'} (where it ${holds ? 'does not' : 'holds'}, ${set.length > 1 ? `\`${set.join('`, `')}\` are` : `\`${set[0]}\` is`} set to ${set.length > 1 ? 'values' : 'a value'} not known)`);
    return false;
  });
  const tail = dropped.length ? ` where ${andList(dropped)}` : '';
  // more undecided `if`s than that: the values they set stay unknown (taking only some both ways would not know them)
  if (!open.length || open.length > MAX_BRANCH_CHOICES) return fixed.size ? [{ decide: fixed, where: tail }] : null;
  // a condition that nothing before the launch changes has one value on a path: the one the `if`s around the launch
  // give it (`if (tc) bc = 16; else bc = 32; ... if (tc) k<<<...>>>(bc)` is 16), or the one an earlier `if` took
  const unchanged = (cond: Node) => identifiersIn(cond).every((id) => !writtenBefore(fn.body, id, call.startIndex));
  // `n > 4096` holding and `n > 100` not: no such `n`; each comparison of a name with a constant bounds it on the path
  const it = hostInterp(facts, fn, call.startIndex, deadline, caps, undefined, undefined, params);
  const bounds = (cond: Node, holds: boolean, range: Map<string, [number, number]>): Map<string, [number, number]> | null => {
    const c = unparenthesized(cond);
    const op = c?.type === 'binary_expression' ? c.childForFieldName('operator')?.text : undefined;
    const left = c?.childForFieldName('left'), right = c?.childForFieldName('right');
    if (!op || !/^(<|<=|>|>=|==|!=)$/.test(op) || left?.type !== 'identifier' || !right || !unchanged(c!)) return range;
    const k = uniformValue(it.rvalue(right));
    if (k === null) return range;
    const [lo, hi] = range.get(left.text) ?? [-Infinity, Infinity];
    const t = holds ? op : ({ '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' } as Record<string, string>)[op];
    const next: [number, number] = t === '<' ? [lo, Math.min(hi, k - 1)] : t === '<=' ? [lo, Math.min(hi, k)] : t === '>' ? [Math.max(lo, k + 1), hi]
      : t === '>=' ? [Math.max(lo, k), hi] : t === '==' ? [Math.max(lo, k), Math.min(hi, k)] : [lo, hi];
    if (next[0] > next[1]) return null;
    return new Map([...range, [left.text, next]]);
  };
  // the `if`s around the call: the bounds they put on names, and, for a condition nothing before the call changes,
  // the way it goes there
  const around = new Map<string, boolean>();
  let start: Map<string, [number, number]> | null = new Map();
  for (let n: Node = call, p = call.parent; start && p && p.id !== fn.body.id; n = p, p = p.parent) {
    const cond = p.type === 'if_statement' ? p.childForFieldName('condition') : null;
    const holds = cond ? branchOf(p, n) : null;
    if (!cond || holds === null) continue;
    start = bounds(cond, holds, start);
    if (!unchanged(cond)) continue;
    const k = conditionKey(cond);
    if (!around.has(k.key)) around.set(k.key, holds === k.holds);
  }
  if (!start) return null;
  // a launch through `auto k = c ? k1 : k2;`, of k1: `c` holds on its paths, where nothing before the launch changes it
  const chosen = new Map<string, number>();
  for (const p of picked ?? []) {
    if (!unchanged(p.cond)) continue;
    const k = conditionKey(p.cond);
    if (around.has(k.key)) continue;
    around.set(k.key, p.way === k.holds);
    chosen.set(k.key, p.cond.startPosition.row + 1);
  }
  // every path: an `if` inside a branch the path does not take is not decided on it
  const paths: { decide: Map<number, boolean>; where: string }[] = [];
  const walk = (i: number, decide: Map<number, boolean>, said: string[], known: Map<string, boolean>, range = new Map<string, [number, number]>()) => {
    if (paths.length >= MAX_CALLER_BINDINGS) return;
    if (i === open.length) return void paths.push({ decide, where: said.length || dropped.length ? ` where ${andList([...dropped, ...said])}` : '' });
    const node = open[i].node;
    for (const [anc, taken] of decide) {
      const a = ifs.find((x) => x.node.id === anc)!.node;
      const off = taken ? a.childForFieldName('alternative') : a.childForFieldName('consequence');
      if (off && off.startIndex <= node.startIndex && node.endIndex <= off.endIndex) return walk(i + 1, decide, said, known, range);
    }
    const cond = node.childForFieldName('condition')!;
    // a condition of a called function reads its parameters: not the caller's names, nothing bounds it here
    const k = !foreign.has(node.id) && unchanged(cond) ? conditionKey(cond) : null;
    const given = k && known.get(k.key);
    const text = conditionText(cond);
    if (k && given !== undefined) {
      // said where the launch's own `if` decides it; an earlier `if` of the same condition has said it already
      const as = around.has(k.key) ? [`\`${text}\` (line ${node.startPosition.row + 1}) ${given === k.holds ? 'holds' : 'does not hold'}, as ${chosen.has(k.key) ? `where the kernel is picked (line ${chosen.get(k.key)})` : 'at the launch'}`] : [];
      return walk(i + 1, new Map([...decide, [node.id, given === k.holds]]), [...said, ...as], known, range);
    }
    for (const holds of [true, false]) {
      const r = foreign.has(node.id) ? range : bounds(cond, holds, range);
      if (r) walk(i + 1, new Map([...decide, [node.id, holds]]), [...said, `\`${text}\` (line ${node.startPosition.row + 1}) ${holds ? 'holds' : 'does not hold'}`],
        k ? new Map([...known, [k.key, holds === k.holds]]) : known, r);
    }
  };
  walk(0, fixed, [], around, start);
  return paths.some((x) => x.decide.size) ? paths : null;
}

/** A condition as a message quotes it: the parentheses of an `if`'s, not the last one of `n >= (1 << 20)`, a `?:`'s. */
function conditionText(cond: Node): string {
  const raw = cond.text.trim();
  return raw.startsWith('(') && raw.endsWith(')') && balanced(raw.slice(1, -1)) ? raw.slice(1, -1).trim() : raw;
}

/** Each binding of `combos` once per way, at most MAX_CALLER_BINDINGS in all (marked truncated past them, or where `more` is). */
function crossed<W>(combos: LoopBinding[] & { truncated?: boolean }, ways: readonly W[], bind: (c: LoopBinding, w: W) => LoopBinding, more = false): LoopBinding[] & { truncated?: boolean } {
  const next: LoopBinding[] & { truncated?: boolean } = [];
  next.truncated = combos.truncated || more || combos.length * ways.length > MAX_CALLER_BINDINGS;
  for (const c of combos)
    for (const w of ways) {
      if (next.length >= MAX_CALLER_BINDINGS) break;
      next.push(bind(c, w));
    }
  return next;
}

/** One binding per combination of the types the ATen dispatch macros around `call` in `fn` run it with (see dispatchedTypes). */
function enclosingDispatches(fn: FunctionFact, call: Node, facts: FileFacts, deadline: number, caps: Caps): LoopBinding[] & { truncated?: boolean } {
  let combos: LoopBinding[] & { truncated?: boolean } = [{ values: new Map(), where: '' }];
  for (let n: Node | null = call.parent; n && n.startIndex >= fn.body.startIndex && n !== fn.body; n = n.parent) {
    // a lambda launcher (`auto launch = [&](int bs) { k<<<1, bs>>>(d); }; launch(64); launch(128);`): once per call
    const calls = n.type === 'lambda_expression' ? lambdaCalls(fn, n, facts, deadline, caps) : null;
    if (calls) {
      combos = crossed(combos, calls, (c, w) => ({ values: new Map([...c.values, ...w.values]), types: new Map([...(c.types ?? []), ...(w.types ?? [])]), where: `${c.where}${w.where}` }), calls.truncated);
      continue;
    }
    if (n.type !== 'call_expression') continue;
    // ATen's `AT_DISPATCH_SWITCH` of `AT_DISPATCH_CASE`s, or a macro of the file made of them (see switchCaseTypes);
    // else an `AT_DISPATCH_*` macro (see dispatchedTypes): once per type, `scalar_t` (the name it declares) bound to it
    const typed = switchCaseTypes(n, call, facts);
    // a switch macro of the file (flash-attention's `BOOL_SWITCH(pad, kPad, [&] { ... })`): once per way it runs the lambda
    const ways = typed ? null : dispatchWays(n, call, fn, facts, deadline, caps);
    if (ways) {
      combos = crossed(combos, ways, (c, w) => ({ values: new Map([...c.values, ...w.values]), types: new Map([...(c.types ?? []), ...w.types]), where: `${c.where} with ${w.said}` }));
      continue;
    }
    const types = typed ?? dispatchedTypes(n, call, facts);
    if (!types) continue;
    combos = crossed(combos, types.types, (c, t) => ({ values: c.values, types: new Map([...(c.types ?? []), [types.name, t]]), where: `${c.where} with \`${types.name}\` = ${typeName(t)} (\`${types.macro}\` at line ${n!.startPosition.row + 1})` }));
  }
  return combos;
}

/**
 * The calls of a lambda held in a local of `fn` (`auto launch = [&](int bs) { ... };`), each one a binding of the
 * lambda's parameters to what the call passes where it stands (`launch(64)`, `launch(b)` in a host loop over `b`:
 * one binding per value); null for a lambda with no parameters, one not held in a local, or one no call passes all
 * its parameters to by name. What a call passes that is not known is left out: what needs it says so.
 */
function lambdaCalls(fn: FunctionFact, lambda: Node, facts: FileFacts, deadline: number, caps: Caps): LoopBinding[] & { truncated?: boolean } | null {
  const holder = lambda.parent;
  const name = holder?.type === 'init_declarator' ? declaratorName(holder)?.text : null;
  const params = named(lambda.childForFieldName('declarator')?.childForFieldName('parameters') ?? null)
    .map((p) => declaratorName(p.childForFieldName('declarator'))?.text ?? null);
  if (!name || !params.length || params.some((p) => !p)) return null;
  const out: LoopBinding[] & { truncated?: boolean } = [];
  const stack: Node[] = [fn.body];
  const sites: Node[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.startIndex >= lambda.startIndex && n.endIndex <= lambda.endIndex) continue;
    const f = n.type === 'call_expression' ? n.childForFieldName('function') : null;
    if (f?.type === 'identifier' && f.text === name && n.startIndex > lambda.endIndex && argumentNodes(n).length === params.length) sites.push(n);
    for (const c of named(n)) stack.push(c);
  }
  sites.sort((a, b) => a.startIndex - b.startIndex);
  for (const site of sites) {
    // a call in a host loop (`for (int b = 64; b <= 256; b *= 2) launch(b);`): once per value of its counters
    for (const loop of loopBindings(fn, site, facts, deadline, caps)) {
      if (out.length >= MAX_CALLER_BINDINGS) {
        out.truncated = true;
        return out;
      }
      const it = hostInterp(facts, fn, site.startIndex, deadline, caps, { values: loop.values, types: loop.types ?? new Map(), label: {}, decide: loop.decide });
      const values = new Map<string, Value>();
      argumentNodes(site).forEach((a, i) => {
        const v = localArrayElement(fn, a, it) ?? it.rvalue(a);
        if (known(v)) values.set(params[i]!, v);
      });
      // (a `bool` said as `true` / `false`: `std::bool_constant<true>{}`, `std::false_type{}`)
      const said = (v: Value) => {
        const u = uniformValue(v);
        return v.k === 'num' && typeName(v.t) === 'bool' ? (u ? 'true' : 'false') : String(u);
      };
      out.push({ values, types: loop.types, where: ` with ${params.map((p) => (values.has(p!) && uniformValue(values.get(p!)!) !== null ? `\`${p}\` = ${said(values.get(p!)!)}` : `\`${p}\``)).join(', ')} from the call \`${site.text.length > 40 ? `${name}(...)` : site.text}\` at line ${site.startPosition.row + 1}${loop.where}` });
    }
  }
  return out.length ? out : null;
}

/** What stands for the argument that holds the launch in a switch macro's expansion (see dispatchWays). */
const RUNS_HERE = '__bank_lens_runs_here__';

/**
 * The ways a function-like macro of the file runs its argument that holds `inner`, where it declares compile-time
 * names around each place it runs it: flash-attention's `BOOL_SWITCH(COND, CONST_NAME, ...)` (`if (COND) { constexpr
 * static bool CONST_NAME = true; return __VA_ARGS__(); } else { ... = false; ... }`), the chains of `HEADDIM_SWITCH`
 * (`if (HEADDIM <= 32) { constexpr static int kHeadDim = 32; ...`), a `TYPE_SWITCH(t, T, ...)` whose cases say
 * `using T = float;`. Each way binds the constants and type aliases declared before that place in the blocks around
 * it (read as the caller reads them at the use); a way under an `if` (or a `case`) the caller's values decide against
 * is left out. Null where the macro declares nothing around the argument: it is no switch of this kind.
 */
function dispatchWays(call: Node, inner: Node, caller: FunctionFact, facts: FileFacts, deadline: number, caps: Caps):
  { values: Map<string, Value>; types: Map<string, CType>; said: string }[] | null {
  const f = call.childForFieldName('function');
  const mac = f?.type === 'identifier' ? facts.macros.get(f.text) : undefined;
  if (!mac?.params?.length || /<<<|\b(?:cuda|hip)Launch/.test(mac.body)) return null;
  const args = argumentNodes(call);
  const at = args.findIndex((a) => inner.startIndex >= a.startIndex && inner.endIndex <= a.endIndex);
  if (at < 0) return null;
  // `...` is no named parameter in the tree: a body that uses `__VA_ARGS__` takes the arguments after the named ones
  const variadic = /\b__VA_ARGS__\b/.test(mac.body);
  const names = mac.params.filter((p) => p !== '...');
  if (args.length < names.length || (!variadic && args.length > names.length)) return null;
  // each parameter by its argument (pasted where `##` says: apex's `using scalar_t_##LEVEL = float;`; a name as
  // written, since it is declared: `constexpr static bool CONST_NAME`), the argument that holds the launch by a mark
  const texts = args.slice(0, names.length).map((a, i) => (i === at ? RUNS_HERE : a.text));
  let expansion = substitute({ ...mac, params: names }, texts, true);
  if (variadic) expansion = expansion.replace(/\b__VA_ARGS__\b/g, at >= names.length ? RUNS_HERE : args.slice(names.length).map((a) => a.text).join(', '));
  if (!expansion.includes(RUNS_HERE)) return null;
  const parsed = parseStatements(`${expansion};`);
  if (!parsed) return null;
  const marks: Node[] = [];
  for (const s of parsed.stmts) for (const id of s.descendantsOfType('identifier')) if (id && id.text === RUNS_HERE) marks.push(id);
  if (!marks.length || marks.length > MAX_CALLER_BINDINGS) return null;
  const it = hostInterp(facts, caller, call.startIndex, deadline, caps);
  const decided = (cond: Node | null): boolean | null => {
    const c = unparenthesized(cond);
    return c ? (uniformValue(it.rvalue(c)) === null ? null : uniformValue(it.rvalue(c)) !== 0) : null;
  };
  const out: { values: Map<string, Value>; types: Map<string, CType>; said: string; key: string }[] = [];
  let declares = false;
  for (const mark of marks) {
    const values = new Map<string, Value>();
    const types = new Map<string, CType>();
    const said: string[] = [];
    const unread: string[] = [];
    let ruledOut = false;
    for (let child: Node = mark, n = mark.parent; n && !ruledOut; child = n, n = n.parent) {
      if (n.type === 'if_statement') {
        const holds = decided(n.childForFieldName('condition'));
        const inElse = n.childForFieldName('alternative')?.startIndex === child.startIndex;
        if (holds !== null && holds === inElse) ruledOut = true;
      }
      if (n.type === 'case_statement') {
        const label = n.childForFieldName('value');
        let sw: Node | null = n.parent;
        while (sw && sw.type !== 'switch_statement') sw = sw.parent;
        const subject = sw ? unparenthesized(sw.childForFieldName('condition')) : null;
        const a = label ? uniformValue(it.rvalue(label)) : null;
        const b = subject ? uniformValue(it.rvalue(subject)) : null;
        if (a !== null && b !== null && a !== b) ruledOut = true;
      }
      if (n.type !== 'compound_statement' && n.type !== 'case_statement') continue;
      // the declarations before the place, innermost block first: an inner one hides an outer one of the same name
      for (const s of named(n)) {
        if (s.startIndex >= child.startIndex) break;
        if (s.type === 'alias_declaration') {
          const name = s.childForFieldName('name')?.text;
          const td = s.childForFieldName('type');
          if (!name || !td || types.has(name) || values.has(name)) continue;
          declares = true;
          // a pointer or array alias is not read here
          const t: CType = td.childForFieldName('declarator') ? { kind: 'unknown', name: td.text } : it.resolveType(td.childForFieldName('type') ?? td);
          if (t.kind === 'unknown') {
            unread.push(name);
            continue;
          }
          types.set(name, t);
          said.push(`\`${name}\` = ${typeName(t)}`);
        } else if (s.type === 'declaration' && (hasToken(s, 'constexpr') || (hasToken(s, 'static') && hasToken(s, 'const')))) {
          // a compile-time constant (`constexpr static bool NAME = true;`), not a local the macro keeps (`const auto t0 = clock();`)
          for (const d of s.childrenForFieldName('declarator')) {
            const name = d?.type === 'init_declarator' ? declaratorName(d)?.text : undefined;
            if (!name || types.has(name) || values.has(name)) continue;
            declares = true;
            const v = it.valueOfDeclaration(s, name);
            const u = v ? uniformValue(v) : null;
            if (!v || u === null) {
              unread.push(name);
              continue;
            }
            values.set(name, v);
            const init = d!.childForFieldName('value')?.text.trim();
            said.push(`\`${name}\` = ${init === 'true' || init === 'false' ? init : u}`);
          }
        }
      }
    }
    if (ruledOut || (!said.length && !unread.length)) continue;
    // a way whose names are not known here (`using T = cutlass::half_t;`) is still one: what depends on them says so
    const key = [...said, ...unread.map((u) => `\`${u}\` not known`)].join(', ');
    if (!out.some((o) => o.key === key)) out.push({ values, types, said: `${key} (\`${mac.name}\` at line ${call.startPosition.row + 1})`, key });
  }
  return declares && out.length ? out : null;
}

/** The bindings of a launch's enclosing host loops and type dispatches: counters' values, types, and how they were got. */
type LoopBinding = {
  values: Map<string, Value>; types?: Map<string, CType>; where: string;
  /** the way through the undecided `if`s before the call (see branchChoices), and how it is said. */
  decide?: Map<number, boolean>; branches?: string;
};

/** What each ATen dispatch macro runs its lambda with (ATen/Dispatch.h), by the macro's name less `AT_DISPATCH_`. */
const DISPATCHED: Record<string, string[]> = {
  FLOATING_TYPES: ['double', 'float'],
  REDUCED_FLOATING_TYPES: ['Half', 'BFloat16'],
  INTEGRAL_TYPES: ['uint8_t', 'int8_t', 'int32_t', 'int64_t', 'int16_t'],
  ALL_TYPES: ['uint8_t', 'int8_t', 'int32_t', 'int64_t', 'int16_t', 'double', 'float'],
  INDEX_TYPES: ['int32_t', 'int64_t'],
};

/**
 * The types an ATen dispatch macro the file does not define (`AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, t,
 * "name", [&] { ... })`) binds `scalar_t` (`index_t` for AT_DISPATCH_INDEX_TYPES) to, where `inner` is in its lambda.
 */
function dispatchedTypes(call: Node, inner: Node, facts: FileFacts): { name: string; types: CType[]; macro: string } | null {
  const f = call.childForFieldName('function');
  const m = f?.type === 'identifier' ? /^AT_DISPATCH_(FLOATING_TYPES|REDUCED_FLOATING_TYPES|INTEGRAL_TYPES|ALL_TYPES|INDEX_TYPES)(?:_AND_HALF|_AND(\d?))?$/.exec(f.text) : null;
  if (!m || facts.macros.has(f!.text)) return null;
  const args = argumentNodes(call);
  const extra = f!.text.endsWith('_AND_HALF') ? 0 : m[2] !== undefined ? Number(m[2] || 1) : 0;
  const lambda = args[args.length - 1];
  if (args.length !== extra + 3 || !lambda || inner.startIndex < lambda.startIndex || inner.endIndex > lambda.endIndex) return null;
  const names = [...DISPATCHED[m[1]], ...(f!.text.endsWith('_AND_HALF') ? ['Half'] : [])];
  for (const a of args.slice(0, extra)) {
    const t = /(?:^|::|\bk)(Half|BFloat16|Bool|Byte|Char|Short|Int|Long|Float|Double)$/.exec(a.text.trim());
    if (!t) return null; // a complex or 8-bit float type: not laid out here
    names.push({ Bool: 'bool', Byte: 'uint8_t', Char: 'int8_t', Short: 'int16_t', Int: 'int32_t', Long: 'int64_t', Float: 'float', Double: 'double' }[t[1]] ?? t[1]);
  }
  return { name: m[1] === 'INDEX_TYPES' ? 'index_t' : 'scalar_t', types: [...new Set(names)].map((n) => LIBRARY_TYPES[`at::${n}`] ?? BUILTINS[n]), macro: f!.text };
}

/** The type an ATen scalar type names (`at::ScalarType::Half`, `at::kBFloat16`, `torch::kFloat32`), or null. */
function atenScalarType(text: string): string | null {
  const t = /(?:^|::|\bk)(Half|BFloat16|Bool|Byte|Char|Short|Int|Long|Float|Double|Float32|Float64|Float16|Int32|Int64)$/.exec(text.trim());
  if (!t) return null;
  return ({ Bool: 'bool', Byte: 'uint8_t', Char: 'int8_t', Short: 'int16_t', Int: 'int32_t', Long: 'int64_t', Float: 'float', Double: 'double',
    Float32: 'float', Float64: 'double', Float16: 'Half', Int32: 'int32_t', Int64: 'int64_t' } as Record<string, string>)[t[1]] ?? t[1];
}

/** The type names of one ATen case macro's text (`AT_DISPATCH_CASE(at::ScalarType::Float, f)`, `AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(f)`), by its name and arguments; null for any other. */
function caseTypes(name: string, args: string[]): string[] | null {
  if (name === 'AT_DISPATCH_CASE') {
    const t = args.length === 2 ? atenScalarType(args[0]) : null;
    return t ? [t] : null;
  }
  const m = /^AT_DISPATCH_CASE_(FLOATING_TYPES|REDUCED_FLOATING_TYPES|INTEGRAL_TYPES|ALL_TYPES|INDEX_TYPES)(?:_AND_HALF|_AND(\d?))?$/.exec(name);
  if (!m) return null;
  const extra = name.endsWith('_AND_HALF') ? 0 : m[2] !== undefined ? Number(m[2] || 1) : 0;
  if (args.length !== extra + 1) return null;
  const names = [...DISPATCHED[m[1]], ...(name.endsWith('_AND_HALF') ? ['Half'] : [])];
  for (const a of args.slice(0, extra)) {
    const t = atenScalarType(a);
    if (!t) return null;
    names.push(t);
  }
  return names;
}

/**
 * ATen's switch form of a dispatch, where `inner` is in the lambda it runs: `AT_DISPATCH_CASE(at::ScalarType::Float,
 * [&] { ... })` inside `AT_DISPATCH_SWITCH(t, "name", ...)` (that lambda runs with that one type), ATen's
 * `AT_DISPATCH_CASE_FLOATING_TYPES([&] { ... })`, and a macro of the file made of them, as vLLM's are
 * (`#define DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))`
 * with `#define DISPATCH_CASE_FLOATING_TYPES(...) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__) ...`): its
 * lambda, passed as `__VA_ARGS__`, runs once with each case's type. Null for anything else, or a case whose type is
 * not laid out here (a complex or 8-bit float type).
 */
function switchCaseTypes(call: Node, inner: Node, facts: FileFacts): { name: string; types: CType[]; macro: string } | null {
  const f = call.childForFieldName('function');
  if (f?.type !== 'identifier') return null;
  const args = argumentNodes(call);
  const lambda = args[args.length - 1];
  if (!lambda || inner.startIndex < lambda.startIndex || inner.endIndex > lambda.endIndex) return null;
  const layout = (names: string[]) => ({ name: 'scalar_t', types: [...new Set(names)].map((n) => LIBRARY_TYPES[`at::${n}`] ?? BUILTINS[n]), macro: f.text });
  const mac = facts.macros.get(f.text);
  if (!mac) {
    const names = caseTypes(f.text, args.map((a) => a.text));
    return names ? layout(names) : null;
  }
  // a macro of the file: its body, with the file's macros spelled out, is one AT_DISPATCH_SWITCH of cases that each
  // run `__VA_ARGS__`, and the lambda is what `__VA_ARGS__` stands for (`...` is no named parameter in the facts)
  const variadic = (m: { params: string[] | null; body: string }) => !!m.params && (m.params.includes('...') || /\b__VA_ARGS__\b/.test(m.body));
  const fixed = (mac.params ?? []).filter((p) => p !== '...');
  if (!variadic(mac) || args.length !== fixed.length + 1) return null;
  const expand = (text: string, depth: number): string => depth <= 0 ? text :
    text.replace(/\b([A-Za-z_]\w*)\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g, (whole, name: string, inside: string) => {
      const m = name === f.text || name.startsWith('AT_DISPATCH_') ? undefined : facts.macros.get(name);
      if (!m?.params) return `${name}(${expand(inside, depth - 1)})`;
      const parts = splitArgs(inside);
      const named = m.params.filter((p) => p !== '...');
      let out = substitute({ ...m, params: named }, parts.slice(0, named.length), true);
      if (variadic(m)) out = out.replace(/\b__VA_ARGS__\b/g, parts.slice(named.length).join(', '));
      return expand(out, depth - 1);
    });
  const body = expand(mac.body, 4);
  const sw = /^\s*AT_DISPATCH_SWITCH\s*\(([^]*)\)\s*$/.exec(body);
  if (!sw) return null;
  const parts = splitArgs(sw[1]);
  if (parts.length !== 3) return null;
  const names: string[] = [];
  const re = /\b(AT_DISPATCH_CASE\w*)\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g;
  let rest = parts[2];
  for (let m; (m = re.exec(parts[2])); ) {
    const a = splitArgs(m[2]);
    if (a[a.length - 1]?.trim() !== '__VA_ARGS__') return null;
    const t = caseTypes(m[1], a);
    if (!t) return null;
    names.push(...t);
    rest = rest.replace(m[0], '');
  }
  return names.length && !rest.trim() ? layout(names) : null;
}

/** The arguments of a macro call's text between its parentheses, split at the commas outside brackets. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0, from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (text.trim()) out.push(text.slice(from).trim());
  return out;
}

/** `(int)(x)`, `(size_t)x`, `static_cast<int>(x)`, `(x)`: the text `x` (an integer cast or parentheses taken off). */
function uncast(t: string): string {
  for (let i = 0; i < 4; i++) {
    const c = /^(?:\(\s*(?:(?:unsigned|signed|long|short|const)\s+)*(?:int|long|size_t|unsigned|int32_t|int64_t|uint32_t|uint64_t)\s*\)|static_cast\s*<\s*\w+\s*>)\s*/.exec(t);
    if (c) t = t.slice(c[0].length).trim();
    else if (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1).trim();
    else break;
  }
  return t;
}

/**
 * The values the counter `j` of `for (int j = from; j OP bound; STEP)` takes, in order: OP one of `<`, `<=`, `>`,
 * `>=`, `!=`; STEP `j++`, `--j`, `j += c`, `j *= 2`, `j >>= 1`, `j = j * 2`, ... with `from`, `bound` and `c` known
 * here. Null when the loop is not of this form, or runs more than MAX_CALLER_BINDINGS times (or forever).
 */
function counterValues(fn: FunctionFact, loop: Node, j: string, init: Node | null, it: Interp): number[] | null {
  const cond = loop.childForFieldName('condition');
  const update = loop.childForFieldName('update');
  if (!init || cond?.type !== 'binary_expression' || cond.childForFieldName('left')?.text !== j || !update) return null;
  const op = cond.childForFieldName('operator')?.text;
  const from = uniformValue(it.rvalue(init));
  const bound = cond.childForFieldName('right')!;
  let to = uniformValue(it.rvalue(bound));
  // `sizeof(sizes) / sizeof(int)` or `/ sizeof(sizes[0])` over a local array with an initializer list
  // (also under a cast to an integer type, llm.c's `j < (int)(sizeof(block_sizes) / sizeof(int))`)
  const m = /^sizeof\s*\(?\s*(\w+)\s*\)?\s*\/\s*sizeof\s*\(\s*(\w+(?:\s*\[\s*0\s*\])?)\s*\)$/.exec(uncast(bound.text.trim()));
  if (to === null && m) {
    const items = localArrayItems(fn, m[1], loop.startIndex);
    const decl = findDeclaration(fn.body, m[1], loop.startIndex);
    const elem = decl?.childForFieldName('type')?.text.trim();
    if (items && (m[2].replace(/\s/g, '') === `${m[1]}[0]` || m[2] === elem)) to = items.length;
  }
  if (from === null || to === null || !Number.isInteger(from) || !Number.isInteger(to)) return null;
  const test = op === '<' ? (v: number) => v < to! : op === '<=' ? (v: number) => v <= to! : op === '>' ? (v: number) => v > to!
    : op === '>=' ? (v: number) => v >= to! : op === '!=' ? (v: number) => v !== to! : null;
  // the step: `j++` and `--j`, `j op= c`, or `j = j op c`
  let stepOp: string | undefined, by: number | null = 1;
  if (update.type === 'update_expression' && update.childForFieldName('argument')?.text === j) stepOp = update.text.includes('++') ? '+' : '-';
  else if (update.type === 'assignment_expression' && update.childForFieldName('left')?.text === j) {
    const aop = update.childForFieldName('operator')?.text ?? '';
    let right = update.childForFieldName('right');
    if (aop === '=' && right?.type === 'binary_expression' && right.childForFieldName('left')?.text === j) {
      stepOp = right.childForFieldName('operator')?.text;
      right = right.childForFieldName('right');
    } else if (aop.endsWith('=') && aop.length > 1) stepOp = aop.slice(0, -1);
    by = right ? uniformValue(it.rvalue(right)) : null;
  }
  const step = by === null || !Number.isInteger(by) ? null
    : stepOp === '+' ? (v: number) => v + by! : stepOp === '-' ? (v: number) => v - by!
    : stepOp === '*' ? (v: number) => v * by! : stepOp === '/' && by !== 0 ? (v: number) => Math.trunc(v / by!)
    : stepOp === '<<' && by >= 0 && by < 31 ? (v: number) => v << by! : stepOp === '>>' && by >= 0 && by < 31 ? (v: number) => v >> by! : null;
  if (!test || !step) return null;
  const out: number[] = [];
  for (let v = from; test(v); v = step(v)) {
    if (out.length >= MAX_CALLER_BINDINGS || out.includes(v)) return null; // too many values, or never ends
    out.push(v);
  }
  return out;
}

/** callerBindings of a launching function, read once per file (each kernel it launches, each check, asks again). */
const callerMemo = new WeakMap<FileFacts, Map<FunctionFact, CallerBinding[] & { truncated?: boolean }>>();
function callersOf(fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps): CallerBinding[] & { truncated?: boolean } {
  let memo = callerMemo.get(facts);
  if (!memo) callerMemo.set(facts, (memo = new Map()));
  let out = memo.get(fn);
  if (!out) memo.set(fn, (out = callerBindings(fn, facts, deadline, caps)));
  return out;
}

/**
 * The values of `fn`'s parameters at each call of it in this file (`launch(out, in, 256)`; `launch(out, in, block_size)`
 * in a function whose own callers pass it, `depth` levels up; in a loop over the values of a local array), so that a
 * launch in `fn` whose block shape is a parameter has the shapes its callers give. Only values known for every thread.
 */
function callerBindings(fn: FunctionFact, facts: FileFacts, deadline: number, caps: Caps, depth = 3): CallerBinding[] & { truncated?: boolean } {
  const out: CallerBinding[] & { truncated?: boolean } = [];
  if (!fn.params.length || fn.isKernel) return out;
  for (const { fn: site, node: n } of hostNodesMentioning(facts, fn.name, fn)) {
    const f = n.type === 'call_expression' ? n.childForFieldName('function') : null;
    // a host function template is called by name (its types deduced) or with its template arguments (`launch<float>(...)`)
    const named = f?.type === 'template_function' && fn.templateParams.length > 0 && f.childForFieldName('name')?.text === fn.name;
    if (!named && (f?.type !== 'identifier' || f.text !== fn.name)) continue;
    const args = argumentNodes(n);
    // positions count every declared parameter: an unnamed one (`void run(float *, int n)`) takes its argument
    if (args.length > paramCount(fn)) continue;
    // the parameters a call leaves out take their default arguments (`run(o)` of `void run(float *o, int threads = 128)`;
    // one written in a header this file does not hold is not known)
    const at = paramPositions(fn);
    const left = fn.params.filter((_, k) => (at ? at[k] : k) >= args.length);
    const defaults = left.map((p) => ({ p, d: defaultArgument(fn, fn.params.indexOf(p)) }));
    const ups: (CallerBinding | null)[] & { truncated?: boolean } = depth > 0 ? callerBindings(site, facts, deadline, caps, depth - 1) : [];
    if (ups.truncated) out.truncated = true;
    for (const up of ups.length ? ups : [null]) {
      const loops = loopBindings(site, n, facts, deadline, caps, up?.params);
      if (loops.truncated) out.truncated = true;
      const ways: { entry: CallerBinding; plain: CallerBinding; key: string; vals: Map<string, number | null> }[] = [];
      for (const loop of loops) {
        const it = hostInterp(facts, site, n.startIndex, deadline, caps, { values: loop.values, types: loop.types ?? new Map(), label: {}, decide: loop.decide }, undefined, up?.params);
        // a call under `case 2:` of `switch (which)` (or `if (which == 2)`) is not made where `which` is known to differ
        if (contradicted(pathFacts(site, n, facts), it)) continue;
        const params = new Map<string, Value>();
        const vals = new Map<string, number | null>();
        args.forEach((a, i) => {
          const p = paramAt(fn, i);
          if (!p) return;
          const v = localArrayElement(site, a, it) ?? it.rvalue(a);
          if (known(v)) params.set(p.name, v);
          vals.set(p.name, known(v) ? uniformValue(v) ?? -1 : null);
        });
        defaults.forEach(({ p, d }) => {
          if (!d) return;
          const v = hostInterp(facts, fn, fn.body.startIndex, deadline, caps).rvalue(d);
          if (known(v)) params.set(p.name, v);
          vals.set(p.name, known(v) ? uniformValue(v) ?? -1 : null);
        });
        // a call that passes nothing known is kept: it is a call under which any branch of the launcher may run
        const where = (branches: string) => `the call at line ${n.startPosition.row + 1}${loop.where}${branches}${up ? `, from ${up.where}` : ''}`;
        let label: string | undefined;
        if (fn.templateParams.length) {
          const targs = named ? argumentNodes(f!) : null;
          const bind = bindTemplate(fn, targs, it, targs ? trailingDeduced(fn, targs, n, site, it) : deduceTypes(fn, { caller: site, node: n } as LaunchFact, it));
          if (!bind.unbound) label = JSON.stringify(bind.label);
        }
        const entry = { params, where: where(loop.branches ?? ''), ...(label ? { label } : {}) };
        if (loop.decide) ways.push({ entry, plain: { params, where: where(''), ...(label ? { label } : {}) }, key: JSON.stringify([...loop.values].map(([k, v]) => [k, uniformValue(v)])), vals });
        else out.push(entry);
      }
      out.push(...distinctWays(ways));
      if (out.length >= MAX_CALLER_BINDINGS) {
        out.truncated = true;
        out.length = MAX_CALLER_BINDINGS;
        return out;
      }
    }
  }
  if (!out.length && uncalled(fn)) {
    // a launcher no code of the file calls (`void run(float *o, int threads = 128)`, called from another file): its
    // default arguments are the values a call that leaves them out passes, said so
    const params = new Map<string, Value>();
    const said: string[] = [];
    const it = hostInterp(facts, fn, fn.body.startIndex, deadline, caps);
    for (const p of fn.params) {
      const d = defaultArgument(fn, fn.params.indexOf(p));
      const v = d ? it.rvalue(d) : null;
      if (!d || !v || !known(v)) continue;
      params.set(p.name, v);
      said.push(`\`${p.name}\` = ${d.text.trim()}`);
    }
    if (said.length) out.push({ params, assumed: true, where: `the default argument${said.length > 1 ? 's' : ''} ${said.join(', ')}: no call of \`${fn.name}\` in this file` });
  }
  return out;
}

/** The function declarations of a file that are no definitions (`void run(float *o, int threads = 128);`), by name. */
const prototypeMemo = new WeakMap<Node, Map<string, Node[]>>();
function prototypes(root: Node): Map<string, Node[]> {
  let out = prototypeMemo.get(root);
  if (out) return out;
  prototypeMemo.set(root, (out = new Map()));
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'declaration' || n.type === 'field_declaration') {
      for (const d of n.childrenForFieldName('declarator')) {
        const name = d?.type === 'function_declarator' ? d.childForFieldName('declarator')?.text : undefined;
        if (name) out.set(name, [...(out.get(name) ?? []), d!]);
      }
      continue;
    }
    if (/^(?:translation_unit|namespace_definition|declaration_list|linkage_specification|field_declaration_list|class_specifier|struct_specifier|template_declaration)$/.test(n.type) || n === root)
      for (const c of named(n)) stack.push(c);
  }
  return out;
}

/**
 * The default argument of `fn`'s parameter `i`: written in its definition, or in a declaration of the file with as
 * many parameters (a prototype before it, `void run(float *o, int threads = 128);`, the definition saying none).
 */
function defaultArgument(fn: FunctionFact, i: number): Node | null {
  const own = fn.params[i]?.node.childForFieldName('default_value');
  if (own) return own;
  // a prototype's parameters by declared position: an unnamed one (`void run(float *, int, int threads)`) counts
  const at = paramPositions(fn)?.[i] ?? i;
  for (const d of prototypes(fileRoot(fn.node)).get(fn.name) ?? []) {
    const ps = named(d.childForFieldName('parameters')).filter((p) => /parameter_declaration$/.test(p.type));
    if (ps.length !== paramCount(fn)) continue;
    const v = ps[at]?.childForFieldName('default_value');
    if (v) return v;
  }
  return null;
}

/** No code of the file names `fn` but its own definition and declarations (a prototype `void run(int n = 128);`). */
function uncalled(fn: FunctionFact): boolean {
  const root = fileRoot(fn.node);
  const text = root.text.slice(0, fn.node.startIndex) + root.text.slice(fn.node.endIndex);
  const name = fn.name.replace(/^.*::/, '');
  if (!/^\w+$/.test(name)) return false;
  const mentions = text.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
  const prototypes = text.match(new RegExp(`\\b${name}\\s*\\([^;{}]*\\)\\s*(?:const\\s*)?;`, 'g'))?.length ?? 0;
  return mentions === prototypes;
}

/** The value of a constant expression in host context (macros, enums, file constants); null when not known. */
export function evalConstant(facts: FileFacts, node: Node, deadline: number): number | null {
  return uniformValue(hostInterp(facts, null, 0, deadline, DEFAULT_CAPS).rvalue(node));
}

/** Launches and explicit instantiations by kernel name, built once per facts (a file of N kernels was O(N^2)). */
const indexes = new WeakMap<FileFacts, { launches: Map<string, FileFacts['launches']>; instantiations: Map<string, FileFacts['instantiations']> }>();
/**
 * `kernel = &transposeNaive; ... kernel<<<grid, threads>>>(...)`: a launch through a function-pointer variable of the
 * launching function is a launch of each kernel assigned to it there (`= &k`, `= k`, `= k<T>`, through casts, both
 * arms of a `?:`) or that initialises it. A table of kernels (`Kernel steps[] = {a, b};`, in the function or at file
 * scope) walked by a range-for (`for (Kernel k : steps) k<<<...>>>`) or indexed (`steps[i]<<<...>>>`) launches each.
 */
function throughPointer(l: LaunchFact, kernels: Set<string>, givers: (scope: Node) => Givers, facts: FileFacts): LaunchFact[] {
  if (!l.caller) return [];
  // where a name can be given its kernels: the launching function, then the file scope (a table of kernels)
  const scopes = [givers(fileRoot(l.caller.outer)), givers(l.caller.body)];
  const out: LaunchFact[] = [];
  const add = (name: string, targs: Node[] | null, via?: Node, picked?: { cond: Node; way: boolean }[]) => {
    // one launch per instance and per place it is given (`c ? k<1> : k<2>` launches both; `fp[0] = k` is its own)
    const key = (t: Node[] | null | undefined) => (t ?? []).map((a) => a.text).join(',');
    if (kernels.has(name) && !out.some((o) => o.kernel === name && key(o.templateArgs) === key(targs) && o.via?.id === via?.id))
      out.push({ ...l, kernel: name, templateArgs: targs, ...(via ? { via } : {}), ...(picked?.length ? { picked } : {}) });
  };
  /** the kernels a value names: `k`, `&k`, `(void (*)(float *))k`, `k<T>`, `c ? k1 : k2`, a table `{k1, k2}`. */
  const resolve = (v: Node | null, depth = 0, via?: Node, picked: { cond: Node; way: boolean }[] = []): void => {
    while (v?.type === 'parenthesized_expression') v = named(v)[0] ?? null;
    if (!v || depth > 8) return;
    if (v.type === 'conditional_expression') {
      // each branch launched where its condition goes its way (the block shape's `?:` on the same condition with it)
      const cond = v.childForFieldName('condition')!;
      resolve(v.childForFieldName('consequence'), depth + 1, via, [...picked, { cond, way: true }]);
      resolve(v.childForFieldName('alternative'), depth + 1, via, [...picked, { cond, way: false }]);
    } else if (v.type === 'initializer_list') for (const c of named(v)) resolve(c, depth + 1, via);
    else if (v.type === 'call_expression') {
      // a host function of the file that picks the kernel (`kernel = pick_kernel(m_count)`): each kernel it returns
      const f = v.childForFieldName('function');
      for (const fn of f?.type === 'identifier' ? facts.functions.get(f.text) ?? [] : [])
        if (!fn.isKernel) for (const r of returnsOf(fn.body)) resolve(named(r)[0] ?? null, depth + 1);
      // a function-like macro of the file that names one (TensorRT's `#define P(tsize) allClassNMS_kernel<T_SCORE,
      // T_BBOX, (tsize)>` in the table `{ P(1), P(2), ... }`): the kernel its expansion names
      const mac = f?.type === 'identifier' && !facts.functions.has(f.text) ? facts.macros.get(f.text) : undefined;
      const args = named(v.childForFieldName('arguments'));
      if (mac?.params && args.length === mac.params.length) {
        const e = parseExpression(substitute(mac, args.map((a) => a.text)));
        if (e) resolve(e.expr, depth + 1, via);
      }
    } else {
      const k = kernelRef(v);
      if (k) add(k.name, k.targs ?? l.templateArgs, via, picked);
    }
  };
  /** every value `name` is given: assigned, initialised, or taken from a table by a range-for. */
  const valuesOf = (name: string, depth: number): void => {
    if (depth > 4) return;
    for (const scope of scopes)
      for (const g of scope.get(name) ?? []) {
        // given in the launching function (`case 0: fp[0] = k; break;`): the branches around that assignment hold too
        if (g.value) resolve(g.value, 0, scope === scopes[1] ? g.value.parent ?? undefined : undefined);
        else if (g.table?.type === 'identifier') valuesOf(g.table.text, depth + 1);
        else resolve(g.table ?? null);
      }
  };
  valuesOf(l.kernel, 0);
  return out;
}

/** The `return` statements of a function body (not those of a lambda in it). */
function returnsOf(body: Node | null): Node[] {
  const out: Node[] = [];
  const stack: Node[] = body ? [body] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'return_statement') out.push(n);
    else if (n.type !== 'lambda_expression') for (const c of named(n)) stack.push(c);
  }
  return out;
}

/** What each name is given in a scope (a function body; at the root, the file's declarations), read in one walk. */
type Givers = Map<string, { value?: Node | null; table?: Node | null }[]>;
function giversIn(scope: Node): Givers {
  const out: Givers = new Map();
  const give = (name: string | undefined, g: { value?: Node | null; table?: Node | null }) => {
    if (!name) return;
    const list = out.get(name);
    if (list) list.push(g);
    else out.set(name, [g]);
  };
  const stack: Node[] = scope.parent ? [scope] : named(scope).filter((n) => n.type === 'declaration');
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'assignment_expression' && n.childForFieldName('operator')?.text === '=') {
      const target = n.childForFieldName('left');
      if (target?.type === 'identifier') give(target.text, { value: n.childForFieldName('right') });
      // an element of a table of kernels (`fp[0] = k;`), launched indexed (`fp[i]<<<...>>>`)
      else if (target?.type === 'subscript_expression' && target.childForFieldName('argument')?.type === 'identifier')
        give(target.childForFieldName('argument')!.text, { value: n.childForFieldName('right') });
    } else if (n.type === 'init_declarator') give(declaratorName(n)?.text, { value: n.childForFieldName('value') });
    else if (n.type === 'for_range_loop') give(declaratorName(n.childForFieldName('declarator'))?.text, { table: n.childForFieldName('right') });
    for (const c of named(n)) stack.push(c);
  }
  return out;
}

function byKernel(facts: FileFacts) {
  let ix = indexes.get(facts);
  if (!ix) {
    ix = { launches: new Map(), instantiations: new Map() };
    const kernels = new Set(facts.kernels.map((k) => k.name));
    // each scope is read once, however many launches of names that are no kernel of the file it holds
    const scopes = new Map<number, Givers>();
    const givers = (scope: Node) => {
      let g = scopes.get(scope.id);
      if (!g) scopes.set(scope.id, (g = giversIn(scope)));
      return g;
    };
    const indirect = facts.launches.flatMap((l) => (kernels.has(l.kernel) ? [] : throughPointer(l, kernels, givers, facts)));
    for (const l of [...facts.launches, ...indirect]) {
      const list = ix.launches.get(l.kernel);
      if (list) list.push(l);
      else ix.launches.set(l.kernel, [l]);
    }
    for (const x of facts.instantiations) {
      const list = ix.instantiations.get(x.kernel);
      if (list) list.push(x);
      else ix.instantiations.set(x.kernel, [x]);
    }
    indexes.set(facts, ix);
  }
  return ix;
}

/** The `// bank-lens: block=...` comment of a kernel: on one of the three lines above it. */
export function directiveOf(kernel: FunctionFact, facts: FileFacts): FileFacts['directives'][number] | undefined {
  const row = kernel.outer.startPosition.row;
  return facts.directives.find((d) => d.line < row && d.line >= row - 3);
}

export function instancesOf(
  kernel: FunctionFact, facts: FileFacts, fallbackBlock: [number, number, number] | undefined, deadline: number, caps: Caps = DEFAULT_CAPS,
): { instances: Instance[]; notes: string[] } {
  const notes: string[] = [];
  const directive = directiveOf(kernel, facts);
  const out: Instance[] = [];
  const seen = new Set<string>();
  const push = (inst: Instance) => {
    const key = JSON.stringify([inst.label, inst.block, inst.argSources.map((a) => a.replace(/ from .*$/, '')), inst.grid?.dims ?? null]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(inst);
  };
  const launches = (byKernel(facts).launches.get(kernel.name) ?? []).filter((l) => launchesOverload(kernel, l, facts));
  type Args = { values: Map<string, Value>; sources: string[] };
  const none: Args = { values: new Map(), sources: [] };
  const bound: { b: ReturnType<typeof bindTemplate>; block: [number, number, number] | null; source: string; shmem: number | null; args: Args; grid?: Instance['grid'] }[] = [];
  // the grid of each launch, for a kernel that reads gridDim (`s[threadIdx.x * gridDim.x]` of `k<<<4, 64>>>`)
  const withGrid = readsGrid(kernel, facts);
  const gridAt = (l: LaunchFact, it: Interp, source: string): Instance['grid'] =>
    withGrid && l.grid ? (() => { const dims = gridOf(launchDim(l, it, 'grid')); return { dims, source: gridText(dims, l, source) }; })() : undefined;
  const unevaluated: string[] = [];
  // launches whose shape is known in `x` but not in `y` or `z` (FDTD3d's `dimBlock.x = 16; dimBlock.y = MIN(...)` of a
  // run-time size): the default block keeps what is known (see fallback)
  const partial: { dims: (number | null)[]; note: string }[] = [];
  /** a launch's block shape; one that cannot be evaluated is a note, naming `what`. */
  const shape = (l: LaunchFact, it: Interp, what: string): [number, number, number] | null => {
    const block = blockAt(l, it);
    // a shape that is evaluated but no block can have (`dim3 b(Z, BLK_ROW)` with Z = 96, BLK_ROW = 12): said so, it
    // was "could not be evaluated"
    const dims = l.block && !block ? blockDims(launchDim(l, it, 'block')) : null;
    const threads = dims && dims.every((x) => Number.isInteger(x) && x >= 1) ? dims[0] * dims[1] * dims[2] : 0;
    const note = threads > 1024
      ? `the block shape \`${launchDimText(l, 'block')}\` of ${what} is ${dims!.join('x')}, ${threads} threads: more than the 1024 a block can have (such a launch fails)`
      : `the block shape \`${launchDimText(l, 'block')}\` of ${what} could not be evaluated`;
    // a launch in a host function template is read once per binding: its note is said once
    if (l.block && !block && !unevaluated.includes(note)) {
      notes.push(note);
      unevaluated.push(note);
      const axes = threads > 1024 ? null : blockAxesKnown(launchDim(l, it, 'block'));
      if (axes && axes[0] !== null && Number.isInteger(axes[0]) && axes[0] >= 1 && axes[0] <= 1024 &&
          axes.every((d) => d === null || (Number.isInteger(d) && d >= 1)))
        partial.push({ dims: axes, note });
    }
    return block;
  };
  /** a launch's block shape where `it` evaluates it, also from a variable of the file scope host code sets (`blocks[d]`) */
  // what the last blockAt read from the file scope or took as the warp size, for the source that follows it
  let fromFileScope = '';
  function blockAt(l: LaunchFact, it: Interp): [number, number, number] | null {
    fromFileScope = '';
    if (!l.block) return null;
    const v = blockOf(launchDim(l, it, 'block'));
    const g = v || !l.caller || l.blockAxes ? null : fileScopeElement(l.block, l.caller, facts, it, deadline);
    const block = g && blockOf(g.value);
    if (block) fromFileScope = `; ${g!.note}`;
    if (v) for (const id of new Set((l.blockAxes ?? [l.block]).flatMap((a) => identifiersIn(a)))) if (it.notes.has(warpSizeNote(id))) fromFileScope += ` (\`${id}\` taken as 32, the warp size)`;
    return v ?? block;
  }
  const shmemOf = (l: LaunchFact, it: Interp) => (l.shmem ? uniformValue(it.rvalue(l.shmem)) : 0);
  for (const l of launches) {
    // a launch in a host function template is read once per binding of that template the file gives
    const outer = l.caller?.templateParams.length || l.caller?.classTemplateParams.length ? hostTemplateBindings(l.caller, facts, deadline, caps) : [];
    for (const host of outer.length ? outer : [null]) {
      // a launch in a host loop (`for (int b = 32; b <= 256; b *= 2) k<<<1, b>>>(d, b);`): once per value of its
      // counters, where the loop runs a known number of times
      const loops: LoopBinding[] & { truncated?: boolean } = l.caller ? loopBindings(l.caller, l.node, facts, deadline, caps, undefined, l.picked) : [{ values: new Map<string, Value>(), where: '' }];
      // more combinations of counters, switch ways and branches than are read: said with each one read
      const cutWays = loops.truncated ? `; only the first ${MAX_CALLER_BINDINGS} combinations of the loops, switches and branches around the launch are read` : '';
      const ways: { entry: (typeof bound)[number]; plain: (typeof bound)[number]; key: string; vals: Map<string, number | null> }[] = [];
      for (const loop of loops) {
        const bind = extendBinding(host?.bind, loop);
        const path = launchPath(l, facts);
        // under `case 128:` of `switch (threads)` where `threads` is known to be 256: that launch never runs; nor where
        // every call of the launcher (called by name only, never through its address) passes another value
        if (contradicted(path, hostInterp(facts, l.caller, l.node.startIndex, deadline, caps, bind))) continue;
        if (!host && (path.eq.size || path.ne.length || path.sw.length) && l.caller?.params.length && onlyCalled(l.caller, facts)) {
          const calls = callersOf(l.caller, facts, deadline, caps);
          if (calls.length && !calls.truncated && !calls[0].assumed && calls.every((c) => contradicted(path, hostInterp(facts, l.caller, l.node.startIndex, deadline, caps, undefined, undefined, c.params)))) continue;
        }
        const it = hostInterp(facts, l.caller, l.node.startIndex, deadline, caps, bind, path);
        const b = bindTemplate(kernel, l.templateArgs, it, deduceTypes(kernel, l, it));
        const args = bindArguments(kernel, l, facts, it, loop.values);
        path.used.length = 0;
        const launch = `${l.what ?? 'the launch'} at line ${l.node.startPosition.row + 1}`;
        const at = `${launch}${loop.where}${loop.branches ?? ''}${cutWays}`;
        // a shape, or a kernel argument, made of the launching function's parameters: what its callers pass, one
        // instance each (`void scan(float *d, int n) { k<<<1, 256>>>(d, n); }` called `scan(d, 1024)`)
        const callerParams = new Set(l.caller?.params.map((p) => p.name));
        const argsFromCaller = callerParams.size > 0 && launchArguments(l).some((a) => identifiersIn(a).some((id) => callerParams.has(id)));
        const blockFromCaller = !!l.block && !blockAt(l, it);
        // (in a host function template, only for a shape its binding leaves unknown: the binding names the instance)
        if (l.caller && (blockFromCaller || (!host && argsFromCaller))) {
          let any = false;
          // a launcher that is a host function template (`template <typename T> void launch(T *d, int n, int block)`,
          // called `launch(d, n, 256)`): read once per binding, each with the calls that give that binding (a call
          // whose binding is not known may give any)
          const own = host ? JSON.stringify(host.bind.label) : undefined;
          const every = callersOf(l.caller, facts, deadline, caps);
          const calls = every.filter((c) => !own || !c.label || c.label === own);
          const cut = every.truncated ? `; only the first ${MAX_CALLER_BINDINGS} calls are read` : '';
          for (const call of calls) {
            if (contradicted(path, hostInterp(facts, l.caller, l.node.startIndex, deadline, caps, bind, undefined, call.params))) continue;
            if (loop.decide && !decisionsHold(loop.decide, l.caller, facts, deadline, caps, call.params)) continue;
            const pit = hostInterp(facts, l.caller, l.node.startIndex, deadline, caps, bind, launchPath(l, facts), call.params);
            const block = blockAt(l, pit);
            if (blockFromCaller && !block) continue;
            any = true;
            // the template arguments stay as the launch alone gives them
            const callArgs = argsFromCaller ? bindArguments(kernel, l, facts, pit, new Map([...loop.values, ...call.params])) : args;
            const src = `${at} in \`${l.caller.name}\` (${call.where}${cut})${fromFileScope}`;
            bound.push({ b, block: block ?? shape(l, it, launch), source: src, shmem: shmemOf(l, pit), args: callArgs, grid: gridAt(l, pit, src) });
          }
          if (any) continue;
        }
        const block = shape(l, it, launch); // a shape not evaluated is said once, not once per loop iteration
        // two ways through the `if`s before the launch that give it the same shape and arguments are one instance
        const where = block && path.used.length ? ` (inside ${path.used.join(' and ')})` : '';
        const source = (branches: string) => `${launch}${loop.where}${branches}${where}${host ? ` in ${host.where}` : ''}${fromFileScope}${cutWays}`;
        const entry = { b, block, source: source(loop.branches ?? ''), shmem: shmemOf(l, it), args, grid: gridAt(l, it, source(loop.branches ?? '')) };
        if (!loop.decide) bound.push(entry);
        else {
          const vals = new Map<string, number | null>([...args.values, ...loop.values].map(([k, v]) => [k, uniformValue(v)]));
          ways.push({ entry, plain: { ...entry, source: source('') }, key: JSON.stringify([block, b.label]), vals });
        }
      }
      bound.push(...distinctWays(ways));
    }
  }
  for (const x of indirectLaunches(kernel, facts)) {
    const at = hostInterp(facts, x.site, x.call.startIndex, deadline, caps);
    const values = new Map<string, Value>();
    const callArgs = argumentNodes(x.call);
    const positions = paramPositions(x.l.caller!);
    x.l.caller!.params.forEach((p, j) => {
      const pos = positions ? positions[j] : j;
      if (pos !== x.index && callArgs[pos]) values.set(p.name, at.rvalue(callArgs[pos]));
    });
    const it = hostInterp(facts, x.l.caller, x.l.node.startIndex, deadline, caps, { values, types: new Map(), label: {} });
    const b = bindTemplate(kernel, x.targs, at);
    const source = `the launch at line ${x.l.node.startPosition.row + 1} through \`${x.l.kernel}\` of \`${x.l.caller!.name}\`, called with \`${callArgs[x.index].text}\` at line ${x.call.startPosition.row + 1}`;
    bound.push({ b, block: shape(x.l, it, source), source, shmem: shmemOf(x.l, it), args: none, grid: gridAt(x.l, it, source) });
  }
  // a parameter launches bind to different values (or leave unbound) tells their instances apart in the cases
  const varying = new Set<string>();
  // a member of a struct argument (`layout.ld`) too
  const given = new Set([...kernel.params.map((p) => p.name), ...bound.flatMap((x) => [...x.args.values.keys()])]);
  for (const name of given) {
    const seen = new Set(bound.map((x) => { const v = x.args.values.get(name); return v ? uniformValue(v) : null; }));
    if (seen.size > 1) varying.add(name);
  }
  for (const x of bound) {
    if (!x.args.values.size) continue;
    const label = { ...x.b.label };
    for (const [name, v] of x.args.values) if (varying.has(name)) label[name] = uniformValue(v)!;
    x.b = { ...x.b, label };
  }
  // launches with different grids tell their instances apart by the axes that differ (`gridDim.x`: 4 and 8)
  for (let axis = 0; axis < 3 && withGrid; axis++) {
    const dims = new Set(bound.map((x) => x.grid?.dims[axis] ?? null));
    if (dims.size < 2) continue;
    for (const x of bound) {
      const d = x.grid?.dims[axis];
      if (d) x.b = { ...x.b, label: { ...x.b.label, [`gridDim.${'xyz'[axis]}`]: d } };
    }
  }
  for (const inst of byKernel(facts).instantiations.get(kernel.name) ?? []) {
    const it = hostInterp(facts, null, 0, deadline, caps);
    const deduced = !inst.args.length && inst.params ? deducedFromInstantiation(kernel, inst.params, it) : undefined;
    bound.push({ b: bindTemplate(kernel, deduced ? null : inst.args, it, deduced), block: null, source: `the explicit instantiation at line ${inst.node.startPosition.row + 1}`, shmem: null, args: none });
  }
  // a kernel never launched by name whose template arguments are named where its address is taken
  // (`{"shared", reduceShared<BLOCK>}` in a table of kernels launched through a pointer): each such name binds it
  if (!launches.length && kernel.templateParams.length)
    for (const ref of kernelReferences(kernel, facts)) {
      // named in a host function template (`launch_helper(k<dst_t>, ...)` in `copy<src_t, dst_t>`): read once per
      // binding of that template the file gives, as a launch there is
      const outer = ref.caller && (ref.caller.templateParams.length || ref.caller.classTemplateParams.length) ? hostTemplateBindings(ref.caller, facts, deadline, caps) : [];
      for (const host of outer.length ? outer : [null]) {
        const b = bindTemplate(kernel, ref.args, hostInterp(facts, ref.caller, ref.node.startIndex, deadline, caps, host?.bind));
        if (b.unbound || bound.some((x) => JSON.stringify(x.b.label) === JSON.stringify(b.label))) continue;
        bound.push({ b, block: null, source: `\`${ref.node.text}\` at line ${ref.node.startPosition.row + 1}${host ? ` in ${host.where}` : ''}`, shmem: null, args: none });
      }
    }
  if (bound.length === 0) bound.push({ b: bindTemplate(kernel, null, hostInterp(facts, null, 0, deadline, caps)), block: null, source: '', shmem: null, args: none });

  const fallback = (bind: Binding): { blocks: [number, number, number][]; source: (b: [number, number, number]) => string } => {
    if (directive) return { blocks: directive.blocks, source: (b) => `block ${fmt(b)} from the \`bank-lens: block\` comment at line ${directive.line + 1}` };
    if (fallbackBlock) return { blocks: [fallbackBlock], source: (b) => `block ${fmt(b)} from the configured default block shape` };
    // a launch whose block shape could not be evaluated is named: the user sees which one to look at
    const why = unevaluated.length ? unevaluated.join('; ') : `no launch of \`${kernel.name}\` with a known block shape in this file`;
    // a launch that gives `blockDim.x` but not `.y` (or `.z`): its x is kept, and each axis not known is the least
    // that fills the first warp (16 x ? is 16x2x1, 64 x ? is 64x1x1), not 32 threads in a row that cannot be
    const completed = partial.map(({ dims, note }) => {
      const x = dims[0]!;
      const y = dims[1] ?? Math.max(1, Math.ceil(32 / x));
      const z = dims[2] ?? Math.max(1, Math.ceil(32 / (x * y)));
      const b: [number, number, number] = [x, y, z];
      const known = dims.map((d, i) => (d === null ? null : `blockDim.${'xyz'[i]} = ${d}`)).filter((t) => t).join(', ');
      const unknownAxes = dims.map((d, i) => (d === null ? `blockDim.${'xyz'[i]}` : null)).filter((t) => t).join(' and ');
      return { b, text: `${note}: ${known} from it, ${unknownAxes} not known: assumed a block of ${fmt(b)} (the least that fills one warp)` };
    }).filter(({ b }) => valid(b));
    if (completed.length) {
      const blocks: [number, number, number][] = [];
      for (const c of completed) if (!blocks.some((b) => fmt(b) === fmt(c.b))) blocks.push(c.b);
      return { blocks, source: (b) => completed.filter((c) => fmt(c.b) === fmt(b)).map((c) => c.text).join('; ') };
    }
    // `__launch_bounds__(256)` (or a macro, or a template parameter of this instance): the most threads a block of
    // the kernel has, a better stated default than one warp
    const lb = kernel.launchBounds;
    const lbText = lb ? `\`__launch_bounds__(${lb.text})\`` : '';
    const n = lb ? uniformValue(hostInterp(facts, null, 0, deadline, caps, bind).rvalue(lb)) : null;
    if (n !== null && Number.isInteger(n) && n >= 1 && n <= 1024)
      return { blocks: [[n, 1, 1]], source: () => `${why}: assumed a one-dimensional block of ${n} threads, the kernel's ${lbText}${lb!.text === String(n) ? '' : ` (${n})`}` };
    return {
      blocks: [[32, 1, 1]],
      source: () => `${why}${lb ? ` (the kernel's ${lbText} ${n === null ? 'could not be evaluated' : `is ${n}, no block size`})` : ''}: assumed a one-dimensional block of 32 threads (one full warp)`,
    };
  };
  const anyKnown = bound.some((x) => x.block);
  const launchBlocks = bound.filter((x) => x.block);
  for (const { b, block, source, shmem, args: a, grid } of bound) {
    const args = { args: a.values, argSources: a.sources, ...(grid ? { grid } : {}) };
    if (!block && anyKnown && source.startsWith('the launch')) {
      // another launch of the same instance gives the shape; an instance only launched with a shape that cannot be
      // evaluated (`if (n == 16) k<16><<<g, b>>>(); else k<32><<<g, b>>>();`) takes the fallback shape, said so
      const label = JSON.stringify(b.label);
      if (launchBlocks.some((x) => JSON.stringify(x.b.label) === label)) continue;
    } else if (!block && anyKnown && !directive) {
      // an explicit instantiation nobody launches here: take the shapes the other instances are launched with
      for (const l of launchBlocks)
        push({ values: b.values, types: b.types, block: l.block!, blockSource: `block ${fmt(l.block!)} from ${l.source} (of another instance)`, label: b.label, unbound: b.unbound, assumedBlock: true, dynamicShared: null, ...args });
      continue;
    }
    if (block && !directive) {
      push({ values: b.values, types: b.types, block, blockSource: `block ${fmt(block)} from ${source}`, label: b.label, unbound: b.unbound, dynamicShared: shmem, ...args });
      continue;
    }
    const fb = fallback(b);
    for (const blk of fb.blocks)
      push({ values: b.values, types: b.types, block: blk, blockSource: fb.source(blk), label: b.label, unbound: b.unbound, assumedBlock: !directive && !fallbackBlock, dynamicShared: shmem, ...args });
  }
  return { instances: out, notes };
}
