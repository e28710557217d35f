// The padding quick-fix: the smallest padding of the innermost extent that minimises the total wavefronts over
// every access of the array in every analysed context (all kernels, instances, loop iterations, warps), found by
// re-evaluating those accesses with each candidate extent (`evaluate`: analyze.ts moves the addresses of one run
// where that is exact, else runs the kernels again). Edits only the extent's text in the declaration.
import { PaddingFix, Range } from '../types';
import { parseExpression } from '../syntax/parser';
import { SiteResult } from '../findings/findings';

export interface ArrayInfo {
  id: string;
  name: string;
  declRange: Range;
  typeText: string;
  external: boolean;
  dims: number[];
  elementBytes: number;
  dimTexts: { range: Range; text: string; isNumber: boolean; plusLiteral: { left: string; value: number } | null }[];
  /** declared in the expansion of this macro (its extents are not written where the array is used) */
  macro?: string;
  /** its innermost extents are its type's (`cuda::std::array<float, 33>`, `using Row = float[33]`): that type, spelled as C */
  arrayElement?: string;
}

interface Score {
  total: number;
  ideal: number;
  /** per site: worst degree over its contexts (known contexts only). */
  degrees: Map<string, number>;
  /** the sites with a context that could not be evaluated. */
  unknown: Set<string>;
}

function score(results: SiteResult[]): Score {
  const degrees = new Map<string, number>();
  const unknown = new Set<string>();
  let total = 0;
  let ideal = 0;
  for (const r of results) {
    if (!r.summary) {
      unknown.add(r.site);
      continue;
    }
    total += r.totalWavefronts;
    ideal += r.idealTotal;
    degrees.set(r.site, Math.max(degrees.get(r.site) ?? 0, r.summary.degree));
  }
  return { total, ideal, degrees, unknown };
}

const plural = (n: number, one: string, many = `${one}es`) => `${n} ${n === 1 ? one : many}`;

/**
 * `text + pad`, with `text` in parentheses where an operator that binds less tightly than `+` stands in it
 * (`kPad ? 33 : 32` -> `(kPad ? 33 : 32) + 1`, not `kPad ? 33 : 32 + 1`, which pads one way only).
 */
function plus(text: string, pad: number): string {
  const e = parseExpression(text)?.expr;
  const op = e?.type === 'binary_expression' ? e.childForFieldName('operator')?.text : undefined;
  const loose = !e || /^(?:conditional|assignment|comma)_expression$/.test(e.type) || (op !== undefined && !/^[-+*/%]$/.test(op));
  return `${loose ? `(${text})` : text} + ${pad}`;
}

/** The extent's new text: `32` -> `33`, `N + 1` -> `N + 2`, `N` -> `N + 1`. */
export function paddedText(d: ArrayInfo['dimTexts'][number], pad: number): string {
  if (d.isNumber && /^\d+$/.test(d.text)) return String(Number(d.text) + pad);
  if (d.plusLiteral) return `${d.plusLiteral.left} + ${d.plusLiteral.value + pad}`;
  return plus(d.text, pad);
}

interface Search {
  pad: number;
  before: Score;
  after: Score;
  /** the results with the chosen padding. */
  results: SiteResult[];
}

/**
 * How far a padding search got: the next padding to try and the best so far. A search that `evaluate` stops (the
 * budget) leaves it here, and a search given it again goes on from there, to the same result as one search.
 */
export interface SearchState {
  next: number;
  best: Search | null;
}

/** Tries paddings 1..maxPad; the smallest with the least total wavefronts, if it is better than none. */
function search(current: SiteResult[], maxPad: number, evaluate: (pad: number) => SiteResult[], state: SearchState = { next: 1, best: null }): Search | null {
  const before = score(current);
  for (let pad = state.next; pad <= maxPad; pad++) {
    const results = evaluate(pad);
    state.next = pad + 1;
    const s = score(results);
    // a padding under which an access can no longer be evaluated (a vector access it misaligns faults) is no fix:
    // its wavefronts would simply not be counted
    if ([...s.unknown].some((site) => !before.unknown.has(site))) continue;
    if (!state.best || s.total < state.best.after.total) state.best = { pad, before, after: s, results };
    if (s.total <= s.ideal) {
      state.next = maxPad + 1; // cannot do better than ideal
      break;
    }
  }
  const best = state.best;
  return best && best.after.total < before.total ? best : null;
}

/** The title's account of what a padding does, in the model's words. */
function summarise(found: Search): { summary: string; conflictingBefore: number; conflictingAfter: number; checked: number } {
  const { before, after } = found;
  const conflictingBefore = [...before.degrees.values()].filter((d) => d >= 2).length;
  const conflictingAfter = [...after.degrees.values()].filter((d) => d >= 2).length;
  const cleared = conflictingBefore - conflictingAfter;
  const worstBefore = Math.max(1, ...before.degrees.values());
  const worstAfter = Math.max(1, ...after.degrees.values());
  const accesses = (n: number) => plural(n, 'conflicting access');
  const summary = conflictingAfter === 0
    ? `${accesses(conflictingBefore)} ${conflictingBefore === 1 ? 'becomes' : 'become'} conflict-free`
    : (worstAfter === worstBefore ? `the worst access stays ${worstBefore}-way` : `the worst access goes from ${worstBefore}-way to ${worstAfter}-way`) +
      (cleared > 0 ? `; ${cleared} of ${accesses(conflictingBefore)} ${cleared === 1 ? 'becomes' : 'become'} conflict-free` : '') +
      `; wavefronts ${before.total} -> ${after.total}`;
  return { summary, conflictingBefore, conflictingAfter, checked: before.degrees.size };
}

