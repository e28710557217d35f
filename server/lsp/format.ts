// Small text helpers shared by the renderers: lane lists, plurals, status words, markdown escaping, ranges.
import type { AccessFinding, Position, Range, RequestFigures } from '../engine';

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** [0,1,2,3,8,9] -> "0–3, 8–9". */
export function laneRanges(lanes: readonly number[]): string {
  const sorted = [...new Set(lanes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? `${sorted[i]}` : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** Compact lane label for a bank-map cell: `L5`, `L0–31`, `L0,2` or `8 lanes` when it would not fit. */
export function laneLabel(lanes: readonly number[], maxChars = 7): string {
  const text = 'L' + laneRanges(lanes).replace(/, /g, ',');
  return text.length <= maxChars ? text : `${lanes.length} lanes`;
}

/** The status in the model's words: `32-way bank conflict`, `conflict-free`, `broadcast`, `unknown`. */
export function statusText(a: Pick<AccessFinding, 'status' | 'degree' | 'worst'>): string {
  switch (a.status) {
    case 'conflict':
      return `${a.degree ?? '?'}-way bank conflict`;
    case 'broadcast':
      return 'broadcast';
    case 'conflict-free':
      return isMulticast(a.worst) ? 'conflict-free (multicast)' : 'conflict-free';
    default:
      return 'unknown';
  }
}

export function isMulticast(f: RequestFigures | null): boolean {
  return !!f && !f.broadcast && f.distinctWords < f.activeLanes;
}

export function wavefrontText(wavefronts: number | null, ideal: number | null): string {
  if (wavefronts == null) return 'unknown';
  return `${plural(wavefronts, 'wavefront')}${ideal != null ? ` (ideal ${ideal})` : ''}`;
}

/** Escapes text for a markdown paragraph or table cell. */
export function md(text: string): string {
  return text.replace(/([\\`*_{}[\]<>#|])/g, '\\$1').replace(/\r?\n/g, ' ');
}

/**
 * An engine sentence as markdown: its backticked spans (`` `TILE_DIM` = 32 ``, `` `s[2 * t]` ``) as inline code, the
 * rest escaped. Text whose backticks do not pair up is escaped whole.
 */
export function prose(text: string): string {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return md(text);
  return parts.map((p, i) => (i % 2 === 0 ? md(p) : p.trim() ? `\`${p.replace(/\r?\n/g, ' ')}\`` : '')).join('');
}

/** Inline code that survives backticks inside. */
export function code(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const fence = t.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${t.replace(/\|/g, '\\|')}${fence.length > 1 ? ' ' : ''}${fence}`;
}

export function blockText(block: readonly number[] | null | undefined): string {
  if (!block) return 'unknown';
  return block.join('x');
}

export function comparePos(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** true when `p` lies in `r` (both ends inclusive, so a cursor just after a name still counts). */
export function contains(r: Range, p: Position): boolean {
  return comparePos(r.start, p) <= 0 && comparePos(p, r.end) <= 0;
}

export function intersects(a: Range, b: Range): boolean {
  return comparePos(a.start, b.end) <= 0 && comparePos(b.start, a.end) <= 0;
}

export function sameRange(a: Range, b: Range): boolean {
  return comparePos(a.start, b.start) === 0 && comparePos(a.end, b.end) === 0;
}

/** Size of a range for picking the innermost one. */
export function rangeSpan(r: Range): number {
  return (r.end.line - r.start.line) * 100_000 + (r.end.character - r.start.character);
}
