// Values of the lane-by-lane evaluator. A number is known per thread of the block (or one scalar when uniform),
// plus a linear sum of warp-uniform unknowns (`blockIdx.x * 32 + n`): such a sum adds the same offset to every lane,
// which never changes a degree (bank model rule 6). Anything else unresolvable is `unk`, with its reason.
import type { Node } from '../syntax/parser';
import { CType, INT, UINT, LONG, ULONG, FLOAT, DOUBLE } from '../facts/ctypes';

export type Lanes = number | Float64Array;
export type Sym = Record<string, number>;

export interface Num {
  k: 'num';
  t: CType;
  v: Lanes;
  sym: Sym | null;
}
export interface Unk {
  k: 'unk';
  reason: string;
  /** the same on every thread (a comparison of warp-uniform values, `next_k < k`): a guard on it splits no warp. */
  uniform?: true;
  /**
   * `~m` of a 64-bit unsigned `m` (`~size_t(15)`, `~(align - 1)`): 2^64 - 1 - m is not exact in a double, but
   * `x & ~m` is `x - (x & m)`, which is (see andNot in binary()). Anything else reads it as unknown for `reason`.
   */
  notOf?: Num;
}

/** A __shared__ array as the evaluator sees it (dimensions resolved for this context). */
export interface SharedBase {
  id: string;
  name: string;
  decl: Node;
  nameNode: Node;
  elem: CType;
  /** declared extents, outermost first; [] for `extern __shared__ T s[]`. */
  dims: number[];
  external: boolean;
  /** text range of each extent's expression, for the padding fix. */
  dimNodes: Node[];
  /** why the extents could not be evaluated (a template parameter nobody binds, say). */
  unresolved?: string;
  /** why the outermost extent could not be evaluated (kept as 0 in dims: it changes no address, bounds go unchecked). */
  outerUnknown?: string;
  /** declared in the expansion of this macro: `nameNode` is the macro's use in the file, `dimNodes` are not in it. */
  macro?: string;
}

/** A pointer into shared memory: base, byte offset, pointee type, the name it is reached by. */
export interface Ptr {
  k: 'ptr';
  base: SharedBase;
  off: Num;
  to: CType;
  name: string;
  /** true once arithmetic or a cast assumes the array's flat layout (the padding fix must not be offered). */
  flat: string | null;
  /** it may point to another place instead, picked the same way on every lane of a warp: said where it is indexed */
  alt?: string;
  /**
   * the offset of `&s[i][j]` where every active lane's innermost index was within its extent (Visit.inRow): while
   * `off` is that same object (casts keep it, arithmetic makes another), `*p` and `p[0]` are accesses in that row
   */
  rowAt?: Num;
}
/** An lvalue in shared memory: the place an access reads or writes. */
export interface Ref {
  k: 'ref';
  base: SharedBase;
  off: Num;
  t: CType;
  name: string;
  nameNode: Node;
  /** per subscript level: index value and the extent it must stay under (for out-of-bounds). */
  bounds: { index: Num; extent: number }[];
  flat: string | null;
  /** the pointer it was reached through may point to another place instead (see Ptr.alt): said in its assumptions */
  alt?: string;
  /** a reference bound to this place: the expression that named it (its accesses are reported there). */
  at?: Node;
  /** returned by reference from a call: the context its accesses are told apart by (the caller's, and the call). */
  ctx?: Record<string, number | string>;
  /** a member of a packed struct (`__attribute__((packed))`, `#pragma pack`): the alignment nvcc can prove of its place. */
  packed?: { struct: string; member: string; align: number };
  /** a bit-field member: a store to it is a read-modify-write of the unit that holds it (a load and a store). */
  bitfield?: boolean;
  /** reached as `*p` or `p[0]` of a pointer made by `&s[i][j]` in its row (Ptr.rowAt): an access in that row. */
  inRow?: boolean;
}
export interface Other {
  k: 'other';
  what: string;
  /** a template parameter pack of values (`int... Pads` given `<1, 1>`), bound as `Pads...`: its values in order. */
  items?: Value[];
}
export interface Dim3 {
  k: 'dim3';
  x: Value;
  y: Value;
  z: Value;
}
/**
 * A local struct or class object (`Tile t{buf, 33};`, `Tile u; u.p = buf;`): its data members by name, each a
 * variable of its own; a member function called on it sees them (and `this`).
 */
export interface Obj {
  k: 'obj';
  t: CType;
  fields: Map<string, { value: Value; type: CType }>;
}
export type Value = Num | Unk | Ptr | Ref | Other | Dim3 | Obj;

/** A copy of an object: its members are new variables holding the same values (pointers named after `name`). */
export function copyObj(o: Obj, name?: string): Obj {
  const copy = (k: string, v: Value): Value =>
    v.k === 'obj' ? copyObj(v, name && `${name}.${k}`) : v.k === 'ptr' && name ? { ...v, name: `${name}.${k}` } : v;
  return { k: 'obj', t: o.t, fields: new Map([...o.fields].map(([k, f]) => [k, { value: copy(k, f.value), type: f.type }])) };
}

// a reason quotes source text, which may span lines (`cstep /\n      min(...)`): on one line, as the messages are
export const unk = (reason: string): Unk => ({ k: 'unk', reason: reason.includes('\n') ? reason.replace(/\s*\n\s*/g, ' ') : reason });

/** marks an address that could not be evaluated; the rest of the key is the reason. */
export const UNKNOWN = '\u0000';

/**
 * A pointer into the array `p` points into, at an offset that is not known (why: the reason its accesses give):
 * what it indexes is still an access site, reported unknown, not dropped.
 */
export function unknownPointer(p: Ptr, why: string, name = p.name): Ptr {
  return { ...p, name, off: { k: 'num', t: INT, v: NaN, sym: { ...(p.off.sym ?? {}), [UNKNOWN + why]: 1 } } };
}

/**
 * One of two pointers, picked the same way on every lane of a warp by a choice that is not known (`(k & 1) ? bufB :
 * bufA` in a loop of unknown trip count, `if (flag) p = a; else p = b;`). Where the two differ by the same number of
 * bytes on every lane (the same offsets into two arrays, or two places of one array), either gives the same figures
 * (bank model rule 6): `a`, said so (`how`: what picks), and no padding fix where two arrays are involved (padding one
 * moves only its own lanes). Null where they differ per lane or in access width.
 */
export function eitherPointer(a: Ptr, b: Ptr, how: string, mask: Uint8Array | null): Ptr | null {
  const width = (p: Ptr) => (p.to.kind === 'int' || p.to.kind === 'float' ? p.to.bytes : JSON.stringify(p.to));
  if (width(a) !== width(b)) return null;
  const d = binary('-', b.off, a.off, 'the distance between the two places', null);
  if (d.k !== 'num' || hasThread(d.sym) || wrapKey(d.sym) || (d.sym && Object.keys(d.sym).some((k) => k.startsWith(UNKNOWN))) || !isUniform(d.v, mask)) return null;
  if (typeof d.v === 'number' && Number.isNaN(d.v)) return null;
  const where = a.base === b.base ? `one of two places of \`${a.base.name}\`` : `\`${a.base.name}\` or into \`${b.base.name}\``;
  const alt = `${how} points into ${where}, the same on every lane of a warp: the lanes' offsets differ by the same amount in either, which does not change the figures (bank model rule 6)`;
  return { ...a, alt, flat: a.flat ?? (a.base === b.base ? null : `${how} indexes \`${a.base.name}\` and \`${b.base.name}\` alike`) };
}
export const num = (v: Lanes, t: CType = INT, sym: Sym | null = null): Num => ({ k: 'num', t, v, sym });

