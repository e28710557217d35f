// Loop collapse: the helpers behind Interp's one-pass evaluation of a simple counted loop (see Interp.tryCollapse).
// A loop such as `for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];` is enumerated iteration by
// iteration; its body does the same thing at each pass, at places that move with `k` alone. The interpreter runs the
// body once with `k` as a warp-uniform unknown, checks that pass against a real iteration, and then, per iteration,
// only puts `k`'s value into the places that pass found: the same accesses, visits and figures, without evaluating
// the expressions again. Anything the pass cannot show to hold for every `k` keeps the loop enumerated.
import type { Node } from '../syntax/parser';
import { named } from '../facts/collect';
import { Num, Value, num } from './values';

/**
 * Statements and expressions a collapsed body may hold: no branch, loop, jump, ternary or lambda, and no call but
 * of the CUDA math functions below (each of those can make an iteration differ from the pass in ways the check in
 * tryCollapse does not see), no initializer list or macro use that heads a statement.
 */
const BODY_NODE = new Set([
  'compound_statement', 'expression_statement', 'comment', 'assignment_expression', 'update_expression', 'binary_expression',
  'unary_expression', 'parenthesized_expression', 'subscript_expression', 'subscript_argument_list', 'identifier',
  'field_identifier', 'field_expression', 'number_literal', 'cast_expression', 'type_descriptor', 'primitive_type',
  'sized_type_specifier', 'type_qualifier', 'declaration', 'init_declarator', 'true', 'false', 'call_expression', 'argument_list',
]);

/** Math functions of CUDA's device library a collapsed body may call (where the file defines no function of the name). */
export const MATH_CALLS = new Set([
  'fmaf', 'fma', '__fmaf_rn', '__fmaf_rz', '__fmul_rn', '__fadd_rn', '__fsub_rn', '__fdividef', '__fdiv_rn', 'fmaxf', 'fminf',
  'fmax', 'fmin', 'max', 'min', 'expf', '__expf', 'exp', 'exp2f', 'sqrtf', 'sqrt', 'rsqrtf', 'fabsf', 'fabs', 'abs', '__saturatef',
  'tanhf', 'sinf', 'cosf', '__sinf', '__cosf', 'logf', '__logf', 'log2f', 'powf', '__powf', '__hmul', '__hadd', '__hfma',
  '__half2float', '__float2half', '__bfloat162float', '__float2bfloat16',
]);

/**
 * Whether a loop body is made only of the statements and expressions above (and has no syntax error); `mathCall`
 * says whether a called name is one of MATH_CALLS that nothing in the file redefines.
 */
export function collapsibleBody(body: Node, mathCall: (name: string) => boolean): boolean {
  if (body.hasError) return false;
  const stack = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (!BODY_NODE.has(n.type) || n.isMissing) return false;
    // a bare name as a statement (`SYNC;`) may be a macro that expands to statements
    if (n.type === 'expression_statement') {
      const e = named(n).filter((c) => c.type !== 'comment');
      if (e.length !== 1 || e[0].type === 'identifier') return false;
    }
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      if (f?.type !== 'identifier' || !mathCall(f.text)) return false;
    }
    for (const c of named(n)) stack.push(c);
  }
  return true;
}

/** One access the body made: the arguments of Interp.access. */
export interface AccessRecord {
  r: { off: Num; bounds: { index: Num; extent: number }[]; flat: string | null } & Record<string, unknown>;
  kind: string;
  exprNode: Node;
  asyncCopy: boolean;
}

/** `n` with the unknown `key` given the value `k`; null where the result leaves the range kept exact (|x| < 2^30). */
export function substitute(n: Num, key: string, k: number): Num | null {
  const c = n.sym?.[key];
  if (c === undefined) return n;
  let rest: Record<string, number> | null = null;
  for (const s in n.sym) if (s !== key) (rest ??= {})[s] = n.sym![s];
  const d = c * k;
  const LIM = 2 ** 30;
  if (!(Math.abs(d) < LIM)) return null;
  if (typeof n.v === 'number') {
    const x = n.v + d;
    return Math.abs(x) < LIM || Number.isNaN(x) ? num(x, n.t, rest) : null;
  }
  const out = new Float64Array(n.v.length);
  for (let i = 0; i < out.length; i++) {
    const x = n.v[i] + d;
    if (Math.abs(x) >= LIM) return null;
    out[i] = x;
  }
  return num(out, n.t, rest);
}

/** An access record with `key` given the value `k` (its place and each bound's index); null as for substitute. */
export function substituteRecord(a: AccessRecord, key: string, k: number): AccessRecord | null {
  const off = substitute(a.r.off, key, k);
  if (!off) return null;
  const bounds: { index: Num; extent: number }[] = [];
  for (const b of a.r.bounds) {
    const index = substitute(b.index, key, k);
    if (!index) return null;
    bounds.push(index === b.index ? b : { ...b, index });
  }
  return { ...a, r: { ...a.r, off, bounds } };
}

const isNode = (x: object): x is Node => 'tree' in x && 'startIndex' in x && typeof (x as { id?: unknown }).id === 'number';

/**
 * Structural equality of evaluator data (values, places, types), NaN equal to NaN; syntax nodes by identity of tree
 * and node. Keys whose value is undefined count as absent (a spread copies them).
 */
export function sameData(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 24) return false;
  if (a instanceof Float64Array || b instanceof Float64Array || a instanceof Uint8Array || b instanceof Uint8Array) {
    const x = a as Float64Array, y = b as Float64Array;
    if (x.constructor !== y.constructor || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i] && !(Number.isNaN(x[i]) && Number.isNaN(y[i]))) return false;
    return true;
  }
  if (isNode(a) || isNode(b)) return isNode(a) && isNode(b) && a.id === b.id && a.tree === b.tree;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    return a.length === y.length && a.every((x, i) => sameData(x, y[i], depth + 1));
  }
  if (a instanceof Map || b instanceof Map || a instanceof Set || b instanceof Set) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/** Whether a variable's value after the pass is the one it had before (the body leaves it as it found it). */
export function unchanged(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.k !== b.k || (a.k !== 'num' && a.k !== 'unk')) return false;
  return sameData(a, b);
}
