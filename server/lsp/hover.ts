// Hover cards: one for an access (figures, assumptions, cases, bank map) and one for a declaration (all accesses).
import type { AccessCase, AccessFinding, ArrayFinding, FileAnalysis, Position, Range } from '../engine';
import { bankCountFor, renderBankMapSvg, renderBankMapText, svgDataUri } from './bank-map';
import { arrayOfAccess } from './diagnostics';
import { blockText, code, contains, laneRanges, md, plural, prose, rangeSpan, sameRange, statusText, wavefrontText } from './format';
import type { BankMapResult } from './protocol';

/** Reads the document text of a range (the renderers quote access expressions). */
export type TextOf = (range: Range) => string;

/** Indexes of the accesses at `pos`: the array name first, then the innermost access expression. Several when one
 * name is more than one request (`s[i] += x` is a load and a store); the worst (most wavefronts) comes first. */
export function findAccessesAt(analysis: FileAnalysis, pos: Position): number[] {
  const innermost = (pick: (a: AccessFinding) => Range | undefined): number[] => {
    let best: Range | undefined;
    analysis.accesses.forEach((a) => {
      const r = pick(a);
      if (r && contains(r, pos) && (!best || rangeSpan(r) < rangeSpan(best))) best = r;
    });
    if (!best) return [];
    const hit = best;
    return analysis.accesses.map((a, i) => [a, i] as const).filter(([a]) => {
      const r = pick(a);
      return !!r && sameRange(r, hit);
    }).map(([, i]) => i);
  };
  const hits = innermost((a) => a.range);
  const found = hits.length ? hits : innermost((a) => a.exprRange);
  const w = (i: number) => analysis.accesses[i].wavefronts ?? -1;
  return found.sort((x, y) => w(y) - w(x) || x - y);
}

/** The worst access at `pos`, or -1. */
export function findAccessAt(analysis: FileAnalysis, pos: Position): number {
  return findAccessesAt(analysis, pos)[0] ?? -1;
}

export function findArrayAt(analysis: FileAnalysis, pos: Position): ArrayFinding | undefined {
  return analysis.arrays.find((a) => contains(a.declRange, pos));
}

/** The figures of an access as label/value rows (the hover table and the webview use the same rows). */
export function figureRows(a: AccessFinding): [string, string][] {
  const rows: [string, string][] = [['status', statusText(a)]];
  const f = a.worst;
  if (a.status !== 'unknown') {
    rows.push(['conflict degree', a.degree != null ? `${a.degree}-way${a.degree === 1 ? ' (conflict-free)' : ''}` : 'unknown']);
    rows.push(['wavefronts', wavefrontText(a.wavefronts, a.idealWavefronts)]);
  }
  if (f) {
    rows.push(['active lanes', `${f.activeLanes}`]);
    rows.push(['distinct words', `${f.distinctWords}`]);
    rows.push(['requested bytes', `${f.requestedBytes}`]);
    rows.push(['result bytes', `${f.resultBytes}`]);
    rows.push(['banks used', `${f.banksUsed}`]);
  }
  rows.push(['element size', a.elementBytes ? plural(a.elementBytes, 'byte') : 'unknown']);
  if (f) {
    rows.push(['phases', `${f.phases} (${plural(f.lanesPerPhase, 'lane')} each)`]);
    if (f.phases > 1) rows.push(['worst phase', `phase ${f.worstPhase.index} (lanes ${laneRanges(f.worstPhase.lanes)})`]);
  }
  rows.push(['access', `${a.kind} in kernel ${a.kernel}`]);
  if (a.block) rows.push(['block', blockText(a.block)]);
  const worstCase = worstCaseOf(a);
  if (worstCase) {
    const ctx = contextText(worstCase.context);
    rows.push(['worst case', `warp ${worstCase.warp}${ctx ? `, ${ctx}` : ''}`]);
  }
  return rows;
}

function worstCaseOf(a: AccessFinding): AccessCase | undefined {
  let best: AccessCase | undefined;
  for (const c of a.cases) if (!best || c.wavefronts > best.wavefronts) best = c;
  return best;
}

function contextText(ctx: Record<string, number | string>): string {
  return Object.entries(ctx)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
}

/** true when the cases tell different stories (degree or wavefronts differ). */
export function casesDiffer(cases: readonly AccessCase[]): boolean {
  return new Set(cases.map((c) => `${c.degree}/${c.wavefronts}`)).size > 1;
}

const MAX_CASE_ROWS = 24;