/** One value on the active lanes; with `span`, one value in each run of `span` lanes (a warp: 32). */
export function isUniform(v: Lanes, mask?: Uint8Array | null, span = Infinity): boolean {
  if (typeof v === 'number') return true;
  let first: number | undefined;
  let next = span;
  for (let i = 0; i < v.length; i++) {
    if (i === next) {
      first = undefined;
      next += span;
    }
    if (mask && !mask[i]) continue;
    if (first === undefined) first = v[i];
    else if (v[i] !== first) return false;
  }
  return true;
}

/** One value on the active lanes of each warp (lanes 32w .. 32w + 31 of the block's linear thread order). */
export const isWarpUniform = (v: Lanes, mask?: Uint8Array | null): boolean => isUniform(v, mask, 32);

export function laneAt(v: Lanes, i: number): number {
  return typeof v === 'number' ? v : v[i];
}

/** The uniform value under `mask`, or null. */
export function uniformValue(x: Value, mask?: Uint8Array | null): number | null {
  if (isTainted(x)) throw NEEDS_FULL_BLOCK;
  if (x.k !== 'num' || x.sym) return null;
  if (typeof x.v === 'number') return x.v;
  let first: number | null = null;
  for (let i = 0; i < x.v.length; i++) {
    if (mask && !mask[i]) continue;
    if (first === null) first = x.v[i];
    else if (x.v[i] !== first) return null;
  }
  return first;
}

const isInt = (t: CType) => t.kind === 'int';

/** The C usual arithmetic conversions (enough of them for index arithmetic). */
export function promote(a: CType, b: CType): CType {
  if (a.kind === 'float' || b.kind === 'float') {
    const bytes = Math.max(a.kind === 'float' ? a.bytes : 0, b.kind === 'float' ? b.bytes : 0);
    return bytes >= 8 ? DOUBLE : FLOAT;
  }
  const ab = a.kind === 'int' ? a.bytes : 4;
  const bb = b.kind === 'int' ? b.bytes : 4;
  const as = a.kind === 'int' ? a.signed : true;
  const bs = b.kind === 'int' ? b.signed : true;
  const bytes = Math.max(ab, bb, 4);
  if (bytes === 8) {
    if (ab === 8 && !as) return ULONG;
    if (bb === 8 && !bs) return ULONG;
    return LONG;
  }
  return (ab === 4 && !as) || (bb === 4 && !bs) ? UINT : INT;
}


/** Wraps x to type t; returns NaN when a 64-bit value leaves the exactly representable range. */
export function wrap(x: number, t: CType): number {
  if (t.kind === 'float') return t.bytes === 4 ? Math.fround(x) : x;
  if (t.kind !== 'int') return x;
  if (!Number.isFinite(x)) return NaN;
  x = Math.trunc(x);
  switch (t.bytes) {
    case 1:
      return t.signed ? (x << 24) >> 24 : x & 0xff;
    case 2:
      return t.signed ? (x << 16) >> 16 : x & 0xffff;
    case 4:
      if (!Number.isSafeInteger(x)) return NaN;
      return t.signed ? x | 0 : x >>> 0;
    default:
      if (!Number.isSafeInteger(x)) return NaN;
      if (!t.signed && x < 0) return NaN; // 2^64 - k is not exact in a double
      return x;
  }
}

function map1(a: Lanes, f: (x: number) => number): Lanes {
  if (typeof a === 'number') return f(a);
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f(a[i]);
  return out;
}
function map2(a: Lanes, b: Lanes, f: (x: number, y: number) => number): Lanes {
  if (typeof a === 'number' && typeof b === 'number') return f(a, b);
  const n = typeof a === 'number' ? (b as Float64Array).length : a.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = f(typeof a === 'number' ? a : a[i], typeof b === 'number' ? b : b[i]);
  return out;
}
function hasNaN(v: Lanes, mask: Uint8Array | null): boolean {
  if (typeof v === 'number') return Number.isNaN(v);
  for (let i = 0; i < v.length; i++) if ((!mask || mask[i]) && Number.isNaN(v[i])) return true;
  return false;
}

