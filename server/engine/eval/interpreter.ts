// The lane-by-lane evaluator: runs a kernel body once for a whole block (every thread at once, SIMT style, with
// masks for guards and divergent loops), enumerating loop iterations, and records every shared-memory access with
// the byte address of each active thread. No bank arithmetic here: `model/` turns addresses into wavefronts.
import type { Node } from '../syntax/parser';
import { AccessRecord, collapsibleBody, substituteRecord, sameData, unchanged, MATH_CALLS } from './collapse';
import { parseExpression, parseStatements } from '../syntax/parser';
import { substitute, callArguments, rescanMacros, bracesBalance, MACRO_SHARED_MARK, type Macro } from '../syntax/preprocess';
import { FileFacts, FunctionFact, named, argumentNodes, unparenthesized, kids, operatorOf, isSharedDecl, declaratorName, readTemplateParams, identifiersIn, hasToken, subscriptIndex, macrosFor, namespacePath, paramPositions, paramAt, paramCount, declaredParams } from '../facts/collect';
import { CType, BUILTINS, LIBRARY_TYPES, INT, UINT, FLOAT, DOUBLE, sizeOf, alignOf, member, layoutStruct, typeName } from '../facts/ctypes';
import {
  Value, Num, Ptr, Ref, SharedBase, Lanes, unk, num, atom, passCount, isNonNegative, gcd, binary, fastBinary, unary, convert, select, uniformValue, laneAt,
  isUniform, isWarpUniform, symText, symKey, wrap, THREAD, maxOf, NeedsFullBlock, threadKey, hasThread, isTainted, boxRange, NEEDS_FULL_BLOCK, Obj, copyObj,
  UNKNOWN, unknownPointer, eitherPointer, promote, wrapKey, wrapOf, Wrap, valuePack,
} from './values';

export class BudgetExceeded extends Error {}

/** The mark of a template template parameter's binding (Other.what): the name of the template it is given. */
const TEMPLATE_NAME = 'template ';

/** The syntax a loop's step may be made of for loopSteps: names, numbers, `blockDim.x`, arithmetic. */
const STEP_NODE = /^(identifier|number_literal|field_expression|field_identifier|binary_expression|parenthesized_expression|qualified_identifier|namespace_identifier)$/;

export interface Caps {
  loopIterations: number;
  callDepth: number;
  exprDepth: number;
  macroDepth: number;
  visitsPerAccess: number;
  /** evaluate the body of a simple counted loop once and put each iteration's counter into its places (collapse.ts). */
  collapseLoops: boolean;
}
export const DEFAULT_CAPS: Caps = { loopIterations: 1024, callDepth: 16, exprDepth: 400, macroDepth: 32, visitsPerAccess: 4096, collapseLoops: true };

export type AccessKind = 'load' | 'store' | 'atomic';

/** One execution of one access site in one context: the per-thread byte addresses (or why they are unknown). */
export interface Visit {
  site: string;
  kind: AccessKind;
  name: string;
  nameNode: Node;
  exprNode: Node;
  base: SharedBase;
  width: number;
  context: Record<string, number | string>;
  /** per thread of the block: byte address relative to the array, NaN when inactive. Null when unknown. */
  addrs: Float64Array | null;
  /** warp mode, during the run: the part of the address that is linear in the warp's coordinates. */
  shift?: Record<string, number>;
  /**
   * warp mode: `addrs` holds warp 0's 32 lanes; warp w is those plus shifts[w] (null: no shift). The warps are
   * identical but for that offset. blockAddrs() lays them out.
   */
  spread?: { warps: number; shifts: Float64Array | null };
  reason?: string;
  /** past the visit cap: the number of contexts this one visit stands for (the access is not recorded again). */
  more?: number;
  assumptions: string[];
  /** `bytes`: past the dynamic shared memory the launch gives, `index` the first byte past it the access reads or writes. */
  oob?: { thread: number; index: number; extent: number; bytes?: true };
  /** the padding fix would be wrong for this access (flattened or pointer arithmetic), with why. */
  flat: string | null;
  /** where the access happens when that is not exprNode: the use of a reference bound at exprNode. */
  via?: Node;
  /** a cp.async write (`__pipeline_memcpy_async`): counted as a store, its figure uncertain. */
  asyncCopy?: boolean;
  /**
   * the access subscripts every extent of its array, and every active lane's innermost index is within its extent
   * (also where a guard that could not be evaluated keeps that from being an out-of-bounds finding): the padding
   * search may move its addresses rather than run the kernel again (analyze.ts movedVisit).
   */
  inRow?: boolean;
}

export interface RunConfig {
  facts: FileFacts;
  block: [number, number, number];
  /** the launch's grid per axis (null where it is not known) and the assumption that says where it comes from. */
  grid?: { dims: (number | null)[]; source: string };
  /** template parameter bindings: values and types. */
  values: Map<string, Value>;
  types: Map<string, CType>;
  /** kernel parameters every thread starts with a known value of (a constant passed by the launch). */
  args?: Map<string, Value>;
  /** array id -> elements added to the innermost extent (padding search). */
  dimOverrides?: Map<string, number>;
  /** declaration node start index -> value replacing a constant's initializer (padding a leading dimension). */
  constOverrides?: Map<number, number>;
  deadline: number;
  caps: Caps;
  /** the lookup of last resort (launch sites: the caller's local declarations). */
  fallback?: (name: string, it: Interp) => Value | null;
  /** evaluate one warp with the higher thread coordinates as unknowns where that is exact (see runBlock). */
  warp?: boolean;
  /** the analysis is of a single host thread (block shapes, template arguments): no threadIdx. */
  host?: boolean;
  /** host runs only: the way taken at a `?:` of the host code whose condition is not known, by node id (see contexts' branchChoices). */
  decide?: Map<number, boolean>;
  /**
   * a loop of warp-uniform condition that reaches this many iterations, or whose body runs its square in all (a nest
   * of three loops of 32 passes each), ends the run with LongLoop (see runInstance).
   */
  longLoop?: number;
  /**
   * the bytes of dynamic shared memory the launch gives, where it gives a size it is known (its third argument): an
   * `extern __shared__` access past them is out of bounds.
   */
  dynamicShared?: number | null;
}

/** Thrown where a run given RunConfig.longLoop reaches a loop that long. */
export class LongLoop extends Error {
  /** `nest`: no one loop runs longLoop iterations, but one's body runs longLoop squared times, nested in others. */
  constructor(line: number, readonly nest = false) {
    super(`the loop at line ${line} is long`);
  }
}

/** A loop whose body runs as one pass (Interp.tryCollapse): its counter, the counter's unknown, the pass's accesses. */
interface Collapse {
  counter: Var;
  key: string;
  records: AccessRecord[];
}

interface Var {
  value: Value;
  type: CType;
  decl?: Node;
  /** a reference bound to a place in shared memory (value is that Ref): reading it loads, assigning it stores. */
  ref?: boolean;
  /** a lambda (`auto f = [&](int i) { ... };`): called like a device function, with the scopes it captured. */
  lambda?: Lambda;
  /** declared without a value: the lanes that have not assigned it yet (never written in place; absent once none). */
  unset?: Uint8Array;
  /** why those lanes' value is not known, where they hold one that is not (see assign): else they never assigned it. */
  unsetWhy?: string;
  /**
   * a local array of integers or floats that is only ever indexed (`int rd[4][2];`, Marlin's precomputed shared
   * indices): its elements, by flat index, each a variable of its own, read and written at indices the same on every
   * thread. Trusted while the array's value is still its `local array` mark; anything that makes that unknown (a write
   * at an index not known, a branch under a guard not evaluated, a loop of unknown trip count) ends them.
   */
  cells?: { dims: number[]; elems: Map<number, Var>; stale?: string };
}

/** a class template instance's parameters, bound to values and types (`Swizzle<3, 4, 3>`: B, M, S). */
interface ClassBinding {
  values: Map<string, Value>;
  types: Map<string, CType>;
}

interface Lambda {
  def: FunctionFact;
  /** the scopes its body sees: the enclosing ones themselves for `[&]`, copies made at its definition for `[=]`. */
  scopes: Map<string, Var | SharedBase>[];
}

interface Frame {
  scopes: Map<string, Var | SharedBase>[];
  exited: Uint8Array;
  /** some thread has returned (or was inactive at the call): exited is not all zero. */
  anyExited: boolean;
  ret: Value | undefined;
  /**
   * A `return` ran under a guard that could not be evaluated (both branches run for every lane): the guard, said,
   * and whether it has one value on the warp. A later `return` of another value leaves what the call returns unknown.
   */
  retGuard?: { guard: string; wholeWarp: boolean };
  fn: FunctionFact | null;
}

interface LoopState {
  brk: Uint8Array;
  cont: Uint8Array;
  /** a break or continue ran (until then brk and cont are all zero, and loops may skip them). */
  touched?: boolean;
  /** a `break` or `return` out of this loop sits under a guard that could not be evaluated: the guard, said. */
  uncertainExit?: string;
}

/** The body of a macro that is a whole loop or `if` header (`#define IF_LEADER if (lane == 0)`). */
const HEADER_MACRO_BODY = /^\s*(?:for|while|if)\s*\(/;

/**
 * The built-in integer or floating type T of a place whose type is `cuda::atomic<T, scope>` or `cuda::std::atomic<T>`
 * (libcu++: the same size and alignment as T), read from the unresolved type's name; undefined for any other place.
 */
function sharedAtomicType(r: Ref): CType | undefined {
  if (r.t.kind !== 'unknown') return undefined;
  const m = /^(?:(?:::)?cuda::(?:std::)?)?(?:std::)?atomic\s*<\s*([A-Za-z_][\w ]*?)\s*(?:,[^<>]*)?>$/.exec(r.t.name);
  const t = m ? BUILTINS[m[1].replace(/\s+/g, ' ')] : undefined;
  return t && (t.kind === 'int' || t.kind === 'float') ? t : undefined;
}

export const ATOMICS = /^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$/;

/** Side tables of class template instances' types, by type (see Interp's templateArgs). */
const TEMPLATE_ARGS = new WeakMap<CType, Node[]>();
const TEMPLATE_BOUND = new WeakMap<CType, ClassBinding>();
const CLASS_DECLS = new WeakMap<CType, Node>();
/** `std::integral_constant<T, v>` (and `true_type`, `false_type`, `bool_constant<v>`) by its name, and the `value` of each. */
const INTEGRAL_TYPES = new Map<string, CType>();
const INTEGRAL_VALUES = new WeakMap<CType, Num>();

/** `a[i][j]`: the subscripted expression (`a`) and the indices, outermost first; null where a subscript has none. */
function subscriptChain(node: Node): { base: Node | null; idx: Node[] } | null {
  // a loop evaluates the same subscript once per iteration: the chain is syntax alone, read once per node
  let c = chains.get(node);
  if (c === undefined) chains.set(node, (c = readChain(node)));
  return c;
}
const chains = new WeakMap<Node, { base: Node | null; idx: Node[] } | null>();
function readChain(node: Node): { base: Node | null; idx: Node[] } | null {
  const idx: Node[] = [];
  let base: Node | null = node;
  while (base?.type === 'subscript_expression') {
    const list = base.childForFieldName('indices');
    const i = list ? named(list).filter((c) => c.type !== 'comment')[0] : base.childForFieldName('index');
    if (!i) return null;
    idx.unshift(i);
    base = base.childForFieldName('argument');
  }
  return { base, idx };
}

export class Interp {
  readonly n: number;
  readonly tx: Float64Array;
  readonly ty: Float64Array;
  readonly tz: Float64Array;
  /** every thread: the active set when nothing narrows it (shared, never written). */
  private readonly ones: Uint8Array;
  /** the address vectors of visits whose lanes all ask for one address, by that address (never written: shared). */
  private readonly uniformAddrs = new Map<number, Float64Array>();
  private maskValue: Uint8Array | null = null;
  private activeCache: Uint8Array | null = null;
  /** the threads of the current guard (null: all); with returns, breaks and continues it makes active(). */
  get mask(): Uint8Array | null {
    return this.maskValue;
  }
  set mask(m: Uint8Array | null) {
    this.maskValue = m;
    this.activeCache = null;
  }
  /** call after changing what active() depends on besides the mask. */
  private touch(): void {
    this.activeCache = null;
  }
  frames: Frame[] = [];
  loops: LoopState[] = [];
  ctx: Record<string, number | string> = {};
  assumptions: string[] = [];
  /** early exits under a guard that could not be evaluated, assumed taken by no lane: they hold for the rest of the function. */
  private exitNotes: string[] = [];
  /** exit notes of a `break` or `continue` only: they hold until the loop they leave ends (see execLoop). */
  private loopExitNotes = new Set<string>();
  /** moves whenever assumptions or exitNotes change: visits in between share one copy of them (never modified). */
  private assumptionEpoch = 0;
  private assumptionCopy: { epoch: number; list: string[] } | null = null;
  visits: Visit[] = [];
  /** extra assumptions that hold for every access of the run (template bindings, symbolic loops...). */
  notes = new Set<string>();
  /** the macros read from the headers the file includes that the run looked up (never rolled back, as notes are). */
  headerMacros = new Set<Macro>();
  /** the components of threadIdx and blockDim past x that the run read (`threadIdx.y`), never rolled back. */
  readAxes = new Set<string>();
  private steps = 0;
  private stmtDepth = 0;
  /** how many return statements have run: a loop re-reads the exited threads only when this moved. */
  private exits = 0;
  /** statements, branches and loop bodies skipped because no thread of the block reached them, by node id. */
  readonly unreached = new Map<number, Node>();
  /** why a skipped branch is never run, where a condition the same for every thread decides it (by node id). */
  readonly unreachedWhy = new Map<number, string>();
  /** of the unreached nodes, those that may run but whose effect is not known (see analyze.ts, Unreached.why) */
  readonly notKnown = new Set<number>();
  /**
   * Pointers into shared memory by name, per function body (node id): parameters given one (`scan(volatile T *s)`
   * called with `sdata`) and locals set to one (`float *XY1 = buffer + n`). Their subscripts in code no thread runs
   * are still access sites (reported unknown), as those of the arrays themselves are.
   */
  readonly sharedPointers = new Map<number, Map<string, Node>>();
  /**
   * What was not evaluated, where, and why (each shown to the user as a notice at its line): loops stopped at the
   * iteration cap, statements nested too deep, calls into functions this file does not define that are given shared
   * memory.
   */
  capped: { line: number; message: string }[] = [];
  private depth = 0;
  private macroDepth = 0;
  /** function-like macros applied to shared memory whose expansions are being evaluated (sharedMacro), innermost last. */
  private macroSites: { tree: unknown; call: Node; holders: Map<string, Node>; first: Node }[] = [];
  /** the argument text each placeholder of a function-like macro applied to shared memory stands for (sharedMacro). */
  private readonly placeholderTexts = new Map<string, string>();
  private truncated: string | null = null;
  private constCache = new Map<string, Value>();
  /** the namespaces around each function run (see constant), by node id. */
  private namespaces = new Map<number, string[]>();
  private scopedCache = new WeakMap<Map<string, Value>, Map<string, Value | null>>();
  private visitCount = new Map<string, number>();
  /** by loop node: the passes of its body so far, over every time the loop runs (RunConfig.longLoop). */
  private loopPasses = new Map<number, number>();
  /** by site: the one visit recorded past the visit cap, and how many contexts it stands for. */
  private overCap = new Map<string, { visit: Visit; more: number }>();
  /** the value of each scalar `__shared__` variable whose stored value is known, by array id (see remember). */
  private stored = new Map<string, Value>();
  /** inside a branch or a switch case that is assumed to run (its condition is not known per lane): > 0. */
  private uncertain = 0;
  /**
   * Variables a branch under a guard not known per lane set, left unknown after it (see execIf): the value that
   * branch gave them, for a later branch under the same guard over the same lanes (`if (t < n) p = f(t); ...
   * __syncthreads(); if (t < n) s[p] = v;`), where it holds again.
   */
  private guardedSets: { v: Var; unknown: Value; value: Value; cond: string; operands: [string, Var | SharedBase | null, Value | null][]; mask: Uint8Array }[] = [];
  /** inside a branch run under a guard that could not be evaluated and is not one value on every lane (`fid < order`) */
  private laneUncertain = 0;
  /** the pass of a loop whose trip count is unknown: scalars read from shared memory, and one stored after a read. */
  private symbolicPass: { reads: Set<string>; conflict: { name: string; at: number } | null } | null = null;
  private bases = new Map<string, SharedBase>();
  private globals = new Map<string, Var | SharedBase>();
  /** a collapse pass (tryCollapse): the accesses the body makes, recorded instead of run. */
  private collapseRecords: AccessRecord[] | null = null;
  /** the iteration a collapse pass is checked against: its accesses, recorded as they run. */
  private collapseWatch: AccessRecord[] | null = null;

  /**
   * Warp mode: the block's x extent is a multiple of 32 and it has more than one warp, so every warp holds the same
   * 32 values of `threadIdx.x % 32`; the warp's index along x and its y and z are the same on all its lanes. One warp
   * is evaluated, those three as linear unknowns (keys from threadKey); runBlock adds them back per warp.
   */
  readonly warpMode: boolean;
  private readonly threadValues: [Num, Num, Num] | null = null;
  static warpApplies(cfg: RunConfig): boolean {
    const [bx, by, bz] = cfg.block;
    return !cfg.host && bx % 32 === 0 && bx * by * bz > 32;
  }

  constructor(readonly cfg: RunConfig) {
    const [bx, by, bz] = cfg.block;
    const threads = bx * by * bz;
    this.warpMode = !!cfg.warp && Interp.warpApplies(cfg);
    this.n = cfg.host ? 1 : this.warpMode ? 32 : threads;
    this.tx = new Float64Array(this.n);
    this.ty = new Float64Array(this.n);
    this.tz = new Float64Array(this.n);
    this.ones = new Uint8Array(this.n).fill(1);
    if (!cfg.host)
      for (let t = 0; t < this.n; t++) {
        this.tx[t] = t % bx;
        this.ty[t] = Math.floor(t / bx) % by;
        this.tz[t] = Math.floor(t / (bx * by));
      }
    if (this.warpMode) {
      const coord = (k: string, max: number, scale: number) => (max > 0 ? { [threadKey(k, max)]: scale } : null);
      this.threadValues = [
        num(this.tx, UINT, coord('x', bx / 32 - 1, 32)),
        num(0, UINT, coord('y', by - 1, 1)),
        num(0, UINT, coord('z', bz - 1, 1)),
      ];
    }
  }

  // ---------------------------------------------------------------- running

  runKernel(fn: FunctionFact): void {
    this.frames.push(this.newFrame(fn));
    this.touch();
    for (const p of fn.params) {
      const t = this.declType(p.node);
      const v: Value = this.cfg.args?.get(p.name) ?? (t.kind === 'pointer' ? { k: 'other', what: `pointer parameter ${p.name}` }
        : t.kind === 'struct' ? this.parameterObject(p.name, t) : atom(p.name, t.kind === 'int' ? t : INT));
      // the members a launch's braced argument gives (`Pitched{33}`: `layout.ld` = 33)
      if (v.k === 'obj' && !this.cfg.args?.has(p.name))
        for (const [f, slot] of v.fields) {
          const given = this.cfg.args?.get(`${p.name}.${f}`);
          if (given) slot.value = given;
        }
      this.scope().set(p.name, { value: v, type: t });
    }
    for (const d of this.cfg.facts.fileShared) this.declare(d, this.globals);
    this.stored.clear();
    this.execBlock(fn.body);
    this.frames.pop();
    this.exitNotes.length = 0;
    this.assumptionEpoch++;
    this.touch();
  }

  newFrame(fn: FunctionFact | null): Frame {
    return { scopes: [new Map()], exited: new Uint8Array(this.n), anyExited: false, ret: undefined, fn };
  }
  private frame(): Frame {
    return this.frames[this.frames.length - 1];
  }
  private scope(): Map<string, Var | SharedBase> {
    const f = this.frame();
    return f.scopes[f.scopes.length - 1];
  }

  /** the threads that execute the current statement. */
  active(): Uint8Array {
    if (this.activeCache) return this.activeCache;
    const f = this.frame();
    const lp = this.loops[this.loops.length - 1];
    // no return, break or continue has run: the guard alone decides (shared, never written)
    if (!f?.anyExited && !lp?.touched) return (this.activeCache = this.mask ?? this.ones);
    const out = new Uint8Array(this.n);
    const ex = f?.exited;
    for (let i = 0; i < this.n; i++) {
      out[i] = (this.mask ? this.mask[i] : 1) & (ex ? 1 - ex[i] : 1) & (lp ? (1 - lp.brk[i]) & (1 - lp.cont[i]) : 1);
    }
    this.activeCache = out;
    return out;
  }
  /** A variable of the current function that holds a pointer into shared memory (see sharedPointers). */
  private notePointer(name: string, v: Value, body = this.frame()?.fn?.body): void {
    if (v.k !== 'ptr' || !body || this.cfg.host) return;
    let names = this.sharedPointers.get(body.id);
    if (!names) this.sharedPointers.set(body.id, (names = new Map()));
    if (!names.has(name)) names.set(name, v.base.nameNode);
  }
  /** After a loop (its `finally`): the mask and context before it back, its scope closed, and the notes of the lanes a
   * `break` or `continue` of the loop sent on ended (they are back after it). `exitNotes`: how many there were before. */
  private endLoop(savedMask: Uint8Array | null, savedCtx: Interp['ctx'], exitNotes: number): void {
    this.mask = savedMask;
    this.ctx = savedCtx;
    this.frame().scopes.pop();
    const kept = this.exitNotes.filter((n, i) => i < exitNotes || !this.loopExitNotes.has(n));
    if (kept.length !== this.exitNotes.length) {
      this.exitNotes = kept;
      this.assumptionEpoch++;
    }
  }
  /** The operands of a chain `a && b && ...` (or of `||`), parentheses and a misread template (`a < b && c > d`) undone. */
  private chainParts(cond: Node | null, op: '&&' | '||'): Node[] {
    const parts: Node[] = [];
    const split = (n: Node | null) => {
      n = unparenthesized(n);
      if (!n) return;
      n = this.misreadTemplate(n) ?? n;
      if (n.type === 'binary_expression' && operatorOf(n) === op) {
        split(n.childForFieldName('left'));
        split(n.childForFieldName('right'));
      } else parts.push(n);
    };
    split(cond);
    return parts;
  }

  /**
   * Where every active lane makes `cond` `value`, one part of its `&&` chain (`||` for true) that is `value` for every
   * thread, read without side effects (no call, subscript or assignment in it): `the condition \`blockDim.x >= 1024\`
   * at line 7 is false for every thread`. Undefined where none is.
   */
  private decidingPart(cond: Node, value: boolean, act: Uint8Array, line: number): string | undefined {
    const parts = this.chainParts(cond, value ? '||' : '&&');
    if (parts.length < 2) return undefined;
    const PURE = new Set(['identifier', 'number_literal', 'true', 'false', 'field_expression', 'binary_expression', 'unary_expression', 'parenthesized_expression', 'qualified_identifier']);
    const pure = (n: Node): boolean => PURE.has(n.type) && named(n).every((c) => c.type === 'field_identifier' || pure(c));
    for (const part of parts) {
      if (!pure(part)) continue;
      const v = this.withMask(act, () => this.rvalue(part));
      if (v.k === 'num' && !v.sym && typeof v.v === 'number' && (v.v !== 0) === value)
        return `the condition \`${part.text}\` at line ${line} is ${value} for every thread`;
    }
    return undefined;
  }
  /** `n` is not run: no thread of the block reaches it here (because of `why`, where one condition decides it). */
  private skipped(n: Node | null | undefined, why?: string): void {
    if (!n || this.cfg.host) return;
    this.unreached.set(n.id, n);
    if (why && !this.unreachedWhy.has(n.id)) this.unreachedWhy.set(n.id, why);
  }
  private anyActive(m: Uint8Array): boolean {
    for (let i = 0; i < m.length; i++) if (m[i]) return true;
    return false;
  }
  private tick(): void {
    if ((++this.steps & 63) === 0 && Date.now() > this.cfg.deadline) throw new BudgetExceeded('analysis budget exceeded');
  }

  private withMask<T>(m: Uint8Array, f: () => T): T {
    const saved = this.mask;
    this.mask = m;
    try {
      return f();
    } finally {
      this.mask = saved;
    }
  }
  /**
   * Code run for every lane under a condition not known per lane, said in `note`: what it stores in a scalar
   * `__shared__` variable may not be stored at all (see remember).
   */
  private assumedToRun<T>(note: string, f: () => T, perLane = false): T {
    this.uncertain++;
    if (perLane) this.laneUncertain++;
    try {
      return this.withAssumption(note, f);
    } finally {
      this.uncertain--;
      if (perLane) this.laneUncertain--;
    }
  }

  private withAssumption<T>(a: string | null, f: () => T): T {
    if (a) {
      this.assumptions.push(a);
      this.assumptionEpoch++;
    }
    try {
      return f();
    } finally {
      if (a) {
        this.assumptions.pop();
        this.assumptionEpoch++;
      }
    }
  }

  // ---------------------------------------------------------------- statements

  execBlock(node: Node): void {
    this.frame().scopes.push(new Map());
    try {
      const cs = named(node);
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i];
        // `SIMPLE_LOOP(k, 256) { ... }`: a macro call with no `;`, then the statement it heads; or a macro whose body
        // ends with the brace of the block it heads, spelled `FOR_ROWS;{` (see spellBraceMacros), object-like or not
        // an object-like macro that is a whole header (`#define IF_LEADER if (lane == 0)`), spelled `IF_LEADER;` touching
        // the statement it heads (see braceHeaderMacroStatements)
        const touching = c.type === 'expression_statement' && !!cs[i + 1] && cs[i + 1].startIndex === c.endIndex;
        const first = c.type === 'expression_statement' && cs[i + 1] && (c.lastChild?.isMissing || cs[i + 1].type === 'compound_statement' || touching) ? named(c)[0] : null;
        const callee = first?.type === 'call_expression' ? first.childForFieldName('function') : first?.type === 'identifier' ? first : null;
        const mac = callee?.type === 'identifier' ? this.macroNamed(callee.text) : undefined;
        const opener = !!mac && /\{\s*$/.test(mac.body) && cs[i + 1].type === 'compound_statement';
        const header = touching && !!mac && mac.params === null && first?.type === 'identifier' && HEADER_MACRO_BODY.test(mac.body);
        const call = first && (c.lastChild?.isMissing || opener || header) ? first : null;
        const fn = call ? callee : null;
        if (call && fn && mac && (mac.params || opener || header)) {
          const args = call.type === 'call_expression' ? call.childForFieldName('arguments') : null;
          if (this.anyActive(this.active()) && this.execMacroHeader(cs[i + 1], fn.text, args ? args.text : mac.params ? '()' : '', cs[i + 1], false)) {
            i++;
            continue;
          }
        }
        this.exec(c);
      }
    } finally {
      this.frame().scopes.pop();
    }
  }

  exec(node: Node): void {
    this.tick();
    if (!this.anyActive(this.active())) {
      this.skipped(node);
      return;
    }
    if (this.stmtDepth >= this.cfg.caps.exprDepth) {
      const line = node.startPosition.row;
      const message = `statements nested deeper than ${this.cfg.caps.exprDepth} levels at line ${line + 1} are not evaluated`;
      this.notes.add(message);
      if (!this.capped.some((c) => c.message === message)) this.capped.push({ line, message });
      return;
    }
    this.stmtDepth++;
    try {
      this.execInner(node);
    } finally {
      this.stmtDepth--;
    }
  }

  private execInner(node: Node): void {
    if (node.type === 'ERROR' || node.isMissing) {
      this.notes.add(`the kernel has a syntax error at line ${node.startPosition.row + 1}; the code there is skipped`);
      return;
    }
    switch (node.type) {
      case 'compound_statement':
        return this.execBlock(node);
      case 'declaration':
        if (isSharedDecl(node)) this.declare(node);
        else this.declareLocals(node);
        return;
      case 'expression_statement': {
        const e = named(node)[0];
        // `INIT;`: an object-like macro whose body is statements (`#define INIT t = threadIdx.x; o = t & 3;`) runs
        // them; as a constant it was an unknown value, and its assignments were lost
        const mac = e?.type === 'identifier' && !this.binding(e.text) ? this.macroNamed(e.text) : undefined;
        if (mac && mac.params === null && this.statementMacro(mac.body, e.text, e)) return;
        if (e && !this.arrayPointerDeclaration(e)) this.rvalue(e);
        return;
      }
      case 'attributed_statement':
        // `[[likely]] { ... }`, `[[unlikely]] return;`: the statement after its attributes (it was left out, with its accesses)
        for (const c of named(node)) if (c.type !== 'attribute_declaration') this.exec(c);
        return;
      case 'if_statement':
        return this.execIf(node);
      case 'for_statement':
      case 'while_statement':
      case 'do_statement':
        return this.execLoop(node);
      case 'for_range_loop':
        return this.execRangeFor(node);
      case 'return_statement': {
        const e = named(node)[0];
        const f = this.frame();
        const act = this.active();
        if (e) {
          // a function that returns a reference returns the place: the caller reads or writes it
          const place = f.fn?.returnsRef ? this.eval(e) : null;
          const v = place?.k === 'ref' ? place : (e.type === 'initializer_list' && f.fn && this.bracedObject(this.returnTypeNode(f.fn.node), e, `${f.fn.name}()`)) || this.rvalue(e);
          f.ret = f.ret === undefined ? v : f.retGuard ? this.eitherReturn(f, v, f.retGuard, act) : select(act, v, f.ret, this.n);
        }
        for (let i = 0; i < this.n; i++) if (act[i]) f.exited[i] = 1;
        f.anyExited = true;
        this.exits++;
        this.touch();
        return;
      }
      case 'break_statement':
      case 'continue_statement': {
        const lp = this.loops[this.loops.length - 1];
        if (!lp) return;
        const act = this.active();
        const target = node.type === 'break_statement' ? lp.brk : lp.cont;
        for (let i = 0; i < this.n; i++) if (act[i]) target[i] = 1;
        lp.touched = true;
        this.touch();
        return;
      }
      case 'preproc_if':
      case 'preproc_ifdef':
        return this.execPreprocChain(node);
      case 'labeled_statement':
      case 'preproc_else':
      case 'preproc_elif':
        for (const c of named(node)) if (c.type !== 'preproc_arg' && c.type !== 'identifier' && !c.type.startsWith('preproc_defined')) this.exec(c);
        return;
      case 'switch_statement':
        return this.execSwitch(node);
      case 'case_statement': {
        // a `case` the grammar could not place in a switch's braced body (`switch (t) case 0: s[t] = 1;`, half-typed
        // code) holds the rest of the block: its first statement is what the switch guards, assumed to run for every
        // lane and said so; the statements after it are the code that follows the switch
        const [first, ...rest] = caseStatements(node);
        if (first) this.assumedToRun(`the \`case\` at line ${node.startPosition.row + 1} is not in a braced \`switch\` body: its statement is assumed to run for every lane`, () => this.exec(first), true);
        for (const st of rest) this.exec(st);
        return;
      }
      case 'function_definition':
        return this.execMacroStatement(node);
      default:
        return; // asm, goto, type definitions, preprocessor lines: nothing to evaluate
    }
  }

  /**
   * A `switch`. A subject with one known value for every thread runs the case it selects (or `default:`) and those it
   * falls into, up to a `break`; the other cases run for no thread, said so. A subject known per lane (`t & 3`) with
   * every case label known runs each case for the lanes it selects and those falling into it from the case before,
   * until their `break`; a case no lane reaches is not run, said so. Any other subject runs every case for every lane,
   * said so. A `break` leaves the switch, not an enclosing loop; a `continue` is the enclosing loop's.
   */
  private execSwitch(node: Node): void {
    const cond = node.childForFieldName('condition');
    const v = cond ? this.condValue(cond) : null;
    if (v && isTainted(v)) throw NEEDS_FULL_BLOCK;
    const body = node.childForFieldName('body');
    if (!body) return;
    const cases = casesOf(body);
    const line = node.startPosition.row + 1;
    const subject = cond ? cond.text.replace(/^\(|\)$/g, '').trim() : '';
    const known = v?.k === 'num' && !v.sym ? v : null;
    // a case label not evaluated: which case runs is not known
    const labels = known ? this.caseLabels(cases) : null;
    const u = known && labels ? uniformValue(known) : null;
    const decided = u !== null;
    const start = decided ? (labels!.includes(u) ? labels!.indexOf(u) : labels!.indexOf(null)) : -1;
    // a frame of its own catches the switch's `break`: the lanes that left the enclosing loop before stay out
    const outer = this.loops[this.loops.length - 1];
    const sw: LoopState = { brk: new Uint8Array(this.n), cont: new Uint8Array(this.n), touched: outer?.touched };
    if (outer?.touched) for (let i = 0; i < this.n; i++) sw.brk[i] = outer.brk[i] | outer.cont[i];
    const before = sw.brk.slice();
    this.loops.push(sw);
    this.touch();
    try {
      const starts = !decided && known && labels && known.t.kind === 'int' ? this.caseStarts(known, labels) : null;
      if (starts) {
        const why = `no lane's \`${subject}\` selects it or falls into it at the switch at line ${line}`;
        const entered = new Uint8Array(this.n);
        cases.forEach((c, i) => {
          for (let l = 0; l < this.n; l++) if (starts[l] === i) entered[l] = 1;
          const lanes = this.and(entered.slice());
          this.touch();
          const act = this.active();
          let any = false;
          for (let l = 0; l < this.n && !any; l++) any = !!(lanes[l] && act[l]);
          if (!any) return this.skipped(c, why);
          this.withMask(lanes, () => {
            for (const st of caseStatements(c)) this.exec(st);
          });
        });
      } else if (decided) {
        const why = `\`${subject}\` is ${u} for every thread at the switch at line ${line}`;
        let end = cases.length;
        for (let i = Math.max(start, 0); start >= 0 && i < cases.length && end === cases.length; i++)
          for (const st of caseStatements(cases[i])) {
            if (st.type === 'break_statement') {
              end = i + 1;
              break;
            }
            this.exec(st);
          }
        cases.forEach((c, i) => {
          if (start < 0 || i < start || i >= end) this.skipped(c, why);
        });
      } else {
        this.assumedToRun(`the cases of the switch at line ${line} are each assumed to run for every lane`, () => {
          for (const c of cases) {
            // each case for every lane: a `break` ends only its own case
            sw.brk.set(before);
            this.touch();
            for (const st of caseStatements(c)) if (st.type !== 'break_statement') this.exec(st);
          }
        });
      }
    } finally {
      this.loops.pop();
      if (outer) {
        for (let i = 0; i < this.n; i++)
          if (sw.cont[i] && !outer.cont[i]) {
            outer.cont[i] = 1;
            outer.touched = true;
          }
      }
      this.touch();
    }
  }

  /** Each case's label value, in order (null for `default:`); null where a label is not known for every thread. */
  private caseLabels(cases: Node[]): (number | null)[] | null {
    const labels: (number | null)[] = [];
    for (const c of cases) {
      const value = c.childForFieldName('value');
      const cv = value ? uniformValue(this.rvalue(value)) : null;
      if (value && cv === null) return null;
      labels.push(value ? cv : null);
    }
    return labels;
  }

  /** The index of the case each thread of a per-lane subject starts at (`default:` where no label matches, -1 where there is none). */
  private caseStarts(v: Num, labels: (number | null)[]): Int32Array {
    const fallback = labels.indexOf(null);
    const starts = new Int32Array(this.n);
    for (let l = 0; l < this.n; l++) {
      const at = labels.indexOf(laneAt(v.v, l));
      starts[l] = at >= 0 ? at : fallback;
    }
    return starts;
  }

  private condValue(node: Node): Value {
    const c = node.type === 'condition_clause' ? (node.childForFieldName('value') ?? named(node)[0]) : node;
    return c ? this.rvalue(c) : unk('empty condition');
  }

  /**
   * The value a call returns where an earlier `return` ran under a guard not known (`if (major <= 2) return 16;
   * return 32;`): the same value either way is that value; two ints, the guard one value on the warp, are one value on
   * the warp, not known (an atom, as a variable set in such branches is); anything else is unknown, said why.
   */
  /** how many calls returned one of two values (see eitherReturn): each such value is its own unknown. */
  private returnAtoms = 0;
  private eitherReturn(f: Frame, v: Value, g: { guard: string; wholeWarp: boolean }, act: Uint8Array): Value {
    const before = f.ret!;
    if (sameValue(before, v, act)) return v;
    const name = f.fn?.name ?? 'the function';
    if (g.wholeWarp && uniformInt(before, act) && uniformInt(v, act)) return atom(`${name}()#${++this.returnAtoms}`, (v as Num).t);
    return unk(`what \`${name}\` returns depends on ${g.guard.replace(' could not', ', which could not')}`);
  }

  private execIf(node: Node, macro?: { header: Node; body: Node }): void {
    const hdr = macro?.header ?? node;
    const condNode = hdr.childForFieldName('condition')!;
    const cons = macro?.body ?? hdr.childForFieldName('consequence');
    const alt = macro ? null : hdr.childForFieldName('alternative');
    const altStmt = alt ? (alt.type === 'else_clause' ? named(alt)[0] : alt) : null;
    const cond = this.condValue(condNode);
    const act = this.active();
    if (isTainted(cond)) throw NEEDS_FULL_BLOCK;
    // a way the launch's binding takes through an `if` its condition does not decide here (see branchChoices)
    const way = !macro && (cond.k !== 'num' || cond.sym) ? this.cfg.decide?.get(node.id) : undefined;
    if (way !== undefined) {
      const taken = way ? cons : altStmt;
      if (taken) this.exec(taken);
      return;
    }
    if (cond.k !== 'num' || cond.sym) {
      const why = cond.k === 'unk' ? cond.reason : cond.k === 'num' && cond.sym ? `it depends on \`${symText(cond.sym)}\`` : 'it is not a number';
      const line = node.startPosition.row + 1;
      const text = condNode.text.replace(/^\(|\)$/g, '').trim();
      const guard = this.shown(`the guard \`${text}\` at line ${line} could not be evaluated per lane (${why})`);
      // one value on every lane (`row0 + 64 <= rows`): the lanes that run a branch, if it runs, are the active ones
      const perLane = !(cond.k === 'unk' ? cond.uniform : cond.k === 'num' && isUniform(cond.v, act));
      // both branches run for every lane; so a `return`, `break` or `continue` in them retires no lane: the code after
      // the `if` is reached by every lane that reached it (as `if (i < n) {...}` is analysed like `if (i >= n) return;`)
      const f = this.frame();
      const lp = this.loops[this.loops.length - 1];
      const exited = f.anyExited ? f.exited.slice() : null;
      const brk = lp?.touched ? lp.brk.slice() : null;
      const cont = lp?.touched ? lp.cont.slice() : null;
      const exitsBefore = this.exits;
      const touchedBefore = lp?.touched ?? false;
      // a variable the branches set is, after the `if`, the value of whichever branch each lane took: where the
      // branches (or a branch and the value before it) disagree, that is not known
      const vars: [string, Var, Value][] = [];
      for (const name of this.assignedNames([cons, altStmt]).keys()) {
        const v = this.lookupVar(name);
        if (v && !v.ref) vars.push([name, v, v.value]);
      }
      // the elements of a local array the branches write, each as a variable of its own (see cellsOf)
      const cellsBefore = vars.map(([, v]) => cellValuesOf(v));
      const narrow = cons ? this.knownConjuncts(condNode, act) : null;
      // what a branch's `return`, `break` or `continue` did is undone after it (noted in `gone`): the else branch runs
      // for every lane too, and the code after the `if` is reached by every lane that reached it
      const gone = new Set<string>();
      const settle = () => {
        if (this.exits !== exitsBefore) {
          if (exited) f.exited.set(exited);
          else f.exited.fill(0);
          f.anyExited = !!exited;
          gone.add('return');
          // what it returned is one way of two: another `return` after it is the other
          if (f.ret !== undefined) f.retGuard ??= { guard, wholeWarp: (cond.k === 'unk' && !!cond.uniform) || (cond.k === 'num' && !hasThread(cond.sym) && isUniform(cond.v, act)) };
        }
        if (lp && lp.touched && !touchedBefore) {
          if (lp.brk.includes(1)) gone.add('break');
          if (lp.cont.includes(1)) gone.add('continue');
          lp.brk.fill(0);
          lp.cont.fill(0);
          lp.touched = false;
        } else if (lp && brk && cont && (!lp.brk.every((b, i) => b === brk[i]) || !lp.cont.every((c, i) => c === cont[i]))) {
          if (!lp.brk.every((b, i) => b === brk[i])) gone.add('break');
          if (!lp.cont.every((c, i) => c === cont[i])) gone.add('continue');
          lp.brk.set(brk);
          lp.cont.set(cont);
        }
      };
      const consMask = narrow ? this.and(narrow.mask) : act;
      // the variables an earlier branch under this same guard set hold that branch's value in this one
      const operands = cons ? this.guardOperands(condNode) : null;
      const again = operands ? this.sameGuard(text, operands, consMask) : [];
      const runCons = () => {
        for (const e of again) e.v.value = e.value;
        this.exec(cons!);
        for (const e of again) if (e.v.value === e.value) e.v.value = e.unknown;
      };
      // `i == 0` with `i = blockIdx.x * 16 + threadIdx.x`: whatever the block, the lanes that pass share one value of
      // the per-lane part, so the branch runs once for each group of lanes that can (see equalityGroups)
      const groups = cons ? this.equalityGroups(condNode, consMask) : null;
      if (cons && groups && !groups.masks.length) this.skipped(cons, `${guard}; ${groups.note}, and no lane can pass it`);
      else if (cons && groups)
        this.assumedToRun(`${guard}; ${groups.note}`, () => {
          for (const m of groups.masks) this.withMask(m, runCons);
        }, perLane);
      else if (cons && narrow && !this.anyActive(narrow.mask)) this.skipped(cons, `${guard}; ${narrow.note}, and no lane passes the rest`);
      else if (cons && narrow) this.assumedToRun(`${guard}; ${narrow.note}`, () => this.withMask(consMask, runCons), perLane);
      else if (cons) this.assumedToRun(`${guard}; assumed true for every lane`, runCons, perLane);
      settle();
      const afterCons = vars.map(([, v, before]) => {
        const now = v.value;
        v.value = before;
        return now;
      });
      const cellsAfterCons = vars.map(([, v], i) => {
        const now = cellValuesOf(v);
        if (v.cells) for (const [k, c] of v.cells.elems) {
          const was = cellsBefore[i]!.get(k);
          if (was) c.value = was;
          else v.cells.elems.delete(k);
        }
        return now;
      });
      // `if (i != 0) ... else ...`: the else branch is `i == 0`'s (see equalityGroups)
      const altGroups = altStmt ? this.equalityGroups(condNode, act, true) : null;
      if (altStmt && altGroups && !altGroups.masks.length) this.skipped(altStmt, `${guard}; ${altGroups.note}, and no lane can pass it`);
      else if (altStmt && altGroups)
        this.assumedToRun(`${guard}; its else branch: ${altGroups.note}`, () => {
          for (const m of altGroups.masks) this.withMask(m, () => this.exec(altStmt));
        }, perLane);
      else if (altStmt) this.assumedToRun(`${guard}; its else branch assumed to run for every lane`, () => this.exec(altStmt), perLane);
      settle();
      // a guard the same on every thread (`if (has_next)`, `has_next = next_k < k`) sends all or none: a variable each
      // branch leaves the same on every thread is so after it, an unknown warp-uniform value
      const wholeWarp = (cond.k === 'unk' && !!cond.uniform) || (cond.k === 'num' && !hasThread(cond.sym) && isUniform(cond.v, act));
      vars.forEach(([name, v], i) => {
        const a = afterCons[i];
        const b = v.value;
        // an element of a local array the branches leave different: which branch each lane took is not known
        const cellsA = cellsAfterCons[i];
        if (v.cells && cellsA) {
          for (const k of new Set([...cellsA.keys(), ...v.cells.elems.keys()])) {
            const x = cellsA.get(k), y = v.cells.elems.get(k)?.value;
            if (x && y && sameValue(x, y, act)) continue;
            const at = v.cells.dims.map((d, j) => Math.floor(k / v.cells!.dims.slice(j + 1).reduce((p, q) => p * q, 1)) % d);
            v.cells.elems.set(k, { value: unk(`\`${name}[${at.join('][')}]\` is set under ${guard.replace(' could not', ', which could not')}`), type: v.type });
          }
          return;
        }
        // a pointer each branch sets the same way on every thread (`if (flag) p = a; else p = b;`): either one; a
        // pointer set to another place in the same array, into another array, or first set there still points into
        // shared memory: what it indexes is reported unknown, not dropped
        const way = differingWays([a, b], v.type, act, wholeWarp, name, `${name}@${line}`, () => `\`${name}\`, set under the guard \`${text}\` at line ${line},`,
          () => `\`${name}\` is set under ${guard.replace(' could not', ', which could not')}`);
        if (!way) return;
        v.value = way.value;
        if (way.unknown && operands && !sameValue(a, vars[i][2], act)) {
          this.guardedSets.push({ v, unknown: v.value, value: a, cond: text, operands, mask: consMask });
          if (this.guardedSets.length > MAX_GUARDED_SETS) this.guardedSets.shift();
        }
      });
      const left = ['return', 'break', 'continue'].filter((w) => gone.has(w));
      // `if (n <= 0 || threadIdx.x >= 16) return;`: the lanes a per-lane part sends out do leave
      const certain = left.length && cons && this.plainExit(cons) ? this.knownParts(condNode, act, '||') : null;
      if (left.length) {
        this.leftIn(left, guard, certain
          ? `${guard}; the lanes where ${certain.known} holds leave at its \`${left.join('`, `')}\`, every other lane is assumed to go on past it`
          : `${guard}; every lane is assumed to go on past its \`${left.join('`, `')}\``);
        this.touch();
      }
      if (certain && this.anyActive(certain.mask)) this.withMask(this.and(certain.mask), () => this.exec(cons!));
      return;
    }
    const t = new Uint8Array(this.n);
    const f = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) {
      if (!act[i]) continue;
      if (laneAt(cond.v, i) !== 0) t[i] = 1;
      else f[i] = 1;
    }
    // a condition with one value for every thread (a template argument's, say) is why a branch never runs; so is a
    // part of an `&&` (`||`) that is (PCC's `if (blockDim.x >= 1024 && tid < 512)` in a smaller block)
    const decided = (value: boolean) =>
      typeof cond.v === 'number' ? `the condition \`${condNode.text.replace(/^\(|\)$/g, '').trim()}\` at line ${node.startPosition.row + 1} is ${value} for every thread`
        : this.decidingPart(condNode, value, act, node.startPosition.row + 1);
    if (cons && this.anyActive(t)) this.withMask(this.and(t), () => this.exec(cons));
    else this.skipped(cons, decided(false));
    if (altStmt && this.anyActive(f)) this.withMask(this.and(f), () => this.exec(altStmt));
    else this.skipped(altStmt, decided(true));
  }

  /**
   * A `return`, `break` or `continue` (`left`) that some ways through a branch take and others do not: the loops it may
   * end have a trip count not known (`uncertain` says why, see execLoop), and the code after it is analysed with
   * `note` among its assumptions.
   */
  private leftIn(left: string[], uncertain: string, note: string): void {
    const lp = this.loops[this.loops.length - 1];
    if (lp && left.includes('break')) lp.uncertainExit ??= uncertain;
    if (left.includes('return')) for (const l of this.loops) l.uncertainExit ??= uncertain;
    if (!this.exitNotes.includes(note)) {
      this.exitNotes.push(note);
      if (!left.includes('return')) this.loopExitNotes.add(note);
      this.assumptionEpoch++;
    }
  }

  /**
   * An `#if` chain the file does not decide (a macro it does not define, `__CUDA_ARCH__` over a range of
   * architectures), between statements: each branch is the code of some build, so each runs from the state before the
   * chain, as the one branch that build compiles (before, they ran one after another: `st *= 2` in one and `st *= 16`
   * in the other made a stride of 32 no build has, and a `return` in one hid the code of every other). After it, a
   * variable the branches leave different is not known: an unknown warp-uniform value where each leaves it the same on
   * every thread, as a macro is. A lane leaves at a `return`, `break` or `continue` only where every branch sends it.
   * A branch decided false (blankInactive writes `#if 0` in its place) is no build; without an `#else`, the code with
   * none of the branches is one.
   */
  private execPreprocChain(node: Node): void {
    const branches: Node[][] = [];
    let none = true; // whether some build takes no branch (no `#else`, no branch decided true)
    for (let b: Node | null = node; b; ) {
      const cond = b.childForFieldName('condition');
      const name = b.childForFieldName('name');
      const alt = b.childForFieldName('alternative');
      const literal = cond?.type === 'number_literal' ? Number(cond.text.replace(/[uUlL]+$/, '')) : NaN;
      if (literal !== 0) branches.push(named(b).filter((c) => c.id !== cond?.id && c.id !== name?.id && c.id !== alt?.id && c.type !== 'preproc_arg' && !c.type.startsWith('preproc_defined')));
      if (b.type === 'preproc_else' || (literal === literal && literal !== 0)) {
        none = false;
        break;
      }
      b = alt;
    }
    if (none) branches.push([]);
    if (branches.length < 2) {
      for (const st of branches[0] ?? []) this.exec(st);
      return;
    }
    const line = node.startPosition.row + 1;
    const f = this.frame();
    const lp = this.loops[this.loops.length - 1];
    const scope = this.scope();
    const vars: { name: string; v: Var; value: Value; unset?: Uint8Array; unsetWhy?: string; cells: Map<number, Value> | null }[] = [];
    for (const name of this.assignedNames(branches.flat()).keys()) {
      const v = this.lookupVar(name);
      if (v && !v.ref) vars.push({ name, v, value: v.value, unset: v.unset, unsetWhy: v.unsetWhy, cells: cellValuesOf(v) });
    }
    const own = new Set(scope.keys());
    // the names the branch just run declared, gone again (the next runs from the state before the chain)
    const dropDeclared = () => {
      for (const k of [...scope.keys()]) if (!own.has(k)) scope.delete(k);
    };
    const exited = f.exited.slice(), anyExited = f.anyExited, ret = f.ret;
    const brk = lp?.brk.slice(), cont = lp?.cont.slice(), touched = lp?.touched ?? false;
    const outs: { values: Value[]; cells: (Map<number, Value> | null)[]; declared: Map<string, Var | SharedBase>; exited: Uint8Array; brk?: Uint8Array; cont?: Uint8Array; ret: Value | undefined }[] = [];
    for (const stmts of branches) {
      for (const e of vars) {
        e.v.value = e.value;
        e.v.unset = e.unset;
        e.v.unsetWhy = e.unsetWhy;
        if (e.v.cells && e.cells) {
          for (const k of [...e.v.cells.elems.keys()]) if (!e.cells.has(k)) e.v.cells.elems.delete(k);
          for (const [k, c] of e.v.cells.elems) c.value = e.cells.get(k)!;
        }
      }
      dropDeclared();
      f.exited.set(exited);
      f.anyExited = anyExited;
      f.ret = ret;
      if (lp) {
        lp.brk.set(brk!);
        lp.cont.set(cont!);
        lp.touched = touched;
      }
      this.touch();
      for (const st of stmts) this.exec(st);
      outs.push({
        values: vars.map((e) => e.v.value), cells: vars.map((e) => cellValuesOf(e.v)), declared: new Map([...scope].filter(([k]) => !own.has(k))),
        exited: f.exited.slice(), brk: lp?.brk.slice(), cont: lp?.cont.slice(), ret: f.ret,
      });
    }
    const act = this.mask ?? this.ones;
    const why = (name: string) => `\`${name}\` is set differently in the branches of the \`#if\` at line ${line}, which this file does not decide`;
    // a preprocessor condition is one value for the whole program: the branches go one way for every warp
    const merged = (name: string, type: CType, values: Value[]): Value =>
      differingWays(values, type, act, true, name, `${name}@${line}`, () => `\`${name}\`, set in the branches of the \`#if\` at line ${line},`, () => why(name))?.value ?? values[values.length - 1];
    vars.forEach((e, i) => {
      const values = outs.map((o) => o.values[i]);
      const last = values[values.length - 1];
      if (e.v.cells) {
        const cells = e.v.cells;
        const keys = new Set(outs.flatMap((o) => [...(o.cells[i]?.keys() ?? [])]));
        for (const k of keys) {
          const each = outs.map((o) => o.cells[i]?.get(k)).filter((x): x is Value => !!x);
          const cell = cells.elems.get(k);
          const value = each.length === outs.length ? merged(`${e.name}[${k}]`, cell?.type ?? e.v.type, each)
            : unk(why(`${e.name}[${k}]`) + (each.some((x) => x.k === 'num' && hasThread(x.sym)) ? THREAD : ''));
          if (cell) cell.value = value;
          else cells.elems.set(k, { value, type: e.v.type });
        }
      }
      const value = merged(e.name, e.v.type, values);
      if (value !== last) {
        e.v.unset = undefined;
        e.v.unsetWhy = undefined;
      }
      e.v.value = value;
    });
    // a name declared in branches: as the builds that declare it leave it (a __shared__ array: the last declaration,
    // as the facts read it)
    dropDeclared();
    for (const name of new Set(outs.flatMap((o) => [...o.declared.keys()]))) {
      const decls = outs.map((o) => o.declared.get(name)).filter((d): d is Var | SharedBase => !!d);
      const last = decls[decls.length - 1];
      if (!isBase(last)) {
        const values = decls.filter((d): d is Var => !isBase(d)).map((d) => d.value);
        const value = merged(name, last.type, values);
        if (value !== last.value) last.unset = last.unsetWhy = undefined;
        last.value = value;
      }
      scope.set(name, last);
    }
    // a lane leaves only where every build sends it: elsewhere the code after the chain is that of the other builds
    const every = (xs: Uint8Array[], into: Uint8Array) => {
      for (let t = 0; t < into.length; t++) into[t] = xs.every((x) => x[t]) ? 1 : 0;
    };
    every(outs.map((o) => o.exited), f.exited);
    f.anyExited = anyExited || f.exited.includes(1);
    const left: string[] = [];
    if (outs.some((o) => o.exited.some((x, t) => x && !f.exited[t]))) left.push('return');
    if (lp) {
      every(outs.map((o) => o.brk!), lp.brk);
      every(outs.map((o) => o.cont!), lp.cont);
      if (outs.some((o) => o.brk!.some((x, t) => x && !lp.brk[t]))) left.push('break');
      if (outs.some((o) => o.cont!.some((x, t) => x && !lp.cont[t]))) left.push('continue');
      lp.touched = touched || lp.brk.includes(1) || lp.cont.includes(1);
    }
    const rets = outs.map((o) => o.ret);
    if (rets.some((r) => r !== rets[0])) {
      const set = rets.filter((r): r is Value => r !== undefined);
      f.ret = set.length === rets.length && set.every((r) => sameValue(r, set[0], act)) ? set[0] : unk(`the value returned depends on the \`#if\` at line ${line}, which this file does not decide`);
    }
    if (left.length) {
      const note = `the \`#if\` at line ${line} is not decided here: the \`${left.join('`, `')}\` in some of its branches is taken in some builds only; the code after it is analysed for the others`;
      this.leftIn(left, note, note);
    }
    this.touch();
  }

  /**
   * A guard `a && b` that is not known as a whole but whose parts are: the parts known per lane (`threadIdx.x < 16`)
   * still decide which lanes run the branch; only the others (`n > 0`, a value loaded from memory) are assumed true.
   * Parts that call, assign or touch shared memory are not evaluated again. Null: no part is known per lane.
   */
  private knownConjuncts(condNode: Node, act: Uint8Array): { mask: Uint8Array; note: string } | null {
    return this.knownParts(condNode, act, '&&');
  }

  /**
   * The parts of `a && b && ...` (or `a || b || ...`) known per lane. `&&`: the mask is the active lanes where every
   * known part holds (a superset of the lanes where the whole holds); `||`: where some known part holds (a subset).
   */
  private knownParts(condNode: Node, act: Uint8Array, op: '&&' | '||'): { mask: Uint8Array; note: string; known: string } | null {
    const parts = this.chainParts(condNode, op);
    if (parts.length < 2) return null;
    const mask = op === '&&' ? act.slice() : new Uint8Array(this.n);
    const known: string[] = [];
    const assumed: string[] = [];
    for (const p of parts) {
      const v = this.pure(p) ? this.rvalue(p) : null;
      if (v && isTainted(v)) throw NEEDS_FULL_BLOCK;
      if (!v || v.k !== 'num' || v.sym) {
        assumed.push(p.text);
        continue;
      }
      known.push(p.text);
      if (op === '&&') for (let i = 0; i < this.n; i++) if (mask[i] && laneAt(v.v, i) === 0) mask[i] = 0;
      if (op === '||') for (let i = 0; i < this.n; i++) if (act[i] && laneAt(v.v, i) !== 0) mask[i] = 1;
    }
    if (!known.length) return null;
    const q = (xs: string[]) => xs.map((x) => `\`${x}\``).join(', ');
    return { mask, note: `${q(assumed)} assumed true for every lane, ${q(known)} evaluated per lane`, known: q(known) };
  }

  /**
   * A guard `a == b` whose sides differ by a number per lane plus warp-uniform unknowns, `d = v + S` (`i == 0`,
   * `i = blockIdx.x * 16 + threadIdx.x`): in any block the lanes that pass have `v = -S`, one value of `v`, so they
   * are one group of the lanes that share a value of `v`. Values of `S` no block can take are left out: `S` is a
   * multiple of the greatest common divisor of its coefficients, and at least 0 where every unknown is never negative
   * and every coefficient positive (so `i == 0` is `threadIdx.x == 0`). Of `... && ...`, every such part narrows
   * (one group of each, at most MAX_EQUALITY_GROUPS ways); of `... || ...` whose parts are all such equalities with
   * the same `S` (`i == 0 || i == n - 1`), each value of `S` a lane's part gives is one way, the lanes of every part
   * it makes pass. `negate`: the guard is one `a != b`, split for its else branch. Each mask is within `mask`; null
   * where no such equality is found, or nothing is split.
   */
  private equalityGroups(condNode: Node, mask: Uint8Array, negate = false): { masks: Uint8Array[]; note: string } | null {
    const chain = (n: Node | null, op: string, out: Node[]) => {
      n = unparenthesized(n);
      if (!n) return out;
      if (n.type === 'binary_expression' && operatorOf(n) === op) {
        chain(n.childForFieldName('left'), op, out);
        chain(n.childForFieldName('right'), op, out);
      } else out.push(n);
      return out;
    };
    // `d = v + S` of an equality part: its per-lane numbers, `S`, and which values of `-v` some block can make `S`
    const equality = (p: Node, op: string) => {
      if (p.type !== 'binary_expression' || operatorOf(p) !== op || !this.pure(p)) return null;
      const l = this.rvalue(p.childForFieldName('left')!);
      const r = this.rvalue(p.childForFieldName('right')!);
      if (l.k !== 'num' || r.k !== 'num' || l.t.kind !== 'int' || r.t.kind !== 'int') return null;
      const d = binary('-', l, r, () => p.text, mask);
      if (d.k !== 'num' || !d.sym || hasThread(d.sym) || typeof d.v === 'number') return null;
      const coefs = Object.entries(d.sym).filter(([, c]) => c !== 0);
      if (!coefs.length || coefs.some(([, c]) => !Number.isInteger(c))) return null;
      const g = coefs.reduce((a, [, c]) => gcd(a, c), 0);
      const atLeastZero = coefs.every(([key, c]) => c > 0 && isNonNegative(key));
      const feasible = (v: number) => (-v) % g === 0 && (!atLeastZero || -v >= 0);
      return { v: d.v, sym: symKey(Object.fromEntries(coefs)), shown: symText(Object.fromEntries(coefs)), feasible, text: p.text };
    };
    // the lanes of `mask` by the value of `v`
    const byValue = (v: Lanes, within: Uint8Array) => {
      const out = new Map<number, Uint8Array>();
      for (let i = 0; i < this.n; i++) {
        if (!within[i]) continue;
        const x = laneAt(v, i);
        if (!out.has(x)) out.set(x, new Uint8Array(this.n));
        out.get(x)![i] = 1;
      }
      return out;
    };
    const root = unparenthesized(condNode);
    if (!root) return null;
    const ors = negate ? [] : chain(root, '||', []);
    if (ors.length >= 2) {
      const eqs = ors.map((p) => equality(p, '=='));
      if (eqs.some((e) => !e) || eqs.some((e) => e!.sym !== eqs[0]!.sym)) return null;
      // each value of S that some lane's part gives: the lanes of every part it makes pass
      const values = new Set<number>();
      for (const e of eqs) for (let i = 0; i < this.n; i++) if (mask[i] && e!.feasible(laneAt(e!.v, i))) values.add(-laneAt(e!.v, i));
      if (values.size > MAX_EQUALITY_GROUPS) return null;
      const masks = [...values].map((sv) => {
        const m = new Uint8Array(this.n);
        for (const e of eqs) for (let i = 0; i < this.n; i++) if (mask[i] && laneAt(e!.v, i) === -sv) m[i] = 1;
        return m;
      });
      const note = `the lanes that pass \`${root.text}\` are, in any block, those of its parts for one value of \`${eqs[0]!.shown}\`: ${masks.length} such values can, each analysed in turn`;
      return { masks, note };
    }
    const parts = negate ? [root] : chain(root, '&&', []);
    let masks: Uint8Array[] = [mask];
    const used: string[] = [];
    let groups = 0;
    for (const p of parts) {
      const e = equality(p, negate ? '!=' : '==');
      if (!e) continue;
      const next: Uint8Array[] = [];
      for (const m of masks)
        for (const [v, g] of byValue(e.v, m)) if (e.feasible(v)) next.push(g);
      const all = byValue(e.v, mask).size;
      if (all < 2 || next.length > MAX_EQUALITY_GROUPS) continue;
      masks = next;
      groups = Math.max(groups, all);
      used.push(`\`${negate ? p.text.replace('!=', '==') : p.text}\``);
    }
    if (!used.length) return null;
    const note = `the lanes that pass ${used.join(' and ')} share one value of its per-lane part in any block: ${masks.length} of ${groups} groups of lanes can pass, each analysed in turn`;
    return { masks, note };
  }

  /** An expression that reads no shared memory, calls nothing and assigns nothing: evaluating it again changes nothing. */
  private pure(n: Node): boolean {
    return !this.mentionsShared(n) && !holdsEffect(n);
  }

  /**
   * The names a guard reads, each with what it is bound to and its value now, where the guard's value can only change
   * with them: no call, no assignment, no shared memory, and every name a local or a parameter (or threadIdx,
   * blockIdx, blockDim, gridDim). Null for any other guard.
   */
  private guardOperands(condNode: Node): [string, Var | SharedBase | null, Value | null][] | null {
    if (!this.pure(condNode)) return null;
    const out: [string, Var | SharedBase | null, Value | null][] = [];
    for (const id of new Set(identifiersIn(condNode))) {
      const b = this.binding(id);
      if (!b && BUILTIN_INDEXES.has(id)) out.push([id, null, null]);
      else if (b && !isBase(b) && !b.ref && !b.lambda && b.value.k !== 'ptr' && b.value.k !== 'ref') out.push([id, b, b.value]);
      else return null;
    }
    return out;
  }

  /**
   * The variables an earlier branch under the guard `cond` set (see guardedSets) that still hold the unknown value
   * they were left, where the guard's names are bound as they were and every lane of `mask` ran that branch.
   */
  private sameGuard(cond: string, operands: [string, Var | SharedBase | null, Value | null][], mask: Uint8Array): typeof this.guardedSets {
    this.guardedSets = this.guardedSets.filter((e) => e.v.value === e.unknown);
    return this.guardedSets.filter((e) =>
      e.cond === cond && e.operands.length === operands.length &&
      e.operands.every(([name, b, v], k) => operands[k][0] === name && operands[k][1] === b && (v === operands[k][2] || (!!v && !!operands[k][2] && sameValue(v, operands[k][2]!, mask)))) &&
      mask.every((m, i) => !m || e.mask[i] === 1));
  }

  /** `return;`, `continue;` or `break;`, alone or alone in braces: a branch that only sends its lanes out. */
  private plainExit(n: Node): boolean {
    const parts = n.type === 'compound_statement' ? named(n).filter((c) => c.type !== 'comment') : [n];
    if (parts.length !== 1) return false;
    const s = parts[0];
    if (s.type === 'break_statement' || s.type === 'continue_statement') return true;
    return s.type === 'return_statement' && named(s).length === 0;
  }

  private and(m: Uint8Array): Uint8Array {
    if (!this.mask) return m;
    const out = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = m[i] & this.mask[i];
    return out;
  }

  /**
   * The variables a loop's update steps by a number (`e += blockDim.x`, `k -= 64`) that neither its body nor its
   * update changes, and that nothing else in the loop assigns: each with its step (by more than 1). A step made of
   * never-negative unknowns (a grid stride `blockDim.x * gridDim.x`, gridDim unknown) is a multiple of the greatest
   * common divisor of its terms: that divisor, `multiple` set (each pass adds a never-negative number of it).
   */
  private loopSteps(update: Node | null, assigned: Map<string, boolean>, body: Node | null): Map<string, { c: number; multiple: boolean }> {
    const out = new Map<string, { c: number; multiple: boolean }>();
    const seen = new Set<string>();
    const parts = update ? [update] : [];
    for (let i = 0; i < parts.length; i++) if (parts[i].type === 'comma_expression') parts.push(...named(parts[i]));
    // (the body is walked only for a loop that has such a step: `i++` has none)
    if (!parts.some((u) => u.type === 'assignment_expression')) return out;
    const inBody = this.assignedNames([body]);
    for (const u of parts) {
      if (u.type !== 'assignment_expression') continue;
      const target = u.childForFieldName('left');
      const op = operatorOf(u);
      const right = u.childForFieldName('right');
      if (target?.type !== 'identifier' || !right) continue;
      const name = target.text;
      if (seen.has(name)) out.delete(name);
      if (seen.has(name) || inBody.has(name) || !assigned.get(name) || (op !== '+=' && op !== '-=')) {
        seen.add(name);
        continue;
      }
      seen.add(name);
      // a plain expression of names the loop leaves alone: no load, no call (evaluating it records nothing)
      const plain = (n: Node): boolean => STEP_NODE.test(n.type) && named(n).every(plain);
      if (!plain(right) || identifiersIn(right).some((n) => assigned.has(n))) continue;
      const v = this.rvalue(right);
      if (v.k !== 'num' || typeof v.v !== 'number' || !Number.isSafeInteger(v.v)) continue;
      const terms = Object.entries(v.sym ?? {});
      const multiple = terms.length > 0;
      if (multiple && (v.v < 0 || !terms.every(([k, t]) => t > 0 && Number.isSafeInteger(t) && isNonNegative(k)))) continue;
      const by = terms.reduce((g, [, t]) => gcd(g, t), v.v);
      const c = op === '-=' ? -by : by;
      if (Number.isSafeInteger(c) && Math.abs(c) > 1) out.set(name, { c, multiple });
    }
    return out;
  }

  /** Names assigned anywhere inside a subtree (plain identifiers only). */
  private assignedNames(nodes: (Node | null)[]): Map<string, boolean> {
    // name -> true when every assignment is additive (`+=`, `-=`, `++`, `--`)
    const out = new Map<string, boolean>();
    const stack = nodes.filter((n): n is Node => !!n);
    while (stack.length) {
      const n = stack.pop()!;
      let target: Node | null = null;
      let additive = false;
      if (n.type === 'assignment_expression') {
        target = n.childForFieldName('left');
        const op = operatorOf(n);
        additive = op === '+=' || op === '-=';
      } else if (n.type === 'update_expression') {
        target = n.childForFieldName('argument');
        additive = true;
      }
      if (target && target.type === 'identifier') out.set(target.text, (out.get(target.text) ?? true) && additive);
      // an element of a local array whose elements are kept (`rd[i][j] = ...`): the array
      let arr = target;
      while (arr?.type === 'subscript_expression') arr = arr.childForFieldName('argument');
      if (arr && arr !== target && arr.type === 'identifier' && this.lookupVar(arr.text)?.cells) out.set(arr.text, false);
      for (const c of named(n)) stack.push(c);
    }
    return out;
  }

  private lookupVar(name: string): Var | null {
    const f = this.frame();
    if (!f) return null;
    for (let i = f.scopes.length - 1; i >= 0; i--) {
      const v = f.scopes[i].get(name);
      if (v) return isBase(v) ? null : v;
    }
    return null;
  }

  /** the innermost binding of a name: a local, a parameter, or a __shared__ array (file scope last). */
  private binding(name: string): Var | SharedBase | null {
    const f = this.frame();
    if (f)
      for (let i = f.scopes.length - 1; i >= 0; i--) {
        const v = f.scopes[i].get(name);
        if (v) return v;
      }
    return this.globals.get(name) ?? null;
  }

  /**
   * A statement-like macro used as a loop header (PyTorch's `CUDA_KERNEL_LOOP(i, n) { ... }`): the grammar reads the
   * use and its block as a nested function definition named after the macro. The macro is expanded (arguments put in
   * whole, leading function-like macros expanded in turn) and, where that gives declarations then one `for` or `while`
   * header, the block is run as that loop's body. Anything else is said, never silently dropped.
   */
  private execMacroStatement(node: Node): void {
    const decl = node.childForFieldName('declarator');
    const body = node.childForFieldName('body');
    const nameNode = decl?.type === 'function_declarator' ? decl.childForFieldName('declarator') : null;
    if (!decl || !body || !nameNode || nameNode.type !== 'identifier' || node.childForFieldName('type')) return;
    const plist = decl.childForFieldName('parameters');
    this.execMacroHeader(node, nameNode.text, plist ? plist.text : '()', body, true);
  }

  /**
   * Runs `body` under the header that `name(args)` expands to: declarations then one `for`, `while` or `if` (without
   * `else`). Returns false, having run nothing, where the expansion is not such a header and `mustRun` is false;
   * with `mustRun` (the grammar has already made the use something else) it says so and skips the body.
   */
  private execMacroHeader(node: Node, name: string, argsText: string, body: Node, mustRun: boolean): boolean {
    const line = node.startPosition.row + 1;
    const macros = this.cfg.facts.macros;
    const skip = (why: string) => {
      if (!mustRun) return false;
      this.runUnknown(body, () => this.exec(body), `the block after \`${name}(...)\` at line ${line} is not analysed: ${why}`);
      return true;
    };
    const own = macros.get(name);
    if (!own || (!own.params && argsText)) return skip(`\`${name}\` is not a function-like macro of this file`);
    let text = own.params ? `${name}${argsText}` : own.body;
    for (let depth = 0; depth < this.cfg.caps.macroDepth; depth++) {
      const m = /^\s*([A-Za-z_]\w*)\s*\(/.exec(text);
      const inner = m ? macros.get(m[1]) : undefined;
      if (!m || !inner || !inner.params) break;
      const call = callArguments(text, m[0].length - 1);
      if (!call) break;
      const { args, end: j } = call;
      const map = new Map(inner.params.map((p, k) => [p, args[k] ?? '']));
      // a plain name or number goes in bare (`for (int i = ...` must stay a declaration); anything else parenthesised
      const expanded = inner.body.replace(/#?#?\b[A-Za-z_]\w*\b/g, (tok) => {
        const a = map.get(tok);
        if (tok.startsWith('#') || a === undefined) return tok;
        return /^(?:[A-Za-z_]\w*|\d+)$/.test(a) ? a : `(${a})`;
      });
      text = expanded + text.slice(j + 1);
    }
    // a macro whose body ends with the brace of the block it heads (`#define FOR_ROWS for (...) {`, its `}` in another
    // macro; see spellBraceMacros): that brace is the block's own
    if (/\{\s*$/.test(text) && (text.match(/\{/g) ?? []).length === (text.match(/\}/g) ?? []).length + 1) text = text.replace(/\{\s*$/, '');
    const parsed = /^\s*(?:for|while|if)\b|;/.test(text) ? parseStatements(`${text} {}`) : null;
    const stmts = parsed?.stmts ?? [];
    const head = stmts[stmts.length - 1];
    const isLoop = head?.type === 'for_statement' || head?.type === 'while_statement';
    const isIf = head?.type === 'if_statement' && !head.childForFieldName('alternative');
    if (!head || (!isLoop && !isIf) || stmts.slice(0, -1).some((st) => st.type !== 'declaration' && st.type !== 'expression_statement'))
      return skip(`its expansion \`${text.replace(/\s+/g, ' ').trim()}\` is not a loop or \`if\` header`);
    for (const st of stmts.slice(0, -1)) this.exec(st);
    if (isLoop) this.execLoop(node, { header: head, body });
    else this.execIf(node, { header: head, body });
    return true;
  }

  /**
   * Runs `run` (which evaluates `node`) so that its accesses are sites whose lanes are not known (`reason`, which starts
   * with "the "), and what it assigns is not known after it.
   */
  private runUnknown(node: Node | null, run: () => void, reason: string): void {
    const first = this.visits.length;
    const assigned = this.assignedNames([node]);
    run();
    for (let i = first; i < this.visits.length; i++) {
      this.visits[i].addrs = null;
      this.visits[i].reason = reason;
    }
    for (const n of assigned.keys()) {
      const v = this.lookupVar(n);
      if (v && !v.ref) v.value = unk(`\`${n}\` is assigned in ${reason.slice(4)}`);
    }
  }

  private execLoop(node: Node, macro?: { header: Node; body: Node }): void {
    const line = node.startPosition.row + 1;
    const hdr = macro?.header ?? node;
    const isFor = hdr.type === 'for_statement';
    const isDo = hdr.type === 'do_statement';
    const init = isFor ? hdr.childForFieldName('initializer') : null;
    const condNode = hdr.childForFieldName('condition');
    const update = isFor ? hdr.childForFieldName('update') : null;
    const body = macro?.body ?? hdr.childForFieldName('body');
    this.frame().scopes.push(new Map());
    const savedMask = this.mask;
    const savedCtx = this.ctx;
    const exitNotes = this.exitNotes.length;
    try {
      if (init) {
        if (init.type === 'declaration') this.declareLocals(init);
        else this.rvalue(init);
      }
      const assigned = this.assignedNames([update, body]);
      const induction = [...this.assignedNames([update]).keys()];
      if (induction.length === 0 && condNode) for (const id of identifiersIn(condNode)) if (assigned.has(id)) induction.push(id);
      let alive = this.active().slice();
      const lp: LoopState = { brk: new Uint8Array(this.n), cont: new Uint8Array(this.n) };
      let ran = false;
      // the loop's body as one pass (tryCollapse): undefined until its second iteration decides, null where it is not
      let collapse: Collapse | null | undefined;
      // a condition nothing in the loop changes (`for (int t = blockIdx.x;; t += gridDim.x)`, `while (true)`): only a
      // break or a return ends the loop
      const endless = !condNode || !identifiersIn(condNode).some((id) => assigned.has(id));
      for (let iter = 0; ; iter++) {
        this.tick();
        if (lp.touched) for (let i = 0; i < this.n; i++) alive[i] &= 1 - lp.brk[i];
        if (!this.anyActive(alive)) break;
        let cond: Value = num(1);
        if (condNode && !(isDo && iter === 0)) cond = this.withMask(alive, () => this.condValue(condNode));
        if (isTainted(cond)) throw NEEDS_FULL_BLOCK;
        // `while (true) { ...; if (s_done) break; }`: whether it goes on is not known after the first iteration, and
        // so for a loop only such a break ends; a loop with a counter and a condition is enumerated as before (every
        // iteration may run) up to the cap, then goes symbolic
        const leaves = !!lp.uncertainExit && (induction.length === 0 || endless || iter >= this.cfg.caps.loopIterations);
        if (cond.k !== 'num' || cond.sym || leaves) {
          const why = lp.uncertainExit ? `a \`break\` or \`return\` may leave it: ${lp.uncertainExit}`
            : cond.k === 'unk' ? cond.reason : cond.k === 'num' && cond.sym ? `it depends on \`${symText(cond.sym)}\`` : '';
          ran = true;
          this.symbolicLoop(node, line, alive, assigned, induction, body, update, iter, why, condNode);
          break;
        }
        const cv = cond.v;
        if (typeof cv === 'number') {
          if (cv === 0) break; // a uniform condition keeps the same threads in the loop
          if (this.cfg.longLoop !== undefined) {
            if (iter >= this.cfg.longLoop) throw new LongLoop(line);
            const passes = (this.loopPasses.get(node.id) ?? 0) + 1;
            this.loopPasses.set(node.id, passes);
            if (passes >= this.cfg.longLoop * this.cfg.longLoop) throw new LongLoop(line, true);
          }
        } else {
          const next = new Uint8Array(this.n);
          for (let i = 0; i < this.n; i++) next[i] = alive[i] && cv[i] !== 0 ? 1 : 0;
          alive = next;
          if (!this.anyActive(alive)) break;
        }
        // a loop of warp-uniform condition past the cap (`for (i = 0; i < 2048; i++)`): the rest in one pass, as a
        // loop of unknown trip count is
        if (iter >= this.cfg.caps.loopIterations && typeof cv === 'number' && induction.length) {
          ran = true;
          this.symbolicLoop(node, line, alive, assigned, induction, body, update, iter, '', condNode, true);
          break;
        }
        if (iter >= this.cfg.caps.loopIterations) {
          this.truncated = `the loop at line ${line} runs more than ${this.cfg.caps.loopIterations.toLocaleString('en-US')} iterations`;
          this.markTruncated(node);
          this.capped.push({ line: line - 1, message: `${this.truncated}: only the first ${this.cfg.caps.loopIterations.toLocaleString('en-US')} were evaluated, and its accesses are reported unknown` });
          for (const name of assigned.keys()) {
            const v = this.lookupVar(name);
            if (v && !v.ref) v.value = unk(`\`${name}\` is changed by a loop stopped at the iteration cap (${this.truncated})`);
          }
          break;
        }
        this.ctx = { ...savedCtx };
        for (const name of induction) {
          const v = this.lookupVar(name)?.value;
          const u = v ? uniformValue(v, alive) : null;
          this.ctx[u !== null ? name : `iteration (line ${line})`] = u !== null ? u : iter;
        }
        if (induction.length === 0) this.ctx[`iteration (line ${line})`] = iter;
        if (lp.touched) lp.cont.fill(0);
        this.loops.push(lp);
        this.touch();
        const exitsBefore = this.exits;
        ran = true;
        // the second iteration of a loop that may collapse is watched: the pass is checked against it
        // (only while the condition is the same on every lane: the lanes that run stay the same)
        if (typeof cv !== 'number') collapse = null;
        const counter = collapse === undefined && iter === 1 && body ? this.collapsible(body, induction, condNode, update) : null;
        const watch: AccessRecord[] | null = counter ? [] : null;
        try {
          if (collapse) {
            const k = uniformValue(collapse.counter.value, alive)!;
            if (!this.replay(collapse, k)) {
              collapse = null;
              if (body) this.withMask(alive, () => this.exec(body));
            }
          } else if (body) {
            this.collapseWatch = watch;
            try {
              this.withMask(alive, () => this.exec(body));
            } finally {
              this.collapseWatch = null;
            }
          }
        } finally {
          this.loops.pop();
          this.touch();
        }
        if (lp.touched || this.exits !== exitsBefore) {
          const exited = this.frame().exited;
          for (let i = 0; i < this.n; i++) alive[i] &= (1 - lp.brk[i]) & (1 - exited[i]);
        }
        const k1 = counter ? uniformValue(counter.value, alive) : null;
        if (update) this.withMask(alive, () => this.rvalue(update));
        if (counter && watch && k1 !== null && !lp.touched && this.exits === exitsBefore)
          collapse = this.withMask(alive, () => this.tryCollapse(body!, counter, watch, k1, line));
        else if (iter >= 1) collapse ??= null;
      }
      if (!ran) {
        this.skipped(body);
        this.skipped(update);
      }
    } finally {
      this.endLoop(savedMask, savedCtx, exitNotes);
    }
  }

  /**
   * `for (const float w : weights)`, `for (int k : {1, 2, 4})`, `for (float &v : s_hist)`: one iteration per element
   * where the range is a braced list, a local array whose elements are kept, a file-scope table or an array in shared
   * memory (an element there is a place: read where the loop binds it by value, read or written through it by
   * reference); the variable is the element, or names it. Any other range: the body in one pass, the variable not known.
   */
  private execRangeFor(node: Node): void {
    const line = node.startPosition.row + 1;
    const right = node.childForFieldName('right');
    const body = node.childForFieldName('body');
    const declarator = node.childForFieldName('declarator');
    const typeNode = node.childForFieldName('type');
    const nameNode = declarator ? declaratorName(declarator) : null;
    if (!right || !body || !nameNode) return;
    const name = nameNode.text;
    const byRef = declarator!.type === 'reference_declarator';
    const t = typeNode ? this.resolveType(typeNode) : INT;
    // the elements: a value, or a place to bind (a kept cell of a local array, a shared element)
    type Elem = { value: Value } | { cell: Var } | { ref: Ref };
    let elems: Elem[] | null = null;
    let why = '';
    const r = unparenthesized(right)!;
    if (r.type === 'initializer_list') elems = named(r).filter((c) => c.type !== 'comment').map((c) => ({ value: this.rvalue(c) }));
    else if (r.type === 'identifier') {
      const v = this.lookupVar(r.text);
      if (v?.cells && v.cells.dims.length === 1) {
        const cells = v.cells;
        elems = Array.from({ length: cells.dims[0] }, (_, i) => {
          let cell = cells.elems.get(i);
          if (!cell) cells.elems.set(i, (cell = { value: unk(`\`${r.text}[${i}]\` ${cells.stale ?? 'is read before it is set'}`), type: v.type }));
          return { cell };
        });
      } else if (!v && !this.binding(r.text) && this.constantTable(r.text)?.dims.length === 1) {
        elems = this.constantTable(r.text)!.values.map((value) => ({ value }));
      }
    }
    if (!elems) {
      const base = this.eval(r);
      if (base.k === 'ref' && base.t.kind === 'array' && base.t.dims.length && base.t.dims[0] > 0) {
        const et: CType = base.t.dims.length > 1 ? { kind: 'array', elem: base.t.elem, dims: base.t.dims.slice(1) } : base.t.elem;
        const es = sizeOf(et);
        if (es !== null) {
          const b = base;
          elems = Array.from({ length: b.t.kind === 'array' ? b.t.dims[0] : 0 }, (_, i) => ({
            ref: { ...b, off: binary('+', b.off, num(i * es, LONGT), name, null) as Num, t: et, nameNode: this.nameNodeOf(r), bounds: [] } as Ref,
          }));
        } else why = `the size of an element of \`${r.text}\` is not known`;
      } else why = base.k === 'unk' ? base.reason : `the elements of \`${r.text}\` are not known here`;
    }
    this.frame().scopes.push(new Map());
    const savedMask = this.mask;
    const savedCtx = this.ctx;
    const exitNotes = this.exitNotes.length;
    const bind = (e: Elem | null) => {
      const scope = this.scope();
      if (!e) scope.set(name, { value: unk(`\`${name}\` is an element of the range-based \`for\` at line ${line}, not enumerated (${why})`), type: t, decl: declarator! });
      else if ('cell' in e) {
        if (byRef) scope.set(name, e.cell);
        else scope.set(name, { value: this.asVariable(e.cell.value, t, name, nameNode), type: t, decl: declarator! });
      } else if ('ref' in e) {
        if (byRef) scope.set(name, { value: e.ref, type: t, decl: declarator!, ref: true });
        else scope.set(name, { value: this.asVariable(this.load(e.ref, r), t, name, nameNode), type: t, decl: declarator! });
      } else scope.set(name, { value: this.asVariable(e.value, t, name, nameNode), type: t, decl: declarator! });
    };
    try {
      let alive = this.active().slice();
      if (!elems || elems.length > this.cfg.caps.loopIterations) {
        if (elems) why = `it has more than ${this.cfg.caps.loopIterations.toLocaleString('en-US')} elements`;
        bind(null);
        const assigned = this.assignedNames([body]);
        this.symbolicLoop(node, line, alive, assigned, [], body, null, 0, why || 'its range is not known', null);
        return;
      }
      if (!elems.length) {
        this.skipped(body);
        return;
      }
      const lp: LoopState = { brk: new Uint8Array(this.n), cont: new Uint8Array(this.n) };
      for (let i = 0; i < elems.length; i++) {
        this.tick();
        if (lp.touched) for (let j = 0; j < this.n; j++) alive[j] &= 1 - lp.brk[j];
        if (!this.anyActive(alive)) break;
        this.frame().scopes.pop();
        this.frame().scopes.push(new Map());
        this.withMask(alive, () => bind(elems![i]));
        const v = this.lookupVar(name)?.value;
        const u = v && v.k === 'num' ? uniformValue(v, alive) : null;
        this.ctx = { ...savedCtx, [u !== null ? name : `element (line ${line})`]: u !== null ? u : i };
        if (lp.touched) lp.cont.fill(0);
        this.loops.push(lp);
        this.touch();
        const exitsBefore = this.exits;
        try {
          this.withMask(alive, () => this.exec(body));
        } finally {
          this.loops.pop();
          this.touch();
        }
        if (lp.touched || this.exits !== exitsBefore) {
          const exited = this.frame().exited;
          for (let j = 0; j < this.n; j++) alive[j] &= (1 - lp.brk[j]) & (1 - exited[j]);
        }
      }
    } finally {
      this.endLoop(savedMask, savedCtx, exitNotes);
    }
  }

  /**
   * The counter of a loop whose body may run as one pass (collapse.ts): a `for` with one counter, a known integer the
   * same on every lane, that only the update changes, and a body of plain assignments (collapsibleBody). Null
   * otherwise.
   */
  private collapsible(body: Node, induction: string[], cond: Node | null, update: Node | null): Var | null {
    if (!this.cfg.caps.collapseLoops || this.cfg.host || this.symbolicPass || this.macroSites.length || !update || induction.length !== 1) return null;
    const v = this.lookupVar(induction[0]);
    if (!v || v.ref || v.cells || v.value.k !== 'num' || typeof v.value.v !== 'number' || v.value.sym || v.type.kind !== 'int') return null;
    // worth a pass only where at least 3 iterations are left after the second (the pass costs about one)
    if (!(this.tripsLeft(induction[0], v.value.v, cond, update) >= 4)) return null;
    const mathCall = (name: string) => MATH_CALLS.has(name) && !this.cfg.facts.functions.has(name) && !this.cfg.facts.macros.has(name) && !this.binding(name);
    if (!collapsibleBody(body, mathCall) || this.assignedNames([body]).has(induction[0])) return null;
    return v;
  }

  /**
   * How many more times a counted loop's body runs once its counter is `k` (`k < n`, `k <= n`, `k > n`, `k >= n`, `k != n`
   * against a known number the loop does not change, `++k`, `k--`, `k += c`, `k -= c`); NaN where not that shape.
   */
  private tripsLeft(name: string, k: number, cond: Node | null, update: Node | null): number {
    const c = unparenthesized(cond);
    if (c?.type !== 'binary_expression' || c.childForFieldName('left')?.text !== name || !update) return NaN;
    const op = operatorOf(c);
    const right = c.childForFieldName('right');
    const plain = (n: Node): boolean => STEP_NODE.test(n.type) && named(n).every(plain);
    if (!right || !plain(right) || identifiersIn(right).includes(name)) return NaN;
    let step = NaN;
    const u = unparenthesized(update);
    if (u?.type === 'update_expression' && u.childForFieldName('argument')?.text === name) step = /\+\+/.test(u.text) ? 1 : -1;
    else if (u?.type === 'assignment_expression' && u.childForFieldName('left')?.text === name) {
      const by = u.childForFieldName('right');
      const o = operatorOf(u);
      const bv = by && plain(by) && (o === '+=' || o === '-=') ? this.rvalue(by) : null;
      if (bv?.k === 'num' && typeof bv.v === 'number' && !bv.sym && Number.isInteger(bv.v)) step = o === '+=' ? bv.v : -bv.v;
    }
    const nv = this.rvalue(right);
    if (!step || Number.isNaN(step) || nv.k !== 'num' || typeof nv.v !== 'number' || nv.sym) return NaN;
    const n = nv.v;
    const left = op === '<' ? n - k : op === '<=' ? n - k + 1 : op === '>' ? k - n : op === '>=' ? k - n + 1 : op === '!=' ? Math.abs(n - k) : NaN;
    if (Number.isNaN(left) || left <= 0) return 0;
    // (`!=` ends only where the steps land on the bound)
    const s = op === '>' || op === '>=' ? -step : op === '!=' ? (Math.sign(n - k) === Math.sign(step) && (n - k) % step === 0 ? Math.abs(step) : NaN) : step;
    return s > 0 ? Math.ceil(left / s) : NaN;
  }

  /**
   * Runs a loop's body once with its counter as a warp-uniform unknown, its accesses recorded instead of made. The
   * pass stands for every later iteration where it changes nothing but what they access (each variable the body
   * assigns ends as it started, nothing else of the run moves) and, with the counter's value of the iteration just
   * run (`k1`) put in, its accesses are that iteration's (`watch`), one for one. Null where it does not hold: the
   * state is as before the pass, and the loop goes on one iteration at a time.
   */
  private tryCollapse(body: Node, counter: Var, watch: AccessRecord[], k1: number, line: number): Collapse | null {
    const snap = this.snapshot(true);
    const firstVisit = this.visits.length;
    const reads = new Map(this.reads);
    const sig = () => [this.notes.size, this.capped.length, this.truncated, this.exitNotes.length, this.exits, this.unreached.size,
      this.guardedSets.length, this.uncertain, this.laneUncertain, this.visits.length, this.assumptions.length].join(',');
    const before = sig();
    const start = counter.value;
    const key = `pass of the loop at line ${line}`;
    const records: AccessRecord[] = [];
    let ok = true;
    counter.value = { ...(start as Num), v: 0, sym: { [key]: 1 } };
    this.collapseRecords = records;
    try {
      this.exec(body);
    } catch (e) {
      if (e instanceof BudgetExceeded) throw e;
      ok = false;
    } finally {
      this.collapseRecords = null;
      counter.value = start;
    }
    ok &&= sig() === before && this.stored.size === snap.stored.size && [...this.stored].every(([k, v]) => snap.stored.get(k) === v);
    ok &&= this.reads.size === reads.size && [...this.reads].every(([k, n]) => reads.get(k) === n);
    if (ok) for (const [v, [value, unset, unsetWhy]] of snap.vars) if (v !== counter && !(v.unset === unset && v.unsetWhy === unsetWhy && unchanged(v.value, value))) { ok = false; break; }
    ok &&= records.length === watch.length && records.length > 0 && records.every((a, i) => {
      const b = watch[i];
      const at = substituteRecord(a, key, k1);
      return !!at && a.kind === b.kind && a.asyncCopy === b.asyncCopy && a.exprNode.id === b.exprNode.id && sameData(at.r, b.r);
    });
    this.restore(snap, firstVisit);
    this.reads = reads;
    return ok ? { counter, key, records } : null;
  }

  /** One iteration of a collapsed loop: the pass's accesses with the counter's value `k`; false where one cannot be. */
  private replay(c: Collapse, k: number): boolean {
    const at: AccessRecord[] = [];
    for (const a of c.records) {
      const r = substituteRecord(a, c.key, k);
      // (a pointer's flat-layout note depends on whether its index is 0: see deref)
      if (!r || (k === 0 && a.r.flat !== null)) return false;
      at.push(r);
    }
    for (const a of at) this.access(a.r as unknown as Ref, a.kind as AccessKind, a.exprNode, a.asyncCopy);
    return true;
  }

  /** A loop whose trip count cannot be computed: run the body once with the changed variables as uniform unknowns. */
  private symbolicLoop(
    node: Node, line: number, alive: Uint8Array, assigned: Map<string, boolean>, induction: string[],
    body: Node | null, update: Node | null, iter: number, why: string, cond: Node | null, long = false,
  ): void {
    // `long`: the trip count is known, past the iteration cap; the pass stands for the iterations after the first ones
    const whose = long ? `, whose iterations after the first ${iter.toLocaleString('en-US')} are evaluated together` : ', whose trip count is unknown';
    // a variable that is the same for every thread (a double-buffer index `cur ^= 1`, a stage counter) stays so
    // while the loop only mixes it with such values: it becomes an unknown warp-uniform value; the pass below checks
    const uniform = new Set<string>();
    // what the passes below start from, and the names they found not to hold as assumed (made once they are known)
    let snap: ReturnType<Interp['snapshot']> | null = null;
    // a per-lane variable that every pass ends with the value it had before the loop (a work index `wtx = tx` set
    // again at the end of the body, after an inner loop that steps it) holds that value at every iteration's start:
    // it keeps it; the pass below checks, and one that does not come back becomes unknown
    // (not when a `continue` can carry another value to the next pass)
    const kept = new Map<string, Num>();
    const keepable = !!body && !this.ownJump(body, 'continue_statement');
    // a pointer into a shared array the loop moves (`p += 32`, `q = q + 64`, `a ^= 0x1000`) still points into that
    // array: taken as stepped by an unknown warp-uniform number of elements; where the pass finds it moved otherwise
    // (another array, a per-lane step, bits flipped), to a place not known, and the pass again
    // (a double buffer's pointers swapped each pass, `t = src; src = dst; dst = t;`, point into one array or the other,
    // the same on every lane: `others`, the arrays a pass moved one to, at the same offsets; see eitherPointer)
    const moved = new Map<string, { base: string; start: Ptr; others: Set<string> }>();
    const lost = (p: Ptr, name: string): Ptr => unknownPointer(p, `\`${name}\` is changed by the loop at line ${line}${whose}`);
    // kept variables found to move by a warp-uniform amount (see below): their value before the loop plus one
    const shifted = new Map<string, Num>();
    // a variable that only the loop's update steps, by a number the loop does not change (`e += blockDim.x`), is its
    // start plus that number times the passes before (`e / 32`, `e % 32` of a block-stride counter are then exact)
    const stepped = this.loopSteps(update, assigned, body);
    const renewed: Var[] = [];
    const generalise = (suffix: string) => {
      for (const [name, additive] of assigned) {
        const v = this.lookupVar(name);
        if (!v || v.ref) continue; // assigning a reference to shared memory stores; the reference stays
        if (kept.has(name)) continue;
        // a local array whose elements are kept, written in the loop: its elements are not known from here on; in
        // the pass, not known at its start (what a pass writes at an index the same on every thread holds after it)
        if (v.cells) {
          if (v.value.k === 'other' && suffix === `@${line}`) renewed.push(v);
          else if (v.value.k === 'other') v.value = unk(`\`${name}\` is changed by the loop at line ${line}${whose}`);
          continue;
        }
        const start = shifted.get(name);
        if (start) {
          v.value = binary('+', start, atom(`${name}${suffix}`, start.t), name, null);
          continue;
        }
        if (v.value.k === 'ptr') {
          const p = v.value;
          if (snap?.demoted.has(name)) {
            v.value = lost(p, name);
            continue;
          }
          const es = sizeOf(p.to);
          // a step of elements whose size is not known (`T *p`, T unbound): the pointer's place is not known
          if (es === null) {
            v.value = lost(p, name);
            continue;
          }
          const stepped: Ptr = { ...p, off: binary('+', p.off, binary('*', atom(`${name}${suffix}`, LONGT), num(es, LONGT), name, null), name, null) as Num };
          v.value = stepped.off.k === 'num' ? stepped : lost(p, name);
          if (suffix === `@${line}` && v.value === stepped) moved.set(name, { base: p.base.id, start: stepped, others: new Set() });
          continue;
        }
        if (suffix === `@${line}` && keepable && !additive && v.value.k === 'num' && !isUniform(v.value.v) && !v.unset) {
          kept.set(name, v.value);
          continue;
        }
        if (additive && v.value.k === 'num') {
          const step = stepped.get(name);
          const a = step === undefined ? atom(`${name}${suffix}`, v.value.t) : binary('*', passCount(name, line, v.value.t), num(step.c, v.value.t), name, null);
          v.value = binary('+', v.value, a, name, null);
        } else if (v.value.k === 'num' && isUniform(v.value.v) && !hasThread(v.value.sym)) {
          uniform.add(name);
          v.value = atom(`${name}${suffix}`, v.value.t);
        } else {
          // a value holding warp mode's thread coordinates (a warp's base `threadIdx.x - lane`) may hold over the
          // whole block, where it is one vector: the run is repeated there if this reaches a report
          const lanes = v.value.k === 'num' && hasThread(v.value.sym) ? THREAD : '';
          v.value = unk(`\`${name}\` is changed by the loop at line ${line}${whose}${lanes}`);
        }
      }
    };
    generalise(`@${line}`);
    // a scalar `__shared__` variable the loop stores to by name holds, at each pass, a value that is not known
    for (const name of assigned.keys()) {
      const b = this.binding(name);
      const held = b && isBase(b) ? this.stored.get(b.id) : undefined;
      if (!held) continue;
      // a pointer still points into the array it pointed into (a double buffer's other half): its accesses are
      // unknown, not missing
      const why = `\`${name}\` is stored in the loop at line ${line}${whose}`;
      if (held.k === 'ptr') this.stored.set((b as SharedBase).id, unknownPointer(held, why, name));
      else this.stored.delete((b as SharedBase).id);
    }
    let storedAfterRead: { name: string; at: number } | null = null;
    // a variable only added to (`j += step`) is taken as its start plus an unknown warp-uniform amount: that holds
    // only while each pass adds the same amount on every lane (`j += step[threadIdx.x]` does not); the pass below checks
    const additiveStart = new Map<string, Value>();
    for (const [name, additive] of assigned) {
      const v = this.lookupVar(name);
      if (additive && v && !v.ref && v.value.k === 'num') additiveStart.set(name, v.value);
    }
    const firstVisit = this.visits.length;
    // a `while`'s condition carries its parentheses; a `for`'s does not (`i < (n)` keeps its last one)
    const condText = !cond ? '' : cond.type === 'condition_clause' || cond.type === 'parenthesized_expression' ? cond.text.replace(/^\(|\)$/g, '').trim() : cond.text.trim();
    const ctx0 = this.ctx;
    const perLane = (name: string) => `\`${name}\` takes different values on different lanes in the loop at line ${line}${whose}`;
    // a variable taken as warp-uniform that ends the pass per-lane (a per-lane accumulator `best = i`) makes the pass
    // wrong only where it was used: the pass is run again from the same state with that variable per-lane and unknown
    snap = uniform.size || kept.size || additiveStart.size || moved.size ? this.snapshot() : null;
    // a kept variable is back where it was: the same type, and sameValue on every lane
    const same = (a: Value | undefined, b: Num) => !!a && a.k === 'num' && a.t.kind === b.t.kind && sizeOf(a.t) === sizeOf(b.t) && sameValue(a, b, this.ones);
    const notPerLane = new Map<string, string>();
    for (let pass = 0; ; pass++) {
      const names = [...new Set([...induction.filter((n) => assigned.has(n) && !(snap?.demoted.has(n))), ...uniform])];
      // a counter that starts per lane (`i = threadIdx.x; ...; i += blockDim.x`) is its start plus a warp-uniform step
      // (one the same on each warp's lanes, a warp's row, is warp-uniform, in warp mode and over the whole block alike)
      const startsPerLane = (n: string) => { const s = additiveStart.get(n); return s?.k === 'num' && !isWarpUniform(s.v, alive); };
      const fromLane = [...names.filter((n) => startsPerLane(n) && !stepped.has(n)), ...[...shifted.keys()].filter((n) => !names.includes(n))];
      const whole = names.filter((n) => !startsPerLane(n));
      const list = (ns: string[]) => `\`${ns.join('`, `')}\``;
      const note = (long ? `the loop at line ${line} runs more than ${iter.toLocaleString('en-US')} iterations: the first ${iter.toLocaleString('en-US')} are evaluated one by one, the others together, as those of a loop of unknown trip count are`
        : `the loop at line ${line} has a trip count that cannot be computed (${condText ? `\`${condText}\`: ` : ''}${why})` + (iter > 0 ? ` after ${iter} iterations` : '')) +
        (whole.length ? `; ${list(whole)} treated as ${whole.length > 1 ? 'unknown warp-uniform values' : 'an unknown warp-uniform value'}` : '') +
        (fromLane.length ? `; ${list(fromLane)} treated as ${fromLane.length > 1 ? 'their values' : 'its value'} before the loop plus an unknown warp-uniform amount` : '') +
        [...stepped].filter(([n]) => startsPerLane(n)).map(([n, { c, multiple }]) => `; \`${n}\` treated as its value before the loop plus ${multiple ? `a never-negative multiple of ${c}` : `${c} times the passes before`}`).join('');
      this.ctx = { ...ctx0 };
      for (const n of names) this.ctx[n] = 'any';
      const lp: LoopState = { brk: new Uint8Array(this.n), cont: new Uint8Array(this.n) };
      this.loops.push(lp);
      this.touch();
      const outerPass = this.symbolicPass;
      const thisPass: NonNullable<Interp['symbolicPass']> = (this.symbolicPass = { reads: new Set(), conflict: null });
      try {
        for (const v of renewed) v.cells = { ...v.cells!, elems: new Map(), stale: `is changed by the loop at line ${line}${whose}` };
        this.withAssumption(note, () => {
          if (body) this.withMask(alive, () => this.exec(body));
          if (update) this.withMask(alive, () => this.rvalue(update));
        });
      } finally {
        this.loops.pop();
        this.touch();
        this.symbolicPass = outerPass;
        if (outerPass) for (const id of thisPass.reads) outerPass.reads.add(id);
      }
      storedAfterRead = thisPass.conflict;
      // had a variable taken as warp-uniform become per-lane in the pass, the pass's addresses would be wrong
      // (only the lanes that run the loop count: `if (tid == 0) for (...; ++i)` steps `i` on one lane)
      const failed = [...uniform].filter((name) => {
        const v = this.lookupVar(name)?.value;
        return !(v && v.k === 'num' && isUniform(v.v, alive) && !hasThread(v.sym));
      });
      for (const [name, start] of additiveStart) {
        if (snap?.demoted.has(name)) continue;
        const v = this.lookupVar(name)?.value;
        const d = v && v.k === 'num' ? binary('-', v, start, name, null) : null;
        if (d && d.k === 'num' && isUniform(d.v, alive) && !hasThread(d.sym)) continue;
        failed.push(name);
        // a step that is not known at all (a value loaded from memory) is not known to be the same on every lane
        if (!(d && d.k === 'num')) notPerLane.set(name, `\`${name}\` is changed by the loop at line ${line}${whose}, by a step not known to be the same on every lane`);
      }
      const swapped = new Map<string, Ptr>();
      for (const [name, m] of moved) {
        if (snap?.demoted.has(name)) continue;
        const v = this.lookupVar(name)?.value;
        // moved into another array at a distance the same on every lane (a swap of two buffers): one or the other
        if (v?.k === 'ptr' && v.base.id !== m.base && !m.others.has(v.base.id) && eitherPointer(m.start, v, '', alive)) {
          swapped.set(name, v);
          failed.push(name);
          continue;
        }
        let ok = v?.k === 'ptr' && (v.base.id === m.base || m.others.has(v.base.id));
        let unknownStep = false;
        if (ok) {
          const d = binary('-', (v as Ptr).off, m.start.off, name, null);
          unknownStep = d.k !== 'num' || !knownOffset(d);
          ok = !unknownStep && d.k === 'num' && isUniform(d.v, alive) && !hasThread(d.sym);
        }
        if (ok) continue;
        failed.push(name);
        // a step (`+=`) that is not known at all (a value loaded from memory) is not known to be the same on every lane
        notPerLane.set(name, `\`${name}\` is changed by the loop at line ${line}${whose}${unknownStep && assigned.get(name) ? ', by a step not known to be the same on every lane' : ''}`);
      }
      const back = [...kept].filter(([name, v0]) => !same(this.lookupVar(name)?.value, v0)).map(([name]) => name);
      if (!failed.length && !back.length) break;
      if (!failed.length) {
        // a per-lane variable kept at its value before the loop that the pass changed by the same amount on every
        // lane (OpenMM's `currentSkipIndex = tbx;` in one inner loop, `currentSkipIndex++` in another): its value
        // before the loop plus an unknown warp-uniform amount, as an additive one, which the pass again checks; any
        // other change: unknown, and the pass again
        const moves = back.map((name) => {
          const v = this.lookupVar(name)?.value;
          const d = v && v.k === 'num' ? binary('-', v, kept.get(name)!, name, null) : null;
          return d?.k === 'num' && isUniform(d.v, alive) && !hasThread(d.sym);
        });
        this.restore(snap!, firstVisit);
        back.forEach((name, i) => {
          const v = this.lookupVar(name);
          const v0 = kept.get(name)!;
          kept.delete(name);
          if (!v) return;
          if (moves[i] && !additiveStart.has(name)) {
            additiveStart.set(name, v0);
            shifted.set(name, v0);
            v.value = binary('+', v0, atom(`${name}@${line}`, v0.t), name, null);
          } else v.value = unk(`\`${name}\` is changed by the loop at line ${line}${whose}`);
        });
        continue;
      }
      if (!snap || pass >= snap.passes) {
        for (let i = firstVisit; i < this.visits.length; i++) {
          this.visits[i].addrs = null;
          this.visits[i].reason = notPerLane.get(failed[0]) ?? perLane(failed[0]);
        }
        break;
      }
      this.restore(snap, firstVisit);
      for (const [name, to] of swapped) {
        const v = this.lookupVar(name);
        const m = moved.get(name)!;
        m.others.add(to.base.id);
        if (v?.value.k === 'ptr') v.value = { ...eitherPointer(v.value, to, `\`${name}\`, which the loop at line ${line} swaps between arrays,`, alive)!, name };
      }
      for (const name of failed) {
        if (swapped.has(name)) continue;
        uniform.delete(name);
        snap.demoted.add(name);
        const v = this.lookupVar(name);
        // a moved pointer still points into its array: its accesses are reported there, unknown
        if (v && moved.has(name) && v.value.k === 'ptr') v.value = unknownPointer(v.value, notPerLane.get(name)!);
        else if (v) {
          // unknown until a lane assigns it (`for (j = 0; ...)` on the lanes that run an inner loop): as if declared
          // without a value, so that such an assignment holds on those lanes
          v.unset = v.type.kind === 'int' || v.type.kind === 'float' ? new Uint8Array(this.n).fill(1) : undefined;
          v.value = v.value.k === 'ptr' ? unknownPointer(v.value, notPerLane.get(name) ?? perLane(name)) : unk(notPerLane.get(name) ?? perLane(name));
        }
      }
    }
    // the pass read a scalar `__shared__` variable that it then stored to (through a pointer, in a call): from the
    // second iteration on, what comes before that store reads what the one before stored, which the pass did not see
    if (storedAfterRead)
      for (let i = firstVisit; i < storedAfterRead.at; i++) {
        // (a scalar's own place does not depend on any value read)
        if (!this.visits[i].addrs || this.visits[i].base.dims.length === 0) continue;
        this.visits[i].addrs = null;
        this.visits[i].reason = `\`${storedAfterRead.name}\` is stored in the loop at line ${line}${whose}, after it is read`;
      }
    // a `break` (or a `goto`) leaves mid-body, where a kept variable may hold another value: unknown after the loop
    if (kept.size && body && (this.ownJump(body, 'break_statement') || this.ownJump(body, 'goto_statement'))) {
      for (const name of kept.keys()) {
        const v = this.lookupVar(name);
        if (v) v.value = unk(`\`${name}\` is changed by the loop at line ${line}${whose}`);
      }
    }
    generalise(`@${line}'`);
  }

  /** Whether a loop body holds a jump of `type` of that loop (a `break` or `continue` not of an inner loop, a `break` not of an inner switch), or any `goto`. */
  private ownJump(body: Node, type: 'break_statement' | 'continue_statement' | 'goto_statement'): boolean {
    const stack = [body];
    while (stack.length) {
      const c = stack.pop()!;
      if (c.type === type) return true;
      const loop = /^(for|for_range|while|do)_(statement|loop)$/.test(c.type);
      if (c !== body && type !== 'goto_statement' && (loop || (type === 'break_statement' && c.type === 'switch_statement'))) continue;
      for (const k of named(c)) stack.push(k);
    }
    return false;
  }

  /** What a pass of a symbolic loop changes outside its own scopes, to run it again from the same state. */
  /** `light`: without what only an access changes (visit counts, the visit cap), for a pass that records accesses instead (tryCollapse). */
  private snapshot(light = false) {
    const vars = new Map<Var, [Value, Uint8Array | undefined, string | undefined]>();
    for (const f of this.frames) for (const sc of f.scopes) for (const v of sc.values()) if (!isBase(v)) vars.set(v, [v.value, v.unset, v.unsetWhy]);
    const frames = this.frames.map((f) => ({ f, exited: f.exited.slice(), anyExited: f.anyExited, ret: f.ret, retGuard: f.retGuard }));
    return {
      vars, frames, exits: this.exits, exitNotes: this.exitNotes.length, capped: this.capped.length, truncated: this.truncated,
      visitCount: light ? null : new Map(this.visitCount), overCap: light ? null : new Map([...this.overCap].map(([k, e]) => [k, { ...e }])),
      notes: new Set(this.notes), demoted: new Set<string>(), passes: vars.size + 1,
      stored: new Map(this.stored),
    };
  }
  private restore(s: ReturnType<Interp['snapshot']>, firstVisit: number): void {
    this.visits.length = firstVisit;
    for (const [v, [value, unset, unsetWhy]] of s.vars) {
      v.value = value;
      v.unset = unset;
      v.unsetWhy = unsetWhy;
    }
    for (const { f, exited, anyExited, ret, retGuard } of s.frames) {
      f.exited.set(exited);
      f.anyExited = anyExited;
      f.ret = ret;
      f.retGuard = retGuard;
    }
    this.exits = s.exits;
    if (this.exitNotes.length !== s.exitNotes) {
      this.exitNotes.length = s.exitNotes;
      this.assumptionEpoch++;
    }
    this.capped.length = s.capped;
    this.truncated = s.truncated;
    if (s.visitCount && s.overCap) {
      this.visitCount = s.visitCount;
      s.visitCount = new Map(s.visitCount);
      this.overCap = s.overCap;
      s.overCap = new Map([...s.overCap].map(([k, e]) => [k, { ...e }]));
      for (const e of this.overCap.values()) e.visit.more = e.more;
    }
    this.stored = new Map(s.stored);
    this.notes = new Set(s.notes);
    this.touch();
  }

  private markTruncated(node: Node): void {
    const reason = this.truncated!;
    const inside = (n: Node | undefined) => !!n && n.startIndex >= node.startIndex && n.endIndex <= node.endIndex;
    for (const v of this.visits) {
      // an access already unknown keeps its own reason (a subscript loaded from memory says more than the cap)
      if ((inside(v.exprNode) || inside(v.via)) && (v.addrs || !v.reason)) {
        v.addrs = null;
        v.reason = reason;
      }
    }
  }

  // ---------------------------------------------------------------- declarations and types

  /** Declares a __shared__ array (or scalar) of this context. */
  declare(node: Node, into?: Map<string, Var | SharedBase>): void {
    const target = into ?? this.scope();
    const typeNode = node.childForFieldName('type');
    const isExtern = kids(node).some((c) => c.type === 'storage_class_specifier' && c.text === 'extern');
    for (const d of node.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
      const nameNode = declaratorName(d);
      if (!nameNode) continue;
      const id = `${nameNode.startPosition.row}:${nameNode.startPosition.column}`;
      const elem = typeNode ? this.resolveType(typeNode) : { kind: 'unknown' as const, name: '?' };
      const dimNodes: Node[] = [];
      let cur: Node | null = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
      // only an array of unknown extent (`extern __shared__ T s[]`) is the dynamic region: nvcc treats an `extern`
      // declaration of a complete type (`extern __shared__ int last;`, `s[64]`) as a static definition
      let first: Node | null = null;
      for (let a = cur; a && a.type === 'array_declarator'; a = a.childForFieldName('declarator')) first = a;
      const external = isExtern && !!first && !first.childForFieldName('size');
      while (cur && cur.type === 'array_declarator') {
        const size = cur.childForFieldName('size');
        if (size) dimNodes.unshift(size);
        else if (!external) dimNodes.unshift(cur);
        cur = cur.childForFieldName('declarator');
      }
      let dims: number[] = [];
      let bad: string | null = null;
      let outer: string | null = null;
      for (const s of dimNodes) {
        const v = s.type === 'array_declarator' ? unk('no extent') : this.rvalue(s);
        const u = uniformValue(v);
        if (u === null || u < 0) {
          bad = `the extent \`${s.text}\` of \`${nameNode.text}\` could not be evaluated` + (v.k === 'unk' ? ` (${v.reason})` : '');
          // the outermost extent changes no address (a header's `N` in `s[N]`, `t[N][33]`): kept as 0, as for extern
          if (dims.length === 0 && s.type !== 'array_declarator' && outer === null) {
            outer = bad;
            bad = null;
            dims.push(0);
            continue;
          }
          break;
        }
        dims.push(u);
      }
      if (bad) outer = null;
      const pad = this.cfg.dimOverrides?.get(id);
      if (pad && dims.length) dims = [...dims.slice(0, -1), dims[dims.length - 1] + pad];
      // declared in a statement macro's expansion (`#define LOAD_TILE __shared__ float tile[...]; ...`): placed at the
      // macro's use, the only place of it in the file
      const site = this.macroSites.find((m) => m.tree === nameNode.tree);
      // or spelled in place from a function-like macro's use (preprocess.ts spellSharedDeclarationMacros): its
      // extents' text is the expansion's, not the user's
      const spelled = !site && (node.previousSibling?.text === MACRO_SHARED_MARK || kids(node).some((c) => c.type === 'comment' && c.text === MACRO_SHARED_MARK)) ? this.sharedDeclarationMacro() : undefined;
      const base: SharedBase = {
        id, name: nameNode.text, decl: node, nameNode: site ? this.realNode(nameNode) : nameNode, elem, dims: bad ? [] : dims, external, dimNodes,
        ...(bad ? { unresolved: bad } : {}), ...(outer ? { outerUnknown: outer } : {}), ...(site ? { macro: macroName(site.call) } : spelled ? { macro: spelled } : {}),
      };
      // `__shared__ float *cur;` (`*rows[4]`): a variable in shared memory that holds a pointer (8 bytes), an array
      // of them; what one thread stores in it every thread reads (see remember)
      if (cur && cur.type === 'pointer_declarator') base.elem = { kind: 'pointer', to: elem };
      this.bases.set(id, base);
      target.set(nameNode.text, base);
    }
  }

  private declType(decl: Node): CType {
    const typeNode = decl.childForFieldName('type');
    let t: CType = typeNode ? this.resolveType(typeNode) : { kind: 'unknown', name: '?' };
    let d = decl.childForFieldName('declarator');
    if (d?.type === 'init_declarator') d = d.childForFieldName('declarator');
    const param = /parameter_declaration$/.test(decl.type);
    for (let i = 0; d && i < 16; i++) {
      if (d.type === 'pointer_declarator' || d.type === 'abstract_pointer_declarator') t = { kind: 'pointer', to: t };
      else if (d.type === 'reference_declarator') {
        /* a reference has the type it refers to */
      } else if (param && d.type === 'array_declarator') {
        // a parameter of array type is a pointer to its element: `float sh[][24]` is `float (*)[24]`, whatever the
        // argument's own extents, and `float (*rows)[33]` a pointer to rows of 33 (extents nearest the name first)
        const extents: (Node | null)[] = [];
        let a: Node | null = d;
        for (let j = 0; a?.type === 'array_declarator' && j < 16; j++) {
          extents.unshift(a.childForFieldName('size'));
          a = a.childForFieldName('declarator');
        }
        const byName = a?.type === 'identifier';
        const kept = byName ? extents.slice(1) : extents;
        const arr = kept.every((e): e is Node => !!e) ? (kept.length ? this.arrayOf(t, kept) : t) : null;
        if (!arr || (!byName && a?.type !== 'parenthesized_declarator')) break; // the argument's own layout, as before
        t = byName ? { kind: 'pointer', to: arr } : arr;
        if (byName) break;
        d = named(a!).find((c) => c.type.endsWith('declarator') || c.type === 'identifier') ?? null;
        continue;
      } else break;
      d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.endsWith('declarator') || c.type === 'identifier') ?? null;
    }
    return t;
  }

  /** The value a local declaration gives `name` (host code: a launch's `dim3 block(32, 8)`). */
  valueOfDeclaration(decl: Node, name: string): Value | null {
    this.frame().scopes.push(new Map());
    try {
      this.declareLocals(decl);
      const v = this.scope().get(name);
      return v && !isBase(v) ? v.value : null;
    } finally {
      this.frame().scopes.pop();
    }
  }

  private declareLocals(node: Node): void {
    const typeNode = node.childForFieldName('type');
    const base = typeNode ? this.resolveType(typeNode) : ({ kind: 'unknown', name: '?' } as CType);
    const isDim3 = typeNode?.text === 'dim3';
    const atomicRef = typeNode && /^(?:::)?(?:cuda::(?:std::)?|std::)atomic_ref\s*</.test(typeNode.text);
    for (const d of node.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
      if (this.structuredBinding(d)) continue;
      if (atomicRef && this.atomicRefDeclaration(d)) continue;
      const nameNode = declaratorName(d);
      if (!nameNode) continue;
      let t = base;
      let inner: Node | null = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
      let isArray = false;
      let isRef = false;
      // extents met before a parenthesised `*` or `&` belong to what it points to: `float (*rows)[33]` is a pointer to
      // rows of 33 floats, `float (&buf)[32][33] = s[k];` a reference to a 32 x 33 array (outermost extent last here)
      const extents: Node[] = [];
      for (let i = 0; inner && i < 16; i++) {
        if (inner.type === 'pointer_declarator' || inner.type === 'reference_declarator') {
          if (extents.length) {
            const arr = this.arrayOf(t, extents.reverse());
            extents.length = 0;
            if (!arr) break; // an extent that cannot be evaluated: a local array as before
            t = arr;
            isArray = false;
          }
          if (inner.type === 'pointer_declarator') t = { kind: 'pointer', to: t };
          else isRef = true;
        } else if (inner.type === 'array_declarator') {
          isArray = true;
          const size = inner.childForFieldName('size');
          if (size) extents.push(size);
        } else if (inner.type !== 'parenthesized_declarator') break;
        inner = inner.childForFieldName('declarator') ?? named(inner).find((c) => c.type.endsWith('declarator') || c.type === 'identifier') ?? null;
      }
      let value: Value = unk(`\`${nameNode.text}\` has no initial value`);
      let ctorArgs: Value[] | undefined;
      let initItems: (Value | Value[])[] | undefined;
      if (d.type === 'function_declarator') {
        // `dim3 threads(BLOCK_SIZE, BLOCK_SIZE);` parses as a function declaration: read it as a constructor call
        const params = named(d.childForFieldName('parameters')).filter((c) => c.type !== 'comment');
        const args = params.map((p) => this.expandMacro(p.text, nameNode.text));
        value = isDim3 ? this.dim3(args) : args.length === 1 ? args[0] : { k: 'other', what: 'aggregate' };
        // so does `View w(tile, n);` with each "parameter" a variable of the scope: a constructor called on them
        if (t.kind === 'struct' && params.every((p, i) => this.namesVariable(p) || args[i].k === 'num'))
          ctorArgs = params.map((p, i) => (this.namesVariable(p) ? this.load(this.identifier(named(p)[0]), named(p)[0]) : args[i]));
      } else if (d.type === 'init_declarator') {
        const init = d.childForFieldName('value');
        const override = this.cfg.constOverrides?.get(d.startIndex);
        if (isRef && !isArray && init && init.type !== 'argument_list' && init.type !== 'initializer_list' && override === undefined) {
          // `float &x = s[i];`: x names that place (or that variable) from here on
          const b = this.place(init);
          if (b.alias) this.scope().set(nameNode.text, b.alias);
          else if (b.value.k === 'ref') this.scope().set(nameNode.text, { value: b.value, type: t, decl: d, ref: true });
          if (b.alias || b.value.k === 'ref') continue;
          value = this.load(b.value, init);
        } else if (override !== undefined) value = num(override, t.kind === 'int' ? t : INT);
        else if (init?.type === 'lambda_expression') {
          const lambda = this.lambda(init, nameNode.text);
          if (typeof lambda !== 'string') {
            this.scope().set(nameNode.text, { value: { k: 'other', what: 'lambda' }, type: t, decl: d, lambda });
            continue;
          }
          value = this.rvalue(init);
        }
        else if (init && (init.type === 'argument_list' || init.type === 'initializer_list')) {
          // an array's braced rows (`{{1, 2}, {3, 4}}`) are evaluated once here and kept for its elements (cellsOf)
          const items = named(init).filter((c) => c.type !== 'comment');
          const rows = isArray && init.type === 'initializer_list' ? items.map((a) => (a.type === 'initializer_list' ? named(a).filter((c) => c.type !== 'comment').map((b) => this.rvalue(b)) : null)) : [];
          const args = items.map((a, i) => (rows[i] ? ({ k: 'other', what: 'initializer list' } as Value) : this.rvalue(a)));
          if (isArray && init.type === 'initializer_list') initItems = items.map((a, i) => rows[i] ?? args[i]);
          value = isDim3 ? this.dim3(args) : args.length === 1 && !isArray ? args[0] : { k: 'other', what: 'aggregate' };
          // `cuda::std::span<float> row(&s[r * 33], 33);` (or `std::span`, braced): a view that indexes as the pointer it
          // is made from. Was: an aggregate, and what indexed it was left out
          const span = !isArray && !isRef && args[0]?.k === 'ptr' && typeNode ? this.spanElement(typeNode) : null;
          if (span) {
            t = { kind: 'pointer', to: span };
            value = args[0];
          }
        } else if (init) value = this.rvalue(init);
      } else if (isDim3) value = this.dim3([]);
      // a local of a CUDA vector type (`uint4 r; r.x = ...;`) is an object whose members are its components
      const objT = t.kind === 'vector' && !isArray && !isRef ? vectorFields(t) : t;
      if (objT.kind === 'struct' && !isArray && !isRef && (d.type !== 'function_declarator' || ctorArgs)) {
        const obj = this.newObject(objT, nameNode.text, d.type === 'init_declarator' ? d.childForFieldName('value') : null, value, d, ctorArgs);
        if (obj) {
          this.scope().set(nameNode.text, { value: obj, type: t, decl: d });
          continue;
        }
      }
      // a local array of pointers (`float *bufs[2] = {front, back};`): each element a variable, so that what an element
      // points into is followed (`bufs[k & 1][t]`, a double buffer picked by a counter)
      const held = isArray && !isRef && t.kind === 'pointer' && extents.length === 1 ? this.pointerArray(t, extents[0], d, nameNode.text) : null;
      if (held) {
        this.scope().set(nameNode.text, { value: held, type: held.t, decl: d });
        continue;
      }
      if (isArray) value = { k: 'other', what: `local array ${nameNode.text}` };
      value = this.asVariable(value, t, nameNode.text, nameNode);
      const unset = d.type === 'identifier' && t.kind !== 'unknown' && !isArray && !isDim3 ? this.active() : undefined;
      this.notePointer(nameNode.text, value);
      // the extents were met outermost declarator first: innermost extent first
      const cells = isArray && (d.type === 'array_declarator' || initItems) ? this.cellsOf(node, nameNode.text, t, [...extents].reverse(), initItems) : undefined;
      this.scope().set(nameNode.text, { value, type: t, decl: d, ...(unset ? { unset } : {}), ...(cells ? { cells } : {}) });
    }
  }

  /**
   * `cuda::atomic_ref<int, cuda::thread_scope_block> slot(s[i]);` (also `cuda::std::` and `std::atomic_ref`, braced):
   * `slot` refers to that place; its `fetch_add(...)` and the other read-modify-writes are atomics there, `load()` a
   * load and `store(v)` a store (see atomicRefCall). The grammar reads `slot(s[i][j])` as a function declaration whose
   * parameter is `s[i][j]`: that text is read as the expression it is, reported at the array's name. Was: not an
   * access, the atomic left out. False where `d` declares no such reference.
   */
  private atomicRefDeclaration(d: Node): boolean {
    const nameNode = declaratorName(d);
    if (!nameNode) return false;
    let place: Value | null = null;
    if (d.type === 'function_declarator') {
      const params = named(d.childForFieldName('parameters')).filter((c) => c.type !== 'comment');
      const parsed = params.length === 1 ? parseExpression(params[0].text) : null;
      const at = params[0]?.childForFieldName('type') ?? params[0];
      const v = parsed ? this.place(parsed.expr).value : null;
      if (v?.k === 'ref' && at) place = { ...v, nameNode: at, at: params[0] };
    } else if (d.type === 'init_declarator') {
      const init = d.childForFieldName('value');
      const items = init && (init.type === 'argument_list' || init.type === 'initializer_list') ? named(init).filter((c) => c.type !== 'comment') : [];
      if (items.length === 1) place = this.place(items[0]).value;
    }
    if (place?.k !== 'ref') return false;
    this.scope().set(nameNode.text, { value: place, type: { kind: 'unknown', name: 'atomic_ref' }, decl: d, ref: true });
    return true;
  }

  /** The element type of `std::span<T>` / `cuda::std::span<T, N>` named by `typeNode` (where the file declares no span); else null. */
  private spanElement(typeNode: Node): CType | null {
    if (!/^(?:::)?(?:cuda::)?std::span\s*</.test(typeNode.text) || this.cfg.facts.typeDecls.has('span')) return null;
    let q: Node | null = typeNode;
    while (q?.type === 'qualified_identifier') q = q.childForFieldName('name');
    const arg = q?.type === 'template_type' ? argumentNodes(q)[0] : undefined;
    const t = arg?.type === 'type_descriptor' ? this.typeDescriptor(arg) : null;
    return t && t.kind !== 'unknown' ? t : null;
  }

  /** whether `n` names a `cuda::atomic_ref` bound to a shared place (see atomicRefDeclaration). */
  private isAtomicRef(n: Node | null): boolean {
    const v = n?.type === 'identifier' ? this.lookupVar(n.text) : null;
    return !!v?.ref && v.type.kind === 'unknown' && v.type.name === 'atomic_ref';
  }

  /**
   * A structured binding (`auto [r, c] = split(t);`, `const auto &[k, v] = pairs[t];`): each name is a member of the
   * initializer's object in declaration order (a struct's data members, a vector's components); bound by reference to
   * a struct or array in shared memory, each names that member's or element's place. Was: the first name read as the
   * whole object and the others not declared, every index made of them unknown. False where `d` is no such binding.
   */
  private structuredBinding(d: Node): boolean {
    let inner = d.type === 'init_declarator' ? d.childForFieldName('declarator') : null;
    const isRef = inner?.type === 'reference_declarator';
    if (isRef) inner = named(inner!).find((c) => c.type === 'structured_binding_declarator') ?? null;
    if (inner?.type !== 'structured_binding_declarator') return false;
    const names = named(inner).filter((c) => c.type === 'identifier');
    const init = d.childForFieldName('value');
    const v = !init ? unk('no initializer') : isRef ? this.place(init).value : this.rvalue(init);
    const parts: { value: Value; type: CType; ref?: true }[] = [];
    if (v.k === 'obj') for (const f of v.fields.values()) parts.push({ value: f.value, type: f.type });
    else if (v.k === 'ref' && v.t.kind === 'struct') for (const f of v.t.fields) parts.push({ value: { ...v, off: binary('+', v.off, num(f.offset), () => init!.text, null) as Num, t: f.type }, type: f.type, ref: true });
    else if (v.k === 'ref' && v.t.kind === 'array' && v.t.dims[0] > 0) {
      const et: CType = v.t.dims.length > 1 ? { ...v.t, dims: v.t.dims.slice(1) } : v.t.elem;
      const es = sizeOf(et);
      if (es !== null) for (let i = 0; i < v.t.dims[0]; i++) parts.push({ value: { ...v, off: binary('+', v.off, num(i * es), () => init!.text, null) as Num, t: et }, type: et, ref: true });
    }
    names.forEach((n, i) => {
      const p = parts.length === names.length ? parts[i] : undefined;
      if (p?.ref) this.scope().set(n.text, { value: p.value, type: p.type, decl: d, ref: true });
      else if (p) this.scope().set(n.text, { value: this.asVariable(p.value, p.type, n.text, n), type: p.type, decl: d });
      else this.scope().set(n.text, { value: unk(`\`${n.text}\` is bound by \`${this.realNode(d).text}\`, whose members are not known here`), type: { kind: 'unknown', name: '?' }, decl: d });
    });
    return true;
  }

  /** A local array of up to 64 pointers, its elements from the initializer: an object whose members are `0`, `1`, ... */
  private pointerArray(elem: CType, extent: Node, d: Node, name: string): Obj | null {
    const n = uniformValue(this.rvalue(extent));
    if (n === null || !Number.isInteger(n) || n < 1 || n > 64) return null;
    const init = d.type === 'init_declarator' ? d.childForFieldName('value') : null;
    const items = init?.type === 'initializer_list' ? named(init).filter((c) => c.type !== 'comment') : [];
    const fields = new Map<string, { value: Value; type: CType }>();
    for (let i = 0; i < n; i++) {
      const v = items[i] ? this.rvalue(items[i]) : unk(`\`${name}[${i}]\` has no initial value`);
      fields.set(String(i), { value: v.k === 'ptr' ? { ...v, name } : v, type: elem });
    }
    return { k: 'obj', t: { kind: 'array', elem, dims: [n] }, fields };
  }

  /**
   * The element `idx` picks of a local array of pointers: one element where the index is one number; per lane where it
   * differs by lane; one or another the same way on every lane of a warp (eitherPointer) where it is not known.
   */
  private element(o: Obj, idx: Value, node: Node): Value {
    const items = [...o.fields.values()].map((f) => f.value);
    const anyPtr = items.find((v): v is Ptr => v.k === 'ptr');
    const text = this.realNode(node).text;
    if (isTainted(idx)) throw NEEDS_FULL_BLOCK;
    if (idx.k === 'num' && !idx.sym) {
      const act = this.active();
      const u = uniformValue(idx, act);
      const at = (i: number) => o.fields.get(String(i))?.value ?? unk(`\`${text}\` indexes past the end of the array`);
      if (u !== null) return at(u);
      let acc: Value | null = null;
      const seen = new Set<number>();
      for (let i = 0; i < this.n; i++) {
        if (!act[i]) continue;
        const x = laneAt(idx.v, i);
        if (seen.has(x)) continue;
        seen.add(x);
        const mask = new Uint8Array(this.n);
        for (let j = 0; j < this.n; j++) mask[j] = act[j] && laneAt(idx.v, j) === x ? 1 : 0;
        acc = acc ? select(mask, at(x), acc, this.n) : at(x);
      }
      return acc ?? unk(`no lane reads \`${text}\``);
    }
    const why = idx.k === 'num' ? `it depends on \`${symText(idx.sym!)}\`` : idx.k === 'unk' ? idx.reason : 'the index is not a number';
    if (idx.k === 'num' && isUniform(idx.v, this.active()) && items.every((v) => v.k === 'ptr')) {
      let acc: Ptr | null = items[0] as Ptr;
      for (const v of items.slice(1)) acc = acc && eitherPointer(acc, v as Ptr, `\`${text}\` at line ${this.realNode(node).startPosition.row + 1}`, this.active());
      if (acc) return acc;
    }
    return anyPtr ? unknownPointer(anyPtr, `\`${text}\` picks an element of \`${o.fields.size > 0 ? anyPtr.name : ''}\` not known per lane (${why})`) : unk(`\`${text}\`: ${why}`);
  }

  /** An array of `elem` with these extents, outermost first; null when one of them is not a positive constant. */
  private arrayOf(elem: CType, extents: Node[]): CType | null {
    const dims = extents.map((e) => uniformValue(this.rvalue(e)));
    return dims.every((x): x is number => x !== null && x > 0) ? { kind: 'array', elem, dims } : null;
  }

  /**
   * `float (*rows)[33] = reinterpret_cast<float (*)[33]>(smem);` and `float (&buf)[32][33] = s[k];` are
   * declarations, but the grammar reads them as an assignment to a subscripted cast `float(*rows)`. That shape (a
   * type's name called on `*name` or `&name`, subscripted by constants, assigned) is no expression C allows, so it is
   * declared here: a pointer to (a reference to) an array of those extents. False when `e` is not that shape.
   */
  private arrayPointerDeclaration(e: Node): boolean {
    if (e.type !== 'assignment_expression' || (e.childForFieldName('operator')?.text ?? '=') !== '=') return false;
    const extents: Node[] = [];
    let cur: Node | null = e.childForFieldName('left');
    while (cur?.type === 'subscript_expression') {
      const idx = subscriptIndex(cur);
      if (!idx) return false;
      extents.unshift(idx);
      cur = cur.childForFieldName('argument');
    }
    if (!cur || cur.type !== 'call_expression' || !extents.length) return false;
    const fn = cur.childForFieldName('function');
    const args = argumentNodes(cur);
    if (!fn || args.length !== 1) return false;
    // a template's type parameter reads as a plain name (`T (*tile)[TILE + 1] = ...`): one that names a type, not a variable
    if (!/^(primitive_type|type_identifier|sized_type_specifier)$/.test(fn.type) && !(fn.type === 'identifier' && !this.binding(fn.text) && this.resolveTypeName(fn.text, fn).kind !== 'unknown')) return false;
    const star = args[0];
    const op = kids(star)[0]?.text;
    const nameNode = star.childForFieldName('argument');
    if (star.type !== 'pointer_expression' || (op !== '*' && op !== '&') || nameNode?.type !== 'identifier') return false;
    const arr = this.arrayOf(this.resolveTypeName(fn.text, fn), extents);
    if (!arr) return false;
    const right = e.childForFieldName('right')!;
    const name = nameNode.text;
    if (op === '&') {
      const b = this.place(right);
      if (b.value.k === 'ref') this.scope().set(name, { value: { ...b.value, t: arr }, type: arr, ref: true });
      else this.scope().set(name, { value: unk(`\`${name}\` is bound to \`${right.text}\`, which is not shared memory the analysis follows`), type: arr });
      return true;
    }
    const v = this.rvalue(right);
    const value = v.k === 'ptr' ? { ...this.castPtr(v, arr, right), name } : v;
    this.scope().set(name, { value, type: { kind: 'pointer', to: arr } });
    return true;
  }

  /**
   * A local object of a struct or class defined in the file: no initializer (members unknown until assigned), a
   * braced list (`{buf, 33}`, `{.p = buf}`: members in declaration order, or by name) or a copy of another object.
   * Null (the declaration keeps its plain value) when the initializer is anything else, such as a load from shared
   * memory, whose access the caller already recorded.
   */
  private newObject(t: Extract<CType, { kind: 'struct' }>, name: string, init: Node | null, value: Value, decl: Node, ctorArgs?: Value[]): Obj | null {
    if (init && init.type !== 'initializer_list' && init.type !== 'argument_list') return value.k === 'obj' ? copyObj(value, name) : null;
    const fields = new Map<string, { value: Value; type: CType }>();
    for (const f of t.fields) fields.set(f.name, { value: unk(`\`${name}.${f.name}\` has no value`), type: f.type });
    this.memberDefaults(t, name, fields);
    const items = init ? named(init).filter((c) => c.type !== 'comment') : [];
    // a constructor of the struct taking that many arguments runs (its member initializers, then its body): the
    // arguments are not the members in order (`BitMask(unsigned *data, int H, int W, int N) : ..., D(N / B)`)
    const arity = ctorArgs?.length ?? (items.some((c) => c.type === 'initializer_pair') ? -1 : items.length);
    const ctor = arity >= 0 ? this.memberDef({ t }, t.name.replace(/\s*<.*$/, '').replace(/^.*::/, ''), arity) : null;
    if (ctor) {
      const self: Obj = { k: 'obj', t, fields };
      const bound = (ctorArgs ?? items.map((c) => this.rvalue(c))).map((v) => ({ value: v }));
      const outer = this.constructing;
      this.constructing = name;
      try {
        this.inline(ctor, bound, decl, init ?? decl, this.templateBound.get(t) ?? this.templateArgs.get(t) ?? null, [this.memberScope(self)]);
      } finally {
        this.constructing = outer;
      }
      return copyObj(self, name);
    }
    items.forEach((item, i) => {
      let field = t.fields[i];
      let expr = item;
      if (item.type === 'initializer_pair') {
        const designator = item.childForFieldName('designator') ?? named(item)[0];
        field = t.fields.find((f) => f.name === designator?.text.replace(/^\./, ''))!;
        expr = item.childForFieldName('value') ?? named(item)[named(item).length - 1];
      }
      const v = expr ? this.rvalue(expr) : unk('no value');
      if (field) fields.get(field.name)!.value = this.asVariable(v, field.type, `${name}.${field.name}`, expr ?? item);
    });
    return { k: 'obj', t, fields };
  }

  /**
   * A variable template of the file (`template <int N> constexpr int padded_v = N + 1;`) named with its arguments
   * (`padded_v<32>`): its initializer with the parameters bound. Was: not evaluated, an extent made of it unknown.
   * Null where `node` names none.
   */
  private variableTemplate(node: Node): Value | null {
    const d = this.cfg.facts.constants.get(node.childForFieldName('name')?.text ?? '');
    const tdecl = d?.parent?.parent;
    const init = d?.childForFieldName('value');
    if (!init || tdecl?.type !== 'template_declaration') return null;
    const bound = this.templateBindings([readTemplateParams(tdecl.childForFieldName('parameters')), argumentNodes(node)]);
    return this.withBindings(bound, () => this.withHost(() => this.rvalue(init)));
  }

  /**
   * The type traits of `<type_traits>` and `<cuda/std/type_traits>` that code uses to pick a stride or a layout, where
   * the file does not declare them: `is_same_v<A, B>` (also `is_same<A, B>::value`), `is_floating_point_v<T>`,
   * `is_integral_v<T>`, `is_signed_v<T>`, `is_unsigned_v<T>`, each a bool known where its types are. Was: not
   * evaluated, and a stride chosen by one (`is_same_v<T, double> ? 1 : 2`) left every access `unknown`. Null for any
   * other name, or a type not known here.
   */
  private typeTrait(name: string, args: Node[]): Value | null {
    const m = /^(is_same|is_floating_point|is_integral|is_signed|is_unsigned)_v$/.exec(name);
    if (!m || this.cfg.facts.typeDecls.has(m[1]) || this.cfg.facts.typeDecls.has(name)) return null;
    if (!args.length || args.some((a) => a.type !== 'type_descriptor')) return null;
    const ts = args.map((a) => this.typeDescriptor(a));
    if (ts.some((t) => t.kind === 'unknown')) return null;
    const [a, b] = ts;
    const yes = m[1] === 'is_same' ? (b !== undefined && typeName(a) === typeName(b))
      : m[1] === 'is_floating_point' ? a.kind === 'float'
      : m[1] === 'is_integral' ? a.kind === 'int'
      : m[1] === 'is_signed' ? (a.kind === 'float' || (a.kind === 'int' && a.signed))
      : a.kind === 'int' && !a.signed;
    return num(yes ? 1 : 0, BUILTINS.bool ?? INT);
  }

  /**
   * The object of struct type `typeNode` that the braces `init` build (`return {t / 8, t % 8};` in a function that
   * returns a struct, `RowCol{r, c}`); null where the type is no struct of known layout. Was: not evaluated, each
   * member unknown.
   */
  private bracedObject(typeNode: Node | null, init: Node | null, name: string): Obj | null {
    if (!typeNode || init?.type !== 'initializer_list') return null;
    const t = typeNode.type === 'type_descriptor' ? this.typeDescriptor(typeNode) : this.resolveType(typeNode);
    const st = t.kind === 'vector' ? vectorFields(t) : t;
    return st.kind === 'struct' ? this.newObject(st, name, init, { k: 'other', what: 'aggregate' }, init) : null;
  }

  /** the return type a function definition writes: its type, or the trailing one after `auto f(...) ->`. */
  private returnTypeNode(fn: Node): Node | null {
    const t = fn.childForFieldName('type');
    if (t?.type !== 'placeholder_type_specifier') return t;
    for (let d = fn.childForFieldName('declarator'); d; d = d.childForFieldName('declarator')) {
      const tr = named(d).find((c) => c.type === 'trailing_return_type');
      if (tr) return named(tr).find((c) => c.type === 'type_descriptor') ?? null;
    }
    return t;
  }

  /**
   * A value as a variable of type `t` called `name` holds it (a local, a parameter, a data member): a number converted,
   * a pointer cast to the variable's pointee and named after it, an object copied. `at`: where a cast is said to be.
   */
  private asVariable(v: Value, t: CType, name: string, at: Node): Value {
    if (v.k === 'num' && (t.kind === 'int' || t.kind === 'float')) return convert(v, t);
    if (v.k === 'ptr') {
      const p = t.kind === 'pointer' && t.to.kind !== 'unknown' && t.to.kind !== 'void' ? this.castPtr(v, t.to, at) : v;
      return { ...p, name };
    }
    if (v.k === 'obj' && t.kind === 'pointer') {
      const p = this.objectPointer(v, name);
      return p.k === 'ptr' ? this.asVariable(p, t, name, at) : p;
    }
    if (v.k === 'obj') return copyObj(v, name);
    return v;
  }

  /**
   * A place a call returned by reference is read or written by the caller: its accesses are told apart by the call,
   * as the callee's own are (a device function's accesses can differ from one call to the next).
   */
  private returned(def: FunctionFact, call: Node, v: Value): Value {
    if (!def.returnsRef || v.k !== 'ref') return v;
    return { ...v, ctx: { ...this.ctx, call: `line ${call.startPosition.row + 1}` } };
  }

  /**
   * Among same-named functions that take as many arguments, the first whose parameters' class types are those of the
   * arguments (`load(FragA &f, p)` and `load(FragB &f, p)`: the argument's declared type picks one). A type not known
   * here, or one of a class template, rules nothing out; with no fit, the first of that arity.
   */
  private overload(defs: FunctionFact[], argNodes: Node[]): FunctionFact | undefined {
    // a parameter left unnamed counts (a tag: `f(int r, int c, std::true_type)`), though `params` holds the named ones
    const fits = defs.filter((d) => paramCount(d) === argNodes.length && !d.isKernel);
    if (fits.length < 2) return fits[0];
    const argTypes = argNodes.map((a) => this.staticType(a));
    // a `std::integral_constant` is a class of its own per value (tag dispatch on `std::true_type`)
    const isClass = (t: CType) => (t.kind === 'struct' || t.kind === 'vector') && (!t.name.includes('<') || INTEGRAL_VALUES.has(t));
    const clash = (a: CType, p: CType): boolean => {
      if (a.kind === 'pointer' && p.kind === 'pointer') return clash(a.to, p.to);
      if (isClass(a) && isClass(p)) return typeName(a) !== typeName(p);
      return (a.kind === 'pointer' && isClass(p)) || (isClass(a) && p.kind === 'pointer');
    };
    return fits.find((d) => declaredParams(d).every((prm, i) => !argTypes[i] || !clash(argTypes[i]!, this.declType(prm)))) ?? fits[0];
  }

  /** The declared type of an expression that names a variable, an element or what a pointer points to; null otherwise. */
  private staticType(n: Node): CType | null {
    if (n.type === 'parenthesized_expression' && named(n).length === 1) return this.staticType(named(n)[0]);
    // a temporary of a class (`Tag{}`, `std::true_type{}`)
    if (n.type === 'compound_literal_expression') {
      const tn = n.childForFieldName('type');
      const t = tn ? (tn.type === 'type_descriptor' ? this.typeDescriptor(tn) : this.resolveType(tn)) : null;
      return t && t.kind !== 'unknown' ? t : null;
    }
    if (n.type === 'identifier') {
      const b = this.binding(n.text);
      return b && !isBase(b) ? (b.value.k === 'obj' ? b.value.t : b.type) : null;
    }
    const arg = n.childForFieldName('argument');
    const t = arg ? this.staticType(arg) : null;
    if (!t) return null;
    if (n.type === 'subscript_expression') {
      if (t.kind === 'array') return t.dims.length > 1 ? { ...t, dims: t.dims.slice(1) } : t.elem;
      if (t.kind === 'pointer') return t.to;
      // a local array (`FragB b[4];`) is held as its element's type
      const b = arg!.type === 'identifier' ? this.binding(arg!.text) : null;
      return b && !isBase(b) && b.value.k === 'other' && b.value.what.startsWith('local array') ? t : null;
    }
    if (n.type === 'pointer_expression') {
      const op = n.childForFieldName('operator')?.text;
      return op === '&' ? { kind: 'pointer', to: t } : op === '*' && t.kind === 'pointer' ? t.to : null;
    }
    return null;
  }

  /** The member function `name` of an object's struct (by where it is defined), with `arity` parameters. */
  /**
   * A kernel parameter of a struct type (`Params p`, a functor `Op op`): an object whose integer members are unknown
   * values the same on every thread (`p.offset`, as a parameter of its own would be), its pointer members pointers of
   * the parameter, the others not evaluated.
   */
  private parameterObject(name: string, t: Extract<CType, { kind: 'struct' }>): Obj {
    const fields = new Map<string, { value: Value; type: CType }>();
    for (const f of t.fields) {
      const label = `${name}.${f.name}`;
      const value: Value = f.type.kind === 'int' ? atom(label, f.type) : f.type.kind === 'pointer' ? { k: 'other', what: `pointer parameter ${label}` } : unk(`\`${label}\` is not evaluated`);
      fields.set(f.name, { value, type: f.type });
    }
    return { k: 'obj', t, fields };
  }

  /** The `operator()` taking `arity` arguments of the class of the object `name` holds, with the object; null for any other. */
  private callOperator(name: string, arity: number): { def: FunctionFact; self: Obj } | null {
    const self = this.lookupVar(name)?.value;
    if (self?.k !== 'obj') return null;
    const among = [...this.cfg.facts.functions].filter(([n]) => n.replace(/\s+/g, '') === 'operator()').flatMap(([, d]) => d);
    const def = among.length ? this.memberDef(self, 'operator()', arity, among) : null;
    return def ? { def, self } : null;
  }

  private memberDef(self: { t: CType }, name: string, arity: number, among?: FunctionFact[]): FunctionFact | null {
    const decl = this.classDecl(self.t);
    if (!decl) return null;
    const inside = (among ?? this.cfg.facts.functions.get(name) ?? []).filter((d) => d.node.startIndex >= decl.startIndex && d.node.endIndex <= decl.endIndex);
    return inside.find((d) => d.params.length === arity) ?? null;
  }

  /**
   * A constructor's member initializers (`: data(data), B(32), D(N / B)`), in the order the members are declared, as
   * C++ runs them: each sees the constructor's parameters (which hide members of the same name) and the members
   * initialized before it.
   */
  private memberInitializers(def: FunctionFact): void {
    const list = named(def.node).find((c) => c.type === 'field_initializer_list');
    const self = list && this.lookupVar('this')?.value;
    if (!list || self?.k !== 'obj') return;
    const order = (n: Node) => self.t.kind === 'struct' ? self.t.fields.findIndex((f) => f.name === named(n)[0]?.text) : -1;
    for (const item of named(list).filter((c) => c.type === 'field_initializer').sort((a, b) => order(a) - order(b))) {
      const field = self.fields.get(named(item)[0]?.text ?? '');
      const given = named(named(item).find((c) => c.type === 'argument_list' || c.type === 'initializer_list') ?? null).filter((c) => c.type !== 'comment');
      if (!field) continue;
      const v = given.length === 1 ? this.rvalue(given[0]) : unk(`\`${item.text}\` is not one value`);
      field.value = this.asVariable(v, field.type, `${this.constructing ?? 'this'}.${named(item)[0].text}`, item);
    }
  }
  /**
   * The default member initializers of a class (`int ld = 33;`, `int w{4};`): what its members hold before a
   * constructor or a braced list sets them. Each is evaluated among the members set before it.
   */
  private memberDefaults(t: Extract<CType, { kind: 'struct' }>, name: string, fields: Map<string, { value: Value; type: CType }>): void {
    const body = this.classDecl(t)?.childForFieldName('body');
    if (!body) return;
    const self: Obj = { k: 'obj', t, fields };
    this.frame().scopes.push(this.memberScope(self));
    try {
      for (const fd of named(body).filter((c) => c.type === 'field_declaration')) {
        let last: string | null = null;
        const typeAt = fd.childForFieldName('type')?.startIndex;
        const defaults = new Set(fd.childrenForFieldName('default_value').map((d) => d?.startIndex));
        for (const c of named(fd)) {
          if (c.startIndex === typeAt) continue;
          if (c.type.endsWith('declarator') || c.type === 'field_identifier') last = c.type === 'field_identifier' ? c.text : declaratorName(c)?.text ?? null;
          else if (last && fields.has(last) && defaults.has(c.startIndex)) {
            const only = c.type === 'initializer_list' ? named(c) : [c];
            const field = fields.get(last)!;
            if (only.length === 1) field.value = this.asVariable(this.rvalue(only[0]), field.type, `${name}.${last}`, c);
          }
        }
      }
    } finally {
      this.frame().scopes.pop();
    }
  }

  /** The local object a constructor being run is building (its members are named after it). */
  private constructing: string | undefined;

  /**
   * A "parameter" of a declaration the grammar reads as a function's (`View w(tile, n);`) that names a variable (one
   * that names a macro or a constant, `View w(tile, ROWS)`, is evaluated as such).
   */
  private namesVariable(p: Node): boolean {
    const only = named(p);
    return p.type === 'parameter_declaration' && only.length === 1 && only[0].type === 'type_identifier' && !!this.binding(only[0].text);
  }

  /** What a member function called on an object sees beneath its own scopes: the data members, and `this`. */
  private memberScope(self: Obj): Map<string, Var | SharedBase> {
    const members = new Map<string, Var | SharedBase>(self.fields);
    members.set('this', { value: self, type: self.t });
    return members;
  }

  /**
   * What a member function called on an object in shared memory sees beneath its own scopes: each data member as a
   * reference to its place in that object (reading it loads, assigning it stores), and `this` as a pointer to it.
   */
  private sharedMemberScope(self: Ref): Map<string, Var | SharedBase> {
    const members = new Map<string, Var | SharedBase>();
    if (self.t.kind !== 'struct') return members;
    for (const f of self.t.fields) {
      if (!f.name) continue;
      const off = binary('+', self.off, num(f.offset), () => `${self.name}.${f.name}`, null) as Num;
      members.set(f.name, { value: { ...self, off, t: f.type, at: undefined }, type: f.type, ref: true });
    }
    members.set('this', { value: { k: 'ptr', base: self.base, off: self.off, to: self.t, name: self.name, flat: self.flat, alt: self.alt }, type: { kind: 'pointer', to: self.t } });
    return members;
  }

  /**
   * A lambda as a function the interpreter can inline, with the scopes it captures: the enclosing scopes themselves
   * where it captures by reference (`[&]`, and `[]`, which captures nothing), copies of their variables made here
   * where it captures by copy (`[=]`); variables the list names (`[=, &sum]`, `[&, i]`) are captured as it says.
   */
  private lambda(node: Node, name: string): Lambda | string {
    const caps = (node.childForFieldName('captures')?.text ?? '').replace(/^\[|\]$|\s+/g, '').split(',').filter((c) => c);
    const named_ = caps.filter((c) => c !== '&' && c !== '=' && !c.endsWith('this') && !/^&?[A-Za-z_]\w*=/.test(c));
    const refs = named_.filter((c) => c.startsWith('&')).map((c) => c.slice(1));
    const copies = named_.filter((c) => !c.startsWith('&'));
    const params: { name: string; node: Node }[] = [];
    for (const p of named(node.childForFieldName('declarator')?.childForFieldName('parameters') ?? null)) {
      const n = declaratorName(p.childForFieldName('declarator'));
      if (n) params.push({ name: n.text, node: p });
    }
    const body = node.childForFieldName('body');
    if (!body) return `the lambda \`${name}\` has no body`;
    const def: FunctionFact = {
      name, node, outer: node, isKernel: false, isDevice: true, templateParams: [], classTemplateParams: [], params, body, launchBounds: null,
      ...(/->[^{]*&\s*$/.test(node.childForFieldName('declarator')?.text ?? '') ? { returnsRef: true } : {}),
    };
    // a copy holds the value of now; shared arrays are not copied: they are the same memory
    const copy = (v: Var | SharedBase): Var | SharedBase => (isBase(v) ? v : { ...v });
    const share = caps.includes('&') || (!caps.includes('=') && !copies.length);
    const scopes = this.frame().scopes;
    const overlay = new Map<string, Var | SharedBase>();
    for (const n of share ? copies : refs) {
      const v = this.binding(n);
      if (v) overlay.set(n, share ? copy(v) : v);
    }
    // an init capture (`[ld = TILE_DIM]`, `[&acc = sum]`): a variable of the lambda's own, its value the initializer's
    // now; a reference one names the variable it is given. Was: the name not known in the body
    for (const c of named(node.childForFieldName('captures'))) {
      if (c.type !== 'lambda_capture_initializer') continue;
      const id = named(c).find((k) => k.type === 'identifier');
      const init = named(c).filter((k) => k !== id).pop();
      if (!id || !init) continue;
      if (kids(c)[0]?.type === '&') {
        const v = init.type === 'identifier' ? this.binding(init.text) : undefined;
        if (v) overlay.set(id.text, v);
        continue;
      }
      const v = this.rvalue(init);
      const type: CType = v.k === 'num' ? v.t : v.k === 'ptr' ? { kind: 'pointer', to: v.to } : { kind: 'unknown', name: 'auto' };
      overlay.set(id.text, { value: v, type });
    }
    return { def, scopes: [...(share ? scopes : scopes.map((m) => new Map([...m].map(([k, v]) => [k, copy(v)])))), overlay] };
  }

  private dim3(args: Value[]): Value {
    const one = num(1, UINT);
    return { k: 'dim3', x: args[0] ?? one, y: args[1] ?? one, z: args[2] ?? one };
  }

  private typeCache = new Map<string, CType>();

  resolveType(node: Node): CType {
    if (node.type === 'template_type') {
      const t = this.templateStruct(node);
      if (t) return t;
    }
    const acc = this.accumulateType(node) ?? this.openCvVecType(node) ?? this.stdArray(node) ?? this.integralConstant(node);
    if (acc) return acc;
    // `typename Acc<T>::type`: the type the instance defines
    let q: Node | null = node.type === 'dependent_type' ? named(node)[0] ?? null : node;
    // `std::conditional_t<B, X, Y>`, `std::conditional<B, X, Y>::type`: X where B holds, else Y
    while (q?.type === 'qualified_identifier' && /^(std|cuda)$/.test(q.childForFieldName('scope')?.text ?? '')) q = q.childForFieldName('name');
    const pick = q?.type === 'template_type' && q.childForFieldName('name')?.text === 'conditional_t' ? q
      : q?.type === 'qualified_identifier' && q.childForFieldName('name')?.text === 'type' && q.childForFieldName('scope')?.type === 'template_type' &&
        q.childForFieldName('scope')!.childForFieldName('name')?.text === 'conditional' && !this.cfg.facts.typeDecls.has('conditional') ? q.childForFieldName('scope') : null;
    if (pick && !this.cfg.facts.typeDecls.has('conditional_t')) {
      const [b, x, y] = argumentNodes(pick);
      const holds = b ? uniformValue(this.withHost(() => this.rvalue(b))) : null;
      const chosen = holds === null ? null : holds ? x : y;
      return chosen?.type === 'type_descriptor' ? this.typeDescriptor(chosen) : { kind: 'unknown', name: pick.text };
    }
    if (q?.type === 'qualified_identifier') {
      const t = this.classMemberType(q);
      if (t) return t;
    }
    const text = node.text.replace(/\s+/g, ' ').replace(/\b(const|volatile|__restrict__|struct|class|union|typename|signed(?= (?:char|int|short|long)))\b/g, '').trim();
    return this.resolveTypeName(text, node);
  }

  /**
   * `std::integral_constant<T, v>` and its names `std::bool_constant<v>`, `std::true_type`, `std::false_type` (also in
   * `cuda::std`), where the file does not declare them: an empty class (1 byte) per type and value, whose `value` is v
   * (`Stride::value`) and whose type tells overloads apart (tag dispatch: `f(x, std::true_type)` and `f(x,
   * std::false_type)`). Was: a type not known, so `Stride::value` was unknown and the first overload was always taken.
   * Null for any other type, or a value not known here.
   */
  private integralConstant(node: Node): CType | null {
    let q: Node | null = node;
    while (q?.type === 'qualified_identifier' && /^(?:::)?(?:cuda::)?std$/.test(q.childForFieldName('scope')?.text ?? '')) q = q.childForFieldName('name');
    // `std::true_type::value` names the type as a scope (a namespace identifier to the grammar)
    // (`std::integral_constant<int, 3>()` and `std::true_type()` name it as a function: a template_function, an identifier)
    const name = q?.type === 'template_type' || q?.type === 'template_function' ? q.childForFieldName('name')?.text
      : q?.type === 'type_identifier' || q?.type === 'namespace_identifier' || q?.type === 'identifier' ? q.text : undefined;
    if (!name || !/^(integral_constant|bool_constant|true_type|false_type)$/.test(name) || this.cfg.facts.typeDecls.has(name)) return null;
    let t: CType = BUILTINS.bool ?? INT;
    let v: number | null;
    if (name === 'true_type' || name === 'false_type') v = name === 'true_type' ? 1 : 0;
    else {
      const args = argumentNodes(q!);
      if (args.length !== (name === 'bool_constant' ? 1 : 2)) return null;
      if (name === 'integral_constant') {
        if (args[0].type !== 'type_descriptor') return null;
        t = this.typeDescriptor(args[0]);
        if (t.kind !== 'int') return null;
      }
      const val = this.withHost(() => this.rvalue(args[args.length - 1]));
      v = uniformValue(val);
      if (v === null || !Number.isInteger(v)) return null;
      if (typeName(t) === 'bool') v = v ? 1 : 0;
    }
    const key = `std::integral_constant<${typeName(t)}, ${typeName(t) === 'bool' ? (v ? 'true' : 'false') : v}>`;
    const known = INTEGRAL_TYPES.get(key);
    if (known) return known;
    const out: CType = { kind: 'struct', name: key, bytes: 1, align: 1, fields: [] };
    INTEGRAL_TYPES.set(key, out);
    INTEGRAL_VALUES.set(out, num(v, t));
    return out;
  }

  /**
   * `std::array<T, N>` and `cuda::std::array<T, N>`, where the file does not declare an `array`: laid out as `T[N]`
   * (an aggregate whose one member is that array), so `a[i]` is its element i and `std::array<std::array<float, 33>,
   * 32>` is `float[32][33]`. Was: a type not known, each access of a shared one left out and its `size()` reported.
   * Null for any other type.
   */
  private stdArray(node: Node): CType | null {
    if (node.type !== 'qualified_identifier' && node.type !== 'template_type') return null;
    const text = node.text.replace(/\s+/g, '');
    if (!/^(?:::)?(?:cuda::)?std::array</.test(text) || this.cfg.facts.typeDecls.has('array')) return null;
    let q: Node | null = node;
    while (q?.type === 'qualified_identifier') q = q.childForFieldName('name');
    if (q?.type !== 'template_type' || q.childForFieldName('name')?.text !== 'array') return null;
    const [elemNode, countNode] = argumentNodes(q);
    if (elemNode?.type !== 'type_descriptor' || !countNode) return null;
    const elem = this.typeDescriptor(elemNode);
    const n = uniformValue(this.withHost(() => this.rvalue(countNode)));
    if (elem.kind === 'unknown' || n === null || !Number.isInteger(n) || n < 1) return null;
    return elem.kind === 'array' ? { kind: 'array', elem: elem.elem, dims: [n, ...elem.dims] } : { kind: 'array', elem, dims: [n] };
  }

  /**
   * ATen's accumulate types, where the file does not declare them (ATen/AccumulateType.h, OpMathType.h):
   * `at::acc_type<T, true>` is float for float, half and bfloat16, double for double, int64_t for an integer;
   * `at::opmath_type<T>` is float for half and bfloat16, else T. Null for any other type.
   */
  private accumulateType(node: Node): CType | null {
    let q: Node | null = node;
    while (q?.type === 'qualified_identifier' && /^(at|c10|at::native)$/.test(q.childForFieldName('scope')?.text ?? '')) q = q.childForFieldName('name');
    const name = q?.type === 'template_type' ? q.childForFieldName('name')?.text : undefined;
    if (!name || !/^(acc_type|opmath_type)$/.test(name) || this.cfg.facts.typeDecls.has(name)) return null;
    const [arg, onCuda] = argumentNodes(q!);
    if (arg?.type !== 'type_descriptor') return null;
    const t = this.typeDescriptor(arg);
    if (t.kind === 'float') return t.bytes === 8 ? t : name === 'acc_type' && onCuda?.text === 'false' ? BUILTINS.double : FLOAT;
    if (t.kind === 'int' && name === 'acc_type') return t.bytes === 1 && t.name === 'bool' ? t : BUILTINS.int64_t;
    return name === 'opmath_type' && t.kind !== 'unknown' ? t : null;
  }

  /**
   * OpenCV's vector type traits, where the file does not declare them (opencv2/core/cuda/vec_traits.hpp, cudev's
   * vec_traits.hpp): `TypeVec<T, N>::vec_type` is T for N = 1, else the CUDA vector of N T's (`TypeVec<float, 4>` is
   * float4); N may be `VecTraits<U>::cn`, U's count of components (1 for a scalar). Null for any other type.
   */
  private openCvVecType(node: Node): CType | null {
    let q: Node | null = node.type === 'dependent_type' ? named(node)[0] ?? null : node;
    // `cv::cuda::device::TypeVec<...>::vec_type`: the scopes before the template
    while (q?.type === 'qualified_identifier' && q.childForFieldName('scope')?.type !== 'template_type' && q.childForFieldName('name')?.type === 'qualified_identifier') q = q.childForFieldName('name');
    const scope = q?.type === 'qualified_identifier' && q.childForFieldName('name')?.text === 'vec_type' ? q.childForFieldName('scope') : null;
    if (scope?.type !== 'template_type' || scope.childForFieldName('name')?.text !== 'TypeVec' || this.cfg.facts.typeDecls.has('TypeVec')) return null;
    const [arg, count] = argumentNodes(scope);
    if (arg?.type !== 'type_descriptor' || !count) return null;
    const t = this.typeDescriptor(arg);
    const n = this.vecTraitsCount(count);
    if (n === null || (t.kind !== 'int' && t.kind !== 'float')) return null;
    if (n === 1) return t;
    const v = Object.values(BUILTINS).find((b) => b.kind === 'vector' && b.count === n && b.comp.kind === t.kind && b.comp.bytes === t.bytes &&
      (t.kind !== 'int' || b.comp.kind !== 'int' || b.comp.signed === t.signed));
    return v ?? null;
  }

  /** The count `TypeVec` is given: a number, a template argument, or `VecTraits<U>::cn` (see openCvVecType). */
  private vecTraitsCount(count: Node): number | null {
    const inner = count.type === 'type_descriptor' ? count.childForFieldName('type') : count;
    const scope = inner?.type === 'qualified_identifier' && inner.childForFieldName('name')?.text === 'cn' ? inner.childForFieldName('scope') : null;
    if (scope?.type === 'template_type' && scope.childForFieldName('name')?.text === 'VecTraits' && !this.cfg.facts.typeDecls.has('VecTraits')) {
      const u = argumentNodes(scope)[0];
      const ut = u?.type === 'type_descriptor' ? this.typeDescriptor(u) : null;
      return ut?.kind === 'vector' ? ut.count : ut?.kind === 'int' || ut?.kind === 'float' ? 1 : null;
    }
    const v = uniformValue(this.withHost(() => this.rvalue(inner ?? count)));
    return v !== null && v >= 1 && v <= 4 ? v : null;
  }

  resolveTypeName(text: string, node?: Node): CType {
    const clean = text.replace(/\s+/g, ' ').replace(/^(?:::)?(?:std|cuda|cute)::/, '').trim();
    const b = BUILTINS[clean];
    if (b) return b;
    const lib = LIBRARY_TYPES[clean.replace(/^(?:::)?c10::/, 'at::').replace(/^::/, '')];
    const bare = clean.replace(/^.*::/, '');
    if (lib && !this.cfg.facts.typeDecls.has(bare) && !this.cfg.facts.macros.has(bare)) return lib;
    // a template parameter bound in a caller's run (the kernel's `T`) is hidden by a type the running function defines
    // of the same name (TensorRT's `copy<Bytes>`: `using T = typename BytesToType<Bytes>::type;`)
    const tv = this.shadowedByLocalType(clean) ? undefined : this.cfg.types.get(clean);
    if (tv) return tv;
    if (clean === 'void') return { kind: 'void' };
    if (clean.endsWith('*')) {
      const stars = /\**$/.exec(clean)![0].length;
      let t: CType = this.resolveTypeName(clean.slice(0, -stars));
      for (let i = 0; i < stars; i++) t = { kind: 'pointer', to: t };
      return t;
    }
    // a type defined in a function being run (mgpu's `union Shared { ... }` and `typedef CTAReduce<NT> R;` in each
    // kernel) is that function's, not another function's of the same name
    const found = this.localTypeDecl(clean);
    const local = found?.node;
    // one in the kernel is laid out once per run; one in a device function or a class is laid out where it is named,
    // with the parameters then bound (a member `typedef typename Op::value_type T;` differs between instances)
    const key = local ? `${clean}@${local.startIndex}` : clean;
    const cached = this.typeCache.get(key);
    if (cached && (!found || found.once)) return cached;
    let out: CType = { kind: 'unknown', name: clean };
    const declNode = local ?? this.cfg.facts.typeDecls.get(clean) ?? namespacedDecl(clean, this.cfg.facts.typeDecls);
    this.typeCache.set(key, out); // guards recursive definitions
    const mac = declNode ? undefined : this.macroNamed(clean);
    if (declNode) out = this.typeFromDecl(clean, declNode);
    else if (node && /^(struct|class|union)_specifier$/.test(node.type) && node.childForFieldName('body'))
      out = this.typeFromDecl(clean, node);
    else if (mac && mac.params === null && /^[A-Za-z_][\w: ]*\**$/.test(mac.body.trim())) {
      // an object-like macro that names a type (`#define fp double`, `#define DATA_TYPE float`): that type, the name
      // kept for the messages; the cache entry above stops a macro that names itself
      const t = this.resolveTypeName(mac.body.replace(/\b(const|volatile|struct|class|union)\b/g, '').trim());
      if (t.kind !== 'unknown') out = t;
    }
    if (found && !found.once) this.typeCache.delete(key);
    else this.typeCache.set(key, out);
    if (local && /_specifier$/.test(local.type) && out.kind === 'struct') this.classDecls.set(out, local);
    return out;
  }

  /** the classes whose member types are in scope beyond the running functions' (a nested class being laid out). */
  private classScopes: Node[] = [];

  /** each function's own type definitions by name (structs, unions and classes with a body, typedefs, aliases). */
  private localTypes = new WeakMap<Node, Map<string, Node>>();

  /**
   * The definition of type `name` in the innermost scope that defines one: a class being laid out, then each function
   * being run (innermost first) and the class it is a member of (`typedef typename Op::value_type T;` in CTAReduce).
   * `once`: it is the kernel's own, the same wherever it is named in this run.
   */
  private localTypeDecl(name: string): { node: Node; once: boolean } | undefined {
    for (let i = this.classScopes.length - 1; i >= 0; i--) {
      const d = this.ownTypes(this.classScopes[i]).get(name);
      if (d) return { node: d, once: false };
    }
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const fn = this.frames[i].fn?.node;
      if (!fn) continue;
      const d = this.ownTypes(fn).get(name);
      if (d) return { node: d, once: i === 0 };
      const cls = enclosingClass(fn);
      const m = cls ? this.ownTypes(cls).get(name) : undefined;
      if (m) return { node: m, once: false };
    }
    return undefined;
  }

  /**
   * Whether `name`, a template parameter bound in `cfg.types`, is hidden here by a type a running function (or a class
   * being laid out) defines: the innermost scope that either defines it or has it as a template parameter decides.
   */
  private shadowedByLocalType(name: string): boolean {
    if (!this.cfg.types.has(name)) return false;
    for (let i = this.classScopes.length - 1; i >= 0; i--) if (this.ownTypes(this.classScopes[i]).has(name)) return true;
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const fn = this.frames[i].fn;
      if (!fn?.node) continue;
      if (fn.templateParams.some((p) => p.name === name) || fn.classTemplateParams.some((p) => p.name === name)) return false;
      if (this.ownTypes(fn.node).has(name)) return true;
    }
    return false;
  }

  /** The types a function's body or a class's body defines, by name (a class's: its members only). */
  private ownTypes(scope: Node): Map<string, Node> {
    const memo = this.localTypes.get(scope);
    if (memo) return memo;
    const own = new Map<string, Node>();
    const isClass = /^(struct|class|union)_specifier$/.test(scope.type);
    const stack: Node[] = [...named(scope.childForFieldName('body'))];
    while (stack.length) {
      const n = stack.pop()!;
      if (/^(struct|class|union)_specifier$/.test(n.type) && n.childForFieldName('body')) {
        const nm = n.childForFieldName('name');
        if (nm) own.set(nm.text, n);
        continue; // a nested class's own definitions are its members
      }
      if (n.type === 'type_definition') for (const d of n.childrenForFieldName('declarator')) { const nm = d && declaratorName(d); if (nm) own.set(nm.text, n); }
      else if (n.type === 'alias_declaration') { const nm = n.childForFieldName('name'); if (nm) own.set(nm.text, n); }
      // a class's members: a nested class defined in a member declaration, not what its functions define
      else if (isClass && n.type === 'field_declaration') stack.push(...named(n).filter((c) => /_specifier$/.test(c.type)));
      else if (!isClass) stack.push(...named(n));
    }
    this.localTypes.set(scope, own);
    return own;
  }

  /**
   * the template arguments each class template instance's type was laid out with (`TileT<float, 32>`); this and the
   * two tables below belong to the type, not to one run: a kernel's type parameter bound in its launcher
   * (`using Ktraits = Traits<128, float>; k<Ktraits><<<...>>>`) is the type the launcher's run laid out
   */
  private templateArgs = TEMPLATE_ARGS;
  /** each inline PTX shared instruction's last place (by asm node, instruction and call site), for the runs whose address is lost. */
  private asmSites = new Map<string, Ref>();
  /** the values and types each class template instance's parameters were bound to, where its type was named. */
  private templateBound = TEMPLATE_BOUND;

  /**
   * An instance of a class template defined in the file (`TileT<float, 32>`): laid out with its parameters bound to
   * the arguments; its objects' member functions are called with them bound too. Null when it is not one.
   */
  /** The template values and types in force with each pair's parameters bound to its arguments, over the current ones. */
  private templateBindings(...pairs: [FunctionFact['templateParams'], Node[]][]): { values: Map<string, Value>; types: Map<string, CType> } {
    const values = new Map(this.cfg.values);
    const types = new Map(this.cfg.types);
    for (const [params, targs] of pairs)
      params.forEach((tp, i) => {
        // a pack of values takes the arguments from here on, a pack expansion among them (`sumOf<Pads...>()`) spliced
        if (tp.isPack && !tp.isType) {
          const items: Value[] = [];
          for (const a of targs.slice(i)) {
            const inner = a.type === 'parameter_pack_expansion' ? named(a)[0] : null;
            const given = inner ? values.get(`${inner.text.trim()}...`) : undefined;
            if (given?.k === 'other' && given.items) items.push(...given.items);
            else items.push(inner ? unk(`\`${a.text}\` is not a pack known here`) : this.rvalue(a));
          }
          values.set(`${tp.name}...`, valuePack(items));
          values.set(tp.name, unk(`\`${tp.name}\` is a parameter pack, named outside a pack expansion`));
          return;
        }
        const a = targs[i];
        if (!a && tp.defaultNode) {
          // a default argument (`typename Op = ScanOpAdd`, `bool More = (X > 1)`): evaluated with the parameters
          // before it bound
          const d = tp.defaultNode;
          const saved: [Map<string, Value>, Map<string, CType>] = [this.cfg.values, this.cfg.types];
          [this.cfg.values, this.cfg.types] = [values, types];
          try {
            if (tp.isType) types.set(tp.name, d.type === 'type_descriptor' ? this.typeDescriptor(d) : this.resolveType(d));
            else values.set(tp.name, this.withHost(() => this.rvalue(d)));
          } finally {
            [this.cfg.values, this.cfg.types] = saved;
          }
          return;
        }
        if (!a) return;
        // a template template parameter (`template <typename> class Data`, given `Strided`): the template it names,
        // for the types made of it (`Data<T>`, see templateStruct)
        if (tp.isTemplate) values.set(tp.name, { k: 'other', what: `${TEMPLATE_NAME}${a.text.trim()}` });
        else if (tp.isType) types.set(tp.name, this.typeDescriptor(a));
        else values.set(tp.name, this.rvalue(a));
      });
    return { values, types };
  }

  private templateStruct(node: Node): CType | null {
    let name = node.childForFieldName('name')?.text;
    // `Data<T>` with `Data` a template template parameter bound to `Strided`: `Strided<T>` (was: a type not known, and
    // the member of it read as the pointer it was initialized from: TensorFlow's topk heap over StridedData)
    const given = name ? this.cfg.values.get(name) : undefined;
    if (given?.k === 'other' && given.what.startsWith(TEMPLATE_NAME)) name = given.what.slice(TEMPLATE_NAME.length);
    const decl = name ? this.cfg.facts.typeDecls.get(name) : undefined;
    const tdecl = decl?.parent;
    // an alias template (`template <typename T> using Pack4 = Packed<T, 4>;`): its type with the parameters bound.
    // Was: a type not known, each access of a `Pack4<float>` array unknown
    if (decl?.type === 'alias_declaration' && tdecl?.type === 'template_declaration') {
      const bound = this.templateBindings([readTemplateParams(tdecl.childForFieldName('parameters')), argumentNodes(node)]);
      return this.withBindings(bound, () => this.typeFromDecl(name!, decl));
    }
    if (!decl || !/^(struct|class)_specifier$/.test(decl.type) || tdecl?.type !== 'template_declaration') return null;
    const params = readTemplateParams(tdecl.childForFieldName('parameters'));
    const targs = argumentNodes(node);
    const bound = this.templateBindings([params, targs]);
    // the instance is named by its arguments' values (`Tile<N>` is two types where N is 4 in one call and 8 in another)
    const key = `${name}<${params.map((tp, i) => {
      const pack = tp.isPack ? bound.values.get(`${tp.name}...`) : undefined;
      if (pack?.k === 'other' && pack.items) return pack.items.map((v, j) => uniformValue(v) ?? targs[i + j]?.text ?? '?').join(', ');
      const v = bound.values.get(tp.name);
      const u = v ? uniformValue(v) : null;
      return !targs[i] && !tp.defaultNode ? '' : tp.isType ? typeName(bound.types.get(tp.name)!) : u !== null ? String(u) : targs[i]?.text ?? tp.defaultNode!.text;
    }).join(', ')}>`;
    const cached = this.typeCache.get(key);
    if (cached) return cached;
    // a partial or full specialization whose arguments match (`template <typename T> struct Op<SUM, T>`) is the class
    const spec = this.classSpecialization(name!, params, targs, bound);
    if (spec === 'unknown') {
      const t: CType = { kind: 'unknown', name: key };
      this.typeCache.set(key, t);
      return t;
    }
    // no specialization matches and the class template is only declared: an incomplete type
    if (!spec && !decl.childForFieldName('body')) {
      const t: CType = { kind: 'unknown', name: key };
      this.typeCache.set(key, t);
      return t;
    }
    const use = spec ?? { decl, params, bound };
    const savedValues = this.cfg.values;
    const savedTypes = this.cfg.types;
    ({ values: this.cfg.values, types: this.cfg.types } = use.bound);
    let t: CType;
    try {
      this.typeCache.set(key, { kind: 'unknown', name: key }); // guards recursive definitions
      t = this.typeFromDecl(key, use.decl);
    } finally {
      this.cfg.values = savedValues;
      this.cfg.types = savedTypes;
    }
    this.typeCache.set(key, t);
    this.classDecls.set(t, use.decl);
    if (!spec) this.templateArgs.set(t, targs);
    const own = { values: new Map<string, Value>(), types: new Map<string, CType>() };
    for (const tp of use.params) {
      if (tp.isType && use.bound.types.has(tp.name)) own.types.set(tp.name, use.bound.types.get(tp.name)!);
      if (!tp.isType && use.bound.values.has(tp.name)) own.values.set(tp.name, use.bound.values.get(tp.name)!);
      if (tp.isPack && use.bound.values.has(`${tp.name}...`)) own.values.set(`${tp.name}...`, use.bound.values.get(`${tp.name}...`)!);
    }
    this.templateBound.set(t, own);
    return t;
  }

  /** the definition each class template instance was laid out from: the primary template's or a specialization's. */
  private classDecls = CLASS_DECLS;

  /** The struct definition a type was laid out from (a class template instance's may be a specialization's). */
  private classDecl(t: CType): Node | undefined {
    return this.classDecls.get(t) ?? (t.kind === 'struct' ? this.cfg.facts.typeDecls.get(t.name.replace(/\s*<.*$/, '')) : undefined);
  }

  /**
   * The specialization of class template `name` that an instance with arguments `targs` (bound to the primary's
   * `params` in `bound`) is, with its own parameters bound: a full one (`template <> struct S<float>`) or a partial
   * one (`template <typename T> struct Op<SUM, T>`, `struct P<T *>`), the most specialized (fewest parameters of its
   * own) among those that match. Null: none matches, the primary template is the class. 'unknown': whether one matches
   * cannot be decided here (an argument or a pattern that is not evaluated).
   */
  private classSpecialization(name: string, params: FunctionFact['templateParams'], targs: Node[], bound: ClassBinding):
    { decl: Node; params: FunctionFact['templateParams']; bound: ClassBinding } | null | 'unknown' {
    let best: { decl: Node; params: FunctionFact['templateParams']; bound: ClassBinding } | null = null;
    let undecided = false;
    for (const [k, decl] of this.cfg.facts.typeDecls) {
      if (!k.replace(/\s+</, '<').startsWith(`${name}<`) || !/^(struct|class)_specifier$/.test(decl.type)) continue; // `SharedMem <float>`
      const nameNode = decl.childForFieldName('name');
      if (nameNode?.type !== 'template_type' || nameNode.childForFieldName('name')?.text !== name) continue;
      const own = decl.parent?.type === 'template_declaration' ? readTemplateParams(decl.parent.childForFieldName('parameters')) : [];
      const pats = argumentNodes(nameNode);
      if (pats.length !== params.length) continue;
      const mine: ClassBinding = { values: new Map(this.cfg.values), types: new Map(this.cfg.types) };
      const fixed = new Set<string>();
      const mentions = (p: Node) => own.some((tp) => new RegExp(`\\b${tp.name}\\b`).test(p.text));
      let verdict: boolean | null = true;
      for (let i = 0; i < pats.length && verdict; i++) {
        const p = pats[i];
        const tp = params[i];
        if (!targs[i] && !tp.defaultNode) { verdict = null; break; }
        const text = p.text.replace(/\s+/g, ' ').trim();
        const param = own.find((o) => o.name === text || tp.isType && `${o.name} *` === text.replace(/\s*\*$/, ' *'));
        if (tp.isType) {
          let actual = bound.types.get(tp.name);
          if (!actual || actual.kind === 'unknown') { verdict = null; break; }
          if (param) {
            if (text !== param.name) actual = actual.kind === 'pointer' ? actual.to : undefined;
            if (!actual) { verdict = false; break; }
            if (fixed.has(param.name)) verdict = typeName(mine.types.get(param.name)!) === typeName(actual);
            else { mine.types.set(param.name, actual); fixed.add(param.name); }
          } else if (mentions(p)) {
            // `Op<Float2<T, A>>`: only an instance of that class template can match it
            const cls = p.childForFieldName('type');
            const of = cls?.type === 'template_type' ? cls.childForFieldName('name')?.text : undefined;
            verdict = of && !(actual.kind === 'struct' && actual.name.startsWith(`${of}<`)) ? false : null;
          } else {
            const want = this.typeDescriptor(p);
            verdict = want.kind === 'unknown' ? null : typeName(want) === typeName(actual);
          }
        } else {
          const v = bound.values.get(tp.name);
          const actual = v ? uniformValue(v) : null;
          if (actual === null) { verdict = null; break; }
          if (param && !param.isType && text === param.name) {
            if (fixed.has(param.name)) verdict = uniformValue(mine.values.get(param.name)!) === actual;
            else { mine.values.set(param.name, v!); fixed.add(param.name); }
          } else if (mentions(p)) verdict = null;
          else {
            const want = uniformValue(this.rvalue(p));
            verdict = want === null ? null : want === actual;
          }
        }
      }
      if (verdict === null) undecided = true;
      else if (verdict && (!best || own.length < best.params.length)) best = { decl, params: own, bound: mine };
    }
    return best ?? (undecided ? 'unknown' : null);
  }

  private typeFromDecl(name: string, decl: Node): CType {
    if (decl.type === 'struct_specifier' || decl.type === 'class_specifier' || decl.type === 'union_specifier') {
      const body = decl.childForFieldName('body');
      const members: { name: string; type: CType; align?: number; bits?: number }[] = [];
      // base classes come first, in order, as unnamed members; one without data members takes no room
      for (const b of named(kids(decl).find((c) => c.type === 'base_class_clause') ?? null)) {
        if (b.type === 'access_specifier' || b.type === 'virtual') continue;
        const bt = this.resolveType(b);
        if (bt.kind !== 'struct') return { kind: 'unknown', name: `${name} (its base class \`${b.text}\` is not known)` };
        if (bt.fields.length) members.push({ name: '', type: bt });
      }
      for (const f of named(body)) {
        // a static member (`static constexpr int kPad = 1;`) is no part of an object, nor is a member function declared
        if (f.type !== 'field_declaration' || hasToken(f, 'static')) continue;
        const ft = f.childForFieldName('type');
        if (!ft) continue;
        // a struct or union defined in place (`union { int u[32]; float f[32]; } x;`), named or not
        const inPlace = /^(struct|union|class)_specifier$/.test(ft.type) && ft.childForFieldName('body');
        const base = inPlace ? this.typeFromDecl(ft.childForFieldName('name')?.text ?? `${ft.type.split('_')[0]} in ${name}`, ft) : this.resolveType(ft);
        const declarators = f.childrenForFieldName('declarator').filter((c): c is Node => !!c);
        // `alignas(16) float y;` (`__align__(16)`, which the preprocessor spells alignas)
        const alignas = kids(f).map((c) => (c.type === 'type_qualifier' ? named(c)[0] : null)).find((c) => c?.type === 'alignas_qualifier');
        const align = alignas ? uniformValue(this.rvalue(named(alignas)[0] ?? alignas)) : 1;
        if (align === null || !Number.isInteger(align) || align < 1 || (align & (align - 1)) !== 0)
          return { kind: 'unknown', name: `${name} (the alignment \`${alignas?.text ?? ''}\` of a member could not be evaluated)` };
        // a bit-field (`unsigned lo : 4;`, also unnamed `unsigned : 0;`): its width in bits
        const clause = kids(f).find((c) => c.type === 'bitfield_clause');
        if (clause) {
          const w = uniformValue(this.rvalue(named(clause)[0] ?? clause));
          if (w === null || !Number.isInteger(w) || w < 0) return { kind: 'unknown', name: `${name} (the width \`${clause.text}\` of a bit-field could not be evaluated)` };
          const n = declarators.length ? declaratorName(declarators[0]) : null;
          members.push({ name: n?.text ?? '', type: base, align, bits: w });
          continue;
        }
        // an anonymous member (`union { ... };`): its members are the enclosing struct's, at its offset
        if (inPlace && !declarators.length) members.push({ name: '', type: base, align });
        for (const d of declarators) {
          let t = base;
          let cur: Node | null = d;
          const dims: number[] = [];
          while (cur && (cur.type === 'array_declarator' || cur.type === 'pointer_declarator' || cur.type === 'reference_declarator')) {
            // (a reference member is held as an address; `T &operator[](int);` is a member function, below)
            if (cur.type === 'pointer_declarator' || cur.type === 'reference_declarator') t = { kind: 'pointer', to: t };
            else {
              // `float tail[];` (a flexible array member, or half-typed): no extent, nothing of the struct's size
              const size = cur.childForFieldName('size');
              const u = size ? uniformValue(this.rvalue(size)) : 0;
              dims.unshift(u ?? 0);
            }
            cur = cur.type === 'reference_declarator' ? named(cur)[0] ?? null : cur.childForFieldName('declarator');
          }
          if (dims.length) t = { kind: 'array', elem: t, dims };
          // a member function declared (`float get() const;`, `T &operator[](int i);`, was: a member of the returned
          // type, so Packed128 of llm.c was 32 bytes, not 16) takes no room; a pointer to a function (`float (*fp)(int);`) does
          const fnPtr = cur?.type === 'function_declarator' && cur.childForFieldName('declarator')?.type === 'parenthesized_declarator';
          if (fnPtr) t = { kind: 'pointer', to: t };
          const n = cur?.type === 'function_declarator' && !fnPtr ? null : declaratorName(d);
          if (n) members.push({ name: n.text, type: t, align });
        }
      }
      if (decl.type === 'union_specifier') {
        // every member is at offset 0, whatever the size of the others (`union { typename BlockReduce::TempStorage
        // reduce; int idx[4096]; }`: `idx[j]` is exact where the union's size is not known)
        if (members.some((m) => sizeOf(m.type) === null)) return { kind: 'unknown', name, fields: flattenAnonymous(members.map((m) => ({ name: m.name, type: m.type, offset: 0 }))) };
        const align = Math.max(1, ...members.map((m) => Math.max(alignOf(m.type), m.align ?? 1)));
        const bytes = Math.ceil(Math.max(0, ...members.map((m) => sizeOf(m.type)!)) / align) * align;
        return { kind: 'struct', name, bytes, align, fields: flattenAnonymous(members.map((m) => ({ name: m.name, type: m.type, offset: 0 }))) };
      }
      // `struct __align__(16) P { ... }` (the preprocessor spells it alignas)
      const written = kids(decl).find((c) => c.type === 'alignas_qualifier');
      const align = written ? uniformValue(this.rvalue(named(written)[0] ?? written)) : 1;
      if (align === null || !Number.isInteger(align) || align < 1 || (align & (align - 1)) !== 0)
        return { kind: 'unknown', name: `${name} (its alignment \`${written?.text ?? ''}\` could not be evaluated)` };
      const laid = layoutStruct(name, members, align, packingAt(decl));
      return (laid.kind === 'struct' || laid.kind === 'unknown') && laid.fields ? { ...laid, fields: flattenAnonymous(laid.fields) } : laid;
    }
    if (decl.type === 'type_definition') {
      const tn = decl.childForFieldName('type');
      if (!tn) return { kind: 'unknown', name };
      let t = this.resolveType(tn);
      for (const d of decl.childrenForFieldName('declarator').filter((c): c is Node => !!c)) {
        if (declaratorName(d)?.text !== name) continue;
        // `typedef T (*ShareMemory)[TileY + 1];` (Paddle's tile over a `char` buffer) is a pointer to rows
        t = this.declaratorType(t, d) ?? { kind: 'unknown', name: `${name} (an extent of \`${d.text}\` could not be evaluated)` };
      }
      return t;
    }
    if (decl.type === 'alias_declaration') {
      const tn = decl.childForFieldName('type');
      return tn?.type === 'type_descriptor' ? this.typeDescriptor(tn) : tn ? this.resolveType(tn) : { kind: 'unknown', name };
    }
    return { kind: 'unknown', name };
  }

  // ---------------------------------------------------------------- expressions

  /** Evaluates an expression as a value: a shared lvalue used as a value is a load (recorded). */
  rvalue(node: Node): Value {
    const v = this.eval(node);
    return this.load(v, node);
  }

  /**
   * The warp-uniform unknown a read of one word per warp gives (see load, subscript). Each read is its own unknown:
   * `a = w[0]; w[0] = x; b = w[0];` are two values, and `b - a` is not 0. The first read of a text is named by it, a
   * later one also by its line and count (`w[0]@12#2`).
   */
  private readAtom(node: Node, t: CType): Num {
    const text = node.text;
    const n = (this.reads.get(text) ?? 0) + 1;
    this.reads.set(text, n);
    return atom(n === 1 ? text : `${text}@${this.realNode(node).startPosition.row + 1}#${n}`, t);
  }
  private reads = new Map<string, number>();

  private load(v: Value, node: Node): Value {
    if (v.k !== 'ref') return v;
    if (v.t.kind === 'array') return this.decay(v);
    // a pointer read from shared memory (`cur` of `__shared__ float *cur`): its name is also where the access through
    // it is reported (`cur[i]`), and a read of 8 bytes at one place is a broadcast: not recorded
    if (v.t.kind !== 'pointer') this.access(v, 'load', node);
    const known = this.stored.size && this.wholeScalar(v) ? this.stored.get(v.base.id) : undefined;
    // a scalar whose stored value is not known (stored with different values, in a loop of unknown trip count, under a
    // guard not evaluated) is still one word: every lane of a warp reads the same value, a warp-uniform unknown (below)
    if (known && !(known.k === 'unk' && v.t.kind === 'int')) {
      // a value read in a pass of a loop of unknown trip count that the pass then stores again (see access)
      if (known.k !== 'unk' && !(known.k === 'ptr' && !knownOffset(known.off))) this.symbolicPass?.reads.add(v.base.id);
      return known;
    }
    // every active lane of each warp reads one word (`s_radix[2 * n - 1]`, `counts[0]`): one value on the warp's lanes,
    // not known, so a warp-uniform unknown; added to a subscript it moves every lane alike (bank model rule 6)
    if (v.t.kind === 'int' && knownOffset(v.off) && isWarpUniform(v.off.v, this.active())) return this.readAtom(node, v.t);
    return unk(`\`${node.text}\` is a value loaded from shared memory`);
  }

  /** A place that is a whole scalar `__shared__` variable (`total`, `cur`), not an element of an array or a member. */
  private wholeScalar(r: Ref): boolean {
    const b = r.base;
    return b.dims.length === 0 && !b.external && !b.unresolved && r.off.sym === null && r.off.v === 0 &&
      r.t.kind === b.elem.kind && sizeOf(r.t) === sizeOf(b.elem);
  }

  /**
   * After `if (threadIdx.x == 0) total = x;` (and a barrier) every thread reads what was stored: a scalar
   * `__shared__` variable stored with one value on every lane that stores it holds that value for the whole block.
   * A value that differs between those lanes, or one stored in a loop whose trip count is unknown, is not known.
   */
  private remember(r: Ref, value: Value): void {
    if (!this.wholeScalar(r)) return;
    const act = this.active();
    const first = act.indexOf(1);
    if (first < 0) return;
    const name = r.base.name;
    let held: Value | undefined;
    const one = (x: Num): Num | null => {
      if (isTainted(x) || hasThread(x.sym)) throw NEEDS_FULL_BLOCK;
      return isUniform(x.v, act) ? num(laneAt(x.v, first), x.t, x.sym) : null;
    };
    if (value.k === 'num' && (r.t.kind === 'int' || r.t.kind === 'float')) {
      const u = one(convert(value, r.t) as Num);
      held = u ?? unk(`\`${name}\` is stored with different values by the lanes that store it`);
    } else if (value.k === 'ptr' && r.t.kind === 'pointer') {
      const u = one(value.off);
      held = u ? { ...value, off: u, name } : unknownPointer(value, `\`${name}\` is stored with different pointers by the lanes that store it`, name);
    }
    const why = !held ? null
      : this.symbolicPass ? `\`${name}\` is stored in a loop whose trip count is unknown`
      : this.uncertain ? `\`${name}\` is stored under a condition that could not be evaluated per lane` : null;
    if (held && why) held = held.k === 'ptr' ? unknownPointer(held, why, name) : unk(why);
    if (held) this.stored.set(r.base.id, held);
  }

  /** An array used as a value decays to a pointer to its first element. */
  private decay(r: Ref): Ptr {
    const t = r.t as Extract<CType, { kind: 'array' }>;
    const to: CType = t.dims.length > 1 ? { kind: 'array', elem: t.elem, dims: t.dims.slice(1) } : t.elem;
    return { k: 'ptr', base: r.base, off: r.off, to, name: r.name, flat: r.flat, alt: r.alt };
  }

  eval(node: Node): Value {
    this.tick();
    if (++this.depth > this.cfg.caps.exprDepth) {
      this.depth--;
      return unk(`the expression is nested deeper than ${this.cfg.caps.exprDepth} levels`);
    }
    try {
      return this.evalInner(node);
    } finally {
      this.depth--;
    }
  }

  private evalInner(node: Node): Value {
    switch (node.type) {
      case 'number_literal':
        return this.literal(node.text);
      case 'char_literal': {
        const m = /^'(\\?)(.*)'$/.exec(node.text);
        if (!m) return unk('character literal');
        const esc: Record<string, number> = { n: 10, t: 9, '0': 0, r: 13, '\\': 92, "'": 39 };
        return num(m[1] ? (esc[m[2]] ?? 0) : m[2].charCodeAt(0), INT);
      }
      case 'true':
        return num(1, INT);
      case 'false':
      case 'null':
      case 'nullptr':
        return num(0, INT);
      case 'identifier':
        return this.identifier(node);
      case 'this':
        return this.lookupVar('this')?.value ?? unk('`this` outside a member function the analysis follows');
      case 'type_descriptor': {
        // a template argument that names a value parses as a type: `k<T, kBlock>`, `k<B>`, `k<Algo::kSoftmax>`
        const only = named(node);
        if (only.length === 1 && only[0].type === 'type_identifier') return this.identifier(only[0]);
        if (only.length === 1 && only[0].type === 'qualified_identifier') return this.eval(only[0]);
        return unk(`\`${node.text}\` is a type, not a value`);
      }
      case 'parenthesized_expression':
      case 'condition_clause': {
        const inner = named(node).filter((c) => c.type !== 'comment');
        return inner.length ? this.eval(inner[inner.length - 1]) : unk('empty parentheses');
      }
      case 'field_expression':
        return this.field(node);
      case 'subscript_expression':
        return this.subscript(node);
      case 'pointer_expression': {
        const op = kids(node)[0]?.text;
        const arg = node.childForFieldName('argument')!;
        if (op === '&') {
          const r = this.eval(arg);
          if (r.k === 'ref') {
            const rowAt = !r.flat && inRow(r, this.active(), this.n) ? { rowAt: r.off } : {};
            return { k: 'ptr', base: r.base, off: r.off, to: r.t, name: r.name, flat: r.flat, alt: r.alt, ...rowAt };
          }
          // `&helper`: a function's address is the function
          return r.k === 'unk' || r.k === 'other' && r.what.startsWith('function ') ? r : { k: 'other', what: 'address' };
        }
        const p = this.rvalue(arg);
        if (p.k === 'ptr') return this.deref(p, num(0), node, arg);
        // `*count` through a kernel's pointer parameter to an integer (nvcomp's `const size_t num = *numDevice;`): as
        // `count[0]` (see subscript), one value on the warp's lanes, not known
        if (p.k === 'other' && p.what.startsWith('pointer parameter ') && arg.type === 'identifier') {
          const t = this.lookupVar(arg.text)?.type;
          if (t?.kind === 'pointer' && t.to.kind === 'int') return this.readAtom(node, t.to);
        }
        return p.k === 'unk' ? p : { k: 'other', what: 'dereference' };
      }
      case 'binary_expression':
        return this.binaryExpr(node);
      case 'unary_expression': {
        const op = operatorOf(node, '')!;
        return unary(op, this.rvalue(node.childForFieldName("argument")!), () => node.text, this.active());
      }
      case 'update_expression':
        return this.update(node);
      case 'assignment_expression':
        return this.assign(node);
      case 'conditional_expression':
        return this.conditional(node);
      case 'cast_expression': {
        const reread = this.misreadCast(node);
        if (reread) return this.reread(reread, node);
        const tn = node.childForFieldName('type');
        const v = this.rvalue(node.childForFieldName('value')!);
        return tn ? this.cast(v, this.typeDescriptor(tn), node) : v;
      }
      case 'sizeof_expression': {
        // `sizeof...(Pads)`: how many values the pack holds
        if (kids(node).some((c) => c.type === '...')) {
          const inner = named(node).find((c) => c.type === 'identifier' || c.type === 'type_identifier');
          const pack = inner ? this.cfg.values.get(`${inner.text}...`) : undefined;
          return pack?.k === 'other' && pack.items ? num(pack.items.length, { kind: 'int', bytes: 8, signed: false, name: 'size_t' }) : unk(`\`${node.text}\` is not evaluated`);
        }
        const tn = node.childForFieldName('type');
        if (tn) {
          const s = sizeOf(this.typeDescriptor(tn));
          return s === null ? unk(`size of \`${tn.text}\` is not known`) : num(s, { kind: 'int', bytes: 8, signed: false, name: 'size_t' });
        }
        const v = node.childForFieldName('value');
        if (v) {
          // `sizeof(T)` parses as the size of a value named T: where no variable has that name, it is the type's
          const inner = v.type === 'parenthesized_expression' ? named(v)[0] : v;
          if (inner?.type === 'identifier' && !this.binding(inner.text) && !this.cfg.values.has(inner.text)) {
            const s = sizeOf(this.resolveTypeName(inner.text));
            if (s !== null) return num(s, { kind: 'int', bytes: 8, signed: false, name: 'size_t' });
          }
          const e = this.eval(v);
          const s = e.k === 'ref' ? (e.t.kind === 'array' && e.t.dims.includes(0) ? null : sizeOf(e.t)) : e.k === 'num' ? sizeOf(e.t) : null;
          return s === null ? unk(`size of \`${(unparenthesized(v) ?? v).text}\` is not known`) : num(s, { kind: 'int', bytes: 8, signed: false, name: 'size_t' });
        }
        return unk('sizeof');
      }
      case 'offsetof_expression': {
        // `offsetof(Rec, b)`, as byte-pointer carving writes it (`base + t * sizeof(Rec) + offsetof(Rec, b)`): the
        // member's offset in the type's layout (facts/ctypes.ts), where that member's offset is known
        const tn = node.childForFieldName('type');
        const member = node.childForFieldName('member')?.text;
        const t = tn ? this.typeDescriptor(tn) : null;
        const fields = t?.kind === 'struct' ? t.fields : t?.kind === 'unknown' ? t.fields : undefined;
        const f = member ? fields?.find((x) => x.name === member) : undefined;
        return f ? num(f.offset, { kind: 'int', bytes: 8, signed: false, name: 'size_t' }) : unk(`the offset of \`${member ?? '?'}\` in \`${tn?.text ?? '?'}\` is not known`);
      }
      case 'alignof_expression': {
        // `alignof(float4)` (as in `cuda::aligned_size_t<alignof(float4)>(sizeof(float4))`): a type whose size is
        // not known has no alignment the analysis knows either
        const tn = node.childForFieldName('type');
        const t = tn ? this.typeDescriptor(tn) : null;
        return t && sizeOf(t) !== null ? num(alignOf(t), { kind: 'int', bytes: 8, signed: false, name: 'size_t' }) : unk(`alignment of \`${tn?.text ?? node.text}\` is not known`);
      }
      case 'call_expression': {
        // `std::integral_constant<int, 3>()`: a value-initialized tag, its value (as the braced one above)
        const f = node.childForFieldName('function');
        if (f?.type === 'qualified_identifier' && !argumentNodes(node).length && /\b(?:integral_constant|bool_constant|true_type|false_type)\b/.test(f.text) && !this.cfg.facts.functions.has(f.text)) {
          const t = this.integralConstant(f);
          const c = t ? INTEGRAL_VALUES.get(t) : undefined;
          if (c) return c;
        }
        return this.call(node);
      }
      case 'gnu_asm_expression':
        return this.inlineAsm(node);
      case 'comma_expression': {
        this.rvalue(node.childForFieldName('left')!);
        return this.rvalue(node.childForFieldName('right')!);
      }
      case 'initializer_list':
        for (const c of named(node)) this.rvalue(c);
        return { k: 'other', what: 'initializer list' };
      case 'compound_literal_expression': {
        // a launch's braced block or grid (`k<<<1, {32, 8, 1}>>>`, a dim3 from its initializer list): the grammar reads
        // it as a compound literal whose type is missing. Was: not evaluated, 32 threads assumed
        const litType = node.childForFieldName('type');
        if ((!litType || litType.isMissing) && node.parent?.type === 'kernel_call_syntax') {
          const items = named(node.childForFieldName('value')).filter((c) => c.type !== 'comment');
          if (items.length >= 1 && items.length <= 3) return this.dim3(items.map((c) => this.rvalue(c)));
        }
        // `std::integral_constant<int, 3>{}` (a tag a generic lambda launcher is called with): its value, as the object
        // converts to it (`decltype(NC)::value` then reads it back, see qualified_identifier)
        if (litType && !litType.isMissing && !named(node.childForFieldName('value')).length) {
          const c = INTEGRAL_VALUES.get(litType.type === 'type_descriptor' ? this.typeDescriptor(litType) : this.resolveType(litType));
          if (c) return c;
        }
        // `RowCol{r, c}`: an object of that struct, its members from the braces
        const obj = this.bracedObject(node.childForFieldName('type'), node.childForFieldName('value'), node.childForFieldName('type')?.text ?? 'literal');
        if (obj) return obj;
        // `IF_LEADER { s[w] = v; }` with `#define IF_LEADER if (lane == 0)`: the grammar reads the macro and the block
        // it heads as one expression; which lanes run the block is not known here, so its accesses are unknown
        const typeName_ = node.childForFieldName('type');
        const header = typeName_?.type === 'type_identifier' ? this.macroNamed(typeName_.text) : undefined;
        if (header && header.params === null && HEADER_MACRO_BODY.test(header.body)) {
          const value = node.childForFieldName('value');
          this.runUnknown(value, () => { for (const c of named(value)) this.rvalue(c); },
            `the block after \`${typeName_!.text}\` at line ${node.startPosition.row + 1} is not analysed: the macro is a header (\`${header.body.trim().replace(/\s+/g, ' ')}\`), read with its block as one expression`);
          return { k: 'other', what: 'block' };
        }
        for (const c of named(node.childForFieldName('value'))) this.rvalue(c);
        return unk(`\`${node.text}\` is not evaluated`);
      }
      case 'fold_expression':
        return this.fold(node);
      case 'template_function': {
        // `std::is_same_v<T, double>` (its scopes are read by the case below)
        const trait = this.typeTrait(node.childForFieldName('name')?.text ?? '', argumentNodes(node));
        if (trait) return trait;
        const vt = this.variableTemplate(node);
        if (vt) return vt;
        for (const c of named(node)) this.rvalue(c);
        return unk(`\`${node.text}\` is not evaluated`);
      }
      case 'qualified_identifier': {
        const name = node.childForFieldName('name');
        if (name && /^(std|cuda)$/.test(node.childForFieldName('scope')?.text ?? '')) return this.eval(name);
        const scope = node.childForFieldName('scope');
        // `std::is_same<T, double>::value`
        const trait = scope?.type === 'template_type' && name?.text === 'value' ? this.typeTrait(`${scope.childForFieldName('name')?.text ?? ''}_v`, argumentNodes(scope)) : null;
        if (trait) return trait;
        const ofClass = scope && name?.type === 'identifier' ? this.classConstant(scope, name.text) : null;
        if (ofClass) return ofClass;
        // `Stride::value`, `Tag::value` of a `std::integral_constant` (a type parameter or an alias bound to one)
        const constant = scope && name?.text === 'value' && /^(type_identifier|template_type|qualified_identifier|namespace_identifier)$/.test(scope.type)
          ? INTEGRAL_VALUES.get(this.resolveType(scope)) : undefined;
        if (constant) return constant;
        // `decltype(NC)::value`, NC a `std::integral_constant` (a generic lambda's `auto NC` parameter given
        // `std::integral_constant<int, 3>{}`, bound to its value): in code that compiles, an integer whose type has a
        // `::value` is such a constant, and its value is the number
        if (scope?.type === 'decltype' && name?.text === 'value') {
          const e = named(scope).find((c) => c.type !== 'comment');
          const t = e ? this.staticType(e) : null;
          const typed = t ? INTEGRAL_VALUES.get(t) : undefined;
          if (typed) return typed;
          const v = e ? this.rvalue(e) : null;
          if (v?.k === 'num' && !v.sym && v.t.kind === 'int' && uniformValue(v) !== null) return v;
        }
        return this.scopedConstant(node.text.replace(/\s+/g, '').replace(/^::/, '')) ?? unk(`\`${node.text}\` is not known here`);
      }
      default:
        for (const c of named(node)) this.rvalue(c); // still find accesses inside
        return unk(`\`${node.type.replace(/_/g, ' ')}\` is not evaluated`);
    }
  }

  /**
   * A fold over a pack of values (`(0 + ... + Pads)`, `(Dims * ... * 1)`, `(Pads + ...)`): the expression that names
   * the pack evaluated once per value, in order, the results combined from the left (`... op E`, `I op ... op E`) or
   * the right (`E op ...`, `E op ... op I`); an empty pack is the initial value (`&&` true, `||` false). Was: not
   * evaluated, and an extent or a stride made of one unknown.
   */
  private fold(node: Node): Value {
    const parts = kids(node).filter((c) => c.type !== '(' && c.type !== ')' && c.type !== 'comment');
    const dots = parts.findIndex((c) => c.type === '...');
    const op = parts[dots - 1]?.type === '...' ? '' : (dots > 0 ? parts[dots - 1] : parts[dots + 1])?.text ?? '';
    const packOf = (e: Node | undefined): { name: string; items: Value[] }[] =>
      e ? identifiersIn(e).flatMap((n) => { const v = this.cfg.values.get(`${n}...`); return v?.k === 'other' && v.items ? [{ name: n, items: v.items }] : []; }) : [];
    const before = dots >= 2 ? parts[dots - 2] : undefined;
    const after = parts[dots + 2];
    // the side that names a pack is the pattern; the other, where there is one, the initial value
    const leftIsPattern = packOf(before).length > 0;
    const pattern = leftIsPattern ? before : after;
    const init = leftIsPattern ? after : before;
    const packs = packOf(pattern);
    if (!pattern || !packs.length || !op) return unk(`\`${node.text}\` is not evaluated`);
    const n = packs[0].items.length;
    if (packs.some((p) => p.items.length !== n)) return unk(`\`${node.text}\` expands packs of different lengths`);
    const terms: Value[] = [];
    for (let i = 0; i < n; i++) {
      const bound = { values: new Map(packs.map((p) => [p.name, p.items[i]] as [string, Value])), types: new Map<string, CType>() };
      terms.push(this.withBindings(bound, () => this.rvalue(pattern)));
    }
    const initial = init ? this.rvalue(init) : null;
    // a left fold (`... op E`, `I op ... op E`) starts at the left; a right one (`E op ...`, `E op ... op I`) at the right
    const left = !leftIsPattern;
    const all = initial ? (left ? [initial, ...terms] : [...terms, initial]) : terms;
    if (!all.length) return op === '&&' ? num(1, BUILTINS.bool ?? INT) : op === '||' ? num(0, BUILTINS.bool ?? INT) : op === ',' ? { k: 'other', what: 'void' } : unk(`\`${node.text}\` folds an empty pack with \`${op}\``);
    const label = () => node.text;
    if (op === ',') return all[all.length - 1];
    if (left) return all.slice(1).reduce((acc, v) => binary(op, acc, v, label, this.active()), all[0]);
    return all.slice(0, -1).reduceRight((acc, v) => binary(op, v, acc, label, this.active()), all[all.length - 1]);
  }

  private literal(text: string): Value {
    // the grammar reads `-16` as one literal (`k<<<1, 32>>>(o, -16)`): the negation of the literal `16`
    if (/^-\s*[0-9.]/.test(text)) {
      const v = this.literal(text.replace(/^-\s*/, ''));
      return v.k === 'num' && typeof v.v === 'number' ? num(v.t.kind === 'int' ? wrap(-v.v, v.t) : -v.v, v.t) : v;
    }
    const t = text.replace(/'/g, '');
    if (/^0[xX][0-9a-fA-F]+[uUlL]*$/.test(t) || /^(0|[1-9]\d*)[uUlL]*$/.test(t) || /^0[0-7]+[uUlL]*$/.test(t) || /^0[bB][01]+[uUlL]*$/.test(t)) {
      const suffix = /[uUlL]*$/.exec(t)![0].toLowerCase();
      const digits = t.slice(0, t.length - suffix.length);
      const v = /^0[0-7]+$/.test(digits) ? parseInt(digits, 8) : Number(digits);
      if (!Number.isSafeInteger(v)) return unk(`the literal ${text} is too large to evaluate exactly`);
      const unsigned = suffix.includes('u');
      const long = suffix.includes('l') || v > 0x7fffffff;
      const ty: CType = long ? { kind: 'int', bytes: 8, signed: !unsigned, name: unsigned ? 'unsigned long long' : 'long long' } : unsigned ? UINT : INT;
      return num(v, ty);
    }
    const f = parseFloat(t.replace(/[fFlL]$/, ''));
    if (Number.isFinite(f)) return num(f, /[fF]$/.test(t) ? FLOAT : { kind: 'float', bytes: 8, name: 'double' });
    return unk(`the literal ${text} is not understood`);
  }

  private identifier(node: Node): Value {
    const name = node.text;
    const bound = this.binding(name);
    if (bound) {
      if (isBase(bound)) return this.arrayRef(bound, node);
      // a reference to a whole array is indexed where it is used, like a pointer parameter; so are the members of a
      // reference to a whole struct (mgpu's `Storage& storage`: `storage.shared[i]` is an access where it stands)
      if (bound.ref && bound.value.k === 'ref' && (bound.value.t.kind === 'array' || bound.value.t.kind === 'struct')) return { ...bound.value, name, nameNode: node, at: undefined };
      if (bound.unset) {
        const act = this.active();
        const own = bound.value.k === 'unk' && bound.value.reason !== `\`${name}\` has no initial value` ? bound.value : null;
        for (let i = 0; i < this.n; i++) if (act[i] & bound.unset[i]) return own ?? unk(bound.unsetWhy ?? `\`${name}\` is read on a lane that has not assigned it`);
      }
      // a pointer variable is named as the site spells it: a caller's variable assigned through a reference parameter
      // (`swapPtr(prev, curr)` doing `a = b`) is the caller's name there, not the parameter's (an object's member,
      // `plain.p`, keeps the name of its object)
      if (bound.value.k === 'ptr' && bound.value.name !== name && /^\w+$/.test(bound.value.name)) return { ...bound.value, name };
      return bound.value;
    }
    const tv = this.cfg.values.get(name);
    if (tv) return tv;
    if (name === 'warpSize') return num(32, INT);
    // an object-like macro that names anything but constants (`#define COL (threadIdx.x * stride)`, `#define TILE_A
    // (s_a + warp_row * LD)`) has the value of its expansion where it is used, each time: never one cached value
    const mac = this.macroNamed(name);
    if (mac && mac.params === null && !this.cfg.facts.enums.has(name) && !this.cfg.facts.constants.has(name) && !this.constantMacro(name))
      return this.callMacro(mac.body, name, node);
    const own = this.classScopes.length ? this.openClassConstant(name) : null;
    if (own) return own;
    const c = this.constant(name);
    if (c) return c;
    const fb = this.cfg.fallback?.(name, this);
    if (fb) return fb;
    if (this.cfg.facts.functions.has(name)) return { k: 'other', what: `function ${name}` };
    // a class's own constant named in its member function (`kWarps` for `BlockReduce::kWarps`)
    const member = this.scopedConstant(name);
    if (member) return member;
    // a file-scope `__constant__` scalar (`__constant__ int d_dims;`, set by the host with `cudaMemcpyToSymbol`):
    // device code cannot write it, so it is one value for every thread of a launch; not known, but warp-uniform
    const cv = this.cfg.host ? undefined : this.cfg.facts.constantVars.get(name);
    const ct = cv?.childForFieldName('type');
    const cty = ct ? this.resolveType(ct) : null;
    if (cty && (cty.kind === 'int' || cty.kind === 'float')) {
      this.notes.add(constantVarNote(name));
      return atom(name, cty.kind === 'int' ? cty : INT);
    }
    // a header's warp-size macro (ggml's `WARP_SIZE`, PyTorch's `C10_WARP_SIZE`): 32 on every NVIDIA GPU, said
    if (WARP_SIZE_MACRO.test(name)) {
      this.notes.add(warpSizeNote(name));
      return num(32, INT);
    }
    // the whole built-in (`uint3 t = threadIdx;`, `const dim3 bd = blockDim;`, volume code): an object whose components
    // are its `.x`, `.y`, `.z`; every index made of it was unknown
    if (name === 'threadIdx' || name === 'blockIdx' || name === 'blockDim' || name === 'gridDim') return this.builtinObject(name);
    // HIP's first spelling of the built-ins (`hipThreadIdx_x`, `hipBlockDim_y`, hipify's output for older code), which
    // its headers define as `threadIdx.x`, `blockDim.y` for nvcc
    const hip = /^hip(ThreadIdx|BlockIdx|BlockDim|GridDim)_([xyz])$/.exec(name);
    if (hip) return this.builtinIndex(hip[1][0].toLowerCase() + hip[1].slice(1), hip[2]);
    return unk(`\`${name}\` is not known here`);
  }

  private arrayRef(base: SharedBase, node: Node): Value {
    if (base.unresolved) {
      const t: CType = { kind: 'array', elem: base.elem, dims: base.dimNodes.map(() => 1) };
      return this.unknownRef({ k: 'ref', base, off: num(0), t, name: base.name, nameNode: node, bounds: [], flat: null }, t, base.unresolved);
    }
    // a scalar __shared__ variable is its own element; an extern array has no declared extent
    const t: CType = base.external ? { kind: 'array', elem: base.elem, dims: [0, ...base.dims] } : base.dims.length ? { kind: 'array', elem: base.elem, dims: base.dims } : base.elem;
    return { k: 'ref', base, off: num(0), t, name: base.name, nameNode: node, bounds: [], flat: null };
  }

  /**
   * Whether an object-like macro's expansion names only literals, types, enums, file-scope constants and such macros
   * (`#define TILE (BLOCK * 2)`): one value wherever it is used.
   */
  private constantMacro(name: string, seen = new Set<string>()): boolean {
    const known = this.constantMacros.get(name);
    if (known !== undefined) return known;
    const facts = this.cfg.facts;
    const mac = facts.macros.get(name);
    let ok = !!mac && !seen.has(name);
    seen.add(name);
    for (const tok of ok ? mac!.body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ').match(/\b[A-Za-z_]\w*\b/g) ?? [] : []) {
      if (/^\d/.test(tok) || BUILTINS[tok] || CONSTANT_WORDS.has(tok) || facts.enums.has(tok) || facts.constants.has(tok)) continue;
      const m = facts.macros.get(tok);
      if (m && (m.params !== null || this.constantMacro(tok, seen))) continue;
      ok = false;
      break;
    }
    this.constantMacros.set(name, ok);
    return ok;
  }
  private constantMacros = new Map<string, boolean>();

  /**
   * The name of the file's function-like macro that declares shared memory, for an array spelled from a use of one
   * (see MACRO_SHARED_MARK); where the file has several, each is named (`A` or `B`).
   */
  private sharedDeclarationMacro(): string {
    const names = [...this.cfg.facts.macros.values()].filter((m) => m.params !== null && /^(?:(?:extern|static|volatile)\s+)*__shared__\b/.test(m.body)).map((m) => m.name);
    return names.join('` or `');
  }

  /** The file's macro of that name (or one given from outside); one read from a header is remembered for the assumptions. */
  private macroNamed(name: string): Macro | undefined {
    const mac = this.cfg.facts.macros.get(name);
    if (mac?.from !== undefined) this.headerMacros.add(mac);
    return mac;
  }

  /** enum values, file-scope constants and object-like macros, evaluated once per name. */
  private constant(name: string): Value | null {
    // in a namespace, the name is looked for there first, then in the namespaces around it (`cfg::inner::STRIDE`
    // before `cfg::STRIDE` before a global `STRIDE`), as C++ looks it up
    const fnNode = this.frame()?.fn?.node;
    let path = fnNode ? this.namespaces.get(fnNode.id) : [];
    if (!path) this.namespaces.set(fnNode!.id, (path = namespacePath(fnNode!)));
    const cacheKey = path.length ? `${path.join('::')}::\u0000${name}` : name;
    const cached = this.constCache.get(cacheKey);
    if (cached) return cached;
    const facts = this.cfg.facts;
    let v: Value | null = null;
    let en = facts.enums.get(name);
    let cst = facts.constants.get(name);
    for (let i = path.length; i > 0; i--) {
      const node = facts.scoped.get(`${path.slice(0, i).join('::')}::${name}`);
      if (!node) continue;
      if (node.type === 'enumerator') [en, cst] = [node, undefined];
      else if (node.type === 'init_declarator' || node.type === 'function_declarator') [en, cst] = [undefined, node];
      break;
    }
    const mac = this.macroNamed(name);
    if (en) v = this.enumValue(en);
    else if (cst) {
      const init = cst.childForFieldName('value');
      const override = this.cfg.constOverrides?.get(cst.startIndex);
      // a dim3 constant built in place: `constexpr dim3 kBlock(32, 8);`, `{32, 8}`, `= {32, 8, 1}`
      const dim3Items = cst.parent?.childForFieldName('type')?.text !== 'dim3' ? null
        : cst.type === 'function_declarator' ? named(cst.childForFieldName('parameters')).filter((c) => c.type !== 'comment')
        : init && (init.type === 'initializer_list' || init.type === 'argument_list') ? named(init).filter((c) => c.type !== 'comment') : null;
      v = override !== undefined ? num(override)
        : dim3Items ? this.withHost(() => this.dim3(dim3Items.map((c) => (cst.type === 'function_declarator' ? this.expandMacro(c.text, name) : this.rvalue(c)))))
        : init ? this.withHost(() => this.rvalue(init)) : null;
    } else if (mac && mac.params === null) {
      v = this.expandMacro(mac.body, name);
    }
    if (v) this.constCache.set(cacheKey, v);
    return v;
  }

  /**
   * `Cfg::TILE`, `ns::W`, `Layout::RowMajor`: a constant named with its scopes, written in full or, from inside a
   * namespace, with its last scopes only (`In::K` for `ns::In::K`) when that names one constant of the file.
   */
  private scopedConstant(key: string): Value | null {
    // a class template's constant depends on its arguments: cached per binding of the template parameters
    let cache = this.scopedCache.get(this.cfg.values);
    if (!cache) this.scopedCache.set(this.cfg.values, (cache = new Map()));
    const cacheKey = `::${key}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const scoped = this.cfg.facts.scoped;
    let node = scoped.get(key) ?? null;
    if (!node) {
      const ends = [...scoped.keys()].filter((k) => k.endsWith(`::${key}`));
      if (ends.length === 1) node = scoped.get(ends[0])!;
    }
    // a name no scope holds is asked again each time an unknown identifier is read: remember that too
    if (!node) {
      cache.set(cacheKey, null);
      return null;
    }
    let v: Value;
    if (node.type === 'enumerator') v = this.enumValue(node);
    else {
      const init = node.childForFieldName('value') ?? node.childForFieldName('default_value');
      v = init ? this.withHost(() => this.rvalue(init)) : unk(`\`${key}\` has no value`);
    }
    cache.set(cacheKey, v);
    return v;
  }

  /**
   * The class template instance a scope names (`Pad<T>` in `Pad<T>::value`, or a type parameter or alias bound to
   * one): its type, the definition it was laid out from (a matching specialization's first) and its parameters'
   * bindings. Null: the scope is no such instance.
   */
  private instanceOf(scope: Node): { t: CType; decl: Node; bound: ClassBinding } | null {
    const named_ = /^(type_|namespace_)?identifier$/.test(scope.type) && (this.cfg.types.has(scope.text) || this.cfg.facts.typeDecls.has(scope.text));
    if (scope.type !== 'template_type' && !named_) return null;
    const t = scope.type === 'template_type' ? this.resolveType(scope) : this.resolveTypeName(scope.text);
    const bound = this.templateBound.get(t);
    const decl = bound ? this.classDecl(t) : undefined;
    return bound && decl ? { t, decl, bound } : null;
  }

  /**
   * A class that is no template, named by a scope directly or through a type parameter or alias bound to it (a
   * policy struct `P` of `agg<BigPolicy>`: `P::THREADS`): nothing to bind. Null: not such a class.
   */
  private plainClassOf(scope: Node): { t: CType; decl: Node; bound: ClassBinding } | null {
    if (!/^(type_|namespace_)?identifier$/.test(scope.type) || !(this.cfg.types.has(scope.text) || this.cfg.facts.typeDecls.has(scope.text))) return null;
    const t = this.resolveTypeName(scope.text);
    const decl = t.kind === 'struct' ? this.classDecl(t) : undefined;
    return decl && decl.parent?.type !== 'template_declaration' ? { t, decl, bound: { values: new Map(), types: new Map() } } : null;
  }

  /** `f` with an instance's template parameters bound over the current ones. */
  private withBindings<T>(bound: ClassBinding, f: () => T): T {
    const savedValues = this.cfg.values;
    const savedTypes = this.cfg.types;
    this.cfg.values = new Map([...savedValues, ...bound.values]);
    this.cfg.types = new Map([...savedTypes, ...bound.types]);
    try {
      return f();
    } finally {
      this.cfg.values = savedValues;
      this.cfg.types = savedTypes;
    }
  }

  /**
   * A constant of a class template instance (`Pad<T>::value`, `Traits<float>::kPad`, an enumerator): the member of
   * the class the instance is, evaluated with the instance's parameters bound. Null: no such instance or member.
   */
  private classConstant(scope: Node, member: string): Value | null {
    const of = this.instanceOf(scope) ?? this.plainClassOf(scope);
    if (!of) return null;
    let node: Node | undefined;
    for (const [k, n] of this.cfg.facts.scoped) if (k.endsWith(`::${member}`) && enclosingClass(n)?.startIndex === of.decl.startIndex && enclosingClass(n)?.endIndex === of.decl.endIndex) node = n;
    if (!node) return null;
    const found = node;
    // the class's scope is open while its member's value is read: a sibling constant (`TILE = THREADS * ITEMS`) is
    // this class's, even where another class has one of that name
    this.classScopes.push(of.decl);
    try {
      return this.withBindings(of.bound, () => {
        if (found.type === 'enumerator') return this.enumValue(found);
        const init = found.childForFieldName('value') ?? found.childForFieldName('default_value');
        return init ? this.withHost(() => this.rvalue(init)) : unk(`\`${scope.text}::${member}\` has no value`);
      });
    } finally {
      this.classScopes.pop();
    }
  }

  /** A constant (or enumerator) of the innermost class whose scope is open (see classConstant) named `name`. */
  private openClassConstant(name: string): Value | null {
    for (let i = this.classScopes.length - 1; i >= 0; i--) {
      const decl = this.classScopes[i];
      for (const [k, n] of this.cfg.facts.scoped) {
        if (!k.endsWith(`::${name}`) || enclosingClass(n)?.startIndex !== decl.startIndex || enclosingClass(n)?.endIndex !== decl.endIndex) continue;
        if (n.type === 'enumerator') return this.enumValue(n);
        const init = n.childForFieldName('value') ?? n.childForFieldName('default_value');
        return init ? this.withHost(() => this.rvalue(init)) : null;
      }
    }
    return null;
  }

  /**
   * A type a class template instance defines (`typename Acc<T>::type`, `Acc2<T>::type` of a `typedef`): its own
   * `using` or `typedef`, resolved with the instance's parameters bound. Null: no such instance or member type.
   */
  private classMemberType(q: Node): CType | null {
    const scope = q.childForFieldName('scope');
    const name = q.childForFieldName('name');
    if (!scope || name?.type !== 'type_identifier') return null;
    // a class template's instance, or a class that is no template (`Red::Storage`): nothing to bind
    const of = this.instanceOf(scope) ?? this.plainClassOf(scope);
    if (!of) return null;
    for (const m of named(of.decl.childForFieldName('body'))) {
      const names = m.type === 'alias_declaration' ? [m.childForFieldName('name')] : m.type === 'type_definition' ? m.childrenForFieldName('declarator').map((d) => d && declaratorName(d)) : [];
      if (names.some((n) => n?.text === name!.text)) return this.withBindings(of.bound, () => this.typeFromDecl(name!.text, m));
      // a class defined in the body (mgpu's `struct Storage { T shared[Capacity]; };` in `CTAReduce<NT, Op>`): laid out
      // with the instance's parameters bound, once per instance
      const inner = m.type === 'field_declaration' ? m.childForFieldName('type') : null;
      if (inner && /^(struct|class|union)_specifier$/.test(inner.type) && inner.childForFieldName('body') && inner.childForFieldName('name')?.text === name.text) {
        const key = `${typeName(of.t)}::${name.text}`;
        const cached = this.typeCache.get(key);
        if (cached) return cached;
        this.typeCache.set(key, { kind: 'unknown', name: key }); // guards recursive definitions
        this.classScopes.push(of.decl);
        let t: CType;
        try {
          t = this.withBindings(of.bound, () => this.typeFromDecl(key, inner));
        } finally {
          this.classScopes.pop();
        }
        this.typeCache.set(key, t);
        return t;
      }
    }
    return null;
  }

  private withHost<T>(f: () => T): T {
    // constants are the same for every thread: evaluate with the whole block active
    const saved = this.mask;
    this.mask = null;
    try {
      return f();
    } finally {
      this.mask = saved;
    }
  }

  private enumValue(en: Node): Value {
    const list = en.parent;
    let next = 0;
    for (const e of named(list)) {
      if (e.type !== 'enumerator') continue;
      const val = e.childForFieldName('value');
      if (val) {
        const u = uniformValue(this.rvalue(val));
        if (u === null) return unk(`the enumerator \`${e.text}\` is not a constant`);
        next = u;
      }
      if (e === en || e.startIndex === en.startIndex) return num(next, INT);
      next++;
    }
    return unk('enumerator');
  }

  private expandMacro(text: string, name: string): Value {
    if (this.macroDepth >= this.cfg.caps.macroDepth) return this.tooDeep(name);
    if (!text.trim()) return unk(`the macro \`${name}\` is empty`);
    const parsed = parseExpression(text);
    if (!parsed) return unk(`the macro \`${name}\` is not an expression`);
    return this.inMacro(null, () => this.macroEval(parsed.expr, name));
  }

  private tooDeep(name: string): Value {
    return unk(`the macro \`${name}\` expands deeper than ${this.cfg.caps.macroDepth} levels`);
  }

  /**
   * Runs `body` one macro expansion deeper; `site`: an expansion whose accesses are reported at its use (see
   * macroSites), with `scope` the names bound for it.
   */
  private inMacro<T>(site: Interp['macroSites'][number] | null, body: () => T, scope?: Map<string, Var | SharedBase>): T {
    if (scope) this.frame().scopes.push(scope);
    if (site) this.macroSites.push(site);
    this.macroDepth++;
    try {
      return body();
    } finally {
      this.macroDepth--;
      if (site) this.macroSites.pop();
      if (scope) this.frame().scopes.pop();
    }
  }

  /**
   * A function-like macro used as an expression whose arguments name no shared memory: its expansion is evaluated as a
   * macro site, so that what it accesses (`#define TILE_A(i) (s_a[(i)] + off)`) is reported at the use.
   */
  private callMacro(text: string, name: string, node: Node): Value {
    if (this.macroDepth >= this.cfg.caps.macroDepth) return this.tooDeep(name);
    if (!text.trim()) return unk(`the macro \`${name}\` is empty`);
    const parsed = parseExpression(text);
    if (!parsed) return unk(`the macro \`${name}\` is not an expression`);
    return this.inMacro({ tree: parsed.tree, call: node, holders: new Map(), first: node }, () => {
      const v = this.eval(parsed.expr);
      // a place it names is at the use, mapped on by the sites around it (not through them all here: two uses in
      // one expansion must stay two sites)
      const here = <T extends Node | undefined>(n: T): T | Node => (n && n.tree === parsed.tree ? node : n);
      return v.k === 'ref' ? { ...v, nameNode: here(v.nameNode), at: here(v.at) } : v;
    });
  }

  /**
   * A function-like macro whose expansion is a block, a loop, an `if` or several statements
   * (`#define STORE_SHARED(i) { for (...) { s[...] = ...; } }`, used as `STORE_SHARED(0)`;
   * `#define SUM(k) if (t < k) { s[t] += s[t + k]; }`; `do { ... } while (0)`, which the use's `;` ends; LAMMPS's
   * `#define atom_info(t_per_atom, ii, tid, offset) tid=THREAD_ID_X; offset=tid & (t_per_atom-1); ...`, whose
   * assignments were lost, and every index made of `tid` unknown): its statements run where it is used, as if written there (`_Pragma(...)` dropped, as
   * `#pragma` lines are). What they access is reported at the use, one site per access of the expansion. Null where
   * the expansion is not such a statement.
   */
  private statementMacro(text: string, name: string, node: Node): Value | null {
    let body = text.replace(/\b_Pragma\s*\(\s*"(?:[^"\\]|\\.)*"\s*\)/g, (m) => ' '.repeat(m.length)).trim();
    // a `{` or `}` that a macro it uses supplies (`#define COMPUTE(s) PRELOAD(s) sum += a * b;}`): the uses of the
    // file's macros in it are expanded first, as the preprocessor's rescan does (the expansion was not a statement,
    // and all its accesses were lost)
    if (!bracesBalance(body)) body = rescanMacros(body, this.cfg.facts.macros, this.cfg.caps.macroDepth - this.macroDepth, new Set([name])).trim();
    // or a declaration of shared memory without its `;` (`#define SMEM(T, name, n) __shared__ T name[n]`, used as
    // `SMEM(float, s_##tag, 64);`): the array was never declared, and every access of it was lost without a word
    if (!/^(?:\{[\s\S]*\}|(?:for|while|do|if)\b[\s\S]*)$/.test(body) && !topLevelSemicolon(body) && !SHARED_DECLARATION.test(body)) return null;
    // the use's `;` ends the last statement of `do { ... } while (0)` or `if (c) s[i] += s[i + k]`
    const row = this.realNode(node).startPosition.row;
    const parsed = parseStatements(body, row) ?? (/[;}]$/.test(body) ? null : parseStatements(`${body};`, row));
    if (!parsed) return null;
    if (this.macroDepth >= this.cfg.caps.macroDepth) return this.tooDeep(name);
    // no scope of its own: what its top-level statements declare (`#define COPY_SMEM __shared__ float svox[10][10][10];
    // uint3 ndx = ...; svox[...] = ...;`) is declared where it is used, as the preprocessor pastes it, so the code after
    // the use sees the array and the locals (its later accesses were not reported); a block body keeps its own scope
    this.inMacro({ tree: parsed.tree, call: node, holders: new Map(), first: node }, () => {
      for (const st of parsed.stmts) this.exec(st);
    });
    return { k: 'other', what: `the statement macro \`${name}\`` };
  }

  /**
   * A function-like macro applied to shared memory (`FLOAT4(s[i][j]) = v`, `#define FLOAT4(v)
   * (reinterpret_cast<float4 *>(&(v))[0])`): each argument that names shared memory is evaluated once where it stands,
   * as a place, and bound to a placeholder; the expansion is then evaluated, and what it accesses is reported at the
   * argument's array name and the macro call. Null when the expansion does not parse (stringising or pasting an
   * argument, a statement body).
   */
  private sharedMacro(mac: { body: string; params: string[] | null }, name: string, argNodes: Node[], node: Node): Value | null {
    const params = (mac.params ?? []).filter((p) => p !== '...');
    // a variadic macro (`#define AT(a, ...) a[IDX(__VA_ARGS__)]`) takes the arguments after the named ones as `__VA_ARGS__`
    const variadic = /\b__VA_ARGS__\b/.test(mac.body);
    if ((variadic ? argNodes.length < params.length : argNodes.length !== params.length) || /#/.test(mac.body)) return null;
    const depth = this.macroSites.length;
    const holders = new Map<string, Node>();
    const bound: { name: string; value: Value }[] = [];
    const tokens = mac.body.match(/#?#?\b[A-Za-z_]\w*\b/g) ?? [];
    const uses = (p: string) => tokens.filter((t) => t === p).length;
    const texts = argNodes.map((a, i) => {
      if (!this.mentionsShared(a)) return a.text;
      const holder = `__bank_lens_m${depth}_${i}`;
      // an argument the body never names is never evaluated
      if (uses(i < params.length ? params[i] : '__VA_ARGS__') === 0) return a.text;
      bound.push({ name: holder, value: this.place(a).value });
      holders.set(holder, this.realNode(this.nameNodeOf(a), true));
      this.placeholderTexts.set(holder, this.shown(a.text));
      return holder;
    });
    let expansion = substitute(mac as Parameters<typeof substitute>[0], texts, false, true);
    // a block another macro of it opens (`#define COMPUTE(buf, s) PRELOAD(buf, s) acc += a * b; }`): rescanned first,
    // as in statementMacro (its accesses were lost)
    if (!bracesBalance(expansion)) expansion = rescanMacros(expansion, this.cfg.facts.macros, this.cfg.caps.macroDepth - this.macroDepth, new Set([name]));
    // an expansion that is a statement, not an expression (`asm volatile(...)` of an ldmatrix or cp.async macro), or
    // several (`#define vload(v, a) v = *((float4 *)(a));`, `x.a = s[i]; x.b = s[j];`): each in turn
    // on the use's line, so that a loop of it is named by the user's line (`do { ... } while (0)` was "(line 2)")
    // a block or a loop or `if` is a statement, though a block in the parentheses of parseExpression is one too (GNU's
    // statement expression: `{ if ((t) < 16) arr[2 * (t)] = 0; }` lost its guard)
    const statement = /^\s*(?:\{|(?:for|while|do|if|switch)\b)/.test(expansion);
    const stmt = !statement && parseExpression(expansion) ? null : parseStatements(`${expansion};`, this.realNode(node).startPosition.row);
    const stmts = stmt?.stmts.filter((st) => st.type !== 'expression_statement' || named(st).length) ?? [];
    const exprs = stmts.length && stmts.every((st) => st.type === 'expression_statement') ? stmts.map((st) => named(st)[0]) : [];
    const parsed = exprs.length ? { tree: stmt!.tree, expr: exprs[exprs.length - 1] } : statement ? null : parseExpression(expansion);
    if (!parsed && !stmts.length) return null;
    const scope = new Map<string, Var | SharedBase>();
    for (const b of bound) scope.set(b.name, b.value.k === 'ref' ? { value: b.value, type: b.value.t, ref: true } : { value: b.value, type: { kind: 'unknown' } as CType });
    const site = { tree: parsed?.tree ?? stmt!.tree, call: this.realNode(node), holders, first: holders.values().next().value ?? this.realNode(node) };
    if (!parsed) {
      // an `if`, a loop or a block (`#define findMax(a, n, t, res) if (t < n) { if (a[t + 1] > a[t]) *res = t; }`, used
      // as `findMax(s, 31, tid, &best);`): its statements run where it is used (their accesses were not reported)
      this.inMacro(site, () => { for (const st of stmts) this.exec(st); }, scope);
      return { k: 'other', what: `the statement macro \`${name}\`` };
    }
    return this.inMacro(site, () => {
      for (const e of exprs.slice(0, -1)) this.eval(e);
      const v = this.eval(parsed.expr);
      return v.k === 'ref' ? this.realRef(v) : v;
    }, scope);
  }

  /** A text quoted from a macro's expansion as the user wrote it: each placeholder (`__bank_lens_m0_1`) as its argument. */
  private shown(text: string): string {
    if (!this.placeholderTexts.size || !text.includes('__bank_lens_m')) return text;
    return text.replace(/\(?__bank_lens_m\d+_\d+\)?/g, (p) => {
      const arg = this.placeholderTexts.get(p.replace(/[()]/g, ''));
      return arg === undefined ? p : /^[\w.]+$/.test(arg) ? arg : `(${arg})`;
    });
  }

  /** Where a node of (nested) macro expansions stands in each of them, outermost last: tells apart the accesses of one use. */
  private macroPath(n: Node): string {
    const path: number[] = [];
    for (let i = this.macroSites.length - 1; i >= 0; i--) {
      const s = this.macroSites[i];
      if (n.tree !== s.tree) continue;
      path.push(n.startIndex);
      n = s.call;
    }
    return `${path.join('.')}:`;
  }

  /** A node of a macro expansion being evaluated, mapped to the user's text: a placeholder to its argument's name, else the call. */
  private realNode(n: Node, asName = false): Node {
    for (let i = this.macroSites.length - 1; i >= 0; i--) {
      const s = this.macroSites[i];
      if (n.tree !== s.tree) continue;
      n = asName ? s.holders.get(n.text) ?? s.first : s.call;
    }
    return n;
  }
  private realRef(r: Ref): Ref {
    if (!this.macroSites.length) return r;
    const nameNode = this.realNode(r.nameNode, true);
    const at = r.at && this.realNode(r.at);
    // a place named through a macro argument's placeholder (`array[ti + 1]` of `FIND(s, ...)`) is named as the argument
    const name = r.name.startsWith('__bank_lens_m') && nameNode !== r.nameNode ? nameNode.text : r.name;
    return nameNode === r.nameNode && at === r.at ? r : { ...r, nameNode, at, name };
  }

  /** Evaluates a parsed macro body: its accesses would point into a temporary tree, so they are not recorded. */
  private macroEval(expr: Node, name: string): Value {
    const v = this.eval(expr);
    if (v.k === 'ref' || v.k === 'ptr') return unk(`the macro \`${name}\` names shared memory; write the access in the kernel`);
    return v;
  }

  /**
   * The object of a member call: `t.at(r, c)`'s `t`; `p->at(r, c)`'s `*p`, read as field() reads `p->v` (a struct laid
   * over a dynamic buffer, `Tile *tl = reinterpret_cast<Tile *>(raw); tl->at(ty, tx)`), so that the member function
   * sees the data members of the object in shared memory.
   */
  private memberObject(fnNode: Node): Value {
    const arg = fnNode.childForFieldName('argument')!;
    let v = this.eval(arg);
    if (v.k !== 'obj' && kids(fnNode).some((c) => c.type === '->')) {
      v = this.load(v, arg);
      if (v.k === 'ptr') v = this.deref(v, num(0), fnNode, arg);
    }
    return v;
  }

  private field(node: Node): Value {
    const arg = node.childForFieldName('argument')!;
    const fieldName = node.childForFieldName('field')?.text ?? '';
    const arrow = kids(node).some((c) => c.type === '->');
    const builtin = arg.type === 'identifier' ? arg.text : null;
    if (builtin === 'threadIdx' || builtin === 'blockDim' || builtin === 'blockIdx' || builtin === 'gridDim') {
      if (!this.lookupVar(builtin)) return this.builtinIndex(builtin, fieldName);
    }
    let base = this.eval(arg);
    if (arrow && base.k !== 'obj') {
      base = this.load(base, arg);
      if (base.k === 'ptr') base = this.deref(base, num(0), node, arg);
    }
    if (base.k === 'obj') {
      const f = base.fields.get(fieldName);
      return f ? f.value : unk(`\`${node.text}\`: the member \`${fieldName}\` is not a data member of \`${typeName(base.t)}\``);
    }
    if (base.k === 'dim3') {
      const c = fieldName === 'x' ? base.x : fieldName === 'y' ? base.y : fieldName === 'z' ? base.z : null;
      return c ?? unk(`\`${node.text}\` is not a dim3 component`);
    }
    if (base.k === 'ref') {
      const m = member(base.t, fieldName);
      // still shared memory: its accesses are reported, unknown, with the reason
      if (!m) return this.unknownRef(base, { kind: 'unknown', name: fieldName }, base.t.kind === 'unknown'
        ? `the layout of \`${base.t.name}\` is not known`
        : `\`${node.text}\`: the member \`${fieldName}\` is not known`);
      // a member of a packed struct less aligned than its type: nvcc can prove no more than the struct's alignment
      // (and the member's offset's) of its place, and splits an access of it into pieces of that width
      const packed = base.t.kind === 'struct' && base.t.align < alignOf(m.type)
        ? { struct: base.t.name, member: fieldName, align: Math.min(base.packed?.align ?? Infinity, gcd(base.t.align, m.offset) || base.t.align) }
        : base.packed;
      return { ...base, off: binary('+', base.off, num(m.offset), () => node.text, null) as Num, t: m.type, ...(packed ? { packed } : {}), bitfield: m.bits !== undefined || undefined };
    }
    return base.k === 'unk' ? base : unk(`\`${node.text}\` is not evaluated`);
  }

  /** the whole built-in `which` (`threadIdx`, `blockDim`...): an object whose components are its `.x`, `.y`, `.z`. */
  private builtinObject(which: string): Value {
    const st = vectorFields(BUILTINS.uint3 as Extract<CType, { kind: 'vector' }>) as Extract<CType, { kind: 'struct' }>;
    return { k: 'obj', t: st, fields: new Map(st.fields.map((f) => [f.name, { value: this.builtinIndex(which, f.name), type: f.type }])) };
  }

  private builtinIndex(which: string, c: string): Value {
    const axis: number = c === 'x' ? 0 : c === 'y' ? 1 : c === 'z' ? 2 : -1;
    if (axis < 0) return unk(`\`${which}.${c}\` is not a component`);
    if (axis > 0 && (which === 'blockDim' || which === 'threadIdx') && !this.cfg.host) this.readAxes.add(`${which}.${c}`);
    if (which === 'blockDim') return num(this.cfg.block[axis], UINT);
    if (which === 'threadIdx') {
      if (this.cfg.host) return unk('threadIdx in host code');
      if (this.threadValues) return this.threadValues[axis];
      // an axis of extent 1 is 0 on every thread: one number, as warp mode has it
      if (axis > 0 && this.cfg.block[axis] === 1) return num(0, UINT);
      return num([this.tx, this.ty, this.tz][axis], UINT);
    }
    // the grid the launch gives (`k<<<4, 64>>>`), said in the assumptions where a run reads it
    const g = which === 'gridDim' && !this.cfg.host ? this.cfg.grid?.dims[axis] : null;
    if (g) {
      this.notes.add(this.cfg.grid!.source);
      return num(g, UINT);
    }
    return atom(`${which}.${c}`, UINT);
  }

  private subscript(node: Node): Value {
    const c = this.cellOf(node);
    if (c) return 'cell' in c ? c.cell.value : unk(c.why);
    const tv = this.cfg.facts.constantTables.size ? this.tableElement(node) : null;
    if (tv) return tv;
    const argNode = node.childForFieldName('argument')!;
    const idxList = node.childForFieldName('indices');
    const idxNode = idxList ? named(idxList).filter((c) => c.type !== 'comment')[0] : node.childForFieldName('index');
    const baseV = this.eval(argNode);
    const idx = idxNode ? this.rvalue(idxNode) : unk('empty subscript');
    const lost = baseV.k === 'ref' && baseV.t.kind === 'unknown' && baseV.off.sym ? Object.keys(baseV.off.sym).find((k) => k.startsWith(UNKNOWN)) : undefined;
    if (lost && baseV.k === 'ref') return this.unknownRef(baseV, baseV.t, lost.slice(UNKNOWN.length));
    if (baseV.k === 'ref' && baseV.t.kind === 'array') {
      const t = baseV.t;
      const elemT: CType = t.dims.length > 1 ? { kind: 'array', elem: t.elem, dims: t.dims.slice(1) } : t.elem;
      const es = sizeOf(elemT);
      if (es === null) return this.unknownRef(baseV, elemT, `the size of \`${typeName(t.elem)}\`, the element type of \`${baseV.base.name}\`, is not known`);
      if (idx.k !== 'num') return this.unknownRef(baseV, elemT, idx.k === 'unk' ? idx.reason : 'the subscript is not a number');
      if (idx.t.kind === 'float') return unk(`the subscript \`${idxNode!.text}\` is not an integer`);
      const off = this.bin(node, 2, '+', baseV.off, this.bin(node, 1, '*', idx, num(es, LONGT), () => idxNode!.text, null), () => node.text, null);
      const extent = baseV.base.external ? 0 : t.dims[0];
      const bounds = extent > 0 ? [...baseV.bounds, { index: idx, extent }] : baseV.bounds;
      if (off.k !== 'num') return this.unknownRef(baseV, elemT, off.k === 'unk' ? off.reason : '');
      return { ...baseV, off, t: elemT, bounds };
    }
    if (baseV.k === 'ptr' || (baseV.k === 'ref' && baseV.t.kind === 'pointer')) {
      const p = baseV.k === 'ptr' ? baseV : this.load(baseV, argNode);
      if (p.k !== 'ptr') return p;
      if (idx.k !== 'num') return this.unknownRef({ ...p, k: 'ref', t: p.to, nameNode: this.nameNodeOf(argNode), bounds: [] } as Ref, p.to, idx.k === 'unk' ? idx.reason : 'the subscript is not a number');
      return this.deref(p, idx, node, argNode);
    }
    if (baseV.k === 'obj' && baseV.t.kind === 'array') return this.element(baseV, idx, node);
    if (baseV.k === 'obj') {
      // `t[i]` on a local object: its `operator[]`
      const def = this.memberDef(baseV, 'operator[]', 1);
      if (!def) return unk(`\`${node.text}\`: \`${typeName(baseV.t)}\` has no \`operator[]\` the analysis follows`);
      return this.returned(def, node, this.inline(def, [{ value: idx }], argNode, node, this.templateArgs.get(baseV.t) ?? null, [this.memberScope(baseV)]));
    }
    if (baseV.k === 'ref' && baseV.t.kind !== 'array') return unk(`\`${argNode.text}\` is not an array`);
    // every active lane of each warp reads one element of an integer array in global memory (`offsets[blockIdx.x]`,
    // `buf[i]` under `if (tid == 0)`): one value on the warp's lanes, not known (a warp-uniform unknown). Only through
    // a kernel's pointer parameter: a local array (`int loc[4]`, passed on as `int *ind`) holds each thread's own values
    if (baseV.k === 'other' && baseV.what.startsWith('pointer parameter ') && argNode.type === 'identifier' && idx.k === 'num' && knownOffset(idx) && isWarpUniform(idx.v, this.active())) {
      const t = this.lookupVar(argNode.text)?.type;
      if (t?.kind === 'pointer' && t.to.kind === 'int') return this.readAtom(node, t.to);
    }
    // a `__constant__` array read at an index the same on every lane of each warp (`c_umax[v]`, filled by the host with
    // `cudaMemcpyToSymbol`): device code cannot write it, so one value on the warp's lanes, not known
    const cd = argNode.type === 'identifier' && !this.cfg.host && idx.k === 'num' && knownOffset(idx) && isWarpUniform(idx.v, this.active()) && !this.binding(argNode.text)
      ? this.cfg.facts.constantArrays.get(argNode.text) : undefined;
    const ct = cd?.childForFieldName('type');
    const cty = ct ? this.resolveType(ct) : null;
    if (cty?.kind === 'int') {
      this.notes.add(constantVarNote(argNode.text));
      return this.readAtom(node, cty);
    }
    return baseV.k === 'unk' && baseV.reason.includes('shared') ? baseV : unk(`\`${node.text}\` is a value loaded from memory that is not shared`);
  }

  private unknownRef(r: Ref, t: CType, reason: string): Ref {
    return { ...r, t, off: { k: 'num', t: INT, v: NaN, sym: { [UNKNOWN + reason]: 1 } } };
  }

  private nameNodeOf(n: Node): Node {
    let cur: Node | null = n;
    for (let i = 0; cur && i < 32; i++) {
      if (cur.type === 'identifier') return cur;
      // a member call (`sm->row(ty)[tx]`): named by its object, not by its first argument
      const member: Node | null = cur.type === 'call_expression' ? cur.childForFieldName('function') : null;
      if (member?.type === 'field_expression') {
        cur = member;
        continue;
      }
      cur = cur.childForFieldName('argument') ?? cur.childForFieldName('value') ?? cur.childForFieldName('arguments') ?? named(cur).find((c) => c.type !== 'type_descriptor' && c.type !== 'template_argument_list') ?? null;
      if (cur?.type === 'argument_list') cur = named(cur)[0] ?? null;
    }
    return n;
  }

  /** `p[idx]` / `*p`: the place idx elements after p. */
  private deref(p: Ptr, idx: Num, node: Node, argNode: Node): Value {
    const es = sizeOf(p.to);
    const nameNode = this.nameNodeOf(argNode);
    // `row[i]` with `T *row = reinterpret_cast<T *>(tile[r])` and T not known: still an access of the shared array,
    // reported unknown with the reason (it was dropped, as if no access were there)
    if (es === null) return this.unknownRef({ k: 'ref', base: p.base, off: p.off, t: p.to, name: p.name, nameNode, bounds: [], flat: p.flat, alt: p.alt }, p.to, `the size of \`${typeName(p.to)}\` is not known`);
    const off = binary('+', p.off, binary('*', idx, num(es, LONGT), () => node.text, null), () => node.text, null);
    if (off.k !== 'num') return this.unknownRef({ k: 'ref', base: p.base, off: p.off, t: p.to, name: p.name, nameNode, bounds: [], flat: p.flat, alt: p.alt }, p.to, off.k === 'unk' ? off.reason : '');
    // indexing that stays in the row the pointer points into (`As4[tx]` with `float4 *As4 = (float4 *)As[k]`) reads
    // the same elements with the rows padded
    const flat = p.flat ?? (p.base.dims.length > 1 && !(typeof idx.v === 'number' && idx.v === 0 && !idx.sym) && p.to.kind !== 'array' && !sameRow(p, off)
      ? `\`${this.realNode(node).text}\` at line ${this.realNode(node).startPosition.row + 1} indexes \`${p.base.name}\` through a pointer` : null);
    // `*p`, `p[0]` of `p = &s[i][j]` (cast or not) in its row: an access in that row (Visit.inRow)
    const row = p.rowAt && p.rowAt === p.off && !flat && typeof idx.v === 'number' && idx.v === 0 && !idx.sym ? { inRow: true } : {};
    return { k: 'ref', base: p.base, off, t: p.to, name: p.name, nameNode, bounds: [], flat, alt: p.alt, ...row };
  }

  /**
   * binary() with a memo on the syntax node: a loop evaluates `ty * 128` once per iteration with the same operands.
   * Only the integer fast path is remembered (its result depends on nothing but the operands, which never change).
   */
  private bin(node: Node, slot: number, op: string, a: Value, b: Value, label: () => string, mask: Uint8Array | null): Value {
    if (a.k !== 'num' || b.k !== 'num' || a.sym || b.sym) return binary(op, a, b, label, mask);
    const memo = ((node as unknown as { __bin?: BinMemo[] }).__bin ??= []);
    const e = memo[slot];
    if (e && e.op === op && sameNum(e.a, a) && sameNum(e.b, b)) return e.r;
    const fast = fastBinary(op, a, b);
    if (!fast) return binary(op, a, b, label, mask);
    memo[slot] = { op, a, b, r: fast };
    return fast;
  }

  /**
   * `i < n && a[i] > -1`, which the grammar reads as a template `i<n && a[i]>` minus 1 where `i` is a variable: the
   * expression parsed again with the name in parentheses (`(i) < n && a[i] > -1`), as the compiler reads it. Null where
   * it is no such expression, or it names shared memory (its accesses keep their places in the user's text).
   */
  private misreadTemplate(node: Node): Node | null {
    if (node.type !== 'binary_expression') return null;
    const tf = node.childForFieldName('left');
    if (tf?.type !== 'template_function') return null;
    const name = tf.childForFieldName('name');
    if (name?.type !== 'identifier' || this.cfg.facts.functions.has(name.text) || this.mentionsShared(node)) return null;
    const b = this.binding(name.text);
    if (!b || isBase(b)) return null;
    const at = name.startIndex - node.startIndex;
    return parseExpression(`${node.text.slice(0, at)}(${name.text})${node.text.slice(at + name.text.length)}`)?.expr ?? null;
  }

  /**
   * `(W) - 2 * t`, which the grammar reads as a cast of `-2` to a type `W`, times `t`, where `W` names a value (a macro
   * such as PMPP's `#define OUT_TILE_DIM ((IN_TILE_DIM) - 2 * (FILTER_RADIUS))`, a variable, a constant): the expression
   * parsed again with the name in double parentheses (`((W)) - 2 * t`), as the compiler reads it. Null where it holds
   * no such cast, or it names shared memory (its accesses keep their places in the user's text).
   */
  private misreadCast(node: Node): Node | null {
    // only a whole expression, or a part of `&&` / `||`, is one the compiler reads too: inside an operand
    // (`p - (W) - 2 * t` read as `p - (((W)-2) * t)`) the operand's text is no expression of the source's
    let casts = misreadCasts.get(node);
    if (casts === undefined) {
      const up = node.parent;
      const operand = up && /^(binary_expression|unary_expression|cast_expression|pointer_expression)$/.test(up.type) &&
        !(up.type === 'binary_expression' && /^(&&|\|\||and|or)$/.test(operatorOf(up, '') ?? ''));
      casts = operand || !/\(\s*[A-Za-z_]\w*\s*\)\s*[-+*&]/.test(node.text) ? [] : node.descendantsOfType('cast_expression').filter((c) => {
        const td = c.childForFieldName('type');
        const v = c.childForFieldName('value');
        return td?.namedChildCount === 1 && td.namedChild(0)!.type === 'type_identifier' && td.text === td.namedChild(0)!.text &&
          (v?.type === 'unary_expression' || v?.type === 'pointer_expression') && /^[-+*&]/.test(v.text);
      });
      misreadCasts.set(node, casts);
    }
    if (!casts.length) return null;
    const values = casts.filter((c) => {
      const name = c.childForFieldName('type')!.text;
      if (this.binding(name) || this.cfg.values.has(name)) return true;
      const facts = this.cfg.facts;
      if (this.cfg.types.has(name) || facts.typeDecls.has(name) || this.resolveTypeName(name, c).kind !== 'unknown') return false;
      return facts.enums.has(name) || facts.constants.has(name) || facts.macros.get(name)?.params === null;
    });
    if (!values.length) return null;
    // one that names shared memory only as pointer arithmetic (`p + (W) - 2 * t`, `p` a shared pointer), with no
    // access in it, is read again too: run as a site at the expression, so what it says names the user's line
    const shared = this.mentionsShared(node);
    if (shared && !accessFree(node)) return null;
    let text = node.text;
    for (const c of [...values].sort((a, b) => b.startIndex - a.startIndex)) {
      const td = c.childForFieldName('type')!;
      const at = td.startIndex - node.startIndex;
      text = `${text.slice(0, at)}(${td.text})${text.slice(at + td.text.length)}`;
    }
    const expr = parseExpression(text)?.expr ?? null;
    // (a parse is shared by every expression of the same text: the entry is set, or cleared, for this one)
    if (expr && shared) rereadSites.set(expr, node);
    else if (expr) rereadSites.delete(expr);
    return expr;
  }

  /** Evaluates an expression parsed again (misreadCast, misreadTemplate) in place of `node`. */
  private reread(expr: Node, node: Node): Value {
    const at = rereadSites.get(expr);
    return this.inMacro(at ? { tree: expr.tree, call: at, holders: new Map(), first: at } : null, () => this.rvalue(expr));
  }

  /**
   * A term of a sum that is the same on every lane but not known (`d < n`, `d >= m || d < k` of warp-uniform values, a
   * bit GPU-BSW subtracts from a shared pointer each diagonal, `p = p - (d < n)`), beside a number or a pointer: one
   * unknown warp-uniform number, so the sum is exact up to the same offset on every lane (bank model rule 6).
   */
  private uniformTerm(v: Value, other: Value, node: Node): Value {
    if (v.k !== 'unk' || !v.uniform || (other.k !== 'num' && other.k !== 'ptr')) return v;
    const text = node.type === 'parenthesized_expression' ? node.text : `(${node.text})`;
    return atom(`${text}@${this.realNode(node).startPosition.row + 1}`, INT);
  }

  private binaryExpr(node: Node): Value {
    const reread = this.misreadTemplate(node) ?? this.misreadCast(node);
    if (reread) return this.reread(reread, node);
    const op = operatorOf(node, '')!;
    const left = node.childForFieldName('left')!;
    const right = node.childForFieldName('right')!;
    if (/^(&&|\|\||and|or)$/.test(op) && !this.pure(right)) {
      const short = this.shortCircuit(node, op, left, right);
      if (short) return short;
    }
    let a = this.rvalue(left);
    let b = this.rvalue(right);
    if (op === '+' || op === '-') {
      a = this.uniformTerm(a, b, left);
      b = this.uniformTerm(b, a, right);
    }
    // an operator the file defines for a struct or vector type (helper_math.h's `int3 operator+(int3 a, int3 b)`): run
    // as the function it is, as a call `operator+(a, b)` would be
    if (a.k === 'obj' || b.k === 'obj') {
      const defs = [...this.cfg.facts.functions].filter(([n]) => n.replace(/\s+/g, '') === `operator${op}`).flatMap(([, d]) => d);
      // the one whose parameters take these types (`float3 operator*(float3, float)` beside `(float, float3)`)
      const takes = (v: Value, t: CType) => (v.k === 'obj' ? typeName(t) === typeName(v.t) : v.k === 'num' && (t.kind === 'int' || t.kind === 'float'));
      const def = defs.find((d) => !d.isKernel && d.params.length === 2 && takes(a, this.declType(d.params[0].node)) && takes(b, this.declType(d.params[1].node)));
      if (def) return this.inline(def, [{ value: a }, { value: b }], node, node);
    }
    if (a.k === 'ptr' || b.k === 'ptr') {
      const p = (a.k === 'ptr' ? a : b) as Ptr;
      const o = a.k === 'ptr' ? b : a;
      // `p + i`, `i + p`, `p - i` (`keys + aCount` with the count not known: still a pointer into `keys`)
      if ((op === '+' || (op === '-' && a.k === 'ptr')) && (o.k === 'num' || o.k === 'unk')) return this.ptrStep(p, o, op, node);
      // `p < s + n` of two pointers into one array: their byte offsets compared
      if (a.k === 'ptr' && b.k === 'ptr' && a.base === b.base && /^(<|>|<=|>=|==|!=)$/.test(op) && knownOffset(a.off) && knownOffset(b.off))
        return binary(op, a.off, b.off, () => node.text, this.active());
      if (op === '-' && a.k === 'ptr' && b.k === 'ptr') {
        const why = [a.off, b.off].map((o) => o.sym && Object.keys(o.sym).find((k) => k.startsWith(UNKNOWN))).find((k) => k);
        if (why) return unk(why.slice(UNKNOWN.length));
        const es = sizeOf(a.to);
        if (es === null) return unk(`the size of \`${typeName(a.to)}\` is not known`);
        return binary('/', binary('-', a.off, b.off, () => node.text, null), num(es), () => node.text, null);
      }
      if (op === '^' || op === '|' || op === '&') {
        // `addr ^ (row << 4)` of a shared address (`__cvta_generic_to_shared`), written either way round: a constant
        // below the array's alignment changes bits of the offset only (ptrBits); a value not known leaves an address
        // into the same array, at a place not known (the access is reported unknown with this reason, not dropped)
        if (o.k === 'num' && a.k !== b.k) return this.ptrStep(p, o, op, node);
        if (o.k === 'unk') {
          const real = this.realNode(node);
          return unknownPointer(p, `\`${real.text}\` at line ${real.startPosition.row + 1} changes the bits of an address in \`${p.base.name}\` by a value not known: ${o.reason}`);
        }
      }
      // `addr / 256 % 8` of a shared address: its bits above the offset's depend on where the array is placed
      if ((op === '/' || op === '%' || op === '>>') && a.k === 'ptr' && b.k === 'num') {
        const real = this.realNode(node);
        return unk(`\`${real.text}\` at line ${real.startPosition.row + 1} reads the bits of an address in \`${p.base.name}\`: the result depends on where \`${p.base.name}\` is placed`);
      }
      return unk(`\`${node.text}\` compares or combines pointers`);
    }
    return this.bin(node, 0, op, a, b, () => node.text, this.active());
  }

  /**
   * `a && b` (`a || b`) whose right side reads shared memory, calls or assigns (`tid < s && best[tid + s].v > v`): as
   * C evaluates it, the right side only on the lanes where the left is true (false for `||`), so a lane the left
   * side stops requests nothing there (bank model rule 5) and reaches no index past the array's end. Null where the
   * left side is not known per lane (both sides then run for every active lane, as before).
   */
  private shortCircuit(node: Node, op: string, left: Node, right: Node): Value | null {
    const isAnd = op === '&&' || op === 'and';
    const a = this.rvalue(left);
    if (isTainted(a)) throw NEEDS_FULL_BLOCK;
    if (a.k !== 'num' || a.sym) {
      // not known per lane: the right side as every active lane would run it
      const b = this.rvalue(right);
      return this.bin(node, 0, op, a, b, () => node.text, this.active());
    }
    const act = this.active();
    const go = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) if (act[i] && (laneAt(a.v, i) !== 0) === isAnd) go[i] = 1;
    const settled = num(isAnd ? 0 : 1);
    if (!this.anyActive(go)) {
      const line = node.startPosition.row + 1;
      // said so that the shape can follow (`... for every thread of block 512x1x1 (sortDir = 1; ...)`, see analyze.ts)
      this.skipped(right, `\`${right.text}\` is not evaluated: \`${left.text}\` at line ${line} is ${isAnd ? 'false' : 'true'} for every thread`);
      return settled;
    }
    const b = this.withMask(this.and(go), () => this.rvalue(right));
    const truth = b.k === 'num' ? binary('!=', b, num(0), () => right.text, go) : b;
    return select(go, truth, settled, this.n);
  }

  private assignTo(target: Node, value: Value, node: Node): void {
    const c = target.type === 'subscript_expression' ? this.cellOf(target) : null;
    if (c && 'cell' in c) {
      // an element of a local array whose elements are kept: as a variable of its own
      let nv = value;
      if (nv.k === 'num' && (c.cell.type.kind === 'int' || c.cell.type.kind === 'float')) nv = convert(nv, c.cell.type);
      c.cell.value = select(this.active(), nv, c.cell.value, this.n);
      return;
    }
    if (c) {
      // written at an index not known: no element of it is known from here on
      if (c.array.value.k === 'other') c.array.value = unk(c.why);
      return;
    }
    if (target.type === 'identifier') {
      const v = this.lookupVar(target.text);
      if (v?.ref && v.value.k === 'ref') {
        this.access(v.value, 'store', node);
        return;
      }
      if (v) {
        let nv = value;
        if (nv.k === 'num' && (v.type.kind === 'int' || v.type.kind === 'float')) nv = convert(nv, v.type);
        if (nv.k === 'obj' && v.type.kind === 'pointer') nv = this.asVariable(nv, v.type, target.text, node);
        if (nv.k === 'ptr') nv = { ...nv, name: target.text };
        if (nv.k === 'obj') nv = copyObj(nv, target.text);
        if (v.unset) {
          // declared without a value (`int p; if (c) { p = ...; s[p] }`): lanes that have not assigned it never read it
          // (a read by such a lane is unknown, see identifier), so the first assignment holds for every lane
          const act = this.active();
          const first = v.unset;
          const left = new Uint8Array(this.n);
          let any = false;
          for (let i = 0; i < this.n; i++) if ((left[i] = first[i] & (1 - act[i]))) any = true;
          // nothing assigned yet: the value is this one; else lanes that assigned before keep theirs
          const fresh = (v.value.k === 'unk' && v.value.reason === `\`${target.text}\` has no initial value`) || first.every((x) => x === 1);
          v.value = fresh ? nv : select(act, nv, v.value, this.n);
          v.unset = any ? left : undefined;
          return;
        }
        const merged = select(this.active(), nv, v.value, this.n);
        if (merged.k === 'unk' && nv.k === 'num' && (v.type.kind === 'int' || v.type.kind === 'float')) {
          // the lanes that assign it now hold the new value even where the others hold one not known (`i` left unknown
          // by a loop of unknown trip count, then `if (id == 0) for (i = 0; i < 512; ++i)`): those others read as
          // lanes that have not assigned it, with the reason
          const act = this.active();
          const left = new Uint8Array(this.n);
          for (let i = 0; i < this.n; i++) left[i] = 1 - act[i];
          v.value = nv;
          v.unset = left;
          v.unsetWhy = merged.reason;
          return;
        }
        v.value = merged;
        return;
      }
      // a scalar `__shared__` variable (`__shared__ float mean; mean = x;`) is stored to below
      const b = this.binding(target.text);
      if (!b || !isBase(b)) return;
    }
    if (target.type === 'parenthesized_expression') {
      const inner = named(target)[0];
      if (inner) this.assignTo(inner, value, node);
      return;
    }
    if (target.type === 'field_expression') {
      const arg = target.childForFieldName('argument');
      if (arg?.type === 'identifier') {
        const v = this.lookupVar(arg.text);
        if (v && v.value.k === 'dim3') {
          const c = target.childForFieldName('field')?.text;
          if (c === 'x' || c === 'y' || c === 'z') v.value = { ...v.value, [c]: value };
          return;
        }
      }
      // a data member of a local object (`u.p = buf`, `this->ld = n`): that member's variable takes the value
      const obj = arg ? this.eval(arg) : null;
      if (obj?.k === 'obj') {
        const name = target.childForFieldName('field')?.text ?? '';
        const f = obj.fields.get(name);
        if (f) f.value = select(this.active(), this.asVariable(value, f.type, `${arg!.text}.${name}`, target), f.value, this.n);
        return;
      }
    }
    if (target.type === 'subscript_expression') {
      // an element of a local array of pointers (`bufs[1] = back;`): that element's variable takes the value; where
      // the index is not one number, each element it may be takes it on the lanes that may write it, not known
      const argN = target.childForFieldName('argument');
      const o = argN?.type === 'identifier' ? this.lookupVar(argN.text)?.value : undefined;
      if (o?.k === 'obj' && o.t.kind === 'array') {
        const idxNode = subscriptIndex(target);
        const idx = idxNode ? this.rvalue(idxNode) : unk('empty subscript');
        const u = idx.k === 'num' && !idx.sym ? uniformValue(idx, this.active()) : null;
        const name = target.childForFieldName('argument')!.text;
        const nv = value.k === 'ptr' ? { ...value, name } : value;
        if (u !== null) {
          const f = o.fields.get(String(u));
          if (f) f.value = select(this.active(), nv, f.value, this.n);
          return;
        }
        const why = `\`${target.text}\` is assigned at line ${this.realNode(node).startPosition.row + 1} with an index not known to be one number`;
        for (const f of o.fields.values()) f.value = f.value.k === 'ptr' ? unknownPointer(f.value, why) : nv.k === 'ptr' ? unknownPointer(nv, why) : unk(why);
        return;
      }
    }
    const r = this.eval(target);
    if (r.k === 'ref') {
      if (r.bitfield) {
        // `s[t].lo = v`: nvcc reads the unit that holds the bit-field, merges the bits and writes it back
        this.withAssumption(`\`${target.text}\` is a bit-field: a store to it reads and writes the ${sizeOf(r.t)}-byte unit that holds it`, () => {
          this.access(r, 'load', node);
          this.access(r, 'store', node);
        });
        return;
      }
      this.access(r, 'store', node);
      this.remember(r, value);
    }
  }

  private assign(node: Node): Value {
    const left = node.childForFieldName('left')!;
    const right = node.childForFieldName('right')!;
    const op = operatorOf(node, '=')!;
    const rhs = this.rvalue(right);
    if (op === '=') {
      this.assignTo(left, rhs, node);
      return rhs;
    }
    // compound: one load and one store of the same place
    const target = this.eval(left);
    const atomic = this.atomicUpdate(target, left, node);
    if (atomic) return atomic;
    if (target.k === 'ref') {
      this.access(target, 'load', node);
      this.access(target, 'store', node);
      return unk('compound assignment to shared memory');
    }
    const bop = op.slice(0, -1);
    const cur = target;
    const step = bop === '+' || bop === '-' ? this.uniformTerm(rhs, cur, node.childForFieldName('right')!) : rhs;
    const res = cur.k === 'ptr' ? this.ptrStep(cur, step, bop, node) : binary(bop, cur, step, () => node.text, this.active());
    this.assignTo(left, res, node);
    return res;
  }

  /**
   * An address's bits changed with `^`, `|` or `&` (`addr ^= 0x2000`, the double-buffer switch of hand-written SGEMMs
   * on a `cvta.to.shared` address): the result depends on where the array is placed, so it stays a pointer into that
   * array at an offset that is not known, and what it addresses is an access site, unknown with this reason.
   */
  private ptrBits(p: Ptr, node: Node, op?: string, by?: Num): Ptr {
    // `^` or `|` of a constant below the array's alignment (`__shared__ __align__(16 * 1024) char smem[...]`,
    // `addr ^= 0x2000`) changes only bits of the offset: the start's low bits are zero
    // The same holds lane by lane for a value that differs per lane (`addr ^ ((lane % 8) << 4)`, an XOR swizzle of
    // 16-byte chunks): every lane's value below the alignment
    const c = by ? uniformValue(by) : null;
    const ok = (x: number) => Number.isInteger(x) && x >= 0 && x <= 0x7fffffff;
    if (by && c === null && by.sym && hasThread(by.sym) && (op === '^' || op === '|')) throw NEEDS_FULL_BLOCK;
    const bits = by && !by.sym && (c !== null || typeof by.v !== 'number') ? (c !== null ? [c] : (by.v as Float64Array)) : null;
    // the largest value among the active lanes (an inactive lane's value is never used), -1 where one is not a
    // non-negative integer
    const act = c === null && bits ? this.active() : null;
    let top = bits && bits.length ? 0 : -1;
    for (let i = 0; bits && i < bits.length; i++) {
      if (act && !act[i]) continue;
      if (!ok(bits[i])) {
        top = -1;
        break;
      }
      top = Math.max(top, bits[i]);
    }
    const align = (op === '^' || op === '|') && top >= 0 ? this.alignmentOf(p.base) : 0;
    if (top >= 0 && top < align) {
      if (hasThread(p.off.sym)) throw NEEDS_FULL_BLOCK;
      const v = p.off.v;
      const per = c === null ? (by!.v as Float64Array) : null;
      const lane = (x: number, i: number) => {
        const y = per ? per[i] : c!;
        return op === '^' ? (x ^ y) >>> 0 : (x | y) >>> 0;
      };
      if (!p.off.sym && (typeof v === 'number' ? ok(v) : v.every(ok))) {
        if (per) return { ...p, off: { ...p.off, v: Float64Array.from(per, (_y, i) => lane(typeof v === 'number' ? v : v[i], i)) } };
        return { ...p, off: { ...p.off, v: typeof v === 'number' ? lane(v, 0) : v.map((x, i) => lane(x, i)) } };
      }
    }
    const real = this.realNode(node);
    const why = `\`${real.text}\` at line ${real.startPosition.row + 1} changes the bits of an address in \`${p.base.name}\`: the result depends on where \`${p.base.name}\` is placed`;
    return unknownPointer(p, why);
  }

  /**
   * The alignment in bytes the start of a static `__shared__` array is known to have: its element type's, or the
   * `__align__(n)` / `alignas(n)` written on it; 0 for the dynamic region (`extern __shared__ T s[]`), placed after the rest.
   */
  private alignmentOf(base: SharedBase): number {
    return base.external ? 0 : this.declaredAlignment(base);
  }

  /**
   * The alignment its declaration gives an array's start, also an `extern __shared__` one: its element type's, or
   * the `__align__(n)` / `alignas(n)` written on it; 0 where a written one cannot be read.
   */
  private declaredAlignment(base: SharedBase): number {
    const written = kids(base.decl).find((c) => c.type === 'type_qualifier' && named(c)[0]?.type === 'alignas_qualifier');
    const q = written ? named(written)[0] : null;
    const n = q ? uniformValue(this.rvalue(named(q)[0] ?? q)) : 1;
    if (n === null || !Number.isInteger(n) || n < 1 || (n & (n - 1)) !== 0) return 0;
    return Math.max(n, alignOf(base.elem));
  }

  /** `p + by`, `p - by` (also `p += by`, `++p`) and `p ^ by`, `p | by`, `p & by` of a pointer into shared memory. */
  private ptrStep(p: Ptr, by: Value, op: string, node: Node): Value {
    if (by.k === 'num' && (op === '^' || op === '|' || op === '&')) return this.ptrBits(p, node, op, by);
    // `p += step[i]`: still a pointer into the same array, its offset not known (what it indexes is an access site,
    // reported unknown with this reason, as `keys[aCount + i]` would be)
    if (by.k === 'unk' && (op === '+' || op === '-')) return unknownPointer(p, by.reason);
    if (by.k !== 'num' || (op !== '+' && op !== '-')) return unk(`\`${node.text}\` is not evaluated`);
    // `p + i` with `T *p` and the size of T not known: still a pointer into the array, at a place not known (it was
    // read as steps of one byte, which gave exact figures for an unknown layout)
    const es = sizeOf(p.to);
    if (es === null) return unknownPointer(p, `the size of \`${typeName(p.to)}\` is not known`);
    const off = binary('+', p.off, binary('*', by, num(op === '-' ? -es : es, LONGT), () => node.text, null), () => node.text, null);
    if (off.k !== 'num') return unknownPointer(p, off.k === 'unk' ? off.reason : `\`${node.text}\` is not evaluated`);
    return { ...p, off, flat: p.flat ?? (p.base.dims.length > 1 ? `\`${this.realNode(node).text}\` at line ${this.realNode(node).startPosition.row + 1} does pointer arithmetic on \`${p.base.name}\`` : null) };
  }

  /**
   * `slot += 1`, `++slot` on a cuda::atomic_ref (or on a `__shared__ cuda::atomic<T>`, see sharedAtomicType): one atomic
   * read-modify-write, recorded; null for any other place.
   */
  private atomicUpdate(target: Value, expr: Node, node: Node): Value | null {
    if (target.k !== 'ref') return null;
    const t = this.isAtomicRef(expr) ? target.t : sharedAtomicType(target);
    if (!t) return null;
    this.access({ ...target, t }, 'atomic', node);
    return unk('an atomic on shared memory');
  }

  private update(node: Node): Value {
    const arg = node.childForFieldName('argument')!;
    const op = kids(node).find((c) => c.type === '++' || c.type === '--')?.type ?? '++';
    const target = this.eval(arg);
    const atomic = this.atomicUpdate(target, arg, node);
    if (atomic) return atomic;
    if (target.k === 'ref') {
      this.access(target, 'load', node);
      this.access(target, 'store', node);
      return unk('increment of shared memory');
    }
    const prefix = kids(node)[0]?.type === op;
    const next = target.k === 'ptr' ? this.ptrStep(target, num(1), op === '++' ? '+' : '-', node) : binary(op === '++' ? '+' : '-', target, num(1), () => node.text, this.active());
    this.assignTo(arg, next, node);
    return prefix ? next : target;
  }

  private conditional(node: Node): Value {
    const cons = node.childForFieldName('consequence');
    const alt = node.childForFieldName('alternative')!;
    const way = this.cfg.decide?.get(node.id);
    if (way !== undefined) return way ? this.rvalue(cons ?? node.childForFieldName('condition')!) : this.rvalue(alt);
    const cond = this.rvalue(node.childForFieldName('condition')!);
    const act = this.active();
    if (isTainted(cond)) throw NEEDS_FULL_BLOCK;
    if (cond.k === 'num' && !cond.sym) {
      const u = uniformValue(cond, act);
      if (u !== null) {
        this.skipped(u !== 0 ? alt : cons);
        return u !== 0 ? (cons ? this.rvalue(cons) : cond) : this.rvalue(alt);
      }
      const t = new Uint8Array(this.n);
      const f = new Uint8Array(this.n);
      for (let i = 0; i < this.n; i++) if (act[i]) (laneAt(cond.v, i) !== 0 ? t : f)[i] = 1;
      const a = this.withMask(this.and(t), () => (cons ? this.rvalue(cons) : cond));
      const b = this.withMask(this.and(f), () => this.rvalue(alt));
      return select(t, a, b, this.n);
    }
    // both branches run for every lane, said so; the per-lane parts of `a && b` still pick the lanes of the first
    const why = cond.k === 'unk' ? cond.reason : cond.k === 'num' && cond.sym ? `it depends on \`${symText(cond.sym)}\`` : 'it is not a number';
    const condNode = node.childForFieldName('condition')!;
    const guard = this.shown(`the condition \`${condNode.text.replace(/^\(|\)$/g, '').trim()}\` of the \`?:\` at line ${node.startPosition.row + 1} could not be evaluated per lane (${why})`);
    const both = `${guard}; both of its branches assumed to run for every lane`;
    const narrow = cons ? this.knownConjuncts(condNode, act) : null;
    let a: Value;
    if (!cons) a = cond;
    else if (narrow && !this.anyActive(narrow.mask)) {
      this.skipped(cons, `${guard}; ${narrow.note}, and no lane passes the rest`);
      a = unk(`${guard}; no lane takes its first branch`);
    } else if (narrow) a = this.withAssumption(`${guard}; ${narrow.note}`, () => this.withMask(this.and(narrow.mask), () => this.rvalue(cons)));
    else a = this.withAssumption(both, () => this.rvalue(cons));
    const b = this.withAssumption(both, () => this.rvalue(alt));
    if (a.k === 'num' && b.k === 'num' && JSON.stringify(a) === JSON.stringify(b)) return a;
    // a pointer picked the same way on every lane of a warp (`(k & 1) ? bufB : bufA`): either one gives the figures
    // where the two differ by the same amount on every lane; else what it indexes is unknown, not dropped
    const wholeWarp = (cond.k === 'unk' && !!cond.uniform) || (cond.k === 'num' && !hasThread(cond.sym) && isUniform(cond.v, act));
    const how = `the pointer \`${node.text}\` at line ${this.realNode(node).startPosition.row + 1}`;
    const either = a.k === 'ptr' && b.k === 'ptr' && wholeWarp ? eitherPointer(a, b, how, act) : null;
    if (either) return either;
    // an integer picked the same way on every lane of a warp (`a < b ? a : b`, `n < lo ? lo : n`, the operands one
    // value per warp), as an `if` that sets it leaves it: one unknown value per warp; where the two branches' lanes
    // differ by one amount (`c ? 2 * t : 2 * t + n`), the first plus that unknown (bank model rule 6)
    if (wholeWarp && a.k === 'num' && b.k === 'num' && a.t.kind === 'int' && b.t.kind === 'int') {
      const line = this.realNode(node).startPosition.row + 1;
      const t = promote(a.t, b.t);
      const d = binary('-', b, a, () => node.text, act);
      if (d.k === 'num' && !hasThread(d.sym) && isUniform(d.v, act) && !(typeof d.v === 'number' && Number.isNaN(d.v)) &&
        !(d.sym && Object.keys(d.sym).some((k) => k.startsWith(UNKNOWN)))) {
        const pick = atom(`(${node.text})@${line}`, t);
        const even = !hasThread(a.sym) && isUniform(a.v, act);
        return even ? pick : binary('+', convert(a, t), pick, () => node.text, act);
      }
    }
    if (a.k === 'ptr' || b.k === 'ptr') {
      const [p, q] = a.k === 'ptr' ? [a, b] : [b as Ptr, a];
      return unknownPointer(p, `${guard}; ${how} points into \`${p.base.name}\` or ${q.k === 'ptr' ? `into \`${q.base.name}\`` : 'elsewhere'}`);
    }
    return unk(`the condition of \`${node.text}\` could not be evaluated per lane`);
  }

  private typeDescriptor(tn: Node): CType {
    const base = tn.childForFieldName('type');
    let t: CType = base ? this.resolveType(base) : this.resolveTypeName(tn.text);
    let d = tn.childForFieldName('declarator');
    // an array type (`using Row = float[33];`, `float (*)[33]`): read as a typedef's declarator; its extents were
    // dropped, so `__shared__ Row b;` was one float and `b[t]` no access at all
    if (d && (d.type === 'abstract_array_declarator' || d.descendantsOfType('abstract_array_declarator').length))
      return this.declaratorType(t, d) ?? { kind: 'unknown', name: `${tn.text} (an extent could not be evaluated)` };
    for (let i = 0; d && i < 16; i++) {
      if (d.type === 'abstract_pointer_declarator') t = { kind: 'pointer', to: t };
      d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.startsWith('abstract')) ?? null;
    }
    return t;
  }

  /**
   * The type a declarator of a `typedef` makes of `t`, read from the outside in as declareLocals reads a local's:
   * extents met before a parenthesised `*` belong to what it points to (`(*Tile)[33]`: a pointer to rows of 33),
   * those left at the end make an array (`Row[4][8]`). Null where an extent cannot be evaluated.
   */
  private declaratorType(t: CType, d: Node | null): CType | null {
    const extents: Node[] = [];
    const apply = (): boolean => {
      if (!extents.length) return true;
      const arr = this.arrayOf(t, extents.reverse());
      extents.length = 0;
      if (arr) t = arr;
      return !!arr;
    };
    for (let i = 0; d && i < 16; i++) {
      // a type descriptor's abstract declarators (`float (*)[33]`, `float[4][8]`) read the same way
      const type = d.type.replace(/^abstract_/, '');
      if (type === 'pointer_declarator') {
        if (!apply()) return null;
        t = { kind: 'pointer', to: t };
      } else if (type === 'array_declarator') {
        const size = d.childForFieldName('size');
        if (size) extents.push(size);
      } else if (type !== 'parenthesized_declarator') break;
      d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.endsWith('declarator')) ?? null;
    }
    return apply() ? t : null;
  }

  private castPtr(p: Ptr, to: CType, node: Node): Ptr {
    const same = typeName(to) === typeName(p.to);
    // a cast of an element's address whose new type stays inside the element's row on every lane
    // (`*reinterpret_cast<float4 *>(&As[k][ty * 4])`) reads the same elements with the rows padded: it assumes no row
    // length (indexing or arithmetic on the cast pointer still does: see deref and the pointer arithmetic)
    const flat = p.flat ?? (!same && p.base.dims.length > 1 && !sameRow(p, p.off, to) ? `a cast of \`${p.base.name}\` to \`${typeName(to)}*\` at line ${this.realNode(node).startPosition.row + 1}` : null);
    return { ...p, to, flat };
  }

  /**
   * An object converted to a pointer (`SharedMemory<T> smem; T *s = smem;`, `s = smem`, `(T *)smem`): the object's
   * conversion operator returns its `extern __shared__` array, as a construction (`T *s = SharedMemory<T>()`) does
   * (sharedHolder). A pointer made from any other object is not followed: unknown, saying so.
   */
  private objectPointer(v: Obj, what: string): Value {
    const holder = v.t.kind === 'struct' ? this.sharedHolder(v.t.name.replace(/\s*<.*$/, '').replace(/^.*::/, '')) : null;
    return holder ?? unk(`\`${what}\` is made from an object of \`${typeName(v.t)}\`, a conversion the analysis does not follow`);
  }

  private cast(v: Value, t: CType, node: Node): Value {
    if (t.kind === 'pointer' && v.k === 'obj') v = this.objectPointer(v, node.text);
    if (t.kind === 'pointer') {
      if (v.k === 'ptr') return this.castPtr(v, t.to, node);
      return v.k === 'unk' ? v : { k: 'other', what: 'pointer' };
    }
    // a shared pointer cast to a type not known here (`reinterpret_cast<Row>(buf)`, `Row` from a header): still a
    // place in that array, of a type not known, so what indexes it is an access, reported unknown; not the old type
    if (t.kind === 'unknown' && v.k === 'ptr') return this.castPtr(v, t, node);
    if ((t.kind === 'int' || t.kind === 'float') && v.k === 'num') return convert(v, t);
    return v;
  }

  private call(node: Node): Value {
    let fnNode = node.childForFieldName('function')!;
    // `R<double, 256>::get(...)`: the class template's arguments, for a member function of a class template
    let classArgs: Node[] | ClassBinding | null = null;
    // the class a qualified call names (`Red<NT>::Go`, `Tile::load`): its member function, not another class's of that name
    let classScope: Node | null = null;
    for (let i = 0; fnNode.type === 'qualified_identifier' && i < 16; i++) {
      const inner = fnNode.childForFieldName('name');
      const scope = fnNode.childForFieldName('scope');
      if (!inner || /^(std|cuda|cg|cooperative_groups)$/.test(scope?.text ?? '') && inner.type === 'identifier' && !this.cfg.facts.functions.has(inner.text)) break;
      classScope = scope;
      if (scope?.type === 'template_type') classArgs = argumentNodes(scope);
      // `Swz::apply(x)` with `Swz` a type parameter or an alias bound to a class template instance (`Swizzle<3, 4, 3>`):
      // that instance's parameters, bound where it was named
      else if (scope && /^(type_|namespace_)?identifier$/.test(scope.type) && (this.cfg.types.has(scope.text) || this.cfg.facts.typeDecls.has(scope.text))) {
        const of = this.templateBound.get(this.resolveTypeName(scope.text));
        if (of) classArgs = of;
      }
      fnNode = inner;
    }
    const argsNode = node.childForFieldName('arguments');
    const argNodes = named(argsNode).filter((c) => c.type !== 'comment');
    if (kids(node).some((c) => c.type === 'kernel_call_syntax')) {
      for (const a of argNodes) this.rvalue(a);
      return { k: 'other', what: 'launch' };
    }
    // a functional cast to a built-in type: `int(j / 8)`, `unsigned(x)`, `uint32_t(v)`, or to a template's type
    // parameter bound to one (`T(n / 2)` with T float, cuDPP's `(int)log2(T(systemSize / 2))`)
    if (argNodes.length === 1 && (fnNode.type === 'primitive_type' || fnNode.type === 'sized_type_specifier' ||
      fnNode.type === 'identifier' && (BUILTINS[fnNode.text] || this.cfg.types.has(fnNode.text)) && !this.binding(fnNode.text) && !this.cfg.facts.functions.has(fnNode.text) && !this.cfg.facts.macros.has(fnNode.text))) {
      const t = fnNode.type === 'identifier' ? BUILTINS[fnNode.text] ?? this.resolveTypeName(fnNode.text, fnNode) : this.resolveType(fnNode);
      if (t.kind === 'int' || t.kind === 'float') return this.cast(this.rvalue(argNodes[0]), t, node);
    }
    // a functional cast to a class of the file with a constructor (`View(tile, 33)`, a temporary or `View w = View(...)`):
    // the object that constructor builds
    if (fnNode.type === 'identifier' && this.cfg.facts.typeDecls.has(fnNode.text) && !this.binding(fnNode.text)) {
      const t = this.resolveTypeName(fnNode.text, fnNode);
      const obj = t.kind === 'struct' && this.memberDef({ t }, fnNode.text, argNodes.length)
        ? this.newObject(t, fnNode.text, null, unk(''), node, argNodes.map((a) => this.rvalue(a))) : null;
      if (obj) return obj;
    }
    // reinterpret_cast<T*>(x) and friends
    if (fnNode.type === 'template_function') {
      const name = fnNode.childForFieldName('name')?.text ?? '';
      if (/^(reinterpret|static|const|dynamic)_cast$/.test(name)) {
        const td = argumentNodes(fnNode)[0];
        const v = argNodes[0] ? this.rvalue(argNodes[0]) : unk('cast of nothing');
        return td ? this.cast(v, this.typeDescriptor(td), node) : v;
      }
    }
    const name = fnNode.type === 'identifier' ? fnNode.text : fnNode.type === 'template_function' ? fnNode.childForFieldName('name')?.text ?? '' : fnNode.type === 'qualified_identifier' ? fnNode.childForFieldName('name')?.text ?? '' : '';
    // the object of a member call (`g.thread_rank()`, `t.at(r, c)`, `bar.arrive()`), evaluated once: its expression
    // may itself be a call whose accesses must not be recorded twice
    let objectValue: Value | undefined;
    const object = () => (objectValue ??= this.memberObject(fnNode));
    const group = this.cooperativeGroups(fnNode, name, argNodes, object);
    if (group) return group;
    if (ATOMICS.test(name)) {
      const p = argNodes[0] ? this.rvalue(argNodes[0]) : unk('no argument');
      for (const a of argNodes.slice(1)) this.rvalue(a);
      if (p.k === 'ptr') {
        const r = this.deref(p, num(0), node, argNodes[0]);
        if (r.k === 'ref') this.access(r, 'atomic', node);
      }
      return unk(`the result of \`${name}\``);
    }
    if (name === '__pipeline_memcpy_async') return this.asyncCopy(argNodes, node);
    if (name === 'memcpy_async' && !this.cfg.facts.functions.has(name)) return this.memcpyAsync(argNodes, node);
    if (BULK_COPIES.has(name) && !this.cfg.facts.functions.has(name)) return this.bulkCopy(name, argNodes, node);
    // `cuda::aligned_size_t<16>(sizeof(float4))`: the size it wraps
    if (name === 'aligned_size_t' && argNodes.length === 1 && !this.cfg.facts.functions.has(name)) return this.rvalue(argNodes[0]);
    if ((name === 'load_matrix_sync' || name === 'store_matrix_sync') && !this.cfg.facts.functions.has(name)) return this.wmmaCopy(name, argNodes, node);
    const mac = this.macroNamed(name);
    if (mac && mac.params !== null && fnNode.type === 'identifier') {
      // evaluate the arguments where they stand (their accesses are real sites), then the expansion
      if (this.macroDepth >= this.cfg.caps.macroDepth) return this.tooDeep(name);
      const text = substitute(mac, argNodes.map((a) => a.text), false, true);
      // an argument the body never names is never evaluated (`#define DEBUG_PRINT(x)` of `DEBUG_PRINT(s[0])`: no load)
      const params = mac.params;
      const usedArg = (i: number) => {
        const p = i < params.length ? params[i] : params[params.length - 1];
        if (p === undefined) return false;
        const name = p === '...' || (i >= params.length - 1 && p.endsWith('...')) ? (p === '...' ? '__VA_ARGS__' : p.slice(0, -3)) : p;
        return new RegExp(`(^|[^\\w])${name}($|[^\\w])`).test(mac.body);
      };
      const touchesShared = argNodes.some((a, i) => usedArg(i) && this.mentionsShared(a));
      if (touchesShared) {
        const v = this.sharedMacro(mac, name, argNodes, node);
        if (v) return v;
        for (const a of argNodes) this.rvalue(a);
        return unk(`the macro \`${name}\` is applied to shared memory`);
      }
      return this.statementMacro(text, name, node) ?? this.callMacro(text, name, node);
    }
    // `st.load(g)`, `p->load(g)`: a member function, followed into like a free one (its data members are not known)
    const method = fnNode.type === 'field_expression' ? fnNode.childForFieldName('field')?.text ?? '' : '';
    const local = fnNode.type === 'identifier' ? this.binding(name) : null;
    const lambda = local && !isBase(local) ? local.lambda : undefined;
    // `op(a, b)` on an object of a class the file defines (a functor: swsharp's `Sub sub` given `SubScalar()`): its
    // `operator()`, run as a member function of that object
    const functor = !method && !lambda && local && !isBase(local) ? this.callOperator(name, argNodes.length) : null;
    if (functor) {
      const given = argNodes.map((a, i) => (paramAt(functor.def, i) && isReferenceDecl(paramAt(functor.def, i)!.node) ? this.place(a) : { value: this.rvalue(a) }));
      const scope = [this.memberScope(functor.self)];
      return this.returned(functor.def, node, this.inline(functor.def, given, fnNode, node, this.templateBound.get(functor.self.t) ?? this.templateArgs.get(functor.self.t) ?? null, scope));
    }
    let defs = lambda ? [lambda.def] : this.cfg.facts.functions.get(name || method) ?? this.pointee(fnNode);
    // the type the object is declared with (a parameter's, a local's): a class template instance's binds its parameters
    const declared = method ? this.declaredType(fnNode.childForFieldName('argument')) : null;
    if (method && defs && defs.length > 1) defs = this.specialization(declared, defs) ?? defs;
    if (!method && defs && defs.length > 1) {
      const chosen = this.explicitSpecialization(defs, fnNode);
      if (typeof chosen === 'string') {
        // which body runs is not known: what each of them does is unknown there, and the arguments are given to it
        const given = argNodes.map((a) => this.opaqueArgument(a, name, node).value);
        for (const d of defs) {
          this.skipped(d.body, chosen);
          if (!this.cfg.host) this.notKnown.add(d.body.id);
          d.params.forEach((p, i) => given[i] && this.notePointer(p.name, given[i], d.body));
        }
        return unk(chosen);
      }
      defs = chosen ?? defs;
    }
    if (!method && classScope && defs && defs.length > 1) {
      const of = classScope.type === 'template_type' ? this.resolveType(classScope)
        : /^(type_|namespace_)?identifier$/.test(classScope.type) && (this.cfg.types.has(classScope.text) || this.cfg.facts.typeDecls.has(classScope.text)) ? this.resolveTypeName(classScope.text) : null;
      const own = of && this.specialization(of, defs);
      if (own) {
        defs = own;
        // a specialization's own parameters (`template <int NT> struct R<NT, Add>`), not the primary's, are bound
        classArgs = this.templateBound.get(of) ?? classArgs;
      }
    }
    // an object of a class template instance whose specialization is not decided here (`SharedMemory<U> smem;` with U
    // bound by nothing): which class's member function the call runs is not known (each specialization has its own);
    // a pointer it returns still points into shared memory, at an offset not known
    const undecided = method && declared?.kind === 'unknown' && defs && new Set(defs.map((d) => enclosingClass(d.node)?.startIndex ?? -1)).size > 1
      ? `\`${fnNode.text}()\` calls the \`${method}\` of whichever specialization \`${declared.name}\` is, and that is not known here` : null;
    const decided = (v: Value): Value => (!undecided ? v : v.k === 'ptr' ? unknownPointer(v, undecided) : unk(undecided));
    const def = (defs && this.overload(defs, argNodes)) ?? defs?.find((d) => !d.isKernel);
    // an argument for a reference parameter is a place, not a value: nothing is loaded at the call. A function the
    // file does not define whose call is assigned to (`FETCH_FLOAT4(s[i]) = v`: a header's macro, or a function that
    // returns a reference) is not known to read its arguments by value: what it does with a shared place is unknown
    const undefinedCall = !def && !method && fnNode.type === 'identifier' && !mac;
    const bound = argNodes.map((a, i) => (undefinedCall ? this.opaqueArgument(a, name, node)
      : def && paramAt(def, i) && isReferenceDecl(paramAt(def, i)!.node) ? this.place(a) : { value: this.rvalue(a) }));
    const args = bound.map((b) => b.value);
    if (name === 'dim3') return this.dim3(args);
    const holder = this.sharedHolder(name);
    if (holder) return holder;
    const builtin = this.builtinCall(name, args, node);
    if (builtin) return builtin;
    // `make_int2(x, y)`, `make_uint3(...)`, `make_float4(...)` (the CUDA runtime's, when the file defines none): an object
    // of that vector type whose components are the arguments, converted; its `.x` was unknown (`int2 p = make_int2(tx,
    // ty); tile[p.y][p.x]`, pixel and voxel coordinates)
    const made = !def && fnNode.type === 'identifier' ? /^make_(\w+)$/.exec(name) : null;
    const vec = made ? BUILTINS[made[1]] : undefined;
    if (vec?.kind === 'vector' && vec.count === args.length) {
      const st = vectorFields(vec) as Extract<CType, { kind: 'struct' }>;
      const fields = new Map<string, { value: Value; type: CType }>();
      st.fields.forEach((f, i) => fields.set(f.name, { value: this.asVariable(args[i], f.type, `${name}().${f.name}`, argNodes[i] ?? node), type: f.type }));
      return { k: 'obj', t: st, fields };
    }
    // a member function called on a local object sees its data members, and `this`, beneath its own scopes; called on
    // an object in shared memory (`__shared__ Queue q; q.push(v);`), its data members are places in that object, so
    // what it reads and writes there are shared accesses. So does one a member function calls without naming the
    // object (`_get_elem_idx(y, x, d)`, that is `this->_get_elem_idx(...)`): the same object's
    const self = def && method ? object() : def && !lambda ? this.lookupVar('this')?.value : undefined;
    if (self && (self.k === 'obj' || (self.k === 'ref' && self.t.kind === 'struct'))) {
      const members = self.k === 'obj' ? this.memberScope(self) : this.sharedMemberScope(self);
      // among the functions of that name left by the specialization the object is declared as (see specialization)
      const own = this.memberDef(self, method || name, argNodes.length, defs ?? undefined) ?? (method ? def : null);
      if (own) return decided(this.returned(own, node, this.inline(own, bound, fnNode, node, this.templateBound.get(self.t) ?? this.templateArgs.get(self.t) ?? classArgs, [members])));
    }
    if (def) return decided(this.returned(def, node, this.inline(def, bound, fnNode, node, classArgs ?? (declared && this.templateBound.get(declared)) ?? null, lambda?.scopes)));
    const target = method ? object() : null;
    // a member call on a `cuda::atomic_ref` bound to a shared place (see atomicRefDeclaration)
    if (method && target?.k === 'ref' && this.isAtomicRef(fnNode.childForFieldName('argument'))) {
      for (const a of argNodes) this.rvalue(a);
      const kind = method === 'load' ? 'load' : method === 'store' ? 'store' : /^(?:fetch_\w+|exchange|compare_exchange_(?:weak|strong))$/.test(method) ? 'atomic' : null;
      if (kind) this.access(target as Ref, kind, node);
      return unk(`the result of \`${fnNode.text}()\``);
    }
    // `std::array` / `cuda::std::array` (an array type here, see stdArray): `size()` is its extent, read from no memory;
    // `data()` points to its first element
    if (target?.k === 'ref' && target.t.kind === 'array' && target.t.dims[0] > 0 && !argNodes.length) {
      if (method === 'size' || method === 'max_size') return num(target.t.dims[0], LONGT);
      if (method === 'data') return this.decay(target);
    }
    // a member call on a `__shared__ cuda::atomic<T, scope>` (or `cuda::std::atomic<T>`) of a built-in T: its
    // read-modify-writes (`fetch_add`, `exchange`, `compare_exchange_*`) are atomics of T's size at the object, as
    // `atomicAdd` is; `load()` a load, `store(v)` a store
    const atomicType = target?.k === 'ref' ? sharedAtomicType(target) : undefined;
    const atomicKind = !method ? null : method === 'load' ? 'load' : method === 'store' ? 'store' : /^(?:fetch_\w+|exchange|compare_exchange_(?:weak|strong))$/.test(method) ? 'atomic' : null;
    if (target?.k === 'ref' && atomicType && atomicKind) {
      for (const a of argNodes) this.rvalue(a);
      this.access({ ...target, t: atomicType }, atomicKind, node);
      return atomicKind === 'store' ? { k: 'other', what: 'void' } : unk(`the result of \`${fnNode.text}()\``);
    }
    if (target?.k === 'ref') {
      // a member function the file does not define, called on an object in shared memory (`bar.arrive()` on a
      // `__shared__ cuda::barrier`): it reads and writes that object in ways the analysis cannot see
      const reason = `\`${fnNode.text}()\` is a member function of \`${typeName(target.t)}\` that this file does not define, called on an object in shared memory: what it reads or writes is not known`;
      this.access(this.unknownRef(target, target.t, reason), 'atomic', node);
    }
    // a function this file does not define (a header's `copy16(&s[i], src)`, or a member function of a header's class,
    // `tally.add(flux, w)`) given shared memory: what it does there is not seen, so it is said where the call is,
    // rather than left out without a word
    if (!def && (name || method) && !NO_MEMORY_CALLS.test(name || method)) {
      const given = argNodes.filter((_, i) => args[i]?.k === 'ptr');
      if (given.length) {
        const line = this.realNode(node).startPosition.row;
        const message = `\`${method ? fnNode.text : name}(...)\` is not defined in this file: what it reads or writes in shared memory through \`${given.map((a) => a.text).join('`, `')}\` is not analysed`;
        if (!this.capped.some((c) => c.message === message)) this.capped.push({ line, message });
      }
    }
    return unk(`the result of \`${name || fnNode.text}(...)\``);
  }

  /**
   * The definitions a call with template arguments (`load_vector<16u>(d, p)`, `ns::f<N>(x)`) runs where the file
   * gives full specializations of the function template (`template <> void load_vector<4u>(...)`): those whose
   * arguments equal the call's (each evaluated where it is written: a type, or a constant of the caller's instance),
   * else the primary template's; null where no definition is a specialization; where an argument is not known, why
   * the definition the call runs is not known.
   */
  private explicitSpecialization(defs: FunctionFact[], fnNode: Node): FunctionFact[] | string | null {
    const tf = fnNode.type === 'template_function' ? fnNode : fnNode.type === 'qualified_identifier' ? fnNode.childForFieldName('name') : null;
    if (tf?.type !== 'template_function') return null;
    const given = argumentNodes(tf);
    /** the template arguments a definition's name carries (`f<4u>`), null for the primary template's */
    const specArgs = (d: FunctionFact): Node[] | null => {
      let n: Node | null = d.node.childForFieldName('declarator');
      while (n && n.type !== 'function_declarator') n = n.childForFieldName('declarator');
      let id = n?.childForFieldName('declarator') ?? null;
      if (id?.type === 'qualified_identifier') id = id.childForFieldName('name');
      return id?.type === 'template_function' ? argumentNodes(id) : null;
    };
    const specs = defs.map((d) => ({ d, args: specArgs(d) }));
    if (!specs.some((x) => x.args)) return null;
    /** true or false where both are known, null where one is not (a call's `f<N>` parses as a type: it is read as a value where the specialization's is one) */
    const same = (call: Node, spec: Node): boolean | null => {
      if (spec.type === 'type_descriptor') {
        if (call.type !== 'type_descriptor') return false;
        const a = this.typeDescriptor(call), b = this.typeDescriptor(spec);
        return a.kind === 'unknown' || b.kind === 'unknown' ? null : typeName(a) === typeName(b);
      }
      const a = uniformValue(this.rvalue(call)), b = uniformValue(this.rvalue(spec));
      return a === null || b === null ? null : a === b;
    };
    const verdicts = specs.map((x) => (!x.args ? false : x.args.length !== given.length ? false : x.args.reduce<boolean | null>((acc, a, i) => {
      const v = same(given[i], a);
      return acc === false || v === false ? false : acc === null || v === null ? null : true;
    }, true)));
    if (verdicts.some((v) => v === null)) return `which specialization of \`${tf.childForFieldName('name')?.text ?? tf.text}\` the call \`${fnNode.text}\` at line ${this.realNode(fnNode).startPosition.row + 1} runs is not known (its template arguments could not be evaluated)`;
    const hit = specs.filter((_, i) => verdicts[i]).map((x) => x.d);
    return hit.length ? hit : specs.filter((x) => !x.args).map((x) => x.d);
  }

  /**
   * The definitions a call through a name that holds a function calls: a function-pointer template parameter bound to
   * a function (`template <fn_t F> ... F(p)` instantiated `k<helper>`), or a local or parameter assigned one.
   */
  private pointee(fnNode: Node): FunctionFact[] | undefined {
    if (fnNode.type !== 'identifier') return undefined;
    const b = this.binding(fnNode.text);
    const v = b ? (isBase(b) ? null : b.value) : this.cfg.values.get(fnNode.text);
    return v?.k === 'other' && v.what.startsWith('function ') ? this.cfg.facts.functions.get(v.what.slice('function '.length)) : undefined;
  }

  /**
   * Inline PTX that touches shared memory through an operand holding a shared address
   * (`__cvta_generic_to_shared(&s[i])`): `ld.shared` / `st.shared` (`.v2`/`.v4`, 8 to 64 bits; also `ld.volatile.shared`,
   * `st.relaxed.cta.shared`), `ldmatrix` /
   * `stmatrix` (`.x1`/`.x2`/`.x4`: lanes 0-7, 0-15 or all 32 each give the address of one 16-byte row, counted as a
   * 16-byte access of those lanes, as the bank model says; without `.shared` the address is generic, and counts where
   * it points into a shared array), `cp.async ... .shared.global [dst], [src], 4/8/16`
   * (a store, said to be uncertain), `atom.shared` / `red.shared` (an atomic of the instruction's type, as
   * `atomicAdd` is), and the bulk copies of the tensor memory accelerator (`cp.async.bulk[.tensor.Nd]` into or out
   * of shared memory: done by the copy engine, not as a warp's request, so reported unknown, with that reason) and
   * `mbarrier` operations on a barrier in shared memory (unknown too: the bank model has no rule for them).
   * Other instructions are not read.
   */
  private asmAccesses(node: Node, operands: Node[]): void {
    const code = ptxText(node.childForFieldName('assembly_code'));
    const INSN = /\b(ld|st)(?:\.(?:volatile|relaxed|acquire|release|weak|mmio|cta|cluster|gpu|sys))*\.shared(?:::cta)?((?:\.v[24])?)\.[bsuf](8|16|32|64)(?![\w.])[^;]*?\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]|\b(ld|st)matrix\.sync\.aligned(?=(?:\.(?:x[124]|trans))*\.m8n8)(?:\.(?:m8n8|trans))*\.x([124])(?:\.(?:m8n8|trans))*(?:\.shared(?:::cta)?)?\.b16(?![\w.])[^;]*?\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]|\bcp\.async\.c[ag]\.shared(?:::cta)?\.global(?:\.\w+(?:::\w+)?)*\s*\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]\s*,\s*\[[^\]]*\]\s*,\s*(\d+|%\d+)|\b(atom|red)(?:\.(?:relaxed|acquire|release|acq_rel|sc|cta|cluster|gpu|sys))*\.shared(?:::cta)?((?:\.\w+)+)\s[^;]*?\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]|\bcp\.async\.bulk(?:\.tensor\.[1-5]d)?\.shared::(?:cluster|cta)\.global[^;]*?\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]|\bcp(?:\.reduce)?\.async\.bulk(?:\.tensor\.[1-5]d)?\.global\.shared::cta[^;]*?\[[^\]]*\]\s*,\s*\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]|\bmbarrier(?:\.[\w:]+)*?\.shared(?:::cta|::cluster)?(?:\.\w+)*\s[^;]*?\[\s*%(\d+\s*(?:[+-]\s*(?:0x[0-9a-fA-F]+|\d+)\s*)?)\]/g;
    let index = 0;
    for (let m = INSN.exec(code); m; m = INSN.exec(code), index++) {
      let kind: AccessKind, bytes: number, operand: string, lanes = 32, note: string | null = null, asyncCopy = false;
      let why: string | null = null;
      if (m[15]) {
        // `mbarrier.init` / `.arrive` / `.try_wait` on a barrier object in shared memory: no warp request of the bank model
        kind = 'atomic';
        bytes = NaN;
        operand = m[15];
        why = `\`${m[0].split(/\s/)[0]}\` at line ${this.realNode(node).startPosition.row + 1} is an mbarrier operation: the bank model has no rule for it`;
      } else if (m[13] || m[14]) {
        // a bulk copy (TMA): the copy engine reads or writes the shared bytes, not the lanes of a warp request
        kind = m[13] ? 'store' : 'load';
        bytes = NaN;
        operand = m[13] ?? m[14];
        why = `\`${m[0].split(/\s/)[0]}\` at line ${this.realNode(node).startPosition.row + 1} is a bulk copy done by the tensor memory accelerator, not a warp's request: the bank model has no rule for it`;
      } else if (m[10]) {
        kind = 'atomic';
        // the last type of the qualifiers (`.add.f32`, `.cas.b64`, `.add.noftz.f16x2`): its width per lane
        const ty = [...m[11].matchAll(/\.(?:[bsuf](16|32|64)|bf16)(x2)?(?!\w)/g)].pop();
        bytes = !ty ? NaN : ty[2] ? 4 : ty[1] ? Number(ty[1]) / 8 : 2;
        operand = m[12];
      } else if (m[1]) {
        kind = m[1] === 'ld' ? 'load' : 'store';
        bytes = (m[2] ? Number(m[2].slice(2)) : 1) * (Number(m[3]) / 8);
        operand = m[4];
      } else if (m[5]) {
        kind = m[5] === 'ld' ? 'load' : 'store';
        bytes = 16;
        lanes = 8 * Number(m[6]);
        operand = m[7];
        note = `\`${m[5]}matrix .x${m[6]}\` at line ${this.realNode(node).startPosition.row + 1}: lanes 0-${lanes - 1} each give the address of one 16-byte row, counted as a 16-byte access by those lanes (the bank model's rule; its cost model is inferred)`;
      } else {
        kind = 'store';
        // the copy size, written in the PTX or passed as an immediate operand (`%2` with `"n"(16)`)
        const size = m[9].startsWith('%') ? (operands[Number(m[9].slice(1))] ? uniformValue(this.rvalue(operands[Number(m[9].slice(1))])) : null) : Number(m[9]);
        bytes = size ?? NaN;
        operand = m[8];
        asyncCopy = true;
      }
      // `[%1]`, or `[%1+512]` with a displacement in bytes
      const [reg, sign, disp] = /^(\d+)\s*(?:([+-])\s*(\S+?)\s*)?$/.exec(operand)!.slice(1);
      const at = operands[Number(reg)];
      let p = at ? this.rvalue(at) : null;
      if (p?.k === 'ptr' && disp) p = { ...p, off: binary('+', p.off, num((sign === '-' ? -1 : 1) * Number(disp), LONGT), () => at!.text, null) as Num };
      const key = `${node.id}:${index}:${this.ctx.call ?? ''}`;
      const t = accessType(bytes);
      let r: Value;
      if (!p || p.k !== 'ptr') {
        // an address this instruction took as a shared pointer before (a loop's first pass) that is no longer one
        // (`ld.shared.b32 %0, [%0]` with "+r": the loaded value is the next address): that run is unknown, not absent
        const seen = this.asmSites.get(key);
        if (!seen || !p) continue;
        r = this.unknownRef(seen, seen.t, p.k === 'unk' ? p.reason : `\`${at!.text}\` is not a shared address the analysis follows`);
      } else {
        r = this.deref(p, num(0), node, at);
        if (r.k !== 'ref') continue;
        this.asmSites.set(key, r);
      }
      const ref = r;
      const mask = new Uint8Array(this.n);
      for (let i = 0; i < this.n; i++) mask[i] = i % 32 < lanes ? 1 : 0;
      const run = () => this.access(t && !why ? { ...ref, t } : this.unknownRef(ref, why ? { kind: 'unknown', name: 'a bulk copy or mbarrier' } : ref.t, why ?? (Number.isNaN(bytes) ? `the size of the ${kind === 'atomic' ? 'atomic' : 'copy'} in the inline PTX at line ${this.realNode(node).startPosition.row + 1} could not be evaluated` : `a ${bytes}-byte shared access in inline PTX is not evaluated`)), kind, node, asyncCopy);
      this.withAssumption(note, () => (lanes < 32 ? this.withMask(this.and(mask), run) : run()));
    }
  }

  /**
   * `__pipeline_memcpy_async(dst, src, bytes)` (cp.async): a write of 4, 8 or 16 bytes per lane into shared memory.
   * The bank model has no public rule for its conflicts: it is counted as a store of that width, and said to be
   * uncertain (Visit.asyncCopy).
   */
  private asyncCopy(argNodes: Node[], node: Node, first?: Value): Value {
    const dst = first ?? (argNodes[0] ? this.rvalue(argNodes[0]) : unk('no argument'));
    for (const a of argNodes.slice(1, 2)) this.rvalue(a);
    const size = argNodes[2] ? uniformValue(this.rvalue(argNodes[2])) : null;
    for (const a of argNodes.slice(3)) this.completesOn(a, node);
    if (dst.k !== 'ptr') return { k: 'other', what: 'cp.async' };
    const r = this.deref(dst, num(0), node, argNodes[0]);
    if (r.k !== 'ref') return { k: 'other', what: 'cp.async' };
    const t = size === 4 || size === 8 || size === 16 ? accessType(size) : null;
    if (!t) {
      const why = `the size of \`${node.text}\` is not 4, 8 or 16 bytes`;
      this.access(this.unknownRef(r, r.t, why), 'store', node, true);
    } else this.access({ ...r, t }, 'store', node, true);
    return { k: 'other', what: 'cp.async' };
  }

  /**
   * The CUDA samples' `T *sdata = SharedMemory<T>();`: a struct whose conversion operator returns an
   * `extern __shared__` array. Constructing one yields a pointer to that array (the variable's type casts it).
   */
  /**
   * The member functions, among same-named ones, of the class an object is declared as: `SharedMemory<T> smem;
   * smem.getPointer()` calls the `template <> struct SharedMemory<float>` one when T is float, a partial
   * specialization's (`template <typename R> struct Op<SUM, R>`) when its pattern matches (see classSpecialization),
   * the primary template's when none does. Null: the object or its type is not known here.
   */
  private specialization(t: CType | null, defs: FunctionFact[]): FunctionFact[] | null {
    const cls = t ? this.classDecl(t) : undefined;
    if (!cls) return null;
    const inside = defs.filter((d) => d.node.startIndex >= cls.startIndex && d.node.endIndex <= cls.endIndex);
    return inside.length ? inside : null;
  }

  /** The struct type a name is declared with (through one pointer: `p->f()`), else null. */
  private declaredType(obj: Node | null): CType | null {
    const b = obj?.type === 'identifier' ? this.binding(obj.text) : null;
    return b && !isBase(b) ? (b.type.kind === 'pointer' ? b.type.to : b.type) : null;
  }

  private sharedHolder(name: string): Value | null {
    const decl = this.cfg.facts.typeDecls.get(name);
    if (!decl || (decl.type !== 'struct_specifier' && decl.type !== 'class_specifier') || !/extern\s+__shared__/.test(decl.text)) return null;
    const stack: Node[] = [decl];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'declaration' && isSharedDecl(n) && kids(n).some((c) => c.type === 'storage_class_specifier' && c.text === 'extern')) {
        const scope = new Map<string, Var | SharedBase>();
        this.declare(n, scope);
        const base = [...scope.values()].find(isBase);
        if (!base) return null;
        return { k: 'ptr', base, off: num(0), to: base.elem, name: base.name, flat: null };
      }
      for (const c of named(n)) stack.push(c);
    }
    return null;
  }

  private mentionsShared(n: Node): boolean {
    for (const id of identifiersIn(n)) {
      const b = this.binding(id);
      if (b && (isBase(b) || b.value.k === 'ptr' || b.value.k === 'ref')) return true;
    }
    return false;
  }

  /**
   * `cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(16), pipe)`: each thread copies its own bytes with one
   * cp.async of that size, as asyncCopy counts it. With a plain size libcu++ chooses the instructions from the
   * alignment it can prove (cp.async of 4, 8 or 16 bytes, or a plain copy): the width of each write is not known.
   * `cg::memcpy_async(group, dst, src, bytes)`: the group shares the copy out, in a way no document gives: an access
   * whose lanes are unknown.
   */
  private memcpyAsync(argNodes: Node[], node: Node): Value {
    const first = argNodes[0] ? this.rvalue(argNodes[0]) : unk('no argument');
    // the size: `cuda::aligned_size_t<16>(16)` written there, or a variable declared as one; the alignment is a
    // constant expression (`16`, `sizeof(float4)`, a template parameter)
    const sizeArg = argNodes[2];
    const held = sizeArg?.type === 'identifier' ? this.binding(sizeArg.text) : null;
    const align = this.alignedSizeAlignment(held && !isBase(held) && held.decl ? held.decl : sizeArg ?? null);
    const size = align !== null && sizeArg ? uniformValue(this.rvalue(sizeArg)) : null;
    if (first.k === 'ptr' && size !== null && align === size) return this.asyncCopy(argNodes, node, first);
    if (first.k === 'ptr') {
      for (const a of argNodes.slice(1, 3)) this.rvalue(a);
      for (const a of argNodes.slice(3)) this.completesOn(a, node);
      const r = this.deref(first, num(0), node, argNodes[0]);
      const why = `\`${this.realNode(node).text.split('(')[0]}\` copies with instructions libcu++ chooses from the alignment it can prove (cp.async of 4, 8 or 16 bytes, or a plain copy): the width of each write is not known`;
      if (r.k === 'ref') this.access(this.unknownRef(r, r.t, why), 'store', node, true);
      return { k: 'other', what: 'memcpy_async' };
    }
    const dst = argNodes[1] ? this.rvalue(argNodes[1]) : unk('no argument');
    for (const a of argNodes.slice(2, 4)) this.rvalue(a);
    for (const a of argNodes.slice(4)) this.completesOn(a, node);
    if (dst.k === 'ptr') {
      const r = this.deref(dst, num(0), node, argNodes[1]);
      if (r.k === 'ref') this.access(this.unknownRef(r, r.t, `\`${node.childForFieldName('function')?.text ?? 'memcpy_async'}\` with a group: which lane writes which bytes is not documented`), 'store', node, true);
    }
    return { k: 'other', what: 'memcpy_async' };
  }

  /**
   * Why a call of `name`, a function the file does not define, is not known to read its arguments by value: it is
   * assigned to in the same function (`FETCH_FLOAT4(s[i]) = v`: a macro from a header, or a function that returns a
   * reference), or it is named in capitals as macros are (`FETCH_FLOAT4(s[i])` read). Null: an ordinary call.
   */
  private opaqueCall(name: string): string | null {
    const line = assignedCalls(this.frame().fn?.node).get(name);
    if (line !== undefined) return `\`${name}(...)\` is not defined in this file and is assigned to at line ${line + 1} (a macro from a header, or a function that returns a reference)`;
    if (/^[A-Z][A-Z0-9_]*[A-Z0-9]$/.test(name) && !BUILTINS[name]) return `\`${name}(...)\` is not defined in this file and is named in capitals, as a macro from a header is (give it with -D to analyse it)`;
    return null;
  }

  /**
   * An argument of a call to `name`, a function the file does not define: where opaqueCall says it may not read it by
   * value, a place in shared memory given to it is an access whose width and kind are not known (`FETCH_FLOAT4(s[i])`
   * is a 16-byte access through a header's macro, not a 4-byte load of `s[i]`). Anything else is a value, as before.
   */
  private opaqueArgument(a: Node, name: string, node: Node): { value: Value } {
    const value = this.eval(a);
    // asked only for a place (what reads the function's text, once per definition, is not paid for every call)
    const why = value.k === 'ref' && value.t.kind !== 'array' ? this.opaqueCall(name) : null;
    if (!why || value.k !== 'ref') return { value: this.load(value, a) };
    const reason = `${why}: how it reads or writes \`${a.text}\` is not known`;
    const parent = this.realNode(node).parent;
    const stored = parent?.type === 'assignment_expression' && parent.childForFieldName('left')?.startIndex === this.realNode(node).startIndex;
    this.access(this.unknownRef(value, { kind: 'unknown', name: typeName(value.t) }, reason), stored ? 'store' : 'load', node);
    return { value: unk(reason) };
  }

  /**
   * The barrier or pipeline an async copy completes on (`cuda::memcpy_async(dst, src, size, bar)`): taken by
   * reference, not loaded. A `__shared__ cuda::barrier` is signalled there in ways no public document gives: an
   * atomic on that object whose figures are unknown, as a member function call on it is.
   */
  private completesOn(a: Node, node: Node): void {
    const { value } = this.place(a);
    if (value.k !== 'ref') return;
    const reason = `\`${this.realNode(node).text.split('(')[0]}\` signals its completion on \`${a.text}\`, an object of type \`${typeName(value.t)}\` in shared memory: what it reads or writes there is not known`;
    this.access(this.unknownRef(value, value.t, reason), 'atomic', node, true);
  }

  /**
   * A bulk copy of the tensor memory accelerator through libcu++ (`cuda::device::memcpy_async_tx(dst, src, size, bar)`,
   * `cuda::ptx::cp_async_bulk(space_cluster, space_global, dst, src, size, mbar)`, `cp_async_bulk_tensor`): the copy
   * engine reads or writes the shared bytes, not the lanes of a warp request, so the access is unknown, as the inline
   * PTX `cp.async.bulk` is. The shared pointer among the arguments after the state-space tags: the first (the
   * destination) is written, a later one (the source) read; the barrier is where the copy signals its completion.
   */
  private bulkCopy(name: string, argNodes: Node[], node: Node): Value {
    const args = argNodes.filter((a) => !/\bspace_\w+$/.test(a.text));
    args.forEach((a, i) => {
      if (name === 'memcpy_async_tx' && i === 3) return this.completesOn(a, node);
      const v = this.rvalue(a);
      if (v.k !== 'ptr' || i > 1) return;
      const r = this.deref(v, num(0), node, a);
      const why = `\`${this.realNode(node).text.split('(')[0]}\` at line ${this.realNode(node).startPosition.row + 1} is a bulk copy done by the tensor memory accelerator, not a warp's request: the bank model has no rule for it`;
      if (r.k === 'ref') this.access(this.unknownRef(r, { kind: 'unknown', name: 'a bulk copy' }, why), i === 0 ? 'store' : 'load', node);
    });
    return { k: 'other', what: name };
  }

  /** the alignment `N` of the `cuda::aligned_size_t<N>` written in `n`, where `N` is a known constant; else null. */
  private alignedSizeAlignment(n: Node | null): number | null {
    const stack = n ? [n] : [];
    while (stack.length) {
      const c = stack.pop()!;
      if ((c.type === 'template_function' || c.type === 'template_type') && c.childForFieldName('name')?.text === 'aligned_size_t') {
        const arg = argumentNodes(c)[0];
        return arg && arg.type !== 'type_descriptor' ? uniformValue(this.rvalue(arg)) : null;
      }
      stack.push(...named(c));
    }
    return null;
  }

  /**
   * Cooperative groups: `this_thread_block()` is the block and `tiled_partition<N>(g)` its tiles of N threads; a
   * group's `thread_rank()` is the linear thread id (mod N for a tile), `meta_group_rank()` the tile's index. Null
   * when the call is not one of these.
   */
  private cooperativeGroups(fnNode: Node, name: string, argNodes: Node[], object: () => Value): Value | null {
    if (this.warpMode && /^(?:this_thread_block|tiled_partition|this_grid|this_cluster)$/.test(name)) throw NEEDS_FULL_BLOCK;
    if (name === 'this_thread_block') return { k: 'other', what: 'cg:block:0' };
    if (name === 'this_grid' || name === 'this_cluster') return { k: 'other', what: `cg:${name.slice(5)}` };
    if (name === 'coalesced_threads') {
      if (this.warpMode) throw NEEDS_FULL_BLOCK;
      if (this.cfg.host) return unk('a thread group in host code');
      // the lanes of each warp active at the call (`if (p) { auto g = cg::coalesced_threads(); ... }`): a lane's rank
      // is the count of active lanes below it in its warp, the group's size their count (Programming Guide,
      // coalesced groups)
      const act = this.active();
      const rank = new Float64Array(this.n), size = new Float64Array(this.n);
      for (let w = 0; w < this.n; w += 32) {
        let k = 0;
        for (let i = w; i < Math.min(w + 32, this.n); i++) if (act[i]) rank[i] = k++;
        for (let i = w; i < Math.min(w + 32, this.n); i++) size[i] = k;
      }
      const id = this.coalesced.push({ rank: num(rank, UINT), size: num(size, UINT) }) - 1;
      return { k: 'other', what: `cg:coalesced:${id}` };
    }
    if (name === 'tiled_partition') {
      const targ = fnNode.type === 'template_function' ? argumentNodes(fnNode)[0] : argNodes[1];
      const size = targ ? uniformValue(this.rvalue(targ)) : null;
      const parent = argNodes.map((a) => this.rvalue(a))[0];
      // a tile cut from a tile (`tiled_partition<8>(warp)`): its rank among the parent's tiles is counted within the
      // parent (Programming Guide: meta_group_rank is the rank in the set of tiles partitioned from the parent)
      const of = parent?.k === 'other' ? /^cg:(block:0|tile:(\d+))$/.exec(parent.what) : null;
      if (!of) return unk(`the group \`${argNodes[0]?.text ?? ''}\` that \`${fnNode.text}\` partitions is not known here`);
      return size !== null && Number.isInteger(size) && size >= 1 ? { k: 'other', what: `cg:tile:${size}${of[2] ? `:${of[2]}` : ''}` } : unk(`the tile size of \`${fnNode.text}\` is not known`);
    }
    if (fnNode.type !== 'field_expression') return null;
    // the object is read only if it is a thread group (a shared object, a cuda::barrier, is not loaded by a call)
    const obj = object();
    const m = obj.k === 'other' ? /^cg:(block|tile|grid|cluster|coalesced)(?::(\d+))?(?::(\d+))?$/.exec(obj.what) : null;
    // a group that is not known (a tile of a group not known here): why, rather than that its rank is not known
    if (!m && obj.k === 'unk' && /^(?:thread_rank|meta_group_rank|meta_group_size)$/.test(fnNode.childForFieldName('field')?.text ?? '')) return obj;
    if (!m) return null;
    const method = fnNode.childForFieldName('field')?.text ?? '';
    if (m[1] === 'coalesced') {
      const g = this.coalesced[Number(m[2])];
      for (const a of argNodes) this.rvalue(a);
      return method === 'thread_rank' ? g.rank : method === 'size' || method === 'num_threads' ? g.size : method === 'sync' ? { k: 'other', what: 'sync' } : unk(`the result of \`${fnNode.text}()\``);
    }
    if (m[1] === 'grid' || m[1] === 'cluster') return this.gridOrCluster(m[1], method, fnNode, argNodes);
    // a thread block's coordinates: `thread_index()` is threadIdx, `group_index()` blockIdx, `dim_threads()` (and the
    // older `group_dim()`) blockDim
    const coords = m[1] === 'block' ? { thread_index: 'threadIdx', group_index: 'blockIdx', dim_threads: 'blockDim', group_dim: 'blockDim' }[method] : undefined;
    if (coords) return this.builtinObject(coords);
    const tile = m[1] === 'tile' ? Number(m[2]) : this.n;
    // the threads the tile was cut from: a tile of the parent's size (m[3]), else the whole block
    const parent = m[3] ? Number(m[3]) : this.n;
    const lanes = (f: (t: number) => number) => this.perThread(f, 'a thread group in host code');
    // the arguments are read where they stand (`tile.shfl(s[r][l], 0)` loads from shared memory)
    for (const a of argNodes) this.rvalue(a);
    switch (method) {
      case 'thread_rank': return lanes((t) => t % tile);
      case 'meta_group_rank': return lanes((t) => Math.floor((t % parent) / tile));
      case 'size':
      case 'num_threads': return num(tile, UINT);
      case 'meta_group_size': return num(Math.ceil(parent / tile), UINT);
      case 'sync': return { k: 'other', what: 'sync' };
      default: return unk(`the result of \`${fnNode.text}()\``);
    }
  }

  /** each `cg::coalesced_threads()` group made in this run: its lanes' ranks and sizes. */
  private coalesced: { rank: Num; size: Num }[] = [];

  /**
   * `cg::this_grid()` and `cg::this_cluster()`: a block's rank in the grid or in its thread block cluster is one value
   * per block (warp-uniform, not known here), and a thread's rank is that times the block's size plus its rank in the
   * block. `cluster.map_shared_rank(p, r)` points into the shared memory of a block of the cluster (distributed shared
   * memory, cc 9.0): what it indexes is an access site, `unknown`, since the bank model has no rule for it.
   */
  private gridOrCluster(kind: string, method: string, fnNode: Node, argNodes: Node[]): Value {
    const label = `${kind === 'grid' ? 'the grid' : 'the cluster'}`;
    const args = argNodes.map((a) => this.rvalue(a));
    const blockRank = atom(`${this.realNode(fnNode).childForFieldName('argument')?.text ?? kind}.block_rank()`, UINT);
    switch (method) {
      case 'block_rank': return blockRank;
      case 'thread_rank': return binary('+', binary('*', blockRank, num(this.n, UINT), label, null), this.perThread((t) => t, `${label} in host code`), label, null);
      case 'sync':
      case 'barrier_arrive':
      case 'barrier_wait': return { k: 'other', what: 'sync' };
      case 'map_shared_rank': {
        const p = args[0];
        const at = this.realNode(fnNode.parent ?? fnNode);
        if (p?.k === 'ptr') return unknownPointer(p, `\`${at.text.replace(/\s+/g, ' ')}\` at line ${at.startPosition.row + 1} points into the shared memory of a block of the thread block cluster (distributed shared memory): the bank model has no rule for its accesses`);
        return unk(`the result of \`${at.text}\``);
      }
      default: return unk(`the result of \`${fnNode.text}()\``);
    }
  }

  /** a value of each thread from its linear id (in warp mode, its lane: the warp's other coordinates are not used). */
  private perThread(f: (t: number) => number, hostReason: string): Value {
    if (this.cfg.host) return unk(hostReason);
    const out = new Float64Array(this.n);
    for (let t = 0; t < this.n; t++) out[t] = f(t);
    return num(out, UINT);
  }

  /**
   * Inline PTX. `mov.u32 %0, %%laneid;` writes the lane (PTX ISA: `%laneid`, the thread's position in its warp,
   * which is the linear thread id mod 32); any other asm leaves its outputs unknown, and says so. Inputs are read,
   * and the shared-memory instructions among them recorded (asmAccesses).
   */
  private inlineAsm(node: Node): Value {
    const code = node.childForFieldName('assembly_code');
    // an operand the grammar could not place (nvcc takes `"r"(a) "r"(b)` without the comma) sits in an ERROR node:
    // it keeps its place, so that `%0`, `%1`... still name the operands nvcc numbers
    const list = (field: string) => named(node.childForFieldName(field))
      .flatMap((op) => (op.type === 'ERROR' ? named(op).filter((c) => c.type === 'gnu_asm_input_operand' || c.type === 'gnu_asm_output_operand') : [op]))
      .map((op) => op.childForFieldName('value')).filter((v): v is Node => !!v);
    const ins = list('input_operands');
    const inValues = ins.map((v) => this.rvalue(v));
    const outs = list('output_operands');
    this.asmAccesses(node, [...outs, ...ins]); // PTX numbers the outputs first
    const laneid = outs.length === 1 && /^"\s*mov\.[ubs]32\s+%0\s*,\s*%%laneid\s*;?\s*"$/.test(code?.text ?? '');
    // `%lanemask_lt` (and `_le`, `_eq`, `_ge`, `_gt`): the 32-bit mask of the lanes below (at most, equal to, at least,
    // above) the thread's lane (PTX ISA, special registers); nvdiffrast's and Aila-Laine's `getLaneMaskLt()`, whose
    // `__popc(ballot & mask)` is each lane's slot in a warp's queue
    const mask = outs.length === 1 ? /^"\s*mov\.[ubs]32\s+%0\s*,\s*%%lanemask_(lt|le|eq|ge|gt)\s*;?\s*"$/.exec(code?.text ?? '')?.[1] : undefined;
    const laneMask = (l: number): number => {
      const below = 2 ** l - 1, upTo = 2 ** (l + 1) - 1;
      return mask === 'lt' ? below : mask === 'le' ? upTo : mask === 'eq' ? 2 ** l : mask === 'ge' ? 2 ** 32 - 1 - below : 2 ** 32 - 1 - upTo;
    };
    // the shared-window address of a generic pointer written with PTX (`cvta.to.shared.u64`, then `cvt.u32.u64`:
    // the `smem_u32addr` helper of hand-written SGEMMs): kept as that pointer, to bytes, as __cvta_generic_to_shared
    const shared = outs.length === 1 && inValues.length === 1 && inValues[0].k === 'ptr' && /\bcvta\.to\.shared(?:::cta)?\.u(?:32|64)\b/.test(code?.text ?? '')
      ? { ...inValues[0], to: BUILTINS['unsigned char'] } : null;
    for (const target of outs)
      this.assignTo(target, shared ?? (laneid ? this.perThread((t) => t % 32, 'a lane id in host code') : mask ? this.perThread((t) => laneMask(t % 32), 'a lane mask in host code') : unk(`\`${target.text}\` is set by the inline asm \`${(code?.text ?? 'asm').replace(/\s+/g, ' ')}\``)), node);
    return { k: 'other', what: 'asm' };
  }

  private builtinCall(name: string, args: Value[], node: Node): Value | null {
    const two = (op: (x: number, y: number) => number): Value => {
      const [a, b] = args;
      if (!a || !b) return unk(`\`${name}\` needs two arguments`);
      if (a.k !== 'num' || b.k !== 'num') return a.k === 'unk' ? a : b.k === 'unk' ? b : unk(`\`${node.text}\``);
      if (hasThread(a.sym) || hasThread(b.sym)) return unk(`\`${node.text}\` is not exact for every warp${THREAD}`);
      if (a.sym || b.sym) return isUniform(a.v) && isUniform(b.v) && !wrapKey(a.sym) && !wrapKey(b.sym) ? atom(node.text) : unk(`\`${node.text}\` combines an unknown warp-uniform value with per-lane values`);
      const t = a.t.kind === 'float' || b.t.kind === 'float' ? FLOAT : a.t;
      const out = new Float64Array(this.n);
      for (let i = 0; i < this.n; i++) out[i] = op(laneAt(a.v, i), laneAt(b.v, i));
      return num(isUniform(out) ? out[0] : out, t);
    };
    // a function of one argument, lane by lane, giving a value of type `t`
    const one = (op: (x: number) => number, t: CType): Value => {
      const a = args[0];
      if (!a || a.k !== 'num') return a?.k === 'unk' ? a : unk(`\`${node.text}\` is not integer arithmetic`);
      if (hasThread(a.sym)) return unk(`\`${node.text}\` is not exact for every warp${THREAD}`);
      if (a.sym) return isUniform(a.v) && !wrapKey(a.sym) ? atom(node.text, t) : unk(`\`${node.text}\` applies \`${name}\` to an unknown warp-uniform value`);
      return num(typeof a.v === 'number' ? op(a.v) : a.v.map(op), t);
    };
    // an integer intrinsic of two or three 32-bit arguments, lane by lane, giving a value of type `t`
    const ints = (n: number, op: (x: number[]) => number, t: CType): Value => {
      const xs = args.slice(0, n);
      if (xs.length < n || xs.some((a) => !a)) return unk(`\`${name}\` needs ${n} arguments`);
      const bad = xs.find((a) => a.k !== 'num');
      if (bad) return bad.k === 'unk' ? bad : unk(`\`${node.text}\` is not integer arithmetic`);
      const ns = xs as Num[];
      if (ns.some((a) => a.t.kind !== 'int')) return unk(`\`${node.text}\` applies \`${name}\` to a floating-point value`);
      if (ns.some((a) => hasThread(a.sym))) return unk(`\`${node.text}\` is not exact for every warp${THREAD}`);
      if (ns.some((a) => a.sym)) return ns.every((a) => isUniform(a.v) && !wrapKey(a.sym)) ? atom(node.text, t) : unk(`\`${node.text}\` combines an unknown warp-uniform value with per-lane values`);
      const out = new Float64Array(this.n);
      for (let i = 0; i < this.n; i++) out[i] = op(ns.map((a) => laneAt(a.v, i)));
      return num(isUniform(out) ? out[0] : out, t);
    };
    const u32 = (x: number) => Number(BigInt.asUintN(32, BigInt(Math.trunc(x))));
    const simd = SIMD_INTRINSIC.exec(name);
    if (simd && simdKnown(simd) && !this.cfg.facts.functions.has(name)) {
      const [, op, cmp, sat, sign, parts] = simd;
      return ints(UNARY_SIMD.has(op) ? 1 : 2, (xs) => simdParts(op, cmp, sat, sign, Number(parts), xs.map(u32)), UINT);
    }
    switch (name) {
      // CUDA's byte and word intrinsics, exact on each lane's 32-bit patterns (the Math API's definitions): bytes of
      // {y, x} picked by the low 3 bits of each selector nibble; the high word of a 64-bit product; a 64-bit
      // {hi, lo} shifted by the low 5 bits (or clamped to 32); |x - y| + z
      case '__byte_perm':
        return ints(3, ([x, y, sel]) => {
          const bytes = [0, 1, 2, 3].map((k) => (u32(x) >>> (8 * k)) & 0xff).concat([0, 1, 2, 3].map((k) => (u32(y) >>> (8 * k)) & 0xff));
          let r = 0;
          for (let k = 3; k >= 0; k--) r = r * 256 + bytes[(u32(sel) >>> (4 * k)) & 7];
          return r;
        }, UINT);
      case '__umulhi':
        return ints(2, ([x, y]) => Number((BigInt(u32(x)) * BigInt(u32(y))) >> 32n), UINT);
      case '__mulhi':
        return ints(2, ([x, y]) => Number(BigInt.asIntN(32, (BigInt(Math.trunc(x) | 0) * BigInt(Math.trunc(y) | 0)) >> 32n)), INT);
      case '__funnelshift_l':
      case '__funnelshift_lc':
      case '__funnelshift_r':
      case '__funnelshift_rc':
        return ints(3, ([lo, hi, sh]) => {
          const k = name.endsWith('c') ? Math.min(u32(sh), 32) : u32(sh) & 31;
          const wide = (BigInt(u32(hi)) << 32n) | BigInt(u32(lo));
          return name.startsWith('__funnelshift_l') ? Number(BigInt.asUintN(32, (wide << BigInt(k)) >> 32n)) : Number(BigInt.asUintN(32, wide >> BigInt(k)));
        }, UINT);
      case '__sad':
        return ints(3, ([x, y, z]) => u32(Math.abs((Math.trunc(x) | 0) - (Math.trunc(y) | 0)) + u32(z)), UINT);
      case '__usad':
        return ints(3, ([x, y, z]) => u32(Math.abs(u32(x) - u32(y)) + u32(z)), UINT);
      case '__cvta_generic_to_shared':
        // the shared-window address of a pointer: kept as that pointer, to bytes (`addr + 16` moves 16 bytes), so
        // that inline PTX using it is read
        return args[0]?.k === 'ptr' ? { ...args[0], to: BUILTINS['unsigned char'] } : null;
      case 'min':
      case 'umin':
      case 'fminf':
      case 'fmin':
        return two(Math.min);
      case 'max':
      case 'umax':
      case 'fmaxf':
      case 'fmax':
        return two(Math.max);
      case '__mul24':
      case '__umul24':
        return two((x, y) => x * y);
      case 'abs':
        return one(Math.abs, args[0]?.k === 'num' ? args[0].t : INT);
      // the CUDA math functions that are exact (floor, ceil, rint, ...: C99 says so, and so does the CUDA Math API's
      // "maximum ulp error 0"), on a known argument: a loop counted by `(int)log2(T(n))` or `ceilf(len / 32.0f)`
      // is enumerated. The `f` forms and a float argument give a float, the others a double
      case 'floor': case 'floorf': case 'ceil': case 'ceilf': case 'trunc': case 'truncf':
      case 'rint': case 'rintf': case 'nearbyint': case 'nearbyintf': case 'round': case 'roundf':
      case 'fabs': case 'fabsf': {
        if (this.cfg.facts.functions.has(name)) return null; // the file's own function of that name
        const base = name.replace(/f$/, '');
        const op = base === 'floor' ? Math.floor : base === 'ceil' ? Math.ceil : base === 'trunc' ? Math.trunc
          : base === 'fabs' ? Math.abs : base === 'round' ? (x: number) => Math.sign(x) * Math.floor(Math.abs(x) + 0.5)
          // rint and nearbyint round half to even (the default rounding mode)
          : (x: number) => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x));
        return one(op, this.mathType(name, args[0]));
      }
      // the CUDA conversion intrinsics (`__float2int_rz(x)`, `__float2uint_rn(x)`, `__double2int_rd(x)`): exact, in
      // the rounding mode their suffix names (CUDA Math API, type casting intrinsics); a pixel's column from
      // `__float2int_rz(tx * 0.5f)` was unknown
      case '__float2int_rn': case '__float2int_rz': case '__float2int_rd': case '__float2int_ru':
      case '__float2uint_rn': case '__float2uint_rz': case '__float2uint_rd': case '__float2uint_ru':
      case '__double2int_rn': case '__double2int_rz': case '__double2int_rd': case '__double2int_ru':
      case '__double2uint_rn': case '__double2uint_rz': case '__double2uint_rd': case '__double2uint_ru': {
        if (this.cfg.facts.functions.has(name)) return null;
        const mode = name.slice(-2);
        const op = mode === 'rz' ? Math.trunc : mode === 'rd' ? Math.floor : mode === 'ru' ? Math.ceil
          : (x: number) => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x));
        return one(op, name.includes('2uint') ? UINT : INT);
      }
      // log2 and exp2 are within an ulp (CUDA Math API), exact where the result is an integer: the log of a power
      // of two, 2 to an integer power. Any other argument gives no value (truncating a result an ulp off would
      // change it)
      case 'log2': case 'log2f': case 'exp2': case 'exp2f': {
        if (this.cfg.facts.functions.has(name)) return null;
        const log = name.startsWith('log');
        const a = args[0];
        if (a?.k === 'num' && !a.sym && [...(typeof a.v === 'number' ? [a.v] : a.v)].some((x) => !(log ? x > 0 && Number.isInteger(Math.log2(x)) && 2 ** Math.log2(x) === x : Number.isInteger(x))))
          return unk(`\`${node.text}\` is exact only ${log ? 'for a power of two' : 'for an integer power'} (otherwise within an ulp)`);
        return one(log ? Math.log2 : (x) => 2 ** x, this.mathType(name, a));
      }
      // the integer bit intrinsics, on the 32-bit pattern of each lane (the FFT's bit-reversed index `__brev(i) >> 24`)
      case '__brev':
        return one((x) => {
          let r = 0;
          for (let b = 0; b < 32; b++) r = r * 2 + ((x >>> b) & 1);
          return r;
        }, UINT);
      case '__popc':
        return one((x) => {
          let c = 0;
          for (let u = x >>> 0; u; u >>>= 1) c += u & 1;
          return c;
        }, INT);
      case '__clz':
        return one((x) => Math.clz32(x), INT);
      case '__ffs':
        return one((x) => (x | 0) === 0 ? 0 : 32 - Math.clz32((x & -x) >>> 0), INT);
      // warp votes: one value on every lane of a warp. A predicate known per lane gives each warp's exact bits (over
      // its active lanes); any other is a warp-uniform unknown, which as an offset rotates banks (rule 6) and as a
      // count (`n += __popc(__ballot_sync(~0u, p))`) keeps a warp's index uniform
      case '__ballot_sync':
      case '__ballot':
      case '__any_sync':
      case '__any':
      case '__all_sync':
      case '__all':
      case '__activemask':
        return this.warpVote(name, name === '__activemask' ? null : args[args.length - 1], node);
      // warp reductions (cc 8.x: `__reduce_add_sync(mask, v)`): one value on every lane of a warp, over its active
      // lanes; `__match_any_sync(mask, v)`: each lane's bits of the warp's active lanes whose `v` equals its own
      case '__reduce_add_sync': case '__reduce_min_sync': case '__reduce_max_sync':
      case '__reduce_and_sync': case '__reduce_or_sync': case '__reduce_xor_sync':
        if (this.cfg.facts.functions.has(name)) return null;
        return this.warpReduce(name, args[1], node);
      case '__match_any_sync':
        if (this.cfg.facts.functions.has(name)) return null;
        return this.matchAny(args[1], node);
      // warp shuffles: each lane reads `var` of another lane of its warp (see shuffle)
      case '__shfl_sync': case '__shfl_up_sync': case '__shfl_down_sync': case '__shfl_xor_sync':
      case '__shfl': case '__shfl_up': case '__shfl_down': case '__shfl_xor':
        if (this.cfg.facts.functions.has(name)) return null;
        return this.shuffle(name, name.endsWith('_sync') ? args.slice(1) : args, node);
      case '__syncthreads':
      case '__syncwarp':
      case '__threadfence':
      case '__threadfence_block':
      case 'printf':
      case 'assert':
        return { k: 'other', what: name };
      case 'laneid':
        return null;
    }
    return null;
  }

  /**
   * A warp shuffle (`args`: var, source lane / delta / lane mask, width), by the CUDA Programming Guide's rules: lanes
   * are cut into segments of `width`; `__shfl_sync` reads lane `src % width` of the caller's segment, `_up` / `_down`
   * the lane `delta` below or above (a lane whose source would leave its segment keeps its own value), `_xor` lane
   * `lane ^ mask` (its own value where that lane is in a later segment). A known value is gathered lane by lane (its
   * warp-uniform unknowns are the same on every lane of a warp, so they stay). Where every lane of a warp reads one
   * lane (a source the same on the warp's lanes: the leader's `base` of a warp-aggregated atomic), the result is one
   * value per warp: a warp-uniform unknown where the value is not known. A lane that reads an inactive lane reads an
   * undefined value: no value.
   */
  private shuffle(name: string, args: Value[], node: Node): Value {
    const [v, sel, wArg] = args;
    if (!v || !sel) return unk(`\`${name}\` needs a value and a lane`);
    const width = wArg ? uniformValue(wArg) : 32;
    if (width === null || ![1, 2, 4, 8, 16, 32].includes(width)) return unk(`the width of \`${node.text}\` is not a known power of two up to 32`);
    const mode = name.includes('_up') ? 'up' : name.includes('_down') ? 'down' : name.includes('_xor') ? 'xor' : 'idx';
    const act = this.active();
    const sameOnWarp = (x: Value) => x.k === 'num' && isWarpUniform(x.v, act);
    if (sel.k !== 'num' || sel.sym) {
      // a source lane not known, the same on a warp's lanes: they all read one lane
      if (mode === 'idx' && width === 32 && sameOnWarp(sel)) return sameOnWarp(v) ? v : this.readAtom(node, v.k === 'num' ? v.t : INT);
      return unk(`the lane \`${node.text}\` reads is not known`);
    }
    const src = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const lane = i % 32, seg = lane & ~(width - 1), s = laneAt(sel.v, i);
      let from = lane;
      if (!act[i] || !Number.isFinite(s)) from = lane; // an inactive lane's result is not used
      else if (mode === 'idx') from = seg + (((s % width) + width) % width);
      // the delta is unsigned: a negative one is a large one, which leaves the segment
      else if (mode === 'up') from = s < 0 || (lane - seg) - s < 0 ? lane : lane - s;
      else if (mode === 'down') from = s < 0 || (lane - seg) + s >= width ? lane : lane + s;
      else from = ((lane ^ s) & ~(width - 1)) > seg || (lane ^ s) > 31 ? lane : lane ^ s;
      src[i] = i - lane + from;
      if (act[i] && (src[i] >= this.n || !act[src[i]])) return unk(`\`${node.text}\` reads a lane that is not active: its value is undefined`);
    }
    if (v.k === 'num') return num(typeof v.v === 'number' ? v.v : v.v.map((_, i) => laneAt(v.v, src[i])), v.t, v.sym);
    return sameOnWarp(num(src, INT)) ? this.readAtom(node, INT) : v.k === 'unk' ? v : unk(`\`${node.text}\` shuffles a value that is not a number`);
  }

  /** The type a math function gives: `floorf` and the others ending in `f` a float, as does one given a float (the C++ overload); the rest a double. */
  private mathType(name: string, a: Value | undefined): CType {
    return /f$/.test(name) && name !== 'fabs' ? FLOAT : a?.k === 'num' && a.t.kind === 'float' && a.t.bytes === 4 ? FLOAT : DOUBLE;
  }

  /**
   * A warp reduction (see builtinCall): each warp's sum, minimum, maximum, and, or or xor of `v` over its active lanes,
   * in `v`'s type (`and`, `or`, `xor`: unsigned). A `v` not known per lane still gives one value per warp: a
   * warp-uniform unknown, as a vote does.
   */
  private warpReduce(name: string, v: Value | undefined, node: Node): Value {
    if (!v) return unk(`\`${name}\` needs a mask and a value`);
    if (isTainted(v)) throw NEEDS_FULL_BLOCK;
    const op = name.slice('__reduce_'.length, -'_sync'.length);
    const t: CType = v.k === 'num' && v.t.kind === 'int' && v.t.signed && (op === 'add' || op === 'min' || op === 'max') ? INT : UINT;
    if (v.k !== 'num' || v.sym || v.t.kind !== 'int') return this.readAtom(node, t);
    const act = this.active();
    const out = new Float64Array(this.n);
    for (let w = 0; w < this.n; w += 32) {
      let acc: number | null = null;
      for (let i = w; i < Math.min(w + 32, this.n); i++) {
        if (!act[i]) continue;
        const x = wrap(laneAt(v.v, i), t);
        if (acc === null) { acc = x; continue; }
        switch (op) {
          case 'add': acc = wrap(acc + x, t); break;
          case 'min': acc = Math.min(acc, x); break;
          case 'max': acc = Math.max(acc, x); break;
          case 'and': acc = (acc & x) >>> 0; break;
          case 'or': acc = (acc | x) >>> 0; break;
          default: acc = (acc ^ x) >>> 0;
        }
      }
      out.fill(acc ?? 0, w, Math.min(w + 32, this.n));
    }
    return num(isUniform(out) ? out[0] : out, t);
  }

  /**
   * `__match_any_sync(mask, v)` (see builtinCall): for each lane, the bits of the active lanes of its warp whose `v`
   * is the same as its own. Exact where `v` is known per lane up to warp-uniform unknowns (which every lane of a warp
   * shares, so they do not change which lanes are equal); otherwise not known.
   */
  private matchAny(v: Value | undefined, node: Node): Value {
    if (!v) return unk(`\`__match_any_sync\` needs a mask and a value`);
    if (isTainted(v)) throw NEEDS_FULL_BLOCK;
    if (v.k !== 'num') return unk(`\`${node.text}\` groups the lanes by a value that is not known per lane${v.k === 'unk' ? ` (${v.reason})` : ''}`);
    if (v.sym && (v.t.kind !== 'int' || wrapKey(v.sym))) return unk(`\`${node.text}\` groups the lanes by a value that is not known per lane`);
    const act = this.active();
    const same = (a: number, b: number) => v.t.kind === 'int' ? wrap(a, v.t) === wrap(b, v.t) : Object.is(a, b);
    const out = new Float64Array(this.n);
    for (let w = 0; w < this.n; w += 32) {
      const end = Math.min(w + 32, this.n);
      for (let i = w; i < end; i++) {
        if (!act[i]) continue;
        let bits = 0;
        for (let j = w; j < end; j++) if (act[j] && same(laneAt(v.v, i), laneAt(v.v, j))) bits += 2 ** (j - w);
        out[i] = bits;
      }
    }
    return num(isUniform(out) ? out[0] : out, UINT);
  }

  /** A warp vote (see builtinCall): `pred` null for `__activemask()`, which is the bits of the active lanes. */
  private warpVote(name: string, pred: Value | null | undefined, node: Node): Value {
    const ballot = name.startsWith('__ballot') || name === '__activemask';
    const t = ballot ? UINT : INT;
    // a predicate warp mode cannot give per lane (`threadIdx.x < 40` in a block of 64) is exact over the whole block
    if (pred && isTainted(pred)) throw NEEDS_FULL_BLOCK;
    if (pred === undefined || (pred && (pred.k !== 'num' || pred.sym))) return this.readAtom(node, t);
    const act = this.active();
    const out = new Float64Array(this.n);
    for (let w = 0; w < this.n; w += 32) {
      let bits = 0, any = 0, all = 1;
      for (let i = w; i < Math.min(w + 32, this.n); i++) {
        if (!act[i]) continue;
        const on = !pred || laneAt(pred.v, i) !== 0;
        if (on) bits += 2 ** (i - w);
        any |= +on;
        all &= +on;
      }
      out.fill(ballot ? bits : name.startsWith('__any') ? any : all, w, Math.min(w + 32, this.n));
    }
    return num(isUniform(out) ? out[0] : out, t);
  }

  /**
   * What a reference is bound to: a place in shared memory (the Ref, remembering the expression that names it, where
   * its accesses are reported), another variable (shared, so that writes reach it), or else a value.
   */
  /**
   * The elements of a local array declared by `decl` (extents `sizes`, outermost first), kept one by one (see
   * Var.cells) where it holds integers or floats, its extents are known (at most 1,024 elements) and the rest of its
   * block names it only to index it: never passed, pointed to or given by reference (`&a[i]`), so nothing else writes it.
   */
  private cellsOf(decl: Node, name: string, elem: CType, sizes: Node[], init?: (Value | Value[])[]): Var['cells'] {
    if (elem.kind !== 'int' && elem.kind !== 'float') return undefined;
    if (!init && (!sizes.length || decl.childForFieldName('declarator')?.type === 'init_declarator')) return undefined;
    // `int a[] = {1, 2, 3}`: the initializer gives the extent
    const dims = sizes.length ? sizes.map((n) => uniformValue(this.rvalue(n))) : init && init.every((v) => !Array.isArray(v)) ? [init.length] : [null];
    if (dims.some((d) => d === null || !Number.isInteger(d) || d < 1) || (dims as number[]).reduce((a, b) => a * b, 1) > 1024) return undefined;
    const elems = init ? this.initialCells(init, dims as number[], elem) : new Map<number, Var>();
    if (!elems) return undefined;
    const block = decl.parent;
    if (!block) return undefined;
    const rest = block.text.slice(decl.endIndex - block.startIndex);
    const uses = new RegExp(`(&\\s*)?\\b${name}\\b(\\s*\\[)?`, 'g');
    // a member of the same name (`threadIdx.x` beside a local `x[4]`) is not a use of the array
    // nor is the range of a range-based `for` (`for (int &a : acc)`, which names each element: see execRangeFor)
    // (both read the text before each use from the last `;`, `{` or `}` on, which neither test looks past: a kernel
    // of a thousand unrolled statements on `C_local[j]`, TVM's, is not scanned from its start at every use)
    let sep = 0, scanned = 0;
    for (let m; (m = uses.exec(rest)); ) {
      for (; scanned < m.index; scanned++) if (rest[scanned] === ';' || rest[scanned] === '{' || rest[scanned] === '}') sep = scanned + 1;
      const head = rest.slice(sep, m.index);
      if (!/(?:\.|->|::)\s*$/.test(head) && (m[1] || !m[2]) && !RANGE_FOR_HEAD.test(head)) return undefined;
    }
    return { dims: dims as number[], elems };
  }

  /**
   * The elements a braced initializer gives a local array of extents `dims`, as C gives them: in order (flat, or one
   * braced list per row of a two-dimensional array), those it leaves out zero; null for any other shape (more items
   * than elements, a row longer than its extent, deeper braces).
   */
  private initialCells(items: (Value | Value[])[], dims: number[], elem: CType): Map<number, Var> | null {
    const total = dims.reduce((a, b) => a * b, 1);
    const flat: (Value | undefined)[] = new Array(total);
    const rows = items.some((v) => Array.isArray(v));
    if (rows) {
      if (dims.length !== 2 || items.length > dims[0]) return null;
      for (let r = 0; r < items.length; r++) {
        const row = items[r];
        if (!Array.isArray(row) || row.length > dims[1]) return null;
        row.forEach((v, c) => (flat[r * dims[1] + c] = v));
      }
    } else {
      if (items.length > total) return null;
      items.forEach((v, i) => (flat[i] = v as Value));
    }
    const t = elem as Extract<CType, { kind: 'int' } | { kind: 'float' }>;
    const out = new Map<number, Var>();
    for (let i = 0; i < total; i++) {
      const v = flat[i] ?? num(0, t);
      out.set(i, { value: v.k === 'num' ? convert(v, t) : v, type: elem });
    }
    return out;
  }

  /**
   * `kOff[i]`, `c_ring[i][1]` of a file-scope table whose elements are known (FileFacts.constantTables; no local of
   * that name hides it): the element, for the whole warp or lane by lane (select), where every index is a known
   * number on each active lane; null where the expression is no such element (fewer indices than extents).
   */
  private tableElement(node: Node): Value | null {
    const chain = subscriptChain(node);
    if (!chain) return null;
    const { base, idx } = chain;
    if (base?.type !== 'identifier' || this.binding(base.text)) return null;
    const table = this.constantTable(base.text);
    if (!table || idx.length !== table.dims.length) return null;
    const text = this.realNode(node).text;
    const act = this.active();
    const lanes: Num[] = [];
    for (const n of idx) {
      const x = this.rvalue(n);
      if (x.k !== 'num' || x.sym || x.t.kind === 'float') return unk(`\`${text}\` indexes the table \`${base.text}\` at ${x.k === 'unk' ? x.reason : 'an index not known'}`);
      lanes.push(x);
    }
    const flatAt = (lane: number): number | null => {
      let flat = 0;
      for (let k = 0; k < lanes.length; k++) {
        const u = laneAt(lanes[k].v, lane);
        if (!Number.isInteger(u) || u < 0 || u >= table.dims[k]) return null;
        flat = flat * table.dims[k] + u;
      }
      return flat;
    };
    if (table.note) this.notes.add(table.note);
    const one = lanes.every((x) => uniformValue(x, act) !== null);
    const first = act.findIndex((a) => a !== 0);
    if (one || first < 0) {
      const f = flatAt(Math.max(first, 0));
      return f === null ? unk(`\`${text}\` indexes past the end of \`${base.text}\``) : table.values[f];
    }
    let acc: Value | null = null;
    const seen = new Set<number>();
    for (let i = 0; i < this.n; i++) {
      if (!act[i]) continue;
      const f = flatAt(i);
      if (f === null) return unk(`\`${text}\` indexes past the end of \`${base.text}\` on some lane`);
      if (seen.has(f)) continue;
      seen.add(f);
      const mask = new Uint8Array(this.n);
      for (let j = 0; j < this.n; j++) mask[j] = act[j] && flatAt(j) === f ? 1 : 0;
      acc = acc ? select(mask, table.values[f], acc, this.n) : table.values[f];
    }
    return acc ?? unk(`no lane reads \`${text}\``);
  }

  /** The elements of the file-scope table `name` (see tableElement), evaluated once; null where its shape is not one initialCells reads. */
  private constantTable(name: string): { dims: number[]; values: Value[]; note?: string } | null {
    if (this.tables.has(name)) return this.tables.get(name)!;
    const d = this.cfg.facts.constantTables.get(name);
    if (!d) return null;
    let out: { dims: number[]; values: Value[]; note?: string } | null = null;
    const decl = d.parent;
    const typeNode = decl?.childForFieldName('type');
    const elem = typeNode ? this.resolveType(typeNode) : null;
    const init = d.childForFieldName('value');
    if (decl && elem && (elem.kind === 'int' || elem.kind === 'float') && init) {
      const sizes: (Node | null)[] = [];
      for (let a: Node | null = d.childForFieldName('declarator'); a?.type === 'array_declarator'; a = a.childForFieldName('declarator')) sizes.unshift(a.childForFieldName('size'));
      const items = named(init).filter((c) => c.type !== 'comment').map((c) => (c.type === 'initializer_list' ? named(c).filter((x) => x.type !== 'comment') : c));
      const dims = sizes.map((n, i) => (n ? uniformValue(this.withHost(() => this.rvalue(n))) : i === 0 ? (sizes.length === 1 || items.every((x) => Array.isArray(x)) ? items.length : null) : null));
      if (dims.every((x): x is number => x !== null && Number.isInteger(x) && x > 0) && dims.reduce((a, b) => a * b, 1) <= 4096 && items.every((x) => !Array.isArray(x) || x.every((y) => y.type !== 'initializer_list'))) {
        const vals = items.map((x) => (Array.isArray(x) ? x.map((y) => this.withHost(() => this.rvalue(y))) : this.withHost(() => this.rvalue(x))));
        const cells = this.initialCells(vals, dims, elem);
        if (cells) {
          const values = [...cells.keys()].sort((a, b) => a - b).map((k) => cells.get(k)!.value);
          out = { dims, values, ...(hasToken(decl, '__constant__') ? { note: constantTableNote(name) } : {}) };
        }
      }
    }
    this.tables.set(name, out);
    return out;
  }
  private tables = new Map<string, { dims: number[]; values: Value[]; note?: string } | null>();

  /**
   * `a[i][j]` of a local array whose elements are kept (Var.cells): the element's variable where every index is one
   * known number on every thread; the reason where an index is not (the array's elements are then not known); null
   * where it is no such array, or fewer indices than its extents.
   */
  private cellOf(node: Node): { cell: Var; array: Var } | { why: string; array: Var } | null {
    const chain = subscriptChain(node);
    if (!chain) return null;
    const { base, idx } = chain;
    const v = base?.type === 'identifier' ? this.lookupVar(base.text) : null;
    if (!v?.cells || idx.length !== v.cells.dims.length) return null;
    if (v.value.k !== 'other') return { why: v.value.k === 'unk' ? v.value.reason : `the elements of \`${base!.text}\` are not known`, array: v };
    let flat = 0;
    for (let k = 0; k < idx.length; k++) {
      const x = this.rvalue(idx[k]);
      const u = x.k === 'num' && !x.sym ? uniformValue(x, this.active()) : null;
      if (u === null || !Number.isInteger(u) || u < 0 || u >= v.cells.dims[k])
        return { why: `\`${node.text}\` indexes the local array \`${base!.text}\` at ${x.k === 'unk' ? 'an index not known' : u === null ? 'an index not the same on every thread' : 'an index outside its extent'}`, array: v };
      flat = flat * v.cells.dims[k] + u;
    }
    let cell = v.cells.elems.get(flat);
    if (!cell) {
      cell = { value: unk(`\`${node.text}\` ${v.cells.stale ?? 'is read before it is set'}`), type: v.type };
      v.cells.elems.set(flat, cell);
    }
    return { cell, array: v };
  }

  private place(n: Node): { value: Value; alias?: Var } {
    let e = n;
    while (e.type === 'parenthesized_expression' && named(e).length === 1) e = named(e)[0];
    if (e.type === 'identifier') {
      const b = this.binding(e.text);
      if (b && !isBase(b)) return { value: b.value, alias: b };
    }
    const c = e.type === 'subscript_expression' ? this.cellOf(e) : null;
    if (c && 'cell' in c) return { value: c.cell.value, alias: c.cell };
    const v = this.eval(n);
    if (v.k === 'ref') return { value: v.t.kind === 'array' ? v : { ...v, at: v.at ?? n } };
    return { value: v };
  }

  /**
   * `wmma::load_matrix_sync(frag, p, ldm)` / `wmma::store_matrix_sync(p, frag, ldm, layout)` on shared memory: an
   * access site whose lanes' addresses are not public (the fragment layout is opaque), so it is reported unknown.
   */
  private wmmaCopy(name: string, argNodes: Node[], node: Node): Value {
    const at = name === 'load_matrix_sync' ? 1 : 0;
    const vals = argNodes.map((a) => this.rvalue(a));
    const p = vals[at];
    if (p?.k === 'ptr') {
      const r = this.deref(p, num(0), node, argNodes[at]);
      if (r.k === 'ref')
        this.access(this.unknownRef(r, r.t, `\`wmma::${name}\` gives no lane's address: the layout of a WMMA fragment is not documented`), name === 'load_matrix_sync' ? 'load' : 'store', node);
    }
    return { k: 'other', what: name };
  }

  private inline(def: FunctionFact, given: { value: Value; alias?: Var }[], fnNode: Node, node: Node, classArgs: Node[] | ClassBinding | null = null,
    captured?: Map<string, Var | SharedBase>[]): Value {
    // each named parameter takes the argument at its own position: an unnamed one before it (a tag, `f(int r,
    // std::true_type, int c)`) takes one too. Was: `c` given the tag
    const at = paramPositions(def);
    const bound = at ? def.params.map((_, i) => given[at[i]]) : given;
    const args = bound.map((b) => b?.value);
    if (this.frames.length >= this.cfg.caps.callDepth) return unk(`calls nest deeper than ${this.cfg.caps.callDepth} levels at \`${def.name}\``);
    const act = this.active();
    const frame = this.newFrame(def);
    // a lambda's body sees the scopes it captured, beneath its own
    if (captured) frame.scopes.unshift(...captured);
    // threads inactive at the call site stay inactive in the callee
    for (let i = 0; i < this.n; i++) if (!act[i]) {
      frame.exited[i] = 1;
      frame.anyExited = true;
    }
    const savedMask = this.mask;
    const savedLoops = this.loops;
    const savedValues = this.cfg.values;
    const savedTypes = this.cfg.types;
    // the callee's own `return`s end the callee, never the caller: a guard around the call has no exit to speak of
    const savedExits = this.exits;
    // explicit template arguments of the callee (f<16>(...)) and of its class template (R<double>::get())
    const explicit = fnNode.type === 'template_function' && def.templateParams.length ? argumentNodes(fnNode) : null;
    const ofClass = classArgs && def.classTemplateParams.length ? classArgs : null;
    if (ofClass && !Array.isArray(ofClass)) {
      this.cfg.values = new Map([...this.cfg.values, ...ofClass.values]);
      this.cfg.types = new Map([...this.cfg.types, ...ofClass.types]);
    }
    if (explicit || Array.isArray(ofClass)) {
      const pairs: [FunctionFact['templateParams'], Node[]][] = [];
      if (Array.isArray(ofClass)) pairs.push([def.classTemplateParams, ofClass]);
      if (explicit) pairs.push([def.templateParams, explicit]);
      ({ values: this.cfg.values, types: this.cfg.types } = this.templateBindings(...pairs));
    }
    this.frames.push(frame);
    this.loops = [];
    this.mask = null;
    // the call site is part of the context: a device function's accesses can differ from one call to the next
    const savedCtx = this.ctx;
    this.ctx = { ...savedCtx, call: `line ${node.startPosition.row + 1}` };
    const exitNotes = this.exitNotes.length;
    try {
      def.params.forEach((p, i) => {
        const t = this.declType(p.node);
        const b = bound[i];
        if (b && isReferenceDecl(p.node)) {
          if (b.alias) return this.scope().set(p.name, b.alias);
          if (b.value.k === 'ref') {
            // a reference to an array of declared extents (`float (&row)[32]`) fixes them as a pointer to rows does
            const fixed = t.kind === 'array' && !b.value.flat && b.value.base.dims.length > 1
              ? { ...b.value, flat: `\`${b.value.base.name}\` is bound at line ${this.realNode(node).startPosition.row + 1} to \`${p.name}\` of \`${def.name}\`, a reference to \`${typeName(t)}\`` }
              : b.value;
            return this.scope().set(p.name, { value: fixed, type: t, ref: true });
          }
        }
        // passed by value: converted, cast, an object copied
        let value = this.asVariable(args[i] ?? unk(`\`${p.name}\` has no argument`), t, p.name, node);
        // a parameter declared with the rows' extents (`float sh[][24]`) indexes the array with them: padding the
        // array's declaration alone would not change those addresses (and would not compile)
        if (value.k === 'ptr' && !value.flat && t.kind === 'pointer' && t.to.kind === 'array' && value.base.dims.length > 1)
          value = { ...value, flat: `\`${value.base.name}\` is passed at line ${this.realNode(node).startPosition.row + 1} to \`${p.name}\` of \`${def.name}\`, a pointer to \`${typeName(t.to)}\`` };
        this.notePointer(p.name, value);
        this.scope().set(p.name, { value, type: t });
      });
      this.memberInitializers(def);
      this.execBlock(def.body);
      return frame.ret ?? { k: 'other', what: 'void' };
    } finally {
      this.ctx = savedCtx;
      this.frames.pop();
      if (this.exitNotes.length !== exitNotes) {
        this.exitNotes.length = exitNotes;
        this.assumptionEpoch++;
      }
      this.loops = savedLoops;
      this.mask = savedMask;
      this.exits = savedExits;
      this.touch();
      this.cfg.values = savedValues;
      this.cfg.types = savedTypes;
    }
  }

  // ---------------------------------------------------------------- accesses

  /** An access of `width` bytes made as `width / size` accesses of `size` bytes, each its own request, told apart as contexts (`bytes`). */
  private inPieces(r: Ref, kind: AccessKind, exprNode: Node, asyncCopy: boolean, width: number, size: number, note: string): void {
    const piece = accessType(size)!;
    const saved = this.ctx;
    try {
      this.withAssumption(note, () => {
        for (let k = 0; k < width / size; k++) {
          // `bytes = 4-7` of a piece, `byte = 1` of a one-byte piece
          const part: Record<string, number | string> = size === 1 ? { byte: k } : { bytes: `${k * size}-${k * size + size - 1}` };
          this.ctx = { ...saved, ...part };
          this.access({ ...r, t: piece, off: binary('+', r.off, num(k * size), () => exprNode.text, null) as Num, ...(r.ctx ? { ctx: { ...r.ctx, ...part } } : {}) }, kind, exprNode, asyncCopy);
        }
      });
    } finally {
      this.ctx = saved;
    }
  }

  private access(r: Ref, kind: AccessKind, exprNode: Node, asyncCopy = false): void {
    const records = this.collapseRecords;
    if (records) {
      records.push({ r: r as unknown as AccessRecord['r'], kind, exprNode, asyncCopy });
      return;
    }
    const watch = this.collapseWatch;
    if (!watch) return this.accessNow(r, kind, exprNode, asyncCopy);
    // (only the body's own accesses: those this one makes of its pieces follow from it)
    watch.push({ r: r as unknown as AccessRecord['r'], kind, exprNode, asyncCopy });
    this.collapseWatch = null;
    try {
      this.accessNow(r, kind, exprNode, asyncCopy);
    } finally {
      this.collapseWatch = watch;
    }
  }

  private accessNow(r: Ref, kind: AccessKind, exprNode: Node, asyncCopy = false): void {
    // an access in a statement macro's expansion is reported at the use; each access of the expansion is a site
    let inMacro = '';
    if (this.macroSites.length) {
      const own = r.nameNode;
      r = this.realRef(r);
      exprNode = this.realNode(exprNode);
      if (r.nameNode !== own && !this.macroSites.some((s) => holds(s.holders, r.nameNode))) inMacro = this.macroPath(own);
    }
    if (kind !== 'load' && r.base.dims.length === 0 && this.stored.size) {
      // any store to a scalar (a member, a byte of it, an atomic) ends what was known of its value; remember may
      // set it again. In a pass of a loop of unknown trip count, a store after a read means later iterations read
      // another value than the pass did
      if (this.symbolicPass?.reads.has(r.base.id)) this.symbolicPass.conflict ??= { name: r.base.name, at: this.visits.length };
      this.stored.delete(r.base.id);
    }
    const nameNode = r.nameNode;
    const at = ((nameNode as unknown as { __at?: string }).__at ??= `${nameNode.startPosition.row}:${nameNode.startPosition.column}:`) + inMacro;
    const site = at + kind;
    const count = (this.visitCount.get(site) ?? 0) + 1;
    this.visitCount.set(site, count);
    const width = sizeOf(r.t);
    const align = r.t.kind === 'struct' || r.t.kind === 'vector' ? alignOf(r.t) : 0;
    if (width !== null && align >= 1 && align <= 16 && width > align && width % align === 0 && width / align <= 16) {
      // a whole struct or 3-vector less aligned than it is long: nvcc copies it in pieces of the alignment it can
      // prove (`float3`: three 4-byte accesses; `uchar3`, a struct of chars: one byte at a time; `short3`, a struct of
      // shorts: 2 bytes at a time), each a request of its own, told apart as contexts. Where the address
      // is more aligned than the type (`*reinterpret_cast<I4 *>(&sh[i])`, a struct of four ints in an `int4` array,
      // at a multiple of 16 on every lane), the pieces are that wide: one 16-byte access
      const size = copyPiece(width, align, (r.base.external ? 0 : this.alignmentOf(r.base)) || alignOf(r.base.elem), r.off, this.active());
      if (r.packed && r.packed.align < size) {
        this.inPieces({ ...r, packed: undefined }, kind, exprNode, asyncCopy, width, r.packed.align, packedNote(r.packed, width));
        return;
      }
      const piece = accessType(size)!;
      const why = size > align ? `its address is a multiple of ${size} in \`${r.base.name}\` (of \`${typeName(r.base.elem)}\`)` : '';
      if (size === width) {
        this.withAssumption(`a whole \`${typeName(r.t)}\` (${width} bytes, aligned to ${align}) is copied with one ${width}-byte access, as nvcc emits it: ${why}`, () => this.access({ ...r, t: piece }, kind, exprNode, asyncCopy));
        return;
      }
      this.inPieces(r, kind, exprNode, asyncCopy, width, size, `a whole \`${typeName(r.t)}\` (${width} bytes, aligned to ${align}) is copied as ${width / size} accesses of ${size} ${size === 1 ? 'byte' : 'bytes'}, as nvcc emits it${why ? ` (${why})` : ''}; each is its own request`);
      return;
    }
    if (width !== null && r.packed && r.packed.align < width && [2, 4, 8, 16].includes(width)) {
      // a member of a packed struct (`struct __attribute__((packed)) { char c; float f; }`): nvcc reads and writes it in
      // pieces as wide as the alignment it can prove of the place (`ld.shared.u8` four times for `f`)
      this.inPieces({ ...r, packed: undefined }, kind, exprNode, asyncCopy, width, r.packed.align, packedNote(r.packed, width));
      return;
    }
    if (this.assumptionCopy?.epoch !== this.assumptionEpoch)
      this.assumptionCopy = { epoch: this.assumptionEpoch, list: [...this.assumptions, ...this.exitNotes] };
    // one shape for every visit; the context object is never changed once a statement runs under it: shared
    const visit: Visit = {
      site, kind, name: r.name, nameNode, exprNode: r.at ?? exprNode, base: r.base, width: width ?? 0,
      context: r.ctx ?? this.ctx, addrs: null, assumptions: this.assumptionCopy.list, flat: r.flat, via: r.at ? exprNode : undefined,
      asyncCopy, reason: undefined, oob: undefined, shift: undefined, spread: undefined, inRow: false,
    };
    if (count > this.cfg.caps.visitsPerAccess) {
      // one visit stands for all the contexts past the cap: a visit each (a loop nest of 32 x 32 x 32 passes over
      // two accesses) made 100,000 results, seconds of work for one line of the assumptions
      const seen = this.overCap.get(site);
      if (seen) {
        seen.visit.more = ++seen.more;
        return;
      }
      visit.reason = `the access is reached in more than ${this.cfg.caps.visitsPerAccess.toLocaleString('en-US')} contexts`;
      visit.more = 1;
      this.overCap.set(site, { visit, more: 1 });
      this.visits.push(visit);
      return;
    }
    if (this.cfg.host) return;
    const off = r.off;
    // the first warp-uniform term that stands for an address not known (its key is the reason)
    let why: string | undefined;
    if (off.sym) for (const k in off.sym) if (k.charCodeAt(0) === 0) {
      why = k;
      break;
    }
    if (width === null || (width !== 1 && width !== 2 && width !== 4 && width !== 8 && width !== 16)) {
      visit.reason = width === null
        ? (why && why.slice(UNKNOWN.length)) || `the size of \`${typeName(r.t)}\` is not known`
        : `a ${width}-byte \`${typeName(r.t)}\` is copied with instructions the compiler chooses`;
      this.visits.push(visit);
      return;
    }
    if (why) {
      const reason = why.slice(UNKNOWN.length) || 'the address could not be evaluated';
      // one lane of each warp asks for it (`if (threadIdx.x % 32 == 0) ... prefix[s]`, the prefix at an offset a
      // header's sizes set): one aligned element, its words in as many banks, whatever the address (bank model rules
      // 3 and 6), so the figures are known without it. The lanes are the active ones, or more where a guard could not
      // be evaluated per lane (assumed true), never fewer
      const act = this.active();
      let lone = act.indexOf(1) >= 0;
      for (let w = 0; lone && w < this.n; w += 32) {
        let c = 0;
        for (let i = w; i < w + 32 && i < this.n; i++) c += act[i];
        lone = c <= 1;
      }
      if (lone) {
        const addrs = new Float64Array(this.n);
        for (let i = 0; i < this.n; i++) addrs[i] = act[i] ? 0 : NaN;
        visit.addrs = addrs;
        visit.assumptions = [...visit.assumptions, `the address is not known (${reason}), but one lane of each warp asks for it: one element, served alike wherever it is`];
        this.visits.push(visit);
        return;
      }
      visit.reason = reason;
      this.visits.push(visit);
      return;
    }
    // another warp's rows move it by a part of its width (`&xs[ty][4 * k]` of 33-byte rows): whether some warp is
    // misaligned (see misalignment below) is for the whole block to say
    if (this.warpMode && width >= 2 && off.sym) for (const k in off.sym) if (k.charCodeAt(0) === THREAD.charCodeAt(0) && off.sym[k] % width !== 0) throw NEEDS_FULL_BLOCK;
    let other = off.sym;
    if (hasThread(off.sym)) {
      other = null;
      visit.shift = {};
      for (const k in off.sym) {
        if (k.charCodeAt(0) === 2) visit.shift[k] = off.sym[k];
        else (other ??= {})[k] = off.sym[k];
      }
    }
    // an access narrower than a word at an offset not known to be a whole number of words (`rows[33 * t + u]` of
    // chars, u loaded per block): the offset moves the lanes' bytes across word boundaries, which can join or part
    // lanes that share a word, so each place it can take in a word is a case of its own (the figures depend on
    // nothing else of it: whole words rotate the banks, rule 6)
    // a remainder that wraps (values.ts, remainder()) is checked below, once the lanes' addresses are known; its
    // unknown is a multiple of its step g, which is what can move the lanes within a word
    const wrapped = wrapKey(other);
    const plain = wrapped ? withoutKey(other!, wrapped) : other;
    const step = other && width < 4 ? wordPlaces(wrapped ? { ...other, [wrapped]: other![wrapped] * wrapOf(wrapped)!.g } : other) : 4;
    if (wrapped && plain && wrapKey(plain)) {
      visit.reason = `the address adds two remainders that wrap, \`${wrapOf(wrapped)!.label}\` and \`${wrapOf(wrapKey(plain)!)!.label}\`: where both wrap together is not followed`;
      this.visits.push(visit);
      return;
    }
    if (plain && step < 4) visit.assumptions = [...visit.assumptions, `\`${symText(plain)}\` adds the same offset to every lane, in bytes; a whole number of words does not change the degree (bank model rule 6), but within a word it moves this ${width}-byte access's lanes across word boundaries: each of its places in a word is evaluated, the worst reported`];
    else if (plain) visit.assumptions = [...visit.assumptions, `\`${symText(plain)}\` adds the same offset to every lane; it does not change the degree (bank model rule 6)`];
    if (r.alt) visit.assumptions = [...visit.assumptions, r.alt];
    if (r.base.outerUnknown) visit.assumptions = [...visit.assumptions, `${r.base.outerUnknown}: the outermost extent changes no address; indices past it are not checked`];
    const act = this.active();
    const ov = off.v;
    const all = act === this.ones || act.indexOf(0) === -1;
    if (all && typeof ov !== 'number') visit.addrs = ov; // values are never mutated: share, do not copy
    else if (all) {
      // one address on every lane (`As[ty][k]`, a loop's broadcast): the same vector for each visit of it
      const u = ov as number;
      let addrs = this.uniformAddrs.get(u);
      if (!addrs) {
        if (this.uniformAddrs.size >= 256) this.uniformAddrs.clear();
        this.uniformAddrs.set(u, (addrs = new Float64Array(this.n).fill(u)));
      }
      visit.addrs = addrs;
    } else {
      const addrs = new Float64Array(this.n);
      if (typeof ov === 'number') for (let i = 0; i < this.n; i++) addrs[i] = act[i] ? ov : NaN;
      else for (let i = 0; i < this.n; i++) addrs[i] = act[i] ? ov[i] : NaN;
      visit.addrs = addrs;
    }
    const misaligned = misalignment(visit.addrs!, width, this.declaredAlignment(r.base), off.sym, r.base.name);
    if (misaligned) {
      visit.addrs = null;
      visit.reason = misaligned;
      this.visits.push(visit);
      return;
    }
    // out of bounds: the first active thread whose index at some level leaves its extent. Not where the lanes run
    // only by assumption of a guard that differs between lanes and could not be evaluated (`if (fid < order)`): which
    // of them run is not known, and an index past the extent there is no finding (it was an error for lanes the guard
    // may stop); under such a guard the same on every lane, the lanes that run are the active ones, as under any `if`
    for (const b of this.laneUncertain ? [] : r.bounds) {
      if (hasThread(b.index.sym)) {
        // warp mode: in bounds for every warp, or the whole block is evaluated to find the first thread that is not
        if (Object.keys(b.index.sym!).every((k) => k.charCodeAt(0) === 2)) {
          const r = boxRange(b.index.v, b.index.sym, act);
          if (!r || r.lo < 0 || r.hi >= b.extent) throw NEEDS_FULL_BLOCK;
        }
        continue;
      }
      if (b.index.sym) continue;
      const v = b.index.v;
      if (typeof v === 'number') {
        if (v >= 0 && v < b.extent) continue;
        const first = act.indexOf(1);
        if (first >= 0) visit.oob = { thread: first, index: v, extent: b.extent };
      } else {
        // a loop checks the same index vector again and again: its range over every thread is kept with it
        if (act === this.ones) {
          const r = rangeOfLanes(v);
          if (r.min >= 0 && r.max < b.extent) continue;
        }
        for (let i = 0; i < this.n; i++) {
          const x = v[i];
          if ((x < 0 || x >= b.extent) && act[i]) {
            visit.oob = { thread: i, index: x, extent: b.extent };
            break;
          }
        }
      }
      if (visit.oob) break;
    }
    visit.inRow = !visit.oob && (inRow(r, act, this.n) || (!!r.inRow && !r.flat && r.base.dims.length >= 2));
    // an `extern __shared__` array holds the bytes the launch gives (`k<<<g, b, 128 * sizeof(float)>>>`); past them is
    // out of bounds, where the offset is known on every lane (a warp-uniform unknown in it could move it either way)
    const dyn = this.cfg.dynamicShared;
    if (!visit.oob && !this.laneUncertain && r.base.external && dyn && dyn > 0) {
      if (off.sym && Object.keys(off.sym).every((k) => k.charCodeAt(0) === 2)) {
        const box = boxRange(off.v, off.sym, act);
        if (!box || box.hi + width > dyn) throw NEEDS_FULL_BLOCK;
      } else if (!off.sym) {
        const a = visit.addrs!;
        for (let i = 0; i < this.n; i++)
          if (act[i] && a[i] + width > dyn) {
            visit.oob = { thread: i, index: Math.max(a[i], dyn), extent: dyn, bytes: true };
            break;
          }
      }
    }
    if (wrapped) {
      const w = wrapOf(wrapped)!;
      const places: number[] = [];
      for (let r = 0; r < 4; r += step) places.push(r);
      // the places within a word the rest of the offset can take, each with any value of the remainder's unknown;
      // where there is no such rest the remainder's unknown alone sets the place
      const free = width < 4 && plain && wordPlaces(plain) < 4 ? places : width < 4 ? null : [0];
      const why = wrapMoves(visit.addrs!, off.sym![wrapped], w, free);
      // otherwise, for accesses of whole words, each set of lanes past the wrap that some value gives is a case of
      // its own, its lanes `c * M` bytes lower: exact for every value of the unknown in its range (the rest of it
      // rotates the banks, rule 6)
      const cases = why && width >= 4 ? wrapCases(visit.addrs!, w) : null;
      if (cases) {
        const back = off.sym![wrapped] * w.m;
        const key = `${/^[\w.@'\[\]]+$/.test(w.part) ? w.part : `(${w.part})`} % ${w.m}`;
        visit.assumptions = [...visit.assumptions, `\`${w.label}\` wraps around at ${w.m} (${w.why}), and the lanes past the wrap move back ${Math.abs(back)} bytes: each of the ${cases.length} sets of lanes that some value of \`${key}\` puts past it is evaluated, the worst reported; the rest of it adds the same offset to every lane (bank model rule 6)`];
        const a = visit.addrs!;
        for (const { u, past } of cases) {
          const moved = u === 0 ? a : a.map((x, i) => (past[i] ? x - back : x));
          this.visits.push({ ...visit, addrs: moved, context: { ...visit.context, [key]: u } });
        }
        return;
      }
      if (why) {
        visit.reason = why;
        visit.addrs = null;
        visit.oob = undefined;
        this.visits.push(visit);
        return;
      }
      visit.assumptions = [...visit.assumptions, `\`${w.label}\` wraps around at ${w.m} (${w.why}): the lanes past the wrap move back ${Math.abs(off.sym![wrapped] * w.m)} bytes, whole rows of the 32 banks, so each keeps its bank, and no two lanes come to share a word or stop sharing one, for any value it wraps; the rest of it adds the same offset to every lane (bank model rules 1, 2 and 6)`];
    }
    if (other && step < 4) {
      const key = `(${symText(other)}) % 4`;
      for (let r = 0; r < 4; r += step) {
        const a = visit.addrs!;
        const shifted = r === 0 ? a : a.map((x) => x + r);
        this.visits.push({ ...visit, addrs: shifted, context: { ...visit.context, [key]: r } });
      }
      return;
    }
    this.visits.push(visit);
  }

  /** Shared arrays declared during the run. */
  arrays(): SharedBase[] {
    return [...this.bases.values()];
  }
}

/**
 * Runs a kernel for one block shape. In warp mode (cfg.warp, see Interp) one warp is evaluated, and each visit keeps
 * warp 0's addresses with every warp's offset from them (Visit.spread); where that would not be exact (a guard, a loop
 * bound or a reported text depends on the warp's coordinates) the whole block is evaluated instead.
 */
export function runBlock(cfg: RunConfig, kernel: FunctionFact): Interp {
  // a name the file defines more than once is the definition in force at the kernel (`#undef` and `#define` again)
  const own = factsFor(cfg.facts, kernel);
  if (own !== cfg.facts) cfg = { ...cfg, facts: own };
  const shape = cfg.block.join('x');
  if (cfg.warp && Interp.warpApplies(cfg) && !warpFailed.get(kernel)?.has(shape)) {
    const it = new Interp(cfg);
    try {
      it.runKernel(kernel);
      if (!warpRunTainted(it)) {
        spreadWarps(it);
        return it;
      }
    } catch (e) {
      if (!(e instanceof NeedsFullBlock)) throw e;
    }
    // the padding search runs the kernel again and again: go straight to the whole block next time
    const failed = warpFailed.get(kernel) ?? new Set<string>();
    failed.add(shape);
    warpFailed.set(kernel, failed);
  }
  const it = new Interp({ ...cfg, warp: false });
  it.runKernel(kernel);
  return it;
}

/**
 * The facts as the function `fn` reads them: a name the file defines more than once is the definition in force there
 * (macrosFor). One object per analysis and function, so that the memos keyed by facts hold.
 */
export function factsFor(facts: FileFacts, fn: FunctionFact): FileFacts {
  if (!facts.macroHistory) return facts;
  let byFn = kernelFacts.get(facts);
  if (!byFn) kernelFacts.set(facts, (byFn = new Map()));
  let own = byFn.get(fn);
  if (!own) {
    const macros = macrosFor(facts, fn);
    byFn.set(fn, (own = macros === facts.macros ? facts : { ...facts, macros }));
  }
  return own;
}
const kernelFacts = new WeakMap<FileFacts, Map<FunctionFact, FileFacts>>();

/** kernels (their facts: one analysis) whose warp-mode run was not exact, by block shape. */
const warpFailed = new WeakMap<FunctionFact, Set<string>>();

/** A text the run would show depends on the warp's coordinates: the per-warp evaluation is not exact. */
/** The name of the macro a macro site's use names (`LOAD_TILE`, `COPY(a, b)`). */
function macroName(call: Node): string {
  const f = call.type === 'call_expression' ? call.childForFieldName('function') : null;
  return (f ?? call).text.split(/[^\w]/)[0] || call.text;
}

/** The cases of a switch's body, also those inside `#if` branches left in it (each branch the file does not decide). */
function casesOf(body: Node): Node[] {
  const out: Node[] = [];
  for (const c of named(body)) {
    if (c.type === 'case_statement') out.push(c);
    else if (/^preproc_(if|ifdef|else|elif|elifdef)$/.test(c.type)) out.push(...casesOf(c));
  }
  return out;
}

/** The statements of a `case` (its label's value left out). */
function caseStatements(c: Node): Node[] {
  return named(c).filter((s) => s !== c.childForFieldName('value') && (s.type.endsWith('statement') || s.type === 'declaration'));
}

function warpRunTainted(it: Interp): boolean {
  const has = (x: unknown) => typeof x === 'string' && x.includes(THREAD);
  for (const v of it.visits) {
    if (has(v.reason) || v.assumptions.some(has)) return true;
    for (const k in v.context) if (has(k) || has(v.context[k])) return true;
  }
  for (const n of it.notes) if (has(n)) return true;
  return it.capped.some((c) => has(c.message)) || it.arrays().some((b) => has(b.unresolved));
}

/** Gives each visit of a warp-mode run the number of warps and each warp's offset from warp 0 (see Visit.spread). */
function spreadWarps(it: Interp): void {
  const [bx, by, bz] = it.cfg.block;
  const warps = (bx * by * bz) / 32;
  const kx = bx / 32;
  // each warp's coordinates, once; the offsets once per distinct set of coefficients (a loop repeats them)
  const coord: Record<string, Float64Array> = { x: new Float64Array(warps), y: new Float64Array(warps), z: new Float64Array(warps) };
  for (let w = 0; w < warps; w++) {
    coord.x[w] = w % kx;
    coord.y[w] = Math.floor(w / kx) % by;
    coord.z[w] = Math.floor(w / (kx * by));
  }
  const byCoefficients = new Map<string, Float64Array>();
  for (const v of it.visits) {
    if (!v.addrs) continue;
    let shifts: Float64Array | null = null;
    if (v.shift) {
      let key = '';
      for (const k in v.shift) key += `${k.charAt(1)}${v.shift[k]};`;
      shifts = byCoefficients.get(key) ?? null;
      if (!shifts) {
        shifts = new Float64Array(warps);
        for (const k in v.shift) {
          const c = v.shift[k], at = coord[k.charAt(1)];
          for (let w = 0; w < warps; w++) shifts[w] += c * at[w];
        }
        byCoefficients.set(key, shifts);
      }
      v.shift = undefined;
    }
    v.spread = { warps, shifts };
  }
}

/** A visit's address of every thread of the block (a warp-mode visit holds one warp and the warps' offsets). */
export function blockAddrs(v: Visit): Float64Array | null {
  const a = v.addrs;
  if (!a || !v.spread) return a;
  const { warps, shifts } = v.spread;
  const full = new Float64Array(warps * 32);
  for (let w = 0; w < warps; w++) {
    const d = shifts ? shifts[w] : 0;
    for (let l = 0; l < 32; l++) full[w * 32 + l] = a[l] + d;
  }
  return full;
}

/** The type of one lane's access of `bytes` bytes (1 to 16, a power of two), as an integer or vector type. */
/**
 * The widest piece (a power of two from `align` to 16 bytes that divides `width`) in which nvcc copies a whole struct
 * of `width` bytes aligned to `align`: the alignment it can prove of the address, that of the array's element type
 * (`baseAlign`) where every active lane's offset, and every warp-uniform term of it, is a multiple of it.
 */
function copyPiece(width: number, align: number, baseAlign: number, off: Num, act: Uint8Array): number {
  let known = Math.min(16, baseAlign);
  const fit = (x: number) => {
    while (known > align && (!Number.isFinite(x) || x % known !== 0)) known /= 2;
  };
  if (typeof off.v === 'number') fit(off.v);
  else for (let i = 0; i < off.v.length && known > align; i++) if (act[i]) fit(off.v[i]);
  for (const k in off.sym ?? {}) fit(off.sym![k]);
  for (let q = known; q > align; q /= 2) if (width % q === 0) return q;
  return align;
}

/** libcu++'s bulk copies (TMA): `cuda::device::memcpy_async_tx`, `cuda::ptx::cp_async_bulk[_tensor]`. */
const BULK_COPIES = new Set(['memcpy_async_tx', 'cp_async_bulk', 'cp_async_bulk_tensor']);

/**
 * CUDA's SIMD intrinsics on the 2 halfwords or 4 bytes of 32-bit words (CUDA Math API, SIMD intrinsics): per part,
 * wrapping (`__vadd4`, `__vsub2`, `__vneg4`, `__vabs2`) or saturating (`ss` signed, `us` unsigned) arithmetic, `|a - b|`
 * (`absdiffs`/`absdiffu`), max and min, the truncated unsigned average (`hadd`) and the rounded one (`avgu`), compares
 * giving all ones per part (`cmp`), and the sum of absolute differences over the parts (`sads`/`sadu`). Not evaluated:
 * the signed rounded average (`__vavgs2`), whose rounding of negative sums the API does not give, and the `__vset*`
 * compares, which the API says both return 1 per part and 1 if all parts compare.
 */
const SIMD_INTRINSIC = /^__v(add|sub|absdiff|max|min|hadd|avg|abs|neg|sad|cmp)(eq|ne|ge|gt|le|lt)?(ss|us)?(s|u)?([24])$/;
const UNARY_SIMD = new Set(['abs', 'neg']);

/** whether a match of SIMD_INTRINSIC names one of the intrinsics it evaluates (`__vavgs2` and made-up names do not). */
function simdKnown([, op, cmp, sat, sign]: RegExpExecArray): boolean {
  return (op === 'add' || op === 'sub') ? !cmp && !sign : (op === 'abs' || op === 'neg') ? !cmp && !sign && sat !== 'us'
    : op === 'cmp' ? !!cmp && !sat && (cmp === 'eq' || cmp === 'ne' ? !sign : !!sign)
    : op === 'hadd' || op === 'avg' ? !cmp && !sat && sign === 'u' : !cmp && !sat && !!sign;
}

/** the result of one SIMD intrinsic (see SIMD_INTRINSIC, simdKnown) on unsigned 32-bit words. */
function simdParts(op: string, cmp: string | undefined, sat: string | undefined, sign: string | undefined, parts: number, xs: number[]): number {
  const bits = 32 / parts, m = 2 ** bits, half = m / 2;
  const signed = sat === 'ss' || sign === 's' || op === 'abs' || op === 'neg';
  const part = (x: number, k: number) => {
    const u = Math.floor(x / 2 ** (bits * k)) % m;
    return signed && u >= half ? u - m : u;
  };
  const clamp = (v: number) => (sat === 'ss' ? Math.max(-half, Math.min(half - 1, v)) : sat === 'us' ? Math.max(0, Math.min(m - 1, v)) : v);
  let out = 0;
  for (let k = 0; k < parts; k++) {
    const a = part(xs[0], k), b = xs.length > 1 ? part(xs[1], k) : 0;
    const holds = cmp === 'eq' ? a === b : cmp === 'ne' ? a !== b : cmp === 'ge' ? a >= b : cmp === 'gt' ? a > b : cmp === 'le' ? a <= b : a < b;
    const r = op === 'add' ? a + b : op === 'sub' ? a - b : op === 'absdiff' || op === 'sad' ? Math.abs(a - b)
      : op === 'max' ? Math.max(a, b) : op === 'min' ? Math.min(a, b) : op === 'hadd' ? Math.floor((a + b) / 2)
      : op === 'avg' ? Math.floor((a + b + 1) / 2) : op === 'abs' ? Math.abs(a) : op === 'neg' ? -a
      : holds ? m - 1 : 0;
    if (op === 'sad') out += r;
    else out += (((clamp(r) % m) + m) % m) * 2 ** (bits * k);
  }
  return out;
}

function accessType(bytes: number): CType | null {
  return bytes === 1 ? BUILTINS.char : bytes === 2 ? BUILTINS.short : bytes === 4 ? BUILTINS.int : bytes === 8 ? BUILTINS.int2 : bytes === 16 ? BUILTINS.int4 : null;
}

const laneRanges = new WeakMap<Float64Array, { min: number; max: number }>();
/** The smallest and largest value of a per-thread vector (NaN anywhere makes both NaN). */
/** Whether `r` subscripts every extent of its array and each active lane's innermost index is within its extent (Visit.inRow). */
function inRow(r: Ref, act: Uint8Array, n: number): boolean {
  const dims = r.base.dims;
  const b = r.bounds[r.bounds.length - 1];
  if (dims.length < 2 || r.bounds.length !== dims.length || !b || b.extent !== dims[dims.length - 1]) return false;
  const ix = b.index;
  if (ix.sym) {
    // warp mode: an index in the warp's coordinates, its range over the active lanes of every warp
    if (!Object.keys(ix.sym).every((k) => k.charCodeAt(0) === 2)) return false;
    const box = boxRange(ix.v, ix.sym, act);
    return !!box && box.lo >= 0 && box.hi < b.extent;
  }
  const v = ix.v;
  if (typeof v === 'number') return v >= 0 && v < b.extent;
  for (let i = 0; i < n && i < v.length; i++) if (act[i] && !(v[i] >= 0 && v[i] < b.extent)) return false;
  return true;
}

function rangeOfLanes(v: Float64Array): { min: number; max: number } {
  let r = laneRanges.get(v);
  if (!r) {
    let min = Infinity, max = -Infinity;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== x) {
        min = max = NaN;
        break;
      }
      if (x < min) min = x;
      if (x > max) max = x;
    }
    laneRanges.set(v, (r = { min, max }));
  }
  return r;
}

/** Whether `node` is one of a macro site's holders (no array of them made: access() asks for every access in a macro). */
function holds(holders: Map<string, Node>, node: Node): boolean {
  for (const h of holders.values()) if (h === node) return true;
  return false;
}

/** Functions given a pointer that do not read or write through it (see call). */
/**
 * The functions called as the left side of an assignment (`F(x) = v`, `F(x) += v`) in the function definition `fn`
 * (the one being run), each with the line of its first such call: where the file does not define `F`, it is a
 * header's macro or a function that returns a reference. Only that definition is read, so a kernel's result depends
 * on its own text.
 */
const assignedMemo = new WeakMap<Node, Map<string, number>>();
/** The casts in an expression that may be a name of a value in parentheses followed by `-`, `+`, `*` or `&` (`misreadCast`). */
const misreadCasts = new WeakMap<Node, Node[]>();
/** expressions misreadCast parsed again where the original names shared memory, with the original. */
const rereadSites = new WeakMap<Node, Node>();
/** Whether `n` or a node inside it is of one of `types` (syntax alone: read once per node and set of types). */
function holdsType(n: Node, types: ReadonlySet<string>, memo: WeakMap<Node, boolean>): boolean {
  let found = memo.get(n);
  if (found === undefined) {
    found = false;
    for (const stack = [n]; stack.length && !found; ) {
      const c = stack.pop()!;
      if (types.has(c.type)) found = true;
      else stack.push(...named(c));
    }
    memo.set(n, found);
  }
  return found;
}
const EFFECTS = new Set(['call_expression', 'assignment_expression', 'update_expression']);
const PLACES = new Set([...EFFECTS, 'subscript_expression', 'pointer_expression', 'field_expression']);
const effectMemo = new WeakMap<Node, boolean>();
const placeMemo = new WeakMap<Node, boolean>();
/** A call, an assignment or an update in it. */
const holdsEffect = (n: Node): boolean => holdsType(n, EFFECTS, effectMemo);
/** No place in it is read or written: no subscript, dereference, member, call, assignment or update. */
const accessFree = (n: Node): boolean => !holdsType(n, PLACES, placeMemo);
const NO_ASSIGNED = new Map<string, number>();
function assignedCalls(fn: Node | null | undefined): Map<string, number> {
  if (!fn) return NO_ASSIGNED;
  let out = assignedMemo.get(fn);
  if (out) return out;
  out = new Map();
  const stack: Node[] = [fn];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'assignment_expression') {
      const left = c.childForFieldName('left');
      const f = left?.type === 'call_expression' ? left.childForFieldName('function') : null;
      if (f?.type === 'identifier') out.set(f.text, Math.min(out.get(f.text) ?? Infinity, left!.startPosition.row));
    }
    for (const k of named(c)) stack.push(k);
  }
  assignedMemo.set(fn, out);
  return out;
}

/**
 * The PTX an asm statement's template holds: the contents of its string literals, joined as the compiler joins
 * adjacent literals (`"ldmatrix...b16" "{%0, %1}, [%2];"` is one instruction, with no space between the parts).
 */
function ptxText(code: Node | null): string {
  if (!code) return '';
  const parts = code.type === 'concatenated_string' ? named(code).filter((c) => c.type === 'string_literal') : [code];
  return parts.every((p) => p.type === 'string_literal') ? parts.map((p) => p.text.slice(1, -1)).join('') : code.text;
}

/** the names headers give the warp size (identifier() takes them as 32 where the file does not define them). */
const WARP_SIZE_MACRO = /^(WARP_SIZE|WARPSIZE|C10_WARP_SIZE|CUDA_WARP_SIZE|GPU_WARP_SIZE|THREADS_PER_WARP|kWarpSize)$/;
/** what a run notes where it takes `name` as the warp size. */
/** The text before a range-based `for`'s range: `for (float &v : ` (what follows is the range). */
export const RANGE_FOR_HEAD = /\bfor\s*\([^;(){}]*[^:]:\s*$/;
export const constantTableNote = (name: string) => `\`${name}\` is a \`__constant__\` table this file never copies into (\`cudaMemcpyToSymbol\`): read at its initializer's values`;
export const constantVarNote = (name: string) => `\`${name}\` is a \`__constant__\` variable: its value is not known here, but it is the same on every thread`;
export const warpSizeNote = (name: string) => `\`${name}\` is not defined in this file: taken as 32, the warp size of every NVIDIA GPU (give it with -D to change it)`;

const NO_MEMORY_CALLS = /^(printf|assert|__assert_fail|__builtin_assume_aligned|__builtin_expect|__builtin_assume|__isShared|__isGlobal|__isLocal|__isConstant|__isGridConstant|__cvta_generic_to_\w+|__prefetch_global_\w+)$/;

/** An offset with no unknown part (a number per lane, plus warp-uniform unknowns). */
/**
 * The places within a 4-byte word that an offset made of warp-uniform unknowns can take, as their step: 1, 2, or 4
 * where it is always a whole number of words (the gcd of its byte coefficients with 4).
 */
/** The assumption of an access of `width` bytes of a packed struct's member made in pieces of the alignment nvcc can prove. */
function packedNote(p: NonNullable<Ref['packed']>, width: number): string {
  const size = p.align;
  return `\`${p.struct}\` is packed: ${width}-byte accesses of its member \`${p.member}\` are made as ${width / size} accesses of ${size} ${size === 1 ? 'byte' : 'bytes'}, as nvcc emits them; each is its own request`;
}

const packs = new WeakMap<object, { at: number; arg: string }[]>();
/**
 * The packing of a struct's members where it is defined, or Infinity: 1 for `__attribute__((packed))` on it, else n
 * of the `#pragma pack(n)` (`pack(push, n)`, undone by `pack(pop)` and `pack()`) last in force before it.
 */
function packingAt(decl: Node): number {

  if (kids(decl).some((c) => c.type === 'attribute_specifier' && /\b(?:__)?packed(?:__)?\b/.test(c.text))) return 1;
  const root = decl.tree.rootNode;
  let list = packs.get(decl.tree);
  if (!list) {
    list = root.descendantsOfType('preproc_call')
      .filter((n): n is Node => !!n && n.childForFieldName('directive')?.text === '#pragma' && /^\s*pack\b/.test(n.childForFieldName('argument')?.text ?? ''))
      .map((n) => ({ at: n.startIndex, arg: n.childForFieldName('argument')!.text }));
    packs.set(decl.tree, list);
  }
  const stack: number[] = [];
  let pack = Infinity;
  for (const p of list) {
    if (p.at >= decl.startIndex) break;
    const m = /^\s*pack\s*\(\s*(push|pop)?\s*,?\s*(\d+)?\s*\)/.exec(p.arg);
    if (!m) continue;
    if (m[1] === 'push') stack.push(pack);
    if (m[1] === 'pop') pack = stack.pop() ?? Infinity;
    if (m[2]) pack = Number(m[2]) || Infinity;
    else if (!m[1]) pack = Infinity;
  }
  return pack;
}

/**
 * Why an access of `width` bytes is not aligned to its width on some active lane, or null: the GPU faults on such an
 * access (the Programming Guide: a pointer into shared memory must be aligned to the type it points to), so it has
 * no figures. `addrs` are the lanes' byte offsets from the array's start, which is a multiple of `align`; the
 * warp-uniform terms `sym` add multiples of their coefficients. Where those make the remainder unknown, nothing is
 * said. Where the remainder is known but the array's start is less aligned than the width (`extern __shared__ char
 * buf[]` read as `double` at byte 4), the access is aligned only where the start happens to make it so.
 */
function misalignment(addrs: Float64Array, width: number, align: number, sym: Record<string, number> | null, name: string): string | null {
  if (width < 2 || align < 1) return null;
  let symStep = width;
  for (const k in sym ?? {}) {
    const c = sym![k];
    if (!Number.isInteger(c)) return null;
    symStep = gcd(symStep, Math.abs(c));
  }
  const proven = gcd(symStep, Math.min(align, width));
  // warp mode's terms of the thread index (keys starting with THREAD) are no offset the same on every lane
  const plus = () => (Object.keys(sym ?? {}).some((k) => !k.startsWith(THREAD)) ? ' (plus the same offset on every lane)' : '');
  let loose = -1;
  // the lanes' places within a unit of the width: the first one's, and whether another lane's differs
  let place = -1;
  let places = 0;
  // the common case, widths and alignments of powers of two and addresses that are 32-bit integers: the remainders
  // as masks (a double's `%` costs a call); any lane outside that goes the general way below
  if ((width & (width - 1)) === 0 && (proven & (proven - 1)) === 0) {
    const pm = proven - 1, wm = width - 1, whole = symStep === width;
    let i = 0;
    for (; i < addrs.length; i++) {
      const a = addrs[i];
      if (a !== a) continue;
      if ((a | 0) !== a) break;
      if ((a & pm) !== 0) break;
      if (!whole) continue;
      const at = a & wm;
      if (place < 0) {
        place = at;
        places = 1;
      } else if (at !== place) places = 2;
      if (loose < 0 && at !== 0) loose = i;
    }
    if (i === addrs.length) return loose < 0 ? null : misplaced(addrs, loose, places, width, align, name, plus);
    loose = -1;
    place = -1;
    places = 0;
  }
  for (let i = 0; i < addrs.length; i++) {
    const a = addrs[i];
    if (a !== a) continue;
    if (((a % proven) + proven) % proven !== 0)
      return `misaligned: lane ${i % 32} of warp ${Math.floor(i / 32)} addresses byte ${a} of \`${name}\`${plus()}, which starts at a multiple of ${align}: not a multiple of ${width}, the access's width; the GPU faults on a misaligned shared-memory access`;
    if (symStep !== width) continue;
    const at = ((a % width) + width) % width;
    if (place < 0) {
      place = at;
      places = 1;
    } else if (at !== place) places = 2;
    if (loose < 0 && at !== 0) loose = i;
  }
  return loose < 0 ? null : misplaced(addrs, loose, places, width, align, name, plus);
}

/** misalignment()'s message where every lane is aligned to what the terms prove, but `loose` is not to the width. */
function misplaced(addrs: Float64Array, loose: number, places: number, width: number, align: number, name: string, plus: () => string): string {
  // lanes at different places within a unit of the width: wherever the array starts, one of them is misaligned
  if (places > 1)
    return `misaligned: lane ${loose % 32} of warp ${Math.floor(loose / 32)} addresses byte ${addrs[loose]} of \`${name}\`${plus()}, and other lanes bytes a different distance from a multiple of ${width}, the access's width: wherever \`${name}\` starts, some lane is misaligned; the GPU faults on a misaligned shared-memory access`;
  const a = addrs[loose];
  const past = width - (((a % width) + width) % width);
  return `misaligned unless \`${name}\` starts ${past} ${past === 1 ? 'byte' : 'bytes'} past a multiple of ${width}: lane ${loose % 32} of warp ${Math.floor(loose / 32)} addresses byte ${a} of it${plus()}, and its declaration aligns it only to ${align}; the GPU faults on a shared-memory access not aligned to its width (${width} bytes)`;
}

function wordPlaces(sym: Record<string, number>): number {
  let g = 4;
  for (const k in sym) {
    const c = sym[k];
    if (!Number.isInteger(c)) return 1;
    g = gcd(g, Math.abs(c));
  }
  return g === 0 ? 4 : g;
}

function withoutKey(s: Record<string, number>, key: string): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const k in s) if (k !== key) out[k] = s[k];
  return Object.keys(out).length ? out : null;
}

/**
 * Why the figures of an access at `addrs` (one byte offset per thread, NaN where inactive, for U = 0) can change
 * with the value a remainder that wraps (values.ts, remainder()) takes, or null where they cannot. At U, the
 * lanes with `f + U >= M` sit `c * M` bytes lower (`c`: the byte coefficient of its key). If that is a whole
 * number of 128-byte bank rows, every lane keeps its bank; if, for each pattern of lanes past the wrap that some U
 * gives (U a multiple of g below M: the lanes start to wrap at most once each, in order of f), the words of a warp's
 * lanes map one to one onto their words at U = 0, the lanes that share a word are the same. Then every phase asks
 * each bank for as many distinct words as at U = 0, and the rest of U is the same offset on every lane (rule 6).
 * `places`: the byte places within a word the uniform offset can take (sub-word accesses), each checked.
 */
function wrapMoves(addrs: Float64Array, c: number, w: Wrap, places: number[] | null): string | null {
  const back = c * w.m;
  if (!Number.isInteger(back) || back % 128 !== 0)
    return `the lanes where \`${w.label}\` wraps around (at ${w.m}) move back ${Math.abs(back)} bytes, not a whole number of rows of the 32 banks (128 bytes): which banks they reach depends on the value it wraps, which is not known`;
  if (w.lanes.length !== addrs.length) return `\`${w.label}\` wraps around at a place not known`;
  const ab = new Map<number, number>(), ba = new Map<number, number>();
  for (let w0 = 0; w0 < addrs.length; w0 += 32) {
    const end = Math.min(addrs.length, w0 + 32);
    const set = new Set<number>();
    for (let i = w0; i < end; i++) {
      if (addrs[i] !== addrs[i]) continue;
      const u = Math.ceil((w.m - w.lanes[i]) / w.g) * w.g;
      if (u < w.m) set.add(u);
    }
    const starts = [...set].sort((x, y) => x - y);
    for (let s = 0; s < starts.length; s++) {
      const u = starts[s];
      // the lanes past the wrap are the same for every U from u to the next start; the place in a word that U
      // gives repeats every four of its steps
      const us: number[] = [];
      for (let j = 0; j < 4 && u + j * w.g < (starts[s + 1] ?? w.m); j++) us.push(u + j * w.g);
      const pairs = places ? places.map((r) => [u, r]) : us.map((x) => [x, (((c * x) % 4) + 4) % 4]);
      for (const [, r] of pairs) {
        ab.clear();
        ba.clear();
        for (let i = w0; i < end; i++) {
          const x = addrs[i];
          if (x !== x) continue;
          const a = Math.floor((x + r) / 4);
          const b = w.lanes[i] + u >= w.m ? Math.floor((x + r - back) / 4) : a;
          const pa = ab.get(a), pb = ba.get(b);
          if ((pa !== undefined && pa !== b) || (pb !== undefined && pb !== a))
            return `where \`${w.label}\` wraps around (at ${w.m}), the lanes past the wrap move back ${Math.abs(back)} bytes, which joins or parts lanes that share a word: the figures depend on the value it wraps, which is not known`;
          ab.set(a, b);
          ba.set(b, a);
        }
      }
    }
  }
  return null;
}

/**
 * The sets of lanes past the wrap of `w` that a value U of its unknown gives (a lane is past it where f + U >= M;
 * U a multiple of g below M), each with the least such U; null where there are more than 64.
 */
function wrapCases(addrs: Float64Array, w: Wrap): { u: number; past: Uint8Array }[] | null {
  if (w.lanes.length !== addrs.length) return null;
  const set = new Set<number>([0]);
  for (let i = 0; i < addrs.length; i++) {
    if (addrs[i] !== addrs[i]) continue;
    const u = Math.ceil((w.m - w.lanes[i]) / w.g) * w.g;
    if (u < w.m) set.add(u);
    if (set.size > 64) return null;
  }
  return [...set].sort((x, y) => x - y).map((u) => ({ u, past: Uint8Array.from(w.lanes, (f) => +(f + u >= w.m)) }));
}

function knownOffset(off: Num): boolean {
  return !(off.sym && Object.keys(off.sym).some((k) => k.startsWith(UNKNOWN))) && !(typeof off.v === 'number' && Number.isNaN(off.v));
}

interface BinMemo {
  op: string;
  a: Num;
  b: Num;
  r: Num;
}
const sameNum = (x: Num, y: Num) =>
  x === y || (typeof x.v === 'number' && typeof y.v === 'number' && x.v === y.v && x.t === y.t && !x.sym && !y.sym);

const isBase = (v: Var | SharedBase): v is SharedBase => !('value' in v);

/** A parameter or declarator declared as a reference (`float &a`, `const uint& b`, `float (&c)[4]`, `T &&d`). */
/** The struct, class or union definition a node is inside, if any. */
function enclosingClass(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (/^(struct|class|union)_specifier$/.test(p.type)) return p;
  return null;
}

/**
 * Each value of a warp-mode run's higher thread coordinates (see threadKey) in the offsets `offs`, as the whole block
 * gives them: one assignment per warp. Null where another unknown moves an offset within a row (its coefficient not a
 * multiple of `row`), or moves two of the offsets by different rows.
 */
function warpCoordinates(offs: Num[], row: number): Record<string, number>[] | null {
  let combos: Record<string, number>[] = [{}];
  const seen = new Set<string>();
  for (const o of offs) {
    for (const k in o.sym ?? {}) {
      const c = o.sym![k];
      if (!k.startsWith(THREAD)) {
        if (c % row !== 0 || offs.some((q) => (q.sym?.[k] ?? 0) !== c)) return null;
        continue;
      }
      if (seen.has(k)) continue;
      seen.add(k);
      const max = maxOf(k);
      if (!Number.isInteger(max) || max < 0 || combos.length * (max + 1) > 1024) return null;
      combos = combos.flatMap((combo) => Array.from({ length: max + 1 }, (_, w) => ({ ...combo, [k]: w })));
    }
  }
  return combos;
}

/**
 * Every lane's place `off`, read as a `to`, lies inside the row (innermost extent) of the array that `p` points into
 * on that lane: the offset within the row plus the size of `to` is at most the row's bytes, on every warp. Not so
 * where `to` is an array (a row pointer of its own length).
 */
function sameRow(p: Ptr, off: Num, to: CType = p.to): boolean {
  const size = to.kind === 'array' ? null : sizeOf(to);
  const row = p.base.dims[p.base.dims.length - 1] * (sizeOf(p.base.elem) ?? 0);
  if (!size || !row || p.base.external) return false;
  const combos = warpCoordinates([p.off, off], row);
  if (!combos) return false;
  const lanes = Math.max(typeof p.off.v === 'number' ? 1 : p.off.v.length, typeof off.v === 'number' ? 1 : off.v.length);
  const shiftOf = (o: Num, combo: Record<string, number>) => {
    let shift = 0;
    for (const k in combo) shift += (o.sym?.[k] ?? 0) * combo[k];
    return shift;
  };
  for (const combo of combos) {
    const sa = shiftOf(p.off, combo), sb = shiftOf(off, combo);
    for (let i = 0; i < lanes; i++) {
      const a = (typeof p.off.v === 'number' ? p.off.v : p.off.v[i]) + sa, b = (typeof off.v === 'number' ? off.v : off.v[i]) + sb;
      if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0) return false;
      if (Math.floor(a / row) !== Math.floor(b / row) || (a % row) + size > row || (b % row) + size > row) return false;
    }
  }
  return true;
}

/** The members of an anonymous struct or union member are the enclosing one's, at its offset plus their own. */
function flattenAnonymous(fields: { name: string; offset: number; type: CType }[]): { name: string; offset: number; type: CType }[] {
  return fields.flatMap((f) => (f.name === '' && (f.type.kind === 'struct' || f.type.kind === 'unknown') && f.type.fields ? f.type.fields.map((g) => ({ ...g, offset: f.offset + g.offset })) : [f]));
}

function isReferenceDecl(decl: Node): boolean {
  let d: Node | null = decl.type === 'parameter_declaration' || decl.type === 'optional_parameter_declaration' ? decl.childForFieldName('declarator') : decl;
  for (let i = 0; d && i < 16; i++) {
    if (d.type === 'reference_declarator') return true;
    if (d.type === 'identifier') return false;
    d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.endsWith('declarator')) ?? null;
  }
  return false;
}

const LONGT: CType = { kind: 'int', bytes: 8, signed: true, name: 'long long' };
/** words of a constant expression that name no value: types, casts, literals. */
const CONSTANT_WORDS = new Set(['sizeof', 'alignof', 'static_cast', 'reinterpret_cast', 'const_cast', 'unsigned', 'signed', 'long', 'short',
  'int', 'char', 'float', 'double', 'bool', 'true', 'false', 'nullptr', 'const', 'constexpr', 'void', 'half', '__half', 'size_t', 'u', 'U', 'f', 'F', 'l', 'L', 'ul', 'UL', 'ull', 'ULL', 'll', 'LL']);


/** how many variables set under a guard not known per lane are kept for a later branch under the same guard. */
const MAX_GUARDED_SETS = 64;
/** the most groups of lanes a guard `a == b` is split into (see equalityGroups); more: assumed true for every lane */
const MAX_EQUALITY_GROUPS = 32;

/** the built-in index variables: a guard on them alone means the same thing wherever it is read in a kernel. */
const BUILTIN_INDEXES = new Set(['threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'warpSize']);

/** the two values are the same on every lane of `act` (numbers and pointers; anything else only when identical). */
/** An int with one value on the active lanes and no per-lane part: what branches may leave as a warp-uniform unknown. */
function uniformInt(x: Value, act: Uint8Array): boolean {
  return x.k === 'num' && x.t.kind === 'int' && !hasThread(x.sym) && isUniform(x.v, act);
}

/** The values of a local array's kept elements, by flat index (see Var.cells); null where it keeps none. */
function cellValuesOf(v: Var): Map<number, Value> | null {
  return v.cells ? new Map([...v.cells.elems].map(([k, c]) => [k, c.value])) : null;
}

/**
 * A variable that branches leave `values` (in the order they ran), after them; null where they agree. Where each
 * branch leaves it one value on every thread and the branches go one way for a whole warp (`wholeWarp`), an int is
 * the atom `atomName` and two pointers either one (`how` names them, see eitherPointer); else it is unknown for
 * `why` (THREAD added where a value is per lane), a pointer among them still one into shared memory. `unknown`: the
 * last case.
 */
function differingWays(values: Value[], type: CType, act: Uint8Array, wholeWarp: boolean, name: string, atomName: string, how: () => string, why: () => string): { value: Value; unknown: boolean } | null {
  if (values.every((x) => sameValue(x, values[0], act))) return null;
  if (wholeWarp && type.kind === 'int' && values.every((x) => uniformInt(x, act))) return { value: atom(atomName, type), unknown: false };
  const ptrs = values.filter((x): x is Ptr => x.k === 'ptr');
  const either = wholeWarp && ptrs.length === 2 && values.length === 2 ? eitherPointer(ptrs[0], ptrs[1], how(), act) : null;
  if (either) return { value: { ...either, name }, unknown: false };
  const reason = why() + (values.some((x) => x.k === 'num' && hasThread(x.sym)) ? THREAD : '');
  return { value: ptrs.length ? unknownPointer(ptrs[0], reason) : unk(reason), unknown: true };
}

function sameValue(a: Value, b: Value, act: Uint8Array): boolean {
  if (a === b) return true;
  if (a.k === 'ptr' && b.k === 'ptr') return a.base === b.base && a.to === b.to && sameValue(a.off, b.off, act);
  if (a.k !== 'num' || b.k !== 'num' || JSON.stringify(a.sym) !== JSON.stringify(b.sym)) return false;
  for (let i = 0; i < act.length; i++) if (act[i] && laneAt(a.v, i) !== laneAt(b.v, i)) return false;
  return true;
}

/** A CUDA vector type as a struct of its components (`x`, `y`, `z`, `w`), for a local variable's members. */
function vectorFields(t: Extract<CType, { kind: 'vector' }>): CType {
  const fields = ['x', 'y', 'z', 'w'].slice(0, t.count).map((name) => member(t, name)!);
  return { kind: 'struct', name: t.name, bytes: t.bytes, align: t.align, fields };
}

/** A `;` outside parentheses, brackets and braces: text that is statements, not an expression (`a = 1; b = 2`). */
/** A declaration of `__shared__` memory (qualifiers, a type, a name and its extents). */
const SHARED_DECLARATION = /^(?:(?:extern|static|volatile|const|alignas\s*\([^()]*\)|__align__\s*\([^()]*\))\s+)*__shared__\s+[^;{}=]*\[[^;{}]*\]\s*$/;

function topLevelSemicolon(text: string): boolean {
  let depth = 0;
  for (const c of text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""')) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ';' && depth === 0) return true;
  }
  return false;
}

/**
 * The definition of a type named with its namespaces (`hist::Bin`): the file's definition of `Bin`, where the
 * namespaces around it are those the name gives, outermost first (`typeDecls` holds a type by its own name).
 */
function namespacedDecl(name: string, decls: Map<string, Node>): Node | undefined {
  const m = /^(?:::)?((?:[A-Za-z_]\w*::)+)([A-Za-z_]\w*)$/.exec(name);
  if (!m) return undefined;
  const d = decls.get(m[2]);
  if (!d) return undefined;
  const spaces: string[] = [];
  for (let p = d.parent; p; p = p.parent) {
    if (p.type === 'namespace_definition') spaces.unshift(p.childForFieldName('name')?.text ?? '');
    else if (/^(struct|class|union)_specifier$/.test(p.type) || p.type === 'function_definition') return undefined;
  }
  return spaces.join('::') + '::' === m[1] ? d : undefined;
}
