// The padding quick-fix: the smallest padding of the innermost extent that minimises the total wavefronts over
// every access of the array in every analysed context (all kernels, instances, loop iterations, warps), found by
// re-evaluating those accesses with each candidate extent. Edits only the extent's text in the declaration.
import { PaddingFix, Range } from '../types';
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
}

interface Score {
  total: number;
  ideal: number;
  /** per site: worst degree over its contexts (known contexts only). */
  degrees: Map<string, number>;
}

function score(results: SiteResult[]): Score {
  const degrees = new Map<string, number>();
  let total = 0;
  let ideal = 0;
  for (const r of results) {
    if (!r.summary) continue;
    total += r.totalWavefronts;
    ideal += r.idealTotal;
    degrees.set(r.site, Math.max(degrees.get(r.site) ?? 0, r.summary.degree));
  }
  return { total, ideal, degrees };
}

const plural = (n: number, one: string, many = `${one}es`) => `${n} ${n === 1 ? one : many}`;

/** The extent's new text: `32` -> `33`, `N + 1` -> `N + 2`, `N` -> `N + 1`. */
export function paddedText(d: ArrayInfo['dimTexts'][number], pad: number): string {
  if (d.isNumber && /^\d+$/.test(d.text)) return String(Number(d.text) + pad);
  if (d.plusLiteral) return `${d.plusLiteral.left} + ${d.plusLiteral.value + pad}`;
  return `${d.text} + ${pad}`;
}

export function paddingFix(
  info: ArrayInfo, current: SiteResult[], evaluate: (pad: number) => SiteResult[],
): { fix?: PaddingFix; reason?: string } {
  if (info.external) return { reason: `\`${info.name}\` is an \`extern __shared__\` array: its layout is set by the indexing code, not by a declared extent` };
  if (info.dims.length < 2) return { reason: `\`${info.name}\` is one-dimensional: padding its extent changes no address` };
  const flat = current.find((r) => r.flat);
  if (flat) return { reason: `no padding fix: ${flat.flat}, which assumes the current row length of \`${info.name}\`` };
  const last = info.dimTexts[info.dimTexts.length - 1];
  if (!last || info.dimTexts.length !== info.dims.length) return { reason: `the extents of \`${info.name}\` are not all written in its declaration` };
  const before = score(current);
  const conflictingBefore = [...before.degrees.values()].filter((d) => d >= 2).length;
  // enough candidates to try every row length modulo the 32 banks, for any element size
  const maxPad = Math.max(1, Math.ceil(128 / Math.max(1, info.elementBytes)));
  let best: { pad: number; s: Score } | null = null;
  for (let pad = 1; pad <= maxPad; pad++) {
    const s = score(evaluate(pad));
    if (!best || s.total < best.s.total) best = { pad, s };
    if (s.total <= s.ideal) break; // cannot do better than ideal
  }
  if (!best || best.s.total >= before.total) {
    return { reason: `no padding of the innermost extent of \`${info.name}\` (up to +${maxPad}) reduces its wavefronts` };
  }
  const after = best.s;
  const conflictingAfter = [...after.degrees.values()].filter((d) => d >= 2).length;
  const newLast = paddedText(last, best.pad);
  const shape = [...info.dimTexts.slice(0, -1).map((d) => d.text), newLast].map((t) => `[${t}]`).join('');
  const checked = before.degrees.size;
  const cleared = conflictingBefore - conflictingAfter;
  const worstBefore = Math.max(1, ...before.degrees.values());
  const worstAfter = Math.max(1, ...after.degrees.values());
  const accesses = (n: number) => plural(n, 'conflicting access');
  const summary = conflictingAfter === 0
    ? `${accesses(conflictingBefore)} ${conflictingBefore === 1 ? 'becomes' : 'become'} conflict-free`
    : `the worst access goes from ${worstBefore}-way to ${worstAfter}-way` +
      (cleared > 0 ? `; ${cleared} of ${accesses(conflictingBefore)} ${cleared === 1 ? 'becomes' : 'become'} conflict-free` : '') +
      `; wavefronts ${before.total} -> ${after.total}`;
  return {
    fix: {
      title: `Pad ${info.name} to ${shape}: ${summary} (${plural(checked, 'access')} checked)`,
      preferred: conflictingAfter === 0,
      edits: [{ range: last.range, newText: newLast }],
      newShape: shape,
      padding: best.pad,
      totalWavefrontsBefore: before.total,
      totalWavefrontsAfter: after.total,
      conflictingBefore,
      conflictingAfter,
      accessesChecked: checked,
    },
  };
}