function addSym(a: Sym | null, b: Sym | null, sb = 1): Sym | null {
  if (!a && !b) return null;
  const out: Sym = { ...(a ?? {}) };
  for (const [k, c] of Object.entries(b ?? {})) {
    out[k] = (out[k] ?? 0) + sb * c;
    if (out[k] === 0) delete out[k];
  }
  return Object.keys(out).length ? out : null;
}
function scaleSym(a: Sym | null, c: number): Sym | null {
  if (!a || c === 0) return null;
  const out: Sym = {};
  for (const [k, v] of Object.entries(a)) out[k] = v * c;
  return out;
}
/** `a`, `a and b`, `a, b and c`: a list in a sentence. */
export const andList = (xs: readonly string[]): string => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}` : xs[0] ?? '');

export function symText(s: Sym): string {
  // a later read of one text is keyed by its line and count (`w[0]@12#2`, see readAtom): shown as the text the user wrote
  return symKey(s, (k) => k.replace(/@\d+#\d+$/, ''));
}

/** symText with the keys as they are: distinct unknowns give distinct texts (to group equal sums by). */
export function symKey(s: Sym, shown: (k: string) => string = (k) => k): string {
  const terms = Object.entries(s).map(([k, c]): [string, number] => [k.charCodeAt(0) === 3 ? wrapOf(k)!.label : shown(k), c]);
  // a name that is an expression's text (`tile % STAGES`) is parenthesised where an operator stands next to it
  const wrap = (k: string) => (/^[\w.@'\[\]]+$/.test(k) ? k : `(${k})`);
  return terms.map(([k, c]) => (c === 1 ? (terms.length > 1 ? wrap(k) : k) : `${c} * ${wrap(k)}`)).join(' + ');
}

/**
 * Warp mode (see Interp): when the block's x extent is a multiple of 32, every warp is the same 32 lanes of x with
 * warp-uniform higher coordinates, so one warp is evaluated with those coordinates as linear unknowns. Their keys
 * start with THREAD and end with their largest value. Anything about them that is not exact for every warp yields
 * a value whose reason carries THREAD ("tainted"): the run is repeated for the whole block when such a reason would
 * be seen, or when a decision depends on one (NeedsFullBlock).
 */
export const THREAD = '\u0002';
export class NeedsFullBlock extends Error {
  constructor() {
    super('warp mode is not exact here');
  }
}
/** thrown often (a guard on threadIdx.y...): one instance, no stack trace to capture each time. */
export const NEEDS_FULL_BLOCK = (() => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new NeedsFullBlock();
  } finally {
    Error.stackTraceLimit = limit;
  }
})();
export const threadKey = (name: string, max: number): string => `${THREAD}${name}<=${max}`;
const keyMax = new Map<string, number>();
/** The largest value of the thread coordinate a threadKey names. */
export function maxOf(key: string): number {
  let m = keyMax.get(key);
  if (m === undefined) keyMax.set(key, (m = Number(key.slice(key.lastIndexOf('<=') + 2))));
  return m;
}
export function hasThread(s: Sym | null): boolean {
  if (s) for (const k in s) if (k.charCodeAt(0) === 2) return true;
  return false;
}
const CMP = new Set(['<', '>', '<=', '>=', '==', '!=', '&&', '||']);
/**
 * Two sums with the same warp-uniform unknowns (each with the same coefficient, at least one): each without them,
 * warp mode's thread coordinates kept. Null where they differ.
 */
function cancelled(a: Sym, b: Sym): { a: Sym | null; b: Sym | null } | null {
  let any = false;
  const keep = (s: Sym) => {
    const out: Sym = {};
    for (const k in s) if (k.charCodeAt(0) === 2) out[k] = s[k];
    return Object.keys(out).length ? out : null;
  };
  for (const k in a) if (k.charCodeAt(0) !== 2) {
    if (a[k] !== b[k]) return null;
    any = true;
  }
  for (const k in b) if (k.charCodeAt(0) !== 2 && a[k] !== b[k]) return null;
  return any ? { a: keep(a), b: keep(b) } : null;
}
/** the warp-uniform unknowns of a sum without the thread coordinates (null when none is left). */
function withoutThread(s: Sym | null): Sym | null {
  let out: Sym | null = null;
  if (s) for (const k in s) if (k.charCodeAt(0) !== 2) (out ??= {})[k] = s[k];
  return out;
}
export const isTainted = (x: Value): boolean => (x.k === 'num' ? hasThread(x.sym) : x.k === 'unk' && x.reason.includes(THREAD));
const tainted = (label: string): Unk => unk(`\`${label}\` is not exact for every warp${THREAD}`);

/** The smallest and largest value over every lane and every value of the thread coordinates (null: not exact). */
export function boxRange(v: Lanes, s: Sym | null, mask?: Uint8Array): { lo: number; hi: number } | null {
  let lo = Infinity, hi = -Infinity;
  if (typeof v === 'number') lo = hi = v;
  else
    for (let i = 0; i < v.length; i++) {
      if (mask && !mask[i]) continue;
      const x = v[i];
      if (x !== x) return null;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  if (s)
    for (const k in s) {
      if (k.charCodeAt(0) !== 2) continue;
      const c = s[k] * maxOf(k);
      if (c > 0) hi += c;
      else lo += c;
    }
  return { lo, hi };
}
function fits(r: { lo: number; hi: number } | null, t: CType): boolean {
  if (!r || t.kind !== 'int') return false;
  if (t.bytes >= 8) return t.signed ? r.lo >= -Number.MAX_SAFE_INTEGER && r.hi <= Number.MAX_SAFE_INTEGER : r.lo >= 0 && r.hi <= Number.MAX_SAFE_INTEGER;
  const bits = t.bytes * 8;
  return t.signed ? r.lo >= -(2 ** (bits - 1)) && r.hi < 2 ** (bits - 1) : r.lo >= 0 && r.hi < 2 ** bits;
}
const exact = (r: Num, label: string): Value => (fits(boxRange(r.v, r.sym), r.t) ? r : tainted(label));

/**
 * An operator with a thread coordinate of warp mode in an operand: exact where the result stays linear in the
 * coordinates (sums, products and shifts by a uniform amount, and division, remainder and masks by a uniform amount
 * that divides every coefficient, for values that are never negative) and in the range of its type.
 */
function threadBinary(op: string, a: Num, b: Num, t: CType, label: string, mask: Uint8Array | null): Value {
  if (CMP.has(op)) {
    // a comparison with an unknown uniform value (`tid >= n`) is unknown on every warp, for that value alone: the
    // same reason as for the whole block, which never sees the coordinates
    const as = withoutThread(a.sym), bs = withoutThread(b.sym);
    return as || bs ? unk(`\`${label}\` depends on the unknown warp-uniform value \`${symText((as ?? bs)!)}\``) : tainted(label);
  }
  if (t.kind !== 'int' || a.t.kind !== 'int' || b.t.kind !== 'int') return tainted(label);
  if (op === '+' || op === '-') return exact(num(map2(a.v, b.v, op === '+' ? (x, y) => x + y : (x, y) => x - y), t, addSym(a.sym, b.sym, op === '+' ? 1 : -1)), label);
  if (op === '*' && !a.sym && isUniform(a.v, mask)) return exact(num(map2(a.v, b.v, (x, y) => x * y), t, scaleSym(b.sym, laneAt(a.v, firstActive(mask)))), label);
  if (b.sym || !isUniform(b.v, mask)) return tainted(label);
  const d = laneAt(b.v, firstActive(mask));
  if (op === '*') return exact(num(map1(a.v, (x) => x * d), t, scaleSym(a.sym, d)), label);
  if (op === '<<') return d >= 0 && d < 31 ? exact(num(map1(a.v, (x) => x * 2 ** d), t, scaleSym(a.sym, 2 ** d)), label) : tainted(label);
  const div = op === '>>' ? (d >= 0 && d < 31 ? 2 ** d : 0) : op === '&' ? (d > 0 && d < 2 ** 31 && (d & (d + 1)) === 0 ? d + 1 : 0) : op === '/' || op === '%' ? d : 0;
  if (!(div > 0 && Number.isInteger(div))) return tainted(label);
  const r = boxRange(a.v, a.sym);
  if (!r || r.lo < 0) return tainted(label);
  for (const k in a.sym) if (k.charCodeAt(0) !== 2 || a.sym[k] % div !== 0) return tainted(label);
  const quotient = op === '/' || op === '>>';
  return exact(num(map1(a.v, quotient ? (x) => Math.floor(x / div) : (x) => x - div * Math.floor(x / div)), t, quotient ? scaleSym(a.sym, 1 / div) : null), label);
}

/** A fresh warp-uniform unknown (kernel parameter, blockIdx, a uniform value we cannot compute). */
export const atom = (name: string, t: CType = INT): Num => num(0, t, { [name]: 1 });

/**
 * Binary operator on numbers. `label` names the expression (used for a new uniform unknown when both operands are
 * warp-uniform but the operator is not additive).
 */
/** A label for messages: the expression's text, computed only when a message needs it. */
export type Label = string | (() => string);
const text = (l: Label) => (typeof l === 'string' ? l : l());

export function binary(op: string, a: Value, b: Value, labelArg: Label, mask: Uint8Array | null): Value {
  let labelText: string | null = null;
  const label = { toString: () => (labelText ??= text(labelArg)) } as unknown as string;
  if (a.k === 'unk' || b.k === 'unk') {
    if (op === '&' && ((a.k === 'unk' && a.notOf) || (b.k === 'unk' && b.notOf))) {
      const r = andNot(a, b, label, mask);
      if (r) return r;
    }
    const u = a.k === 'unk' ? a : (b as Unk);
    if (!u.uniform) return u;
    // still the same on every thread only where the other operand is
    const o = a.k === 'unk' ? b : a;
    const same = o.k === 'unk' ? !!o.uniform : o.k === 'num' && !hasThread(o.sym) && isUniform(o.v, mask);
    return same ? u : unk(u.reason);
  }
  if (a.k !== 'num' || b.k !== 'num') return unk(`\`${label}\` is not integer arithmetic`);
  const cmp = CMP.has(op);
  const t = cmp ? INT : op === '<<' || op === '>>' ? promote(a.t, INT) : promote(a.t, b.t);
  if (a.sym || b.sym) {
    // `i < base + 20` with `i = base + threadIdx.x` (a tile's halo loop, `for (i = h; i < h_base + W; i += T)`, a
    // guard `gx >= base && gx < base + TILE`): the same warp-uniform unknowns on both sides cancel, so the comparison
    // is that of what is left (known numbers, and warp mode's thread coordinates). An order (`<`, `>=`) only in a
    // signed compare, where the sums cannot wrap (signed overflow is undefined); an unsigned one could, and stays
    // unknown. `==` and `!=` hold modulo the type's width, wrap or not (`idx == blockIdx.x * blockDim.x`)
    if (cmp && op !== '&&' && op !== '||' && a.sym && b.sym && !wrapKey(a.sym) && !wrapKey(b.sym)) {
      const ct = promote(a.t, b.t);
      const common = ct.kind === 'int' && (ct.signed || op === '==' || op === '!=') ? cancelled(a.sym, b.sym) : null;
      if (common) return binary(op, { ...a, sym: common.a }, { ...b, sym: common.b }, labelArg, mask);
    }
    if (a.sym && !b.sym && (op === '%' || op === '/' || op === '&' || op === '>>') && isInt(t)) {
      const r = dropMultiples(op, a, b, t, labelArg, mask);
      if (r) return r;
    }
    const wrapped = wrapKey(a.sym) ?? wrapKey(b.sym);
    if (wrapped) {
      // a remainder that wraps on some lanes (see remainder()) is followed through sums, differences and products
      // with a known uniform factor only: each keeps it `lanes + c * U` less `c * M` on the lanes past the wrap
      const bU = !b.sym && isUniform(b.v, mask);
      const linear = op === '+' || op === '-' || (op === '*' && (bU || (!a.sym && isUniform(a.v, mask)))) || (op === '<<' && bU);
      const what = wrapOf(wrapped)!.label;
      if ((op === '%' || op === '&') && wrapped === wrapKey(a.sym) && bU && !hasThread(a.sym) && isInt(t)) {
        const r = rewrap(op, a, b, t, String(label), mask, wrapped);
        if (r) return r;
      }
      if (!linear) return unk(`\`${label}\` ${cmp ? 'compares' : `applies \`${op}\` to`} \`${what}\`, which wraps around on the lanes past a place not known: not followed`);
      if (op === '+' || op === '-') {
        const r = hasThread(a.sym) || hasThread(b.sym) ? threadBinary(op, a, b, t, String(label), mask) : num(map2(a.v, b.v, op === '+' ? (x, y) => x + y : (x, y) => x - y), t, addSym(a.sym, b.sym, op === '+' ? 1 : -1));
        // the per-lane part cancelled (`(h + t) % 64 - t`): what is left differs between lanes by the wrap alone
        if (r.k === 'num' && wrapKey(r.sym) && isUniform(r.v, mask)) return unk(`\`${label}\` cancels the lanes' part of \`${what}\`: what is left differs between lanes by where it wraps, which is not known`);
        return r;
      }
    } else if (a.sym && !b.sym && (op === '%' || op === '&') && isInt(t) && !hasThread(a.sym)) {
      const r = op === '&' ? lowBitsSet(op, a, b, t, String(label), mask) ?? remainder(op, a, b, t, String(label), mask) : remainder(op, a, b, t, String(label), mask);
      if (r) return r;
    } else if ((op === '|' || op === '&') && isInt(t) && (a.sym ? !b.sym && !hasThread(a.sym) : !!b.sym && !hasThread(b.sym))) {
      const r = a.sym ? lowBitsSet(op, a, b, t, String(label), mask) : lowBitsSet(op, b, a, t, String(label), mask);
      if (r) return r;
    }
    if (hasThread(a.sym) || hasThread(b.sym)) return threadBinary(op, a, b, t, String(label), mask);
    const aU = isUniform(a.v, mask);
    const bU = isUniform(b.v, mask);
    if (op === '+' || op === '-') {
      const v = map2(a.v, b.v, op === '+' ? (x, y) => x + y : (x, y) => x - y);
      return num(v, t, addSym(a.sym, b.sym, op === '+' ? 1 : -1));
    }
    if (op === '*' && !a.sym && aU) return num(map2(a.v, b.v, (x, y) => x * y), t, scaleSym(b.sym, laneAt(a.v, firstActive(mask))));
    if (op === '*' && !b.sym && bU) return num(map2(a.v, b.v, (x, y) => x * y), t, scaleSym(a.sym, laneAt(b.v, firstActive(mask))));
    if (op === '<<' && !b.sym && bU) {
      const s = laneAt(b.v, firstActive(mask));
      if (s >= 0 && s < 31) return num(map1(a.v, (x) => x * 2 ** s), t, scaleSym(a.sym, 2 ** s));
    }
    if (aU && bU && !cmp) return atom(String(label), t);
    // `warpId * C`, `threadIdx.y * C` in a block 32 wide, `(2 * blockIdx.x + warpId) % n`: one value in each warp, so,
    // like a uniform unknown, an offset that rotates each warp's banks (rule 6); warps are cut 32 threads at a time
    // from the linear thread id
    if (!cmp && isWarpUniform(a.v, mask) && isWarpUniform(b.v, mask)) return atom(String(label), t);
    if (cmp) {
      const r = unk(`\`${label}\` depends on the unknown warp-uniform value \`${symText(a.sym ?? b.sym!)}\``);
      return aU && bU ? { ...r, uniform: true } : r;
    }
    // the unknown that meets the lanes' values: the operand that is one value (`c / groups`: `groups`, not the
    // uniform part of the per-lane `c`)
    const which = symText(b.sym && bU && !aU ? b.sym : a.sym && aU && !bU ? a.sym : a.sym ?? b.sym!);
    return unk(`\`${label}\` combines the unknown warp-uniform value \`${which}\` with per-lane values`);
  }
  if (t.kind === 'int' && a.t.kind === 'int' && b.t.kind === 'int') {
    const fast = fastInt(op, a, b, t);
    if (fast) return fast;
  }
  let f: (x: number, y: number) => number;
  let divZero = false;
  let badShift = false;
  const bits = t.kind === 'int' ? t.bytes * 8 : 32;
  switch (op) {
    case '+': f = (x, y) => x + y; break;
    case '-': f = (x, y) => x - y; break;
    case '*': f = t.kind === 'int' && t.bytes === 4 ? (x, y) => Math.imul(x, y) : (x, y) => x * y; break;
    case '/':
      f = (x, y) => {
        if (y === 0) { divZero = true; return NaN; }
        return t.kind === 'float' ? x / y : Math.trunc(x / y);
      };
      break;
    case '%':
      f = (x, y) => {
        if (y === 0) { divZero = true; return NaN; }
        return x % y;
      };
      break;
    case '<<':
      f = (x, y) => {
        if (y < 0 || y >= bits) { badShift = true; return NaN; }
        return x * 2 ** y;
      };
      break;
    case '>>':
      f = (x, y) => {
        if (y < 0 || y >= bits) { badShift = true; return NaN; }
        return Math.floor(x / 2 ** y);
      };
      break;
    case '&': f = bitop((x, y) => x & y); break;
    case '|': f = bitop((x, y) => x | y); break;
    case '^': f = bitop((x, y) => x ^ y); break;
    case '<': f = (x, y) => +(x < y); break;
    case '>': f = (x, y) => +(x > y); break;
    case '<=': f = (x, y) => +(x <= y); break;
    case '>=': f = (x, y) => +(x >= y); break;
    case '==': f = (x, y) => +(x === y); break;
    case '!=': f = (x, y) => +(x !== y); break;
    case '&&': f = (x, y) => +(x !== 0 && y !== 0); break;
    case '||': f = (x, y) => +(x !== 0 || y !== 0); break;
    default:
      return unk(`operator \`${op}\` is not evaluated`);
  }
  if ((op === '&' || op === '|' || op === '^' || op === '%' || op === '<<' || op === '>>') && (!isInt(a.t) || !isInt(b.t)))
    return unk(`\`${label}\` applies \`${op}\` to a floating-point value`);
  // compare in the promoted type (unsigned comparisons of negative ints wrap)
  const logic = op === '&&' || op === '||';
  const ct = cmp && !logic ? promote(a.t, b.t) : t;
  const va = logic ? a.v : convertNum(a, ct).v;
  const vb = logic ? b.v : convertNum(b, ct).v;
  const rt = cmp ? INT : t;
  let bad = false;
  let v: Lanes;
  if (typeof va === 'number' && typeof vb === 'number') {
    v = wrap(f(va, vb), rt);
    bad = Number.isNaN(v);
  } else {
    const n = typeof va === 'number' ? (vb as Float64Array).length : va.length;
    const out = new Float64Array(n);
    const sa = typeof va === 'number', sb = typeof vb === 'number';
    for (let i = 0; i < n; i++) {
      const x = wrap(f(sa ? (va as number) : (va as Float64Array)[i], sb ? (vb as number) : (vb as Float64Array)[i]), rt);
      out[i] = x;
      if (x !== x && (!mask || mask[i])) bad = true;
    }
    v = out;
  }
  if (divZero && bad) return unk(`\`${label}\` divides by zero for some lane`);
  if (badShift && bad) return unk(`\`${label}\` shifts by a negative count or past the width of the type`);
  if (bad) return unk(`\`${label}\` overflows the range that can be evaluated exactly`);
  return num(v, rt);
}

/**
 * `x & ~m` where `~m` is a 64-bit unsigned complement a double cannot hold (an Unk with `notOf`, made by unary()):
 * the align-up idiom `(off + 15) & ~size_t(15)`, `(x + a - 1) & ~(a - 1)`. It is `x - (x & m)`, exact for known
 * lanes; for a warp-uniform unknown `x` a warp-uniform unknown of its own (like any uniform operator of uniform
 * values); `~m1 & ~m2` is `~(m1 | m2)`. Null where neither holds (the operand's reason stands).
 */
function andNot(a: Value, b: Value, label: string, mask: Uint8Array | null): Value | null {
  if (a.k === 'unk' && a.notOf && b.k === 'unk' && b.notOf) {
    const m = binary('|', a.notOf, b.notOf, label, mask);
    return m.k === 'num' ? { ...a, notOf: m } : null;
  }
  const [u, o] = a.k === 'unk' && a.notOf ? [a, b] : [b as Unk, a];
  if (o.k !== 'num' || !isInt(o.t)) return null;
  const m = u.notOf!;
  const t = promote(o.t, m.t);
  if (o.sym) return !hasThread(o.sym) && isUniform(o.v, mask) && !wrapKey(o.sym) ? atom(label, t) : null;
  const x = convertNum(o, t);
  if (hasNaN(x.v, mask)) return null;
  const low = binary('&', x, m, label, mask);
  if (low.k !== 'num') return null;
  const r = binary('-', x, low, label, mask);
  return r.k === 'num' && !hasNaN(r.v, mask) ? r : null;
}

/** The integer fast path alone (null where binary() must decide): its result depends on the operands only. */
export function fastBinary(op: string, a: Num, b: Num): Num | null {
  if (a.sym || b.sym || a.t.kind !== 'int' || b.t.kind !== 'int') return null;
  return fastInt(op, a, b, promote(a.t, b.t));
}

/**
 * The hot path: integer operators that cannot fail, as plain loops (no per-lane closure, one allocation).
 * Returns null where the general path must decide (64-bit overflow, division, shifts, mixed signedness compares).
 */
function fastInt(op: string, a: Num, b: Num, t: CType): Num | null {
  const cmp = op === '<' || op === '>' || op === '<=' || op === '>=' || op === '==' || op === '!=';
  const ct = cmp ? promote(a.t, b.t) : t;
  if (ct.kind !== 'int') return null;
  const va = convertNum(a, ct).v, vb = convertNum(b, ct).v;
  const n = typeof va === 'number' ? (typeof vb === 'number' ? 0 : vb.length) : va.length;
  const i32 = ct.bytes === 4;
  const signed = ct.signed;
  const one = (x: number, y: number): number => {
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return i32 ? Math.imul(x, y) : x * y;
      case '&': return i32 ? x & y : NaN;
      case '|': return i32 ? x | y : NaN;
      case '^': return i32 ? x ^ y : NaN;
      case '<': return +(x < y);
      case '>': return +(x > y);
      case '<=': return +(x <= y);
      case '>=': return +(x >= y);
      case '==': return +(x === y);
      case '!=': return +(x !== y);
      default: return NaN;
    }
  };
  if (!'+-*&|^'.includes(op) && !cmp) return null;
  if (!i32 && (op === '&' || op === '|' || op === '^')) return null;
  const fix = (x: number) => (cmp ? x : i32 ? (signed ? x | 0 : x >>> 0) : x);
  if (n === 0) {
    const r = fix(one(va as number, vb as number));
    if (!i32 && !cmp && (!Number.isSafeInteger(r) || (!signed && r < 0))) return null;
    return num(r, cmp ? INT : ct);
  }
  // x + 0, x - 0, x * 1: the operand itself (values are never written after they are made)
  if (typeof vb === 'number' && ((vb === 0 && (op === '+' || op === '-')) || (vb === 1 && op === '*')) && !cmp) {
    if (!i32 || (signed ? isI32(va as Float64Array) : isU32(va as Float64Array))) return num(va, ct);
  }
  const out = new Float64Array(n);
  const A = typeof va === 'number' ? null : va, B = typeof vb === 'number' ? null : vb;
  const sa = va as number, sb = vb as number;
  if (i32 && !cmp && (op === '+' || op === '-' || op === '*')) {
    // the hottest operators: one loop per operand shape (the 32-bit wrap follows below)
    if (A && B) {
      if (op === '+') for (let i = 0; i < n; i++) out[i] = A[i] + B[i];
      else if (op === '-') for (let i = 0; i < n; i++) out[i] = A[i] - B[i];
      else for (let i = 0; i < n; i++) out[i] = Math.imul(A[i], B[i]);
    } else if (A) {
      if (op === '+') for (let i = 0; i < n; i++) out[i] = A[i] + sb;
      else if (op === '-') for (let i = 0; i < n; i++) out[i] = A[i] - sb;
      else for (let i = 0; i < n; i++) out[i] = Math.imul(A[i], sb);
    } else {
      if (op === '+') for (let i = 0; i < n; i++) out[i] = sa + B![i];
      else if (op === '-') for (let i = 0; i < n; i++) out[i] = sa - B![i];
      else for (let i = 0; i < n; i++) out[i] = Math.imul(sa, B![i]);
    }
  } else if (!cmp && (op === '+' || op === '-')) {
    // 64-bit sums and differences: the exactness check in the same loop
    const lim = Number.MAX_SAFE_INTEGER;
    const lo = signed ? -lim : 0;
    let ok = true;
    if (A && B) {
      if (op === '+') for (let i = 0; i < n; i++) { const x = A[i] + B[i]; out[i] = x; if (x > lim || x < lo) ok = false; }
      else for (let i = 0; i < n; i++) { const x = A[i] - B[i]; out[i] = x; if (x > lim || x < lo) ok = false; }
    } else if (A) {
      const y = op === '+' ? sb : -sb;
      for (let i = 0; i < n; i++) { const x = A[i] + y; out[i] = x; if (x > lim || x < lo) ok = false; }
    } else if (op === '+') for (let i = 0; i < n; i++) { const x = sa + B![i]; out[i] = x; if (x > lim || x < lo) ok = false; }
    else for (let i = 0; i < n; i++) { const x = sa - B![i]; out[i] = x; if (x > lim || x < lo) ok = false; }
    return ok ? num(out, ct) : null;
  } else
    switch (op) {
      case '*': for (let i = 0; i < n; i++) out[i] = (A ? A[i] : sa) * (B ? B[i] : sb); break; // 64-bit: checked below
      case '&': for (let i = 0; i < n; i++) out[i] = (A ? A[i] : sa) & (B ? B[i] : sb); break;
      case '|': for (let i = 0; i < n; i++) out[i] = (A ? A[i] : sa) | (B ? B[i] : sb); break;
      case '^': for (let i = 0; i < n; i++) out[i] = (A ? A[i] : sa) ^ (B ? B[i] : sb); break;
      default: for (let i = 0; i < n; i++) out[i] = one(A ? A[i] : sa, B ? B[i] : sb);
    }
  if (!cmp) {
    if (i32) {
      if (signed) for (let i = 0; i < n; i++) out[i] = out[i] | 0;
      else for (let i = 0; i < n; i++) out[i] = out[i] >>> 0;
    } else if (!(signed && small(a, va) && small(b, vb) && (op !== '*' || typeof va === 'number' || typeof vb === 'number'))) {
      // 64-bit: exact unless a value left the doubles' integer range; a sum of two 32-bit values, or a product of
      // one with a scalar under 2^21, cannot get there
      for (let i = 0; i < n; i++) {
        const x = out[i];
        if (x > Number.MAX_SAFE_INTEGER || x < -Number.MAX_SAFE_INTEGER || (!signed && x < 0)) return null;
      }
    }
  }
  return num(out, cmp ? INT : ct);
}