/** Markdown table of the cases: one row per context (loop iteration, template instance, block, warp). */
export function casesTable(cases: readonly AccessCase[]): string {
  const keys = [...new Set(cases.flatMap((c) => Object.keys(c.context)))];
  const showBlock = new Set(cases.map((c) => blockText(c.block))).size > 1;
  const showWarp = new Set(cases.map((c) => c.warp)).size > 1;
  const head = [...keys.map(md), ...(showBlock ? ['block'] : []), ...(showWarp ? ['warp'] : []), 'degree', 'wavefronts'];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const c of cases.slice(0, MAX_CASE_ROWS)) {
    const cells = [
      ...keys.map((k) => (k in c.context ? md(String(c.context[k])) : '')),
      ...(showBlock ? [blockText(c.block)] : []),
      ...(showWarp ? [String(c.warp)] : []),
      c.degree === 1 ? '1 (conflict-free)' : `${c.degree}-way`,
      String(c.wavefronts),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  if (cases.length > MAX_CASE_ROWS) lines.push('', `… and ${cases.length - MAX_CASE_ROWS} more cases`);
  return lines.join('\n');
}

export interface HoverContext {
  textOf?: TextOf;
  /** bank count of the model (16 for cc 1.x). */
  bankCount?: number;
  /** width the hover picture is scaled to (the webview shows it at full size). */
  imageWidth?: number;
}

function title(a: AccessFinding, textOf?: TextOf): string {
  const expr = textOf && a.exprRange ? textOf(a.exprRange).trim() : '';
  return expr && expr.length <= 80 ? expr : a.array;
}

/** Markdown card for access number `index`. */
export function accessHover(analysis: FileAnalysis, index: number, ctx: HoverContext = {}): string {
  const a = analysis.accesses[index];
  const parts: string[] = [];
  parts.push(`**${code(title(a, ctx.textOf))}** · ${a.kind} · **${md(statusText(a))}**`);
  parts.push(prose(a.message));
  if (a.outOfBounds) parts.push(`**out of bounds:** ${prose(a.outOfBounds.message)}`);
  if (a.status === 'unknown' && a.reason && !a.message.includes(a.reason)) parts.push(`reason: ${prose(a.reason)}`);
  const rows = figureRows(a);
  parts.push(['| figure | value |', '| --- | --- |', ...rows.map(([k, v]) => `| ${md(k)} | ${md(v)} |`)].join('\n'));
  if (a.sharedArray !== a.array) parts.push(`${code(a.array)} points into ${code(a.sharedArray)}`);
  if (a.assumptions.length) parts.push(['**Assumptions**', '', ...a.assumptions.map((s) => `- ${prose(s)}`)].join('\n'));
  if (a.cases.length > 1 && casesDiffer(a.cases)) parts.push(['**Cases**', '', casesTable(a.cases)].join('\n'));
  if (a.worst) {
    const f = a.worst;
    const bankCount = ctx.bankCount ?? bankCountFor(analysis.model);
    const svg = renderBankMapSvg(f, {
      bankCount,
      title: `${a.array}: phase ${f.worstPhase.index}, ${plural(f.degree, 'wavefront')}`,
      maxWidth: ctx.imageWidth ?? 640, // VS Code hovers are about 750 px wide: no sideways scrolling
    });
    parts.push(
      `**Bank map** of the worst phase (phase ${f.worstPhase.index}, lanes ${laneRanges(f.worstPhase.lanes)}): ` +
        `banks 0–${bankCount - 1} across, wavefronts down`,
    );
    parts.push(`![bank map](${svgDataUri(svg)})`);
    parts.push('```text\n' + renderBankMapText(f, { bankCount }) + '\n```');
  }
  return parts.join('\n\n');
}

/** Markdown card for a declaration: every access of the array, the worst one, and the padding fix. */
export function declarationHover(analysis: FileAnalysis, array: ArrayFinding, ctx: HoverContext = {}): string {
  const accesses = array.accesses
    .map((i) => analysis.accesses[i])
    .filter(Boolean)
    .sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
  const conflicts = accesses.filter((a) => a.status === 'conflict');
  const parts: string[] = [];
  const summary = [
    `**${code(array.name)}** · ${code(`${array.external ? 'extern ' : ''}__shared__ ${array.typeText}`)}`,
    plural(accesses.length, 'access', 'accesses'),
    conflicts.length ? `worst ${array.worstDegree ?? Math.max(...conflicts.map((a) => a.degree ?? 0))}-way bank conflict` : accesses.length ? 'no bank conflicts' : '',
  ].filter(Boolean);
  parts.push(summary.join(' · '));
  if (accesses.length) {
    const lines = ['| line | access | kind | status | wavefronts |', '| --- | --- | --- | --- | --- |'];
    for (const a of accesses) {
      const expr = ctx.textOf && a.exprRange ? ctx.textOf(a.exprRange) : a.array;
      const status = a.outOfBounds ? `${statusText(a)}, out of bounds` : statusText(a);
      lines.push(`| ${a.range.start.line + 1} | ${code(expr.length > 60 ? expr.slice(0, 57) + '...' : expr)} | ${a.kind} | ${md(status)} | ${md(wavefrontText(a.wavefronts, a.idealWavefronts))} |`);
    }
    parts.push(lines.join('\n'));
  } else {
    parts.push('No accesses of this array were found in the analysed kernels.');
  }
  if (array.fix) {
    const f = array.fix;
    parts.push(
      `**Quick fix:** ${prose(f.title)}\n\n` +
        `conflicting accesses ${f.conflictingBefore} → ${f.conflictingAfter}; ` +
        `wavefronts of the ${plural(f.accessesChecked, 'access', 'accesses')} checked, summed over their cases: ${f.totalWavefrontsBefore} → ${f.totalWavefrontsAfter}`,
    );
  } else if (array.noFixReason) {
    parts.push(`No padding fix: ${prose(array.noFixReason)}`);
  }
  return parts.join('\n\n');
}

/** The custom request's answer: the hover's picture at full size, its text grid, and the figures. */
export function bankMapResult(analysis: FileAnalysis, index: number, ctx: HoverContext = {}): BankMapResult | null {
  const a = analysis.accesses[index];
  if (!a?.worst) return null;
  const bankCount = ctx.bankCount ?? bankCountFor(analysis.model);
  const heading = `${title(a, ctx.textOf)}: ${statusText(a)}`;
  return {
    title: heading,
    message: a.message,
    svg: renderBankMapSvg(a.worst, { bankCount, title: heading }),
    text: renderBankMapText(a.worst, { bankCount }),
    figures: figureRows(a),
  };
}

export { arrayOfAccess };

/** For clients that take plain text only: the card without the image (the text grid stays). */
export function toPlainText(markdown: string): string {
  return markdown
    .split('\n')
    .filter((l) => !l.startsWith('![bank map](data:'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