/** enough candidates to try every row length modulo the 32 banks, for any element size */
const maxPadFor = (elementBytes: number) => Math.max(1, Math.ceil(128 / Math.max(1, elementBytes)));

export function paddingFix(
  info: ArrayInfo, current: SiteResult[], evaluate: (pad: number) => SiteResult[], state?: SearchState,
): { fix?: PaddingFix; reason?: string } {
  if (info.macro) return { reason: `\`${info.name}\` is declared in the expansion of the macro \`${info.macro}\`: no padding fix edits a macro` };
  if (info.external) return { reason: `\`${info.name}\` is an \`extern __shared__\` array: its layout is set by the indexing code, not by a declared extent` };
  if (info.arrayElement) return { reason: `the innermost extent of \`${info.name}\` is written in its type (\`${info.arrayElement}\`), not in its declaration: no padding fix edits a type` };
  if (info.dims.length < 2) return { reason: `\`${info.name}\` is one-dimensional: padding its extent changes no address` };
  const flat = current.find((r) => r.flat);
  if (flat) return { reason: `no padding fix: ${flat.flat}, which assumes the current row length of \`${info.name}\`` };
  const last = info.dimTexts[info.dimTexts.length - 1];
  if (!last || info.dimTexts.length !== info.dims.length) return { reason: `the extents of \`${info.name}\` are not all written in its declaration` };
  const maxPad = maxPadFor(info.elementBytes);
  const found = search(current, maxPad, evaluate, state);
  if (!found) return { reason: `no padding of the innermost extent of \`${info.name}\` (up to +${maxPad}) reduces its wavefronts` };
  const { summary, conflictingAfter, checked } = summarise(found);
  const newLast = paddedText(last, found.pad);
  const shape = [...info.dimTexts.slice(0, -1).map((d) => d.text), newLast].map((t) => `[${t}]`).join('');
  return {
    fix: fixOf(found, {
      title: `Pad ${info.name} to ${shape}: ${summary} (${plural(checked, 'access')} checked)`,
      preferred: conflictingAfter === 0,
      edits: [{ range: last.range, newText: newLast }],
      newShape: shape,
    }),
  };
}

/** The figures every padding fix reports, from its search. */
function fixOf(found: Search, what: Pick<PaddingFix, 'title' | 'preferred' | 'edits' | 'newShape'>): PaddingFix {
  const { conflictingBefore, conflictingAfter, checked } = summarise(found);
  return {
    ...what,
    padding: found.pad,
    totalWavefrontsBefore: found.before.total,
    totalWavefrontsAfter: found.after.total,
    conflictingBefore,
    conflictingAfter,
    accessesChecked: checked,
  };
}

/** A kernel-local constant that every access of an `extern __shared__` array uses as its row length. */
export interface RowConstant {
  name: string;
  value: number;
  /** the initializer's range and text, for the edit. */
  range: Range;
  text: string;
  isNumber: boolean;
}

/**
 * For `extern __shared__ float s[]; const int LD = 32; ... s[row * LD + col]`: pad LD. The launch's dynamic shared
 * memory must still hold every access after the padding; the fix is preferred only when that is known to be so.
 */
export function rowConstantFix(
  info: ArrayInfo, c: RowConstant, current: SiteResult[], evaluate: (pad: number) => SiteResult[], state?: SearchState,
): { fix?: PaddingFix; reason?: string } {
  const flat = current.find((r) => r.flat);
  if (flat) return { reason: `no padding fix: ${flat.flat}` };
  const maxPad = maxPadFor(info.elementBytes || current[0]?.elementBytes || 4);
  const found = search(current, maxPad, evaluate, state);
  if (!found) return { reason: `no padding of \`${c.name}\` (up to +${maxPad}) reduces the wavefronts of \`${info.name}\`` };
  const { summary, conflictingAfter, checked } = summarise(found);
  const newText = c.isNumber ? String(c.value + found.pad) : plus(c.text, found.pad);
  const need = Math.max(...found.results.map((r) => r.maxByte));
  const sizes = found.results.map((r) => r.dynamicShared);
  const fits = sizes.length > 0 && sizes.every((b) => b !== null && b >= need);
  const room = fits ? '' : `; the launch must give at least ${need} bytes of dynamic shared memory`;
  return {
    fix: fixOf(found, {
      title: `Pad ${info.name} rows: ${c.name} = ${newText}: ${summary}${room} (${plural(checked, 'access')} checked)`,
      preferred: conflictingAfter === 0 && fits,
      edits: [{ range: c.range, newText }],
      newShape: `${c.name} = ${newText}`,
    }),
  };
}