const isI32 = (v: Float64Array) => {
  for (let i = 0; i < v.length; i++) if ((v[i] | 0) !== v[i]) return false;
  return true;
};
const isU32 = (v: Float64Array) => {
  for (let i = 0; i < v.length; i++) if (v[i] >>> 0 !== v[i]) return false;
  return true;
};

/** true when every value fits in 32 bits (a 32-bit type, or a scalar that small): sums and products stay exact. */
function small(x: Num, v: Lanes): boolean {
  if (typeof v === 'number') return Math.abs(v) < 2 ** 21;
  return x.t.kind === 'int' && x.t.bytes <= 4;
}

function bitop(f: (x: number, y: number) => number): (x: number, y: number) => number {
  return (x, y) => {
    if (Math.abs(x) < 2 ** 31 && Math.abs(y) < 2 ** 31) return f(x, y);
    if (x >= 0 && y >= 0 && x < 2 ** 32 && y < 2 ** 32) return f(x | 0, y | 0) >>> 0;
    // 64-bit: split in halves
    const hx = Math.floor(x / 2 ** 32), lx = x - hx * 2 ** 32;
    const hy = Math.floor(y / 2 ** 32), ly = y - hy * 2 ** 32;
    return (f(hx | 0, hy | 0)) * 2 ** 32 + (f(lx | 0, ly | 0) >>> 0);
  };
}

/** Warp-uniform unknowns that are never negative: a block's index, the grid's extent, a count of a loop's passes. */
const NON_NEGATIVE = /^(blockIdx|gridDim)\.[xyz]$|^passes of \S+$/;
export const isNonNegative = (key: string): boolean => NON_NEGATIVE.test(key);

/** The greatest common divisor of two integers (never negative; gcd(0, n) = |n|). */
export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** How many passes of the loop at `line` came before, in a loop of unknown trip count that steps `name`: never negative. */
export const passCount = (name: string, line: number, t: CType): Num => atom(`passes of ${name}@${line}`, t);

/**
 * `(256 * blockIdx.x + threadIdx.x) % 32`, `& 31`, `/ 32`, `>> 5`: the terms of the warp-uniform unknowns whose
 * coefficients are multiples of the divisor (of the power of two above the mask) do not change the remainder or the
 * low bits, and divide exactly: they are set aside, the rest is evaluated, and a quotient gets them back divided.
 * `&` and `>>` are exact on any integer (two's complement, `>>` rounds down). `%` and `/` round toward zero, so the
 * value must not be negative: unsigned with a power-of-two divisor, or unknowns that are never negative (blockIdx,
 * gridDim) with positive coefficients added to lanes that are not negative. Null when nothing can be set aside.
 */
function dropMultiples(op: string, a: Num, b: Num, t: CType, labelArg: Label, mask: Uint8Array | null): Value | null {
  if (!isUniform(b.v, mask)) return null;
  const m = laneAt(b.v, firstActive(mask));
  if (!Number.isSafeInteger(m)) return null;
  let unit: number;
  if (op === '&') {
    if (m < 0) return null;
    unit = 1;
    while (unit <= m) unit *= 2;
  } else if (op === '>>') {
    if (m < 0 || m > 52) return null;
    unit = 2 ** m;
  } else {
    if (m <= 0) return null;
    unit = m;
  }
  const division = op === '%' || op === '/';
  const wraps = t.kind === 'int' && !t.signed && (unit & (unit - 1)) === 0 && unit <= 2 ** 31;
  const needSign = division && !wraps;
  let dropped: Sym | null = null;
  let rest: Sym | null = null;
  for (const k in a.sym!) {
    const c = a.sym![k];
    const code = k.charCodeAt(0);
    const ok = code !== 0 && code !== 2 && c % unit === 0 && (!needSign || (c > 0 && NON_NEGATIVE.test(k)));
    if (ok) (dropped ??= {})[k] = c;
    else (rest ??= {})[k] = c;
  }
  if (!dropped) return null;
  if (needSign) {
    // the rest: lanes not negative, thread coordinates (never negative) with coefficients that are not either
    for (const k in rest ?? {}) if (k.charCodeAt(0) !== 2 || rest![k] < 0) return null;
    const v = a.v;
    if (typeof v === 'number') {
      if (v < 0) return null;
    } else for (let i = 0; i < v.length; i++) if ((!mask || mask[i]) && v[i] < 0) return null;
  }
  const r = binary(op, num(a.v, a.t, rest), b, labelArg, mask);
  if (op === '%' || op === '&' || r.k !== 'num') return r;
  return num(r.v, r.t, addSym(r.sym, scaleSym(dropped, 1 / unit)));
}

/**
 * `x | (M - 1)` and `x & ~(M - 1)` (`x & -M`), M a power of two, with `x = S + v` (`S` a sum of warp-uniform unknowns,
 * `v` known per lane): x with its low bits set, or cleared. Sobol's `(i - stride) | (stride - 1)` in a grid-stride loop.
 * As in remainder(), x = (S - U) + (v - f) + (U + f), f = v mod M, U = S mod M a multiple of g = gcd(M, S's
 * coefficients), so U <= M - g. Where every active lane has f < g, U + f < M for every value of U: no lane carries
 * into the high bits, and x with its low bits cleared is (S - U) + (v - f) on every lane, one warp-uniform unknown
 * (S itself where g = M) plus what is known per lane; `|` adds M - 1. Null where some lane may carry (left to the
 * usual reasons).
 */
function lowBitsSet(op: string, a: Num, b: Num, t: CType, label: string, mask: Uint8Array | null): Value | null {
  if (!isUniform(b.v, mask) || t.kind !== 'int' || hasNaN(a.v, mask)) return null;
  const m = laneAt(b.v, firstActive(mask));
  if (!Number.isSafeInteger(m)) return null;
  const pow2 = (x: number) => x > 1 && x <= 2 ** 31 && 2 ** Math.round(Math.log2(x)) === x;
  const M = op === '|' ? m + 1 : -m;
  if (!pow2(M)) return null;
  const s = a.sym!;
  let g = M;
  for (const k in s) {
    if (k.charCodeAt(0) === 0 || k.charCodeAt(0) === 2 || !Number.isSafeInteger(s[k])) return null;
    g = gcd(g, Math.abs(s[k]));
  }
  const f = map1(a.v, (x) => x - M * Math.floor(x / M));
  const fs = typeof f === 'number' ? [f] : f;
  for (let i = 0; i < fs.length; i++) if ((!mask || typeof f === 'number' || mask[i]) && fs[i] >= g) return null;
  const low = map2(a.v, f, (x, y) => x - y + (op === '|' ? M - 1 : 0));
  // g = M: U = 0, the unknowns are kept as they are; else S - U is a value of its own, the same on every lane
  return g === M ? num(low, t, s) : binary('+', atom(`${label} (its bits above the lowest ${Math.log2(M)})`, t), num(low, t), label, mask);
}

/**
 * A remainder of a sum that wraps (`(head + threadIdx.x) % 64`, `(base + tid) & 63`, `i % 4096` in a grid-stride
 * loop): `x = S + v`, `S` a sum of warp-uniform unknowns, `v` known per lane, `M` a known modulus (`& m`: M = m + 1, a
 * power of two).
 *
 * Claim: where `x % M` (or `x & (M - 1)`) is the floor remainder of `x` (see below), it is, on every lane,
 *     r(lane) = f(lane) + U - M * k(lane),   f = v mod M in [0, M),  U = S mod M in [0, M),  k = [f + U >= M].
 * Proof: S + v = (S - U) + (v - f) + (U + f) with S - U and v - f multiples of M, and 0 <= U + f < 2M, so the floor
 * remainder is U + f, less M where U + f >= M. U is a multiple of g = gcd(M, the coefficients of S).
 * The value made here is `f` per lane plus one warp-uniform unknown for U (a key of its own, see wrapOf): linear
 * arithmetic keeps the form (`c * r + d` is `c * f + d + c * U - c * M * k`), and the access (Interp.record) checks,
 * for every pattern of k that some U can give, that the lanes past the wrap keep their banks and which of them share
 * a word: then the figures are those of `f` and any value of U (bank model rules 1, 2 and 6).
 *
 * When it is the floor remainder: `&` of an integer in two's complement, always (the type's wrap at 2^32 or 2^64 is
 * a multiple of M); C's `%` rounds toward zero, so only for a dividend never negative that no wrap of its type
 * disturbs: unsigned with M a power of two (at most 2^31), or signed (overflow undefined) with unknowns that are never
 * negative (blockIdx, gridDim, a loop's pass count) with positive coefficients and lanes not negative. Anything else
 * is `unknown`, saying which condition fails; null where the usual reasons apply (an unknown address, NaN lanes).
 */
function remainder(op: string, a: Num, b: Num, t: CType, label: string, mask: Uint8Array | null, nonNeg?: string): Value | null {
  if (!isUniform(b.v, mask) || t.kind !== 'int' || typeof a.v === 'number' || hasNaN(a.v, mask)) return null;
  const m = laneAt(b.v, firstActive(mask));
  const pow2 = (x: number) => x > 0 && Number.isSafeInteger(x) && 2 ** Math.round(Math.log2(x)) === x;
  const s = a.sym!;
  for (const k in s) if (k.charCodeAt(0) === 0 || !Number.isSafeInteger(s[k])) return null;
  const unknownPart = symText(s);
  let M: number, why: string;
  if (op === '&') {
    if (!pow2(m + 1)) return m > 0 && Number.isSafeInteger(m) ? unk(`\`${label}\` masks \`${unknownPart}\` with ${m}, not one less than a power of two: the bits it keeps above the lowest ones are not followed`) : null;
    M = m + 1;
    why = `\`&\` keeps the low bits of any integer`;
  } else {
    if (!(m > 0 && Number.isSafeInteger(m))) return null;
    M = m;
    if (!t.signed) {
      if (!pow2(M) || M > 2 ** 31) return unk(`\`${label}\`: the unsigned dividend may wrap past 2^${t.bytes * 8}, which ${M}, not a power of two, does not divide`);
      why = `the dividend is unsigned and ${M} divides 2^${t.bytes * 8}`;
    } else {
      const neg = Object.keys(s).find((k) => !(s[k] > 0 && (NON_NEGATIVE.test(k) || k === nonNeg)));
      if (neg !== undefined) return unk(`\`${label}\`: \`${symText({ [neg]: s[neg] })}\` may be negative, and \`%\` of a negative value is negative: where the lanes wrap is not known`);
      for (let i = 0; i < a.v.length; i++) if ((!mask || mask[i]) && a.v[i] < 0) return unk(`\`${label}\`: a lane's part is negative, and \`%\` of a negative value is negative: where the lanes wrap is not known`);
      why = `the dividend is never negative: \`${unknownPart}\` is made of block indices, grid extents or pass counts`;
    }
  }
  if (M > 2 ** 31) return null;
  const f = map1(a.v, (x) => x - M * Math.floor(x / M)) as Float64Array;
  if (isUniform(f, mask)) return atom(label, t); // every lane wraps alike: one value on the warp
  let g = M;
  for (const k in s) g = gcd(g, s[k]);
  return num(f, t, { [wrapKeyFor({ label, part: unknownPart, m: M, g, lanes: f, why })]: 1 });
}

/**
 * A remainder of a remainder that wraps (`(slot + k) % 64`, `slot & 31`, with `slot = (head + t) % 64`): the value is
 * `c * r + d`, r = (U + f) mod M as in remainder(), U = S mod M a multiple of g. Where M2 divides c * M, taking it
 * modulo M2 forgets the wrap of r (c * M * k is a multiple of M2), and c * U differs from c * S by a multiple of c * M:
 * so `(c * r + d) mod M2` is the remainder of `c * g * J + (c * f + d)` with J = U / g an unknown never negative, and
 * remainder() applies. `%` of a signed value wants it never negative: c > 0 and d >= 0 on every lane (r >= 0).
 */
function rewrap(op: string, a: Num, b: Num, t: CType, label: string, mask: Uint8Array | null, key: string): Value | null {
  const w = wrapOf(key)!;
  const c = a.sym![key];
  const m = laneAt(b.v, firstActive(mask));
  const M2 = op === '&' ? m + 1 : m;
  if (!Number.isSafeInteger(c) || !(M2 > 0) || !Number.isSafeInteger(M2)) return null;
  if ((c * w.m) % M2 !== 0) return unk(`\`${label}\` takes \`${w.label}\` modulo ${M2}, which does not divide ${Math.abs(c * w.m)}: where the two wrap together is not followed`);
  if (op === '%' && t.kind === 'int' && t.signed) {
    if (c < 0) return null;
    const v = a.v;
    for (let i = 0; i < w.lanes.length; i++) if ((!mask || mask[i]) && laneAt(v, i) - c * w.lanes[i] < 0) return null;
  }
  const j = `${w.part} % ${w.m}${w.g > 1 ? ` / ${w.g}` : ''}`;
  const sym: Sym = {};
  for (const k in a.sym!) if (k !== key) sym[k] = a.sym![k];
  if (j in sym) return null;
  sym[j] = c * w.g;
  return remainder(op, num(a.v, a.t, sym), b, t, label, mask, j);
}

/** A remainder that wraps (see remainder()): its text, modulus, the step of its uniform part, the lanes' part. */
export interface Wrap {
  label: string;
  /** the text of the warp-uniform part of the dividend (`head`) */
  part: string;
  m: number;
  g: number;
  lanes: Float64Array;
  why: string;
}
// keys start with \u0003; the same remainder of the same lanes is the same key (so `r - r` cancels, and a run
// repeated gives the same values)
const wrapKeys = new Map<string, string>();
const wrapInfo = new Map<string, Wrap>();
function wrapKeyFor(w: Wrap): string {
  const content = `${w.label}\u0003${w.part}\u0003${w.m}\u0003${w.g}\u0003${w.why}\u0003${w.lanes.join(',')}`;
  let key = wrapKeys.get(content);
  if (!key) {
    key = `\u0003${w.label}\u0003${wrapKeys.size}`;
    wrapKeys.set(content, key);
    wrapInfo.set(key, w);
  }
  return key;
}
export const wrapOf = (key: string): Wrap | undefined => wrapInfo.get(key);
/** The first key of a remainder that wraps in `s`, if any. */
export function wrapKey(s: Sym | null): string | undefined {
  if (s) for (const k in s) if (k.charCodeAt(0) === 3) return k;
  return undefined;
}

function firstActive(mask: Uint8Array | null): number {
  if (!mask) return 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) return i;
  return 0;
}

export function unary(op: string, a: Value, labelArg: Label, mask: Uint8Array | null): Value {
  const label = text(labelArg);
  if (a.k !== 'num') return a.k === 'unk' ? a : unk(`\`${label}\` is not integer arithmetic`);
  if (hasThread(a.sym)) {
    if (op === '+') return a;
    if (op === '-') return exact(num(map1(a.v, (x) => -x), promote(a.t, INT), scaleSym(a.sym, -1)), label);
    return tainted(label);
  }
  if (a.sym) {
    if (op === '-') return num(map1(a.v, (x) => -x), a.t, scaleSym(a.sym, -1));
    if (op === '+') return a;
    const w = wrapKey(a.sym);
    if (w) return unk(`\`${label}\` applies \`${op}\` to \`${wrapOf(w)!.label}\`, which wraps around on the lanes past a place not known: not followed`);
    if (isUniform(a.v, mask)) return atom(label, a.t);
    return unk(`\`${label}\` applies \`${op}\` to the unknown warp-uniform value \`${symText(a.sym)}\``);
  }
  const t = op === '!' ? INT : promote(a.t, INT);
  let f: (x: number) => number;
  switch (op) {
    case '-': f = (x) => -x; break;
    case '+': f = (x) => x; break;
    case '!': f = (x) => +(x === 0); break;
    case '~':
      if (!isInt(a.t)) return unk(`\`${label}\` applies \`~\` to a floating-point value`);
      f = (x) => -x - 1;
      break;
    default:
      return unk(`operator \`${op}\` is not evaluated`);
  }
  const v = map1(convertNum(a, t).v, (x) => wrap(f(x), t));
  if (hasNaN(v, mask)) {
    const u = unk(`\`${label}\` overflows the range that can be evaluated exactly`);
    // ~m of a 64-bit unsigned m: kept as m, for `x & ~m` (andNot)
    if (op === '~' && t.kind === 'int' && t.bytes === 8 && !t.signed && !hasNaN(convertNum(a, t).v, mask)) u.notOf = convertNum(a, t);
    return u;
  }
  return num(v, t);
}

/** Converts a number to type t (C casts and implicit conversions). */
export function convert(a: Num, t: CType): Value {
  if (!hasThread(a.sym) || a.t === t) return convertNum(a, t);
  if (t.kind !== 'int' || a.t.kind !== 'int') return t.kind === 'float' ? tainted('a conversion to floating point') : a;
  return exact(num(a.v, t, a.sym), 'an integer conversion');
}

function convertNum(a: Num, t: CType): Num {
  if (t.kind !== 'int' && t.kind !== 'float') return a;
  if (a.t === t) return a;
  // widening that keeps every value: no work
  if (t.kind === 'int' && a.t.kind === 'int' && t.bytes >= a.t.bytes && (t.signed === a.t.signed || (t.signed && t.bytes > a.t.bytes)))
    return { k: 'num', t, v: a.v, sym: a.sym };
  if (t.kind === 'float' && a.t.kind === 'float' && t.bytes >= a.t.bytes) return { k: 'num', t, v: a.v, sym: a.sym };
  if (a.sym) return num(a.v, t, a.sym);
  if (t.kind === 'int' && a.t.kind === 'float') return num(map1(a.v, (x) => wrap(Math.trunc(x), t)), t);
  return num(map1(a.v, (x) => wrap(x, t)), t);
}

export function truthy(a: Num, i: number): boolean {
  return laneAt(a.v, i) !== 0;
}

/** Per-thread select: mask ? a : b (for assignments under divergent control flow). */
export function select(mask: Uint8Array | null, a: Value, b: Value | undefined, n: number): Value {
  if (!mask || !b) return a;
  let all = true;
  let none = true;
  for (let i = 0; i < n; i++) {
    if (mask[i]) none = false;
    else all = false;
  }
  if (all) return a;
  if (none) return b;
  if (a.k === 'num' && b.k === 'num') {
    const symEq = JSON.stringify(a.sym) === JSON.stringify(b.sym);
    if (!symEq) return unk(`a variable holds different unknown values on different lanes${hasThread(a.sym) || hasThread(b.sym) ? THREAD : ''}`);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = mask[i] ? laneAt(a.v, i) : laneAt(b.v, i);
    return num(out, a.t, a.sym);
  }
  if (a.k === 'ptr' && b.k === 'ptr' && a.base === b.base) {
    const off = select(mask, a.off, b.off, n);
    if (off.k === 'num') return { ...a, off };
  }
  // each warp's lanes all take the same one (`(threadIdx.x / 32) & 1 ? a : b`, over the whole block)
  let perWarp = true;
  for (let i = 0; i < n && perWarp; i++) if (mask[i] !== mask[i - (i % 32)]) perWarp = false;
  const either = a.k === 'ptr' && b.k === 'ptr' && perWarp ? eitherPointer(a, b, 'a pointer each warp picks', null) : null;
  if (either) return either;
  if (a.k === 'ptr' && b.k === 'ptr' && a.base === b.base) return unknownPointer(a, `\`${a.name}\` holds different unknown places on different lanes`);
  // lanes that point into two arrays (`(t & 1) ? a : b`), or into shared memory on some lanes only: the banks depend
  // on where the compiler places the arrays, which the source does not say; what it indexes is still an access of
  // shared memory, reported unknown, not dropped
  if (a.k === 'ptr' || b.k === 'ptr') {
    const [p, q] = a.k === 'ptr' ? [a, b] : [b as Ptr, a];
    return unknownPointer(p, q.k === 'ptr'
      ? `lanes point into \`${p.base.name}\` and into \`${q.base.name}\`: the banks depend on where the compiler places the two arrays`
      : `some lanes point into \`${p.base.name}\` and others not into shared memory`);
  }
  if (a.k === 'unk') return a;
  if (b.k === 'unk') return b;
  return unk('a variable holds values of different kinds on different lanes');
}

export { INT, UINT, LONG, ULONG, FLOAT, DOUBLE };

/** The pack of values `items` (see Other.items), bound under the name `${name}...`. */
export const valuePack = (items: Value[]): Other => ({ k: 'other', what: 'parameter pack', items });
