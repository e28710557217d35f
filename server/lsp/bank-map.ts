// The bank map of one phase as a picture: banks across, wavefronts down, each cell naming its word and lanes.
// Two renderings of the same grid: an SVG (hover image, webview) and a monospace text grid (clients without images).
import type { RequestFigures } from '../engine';
import { laneLabel, laneRanges, plural } from './format';

export interface BankMapCell {
  bank: number;
  /** 0-based wavefront of the phase in which this word is served. */
  row: number;
  word: number;
  lanes: number[];
}

export interface BankMapGrid {
  bankCount: number;
  /** wavefronts of the phase: the largest number of distinct words one bank supplies. */
  rows: number;
  cells: BankMapCell[];
  /** distinct words per bank. */
  wordsPerBank: number[];
  worstBank: number;
  phase: number;
  lanes: number[];
}

/** Number of banks of a model name: 16 for cc 1.x, else 32. */
export function bankCountFor(model: string | undefined): number {
  return model && /^sm_1/.test(model) ? 16 : 32;
}

export function bankGrid(f: RequestFigures, bankCount = 32): BankMapGrid {
  const banks = Math.max(bankCount, ...f.worstPhase.banks.map((b) => b.bank + 1));
  const wordsPerBank = new Array<number>(banks).fill(0);
  const cells: BankMapCell[] = [];
  for (const column of f.worstPhase.banks) {
    column.words.forEach((w, row) => cells.push({ bank: column.bank, row, word: w.word, lanes: [...w.lanes] }));
    wordsPerBank[column.bank] = column.words.length;
  }
  return {
    bankCount: banks,
    rows: Math.max(1, ...wordsPerBank),
    cells,
    wordsPerBank,
    worstBank: f.worstBank,
    phase: f.worstPhase.index,
    lanes: f.worstPhase.lanes,
  };
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const CELL_W = 34;
const CELL_H = 30;
const LEFT = 44;
const TOP = 52;
const BOTTOM = 26;
const RIGHT = 10;

const COLORS = {
  background: '#ffffff',
  text: '#212529',
  muted: '#6c757d',
  empty: { fill: '#f8f9fa', stroke: '#dee2e6' },
  clean: { fill: '#c3fae8', stroke: '#0ca678' },
  shared: { fill: '#e5dbff', stroke: '#7048e8' },
  conflict: { fill: '#ffd8a8', stroke: '#e8590c' },
};

export interface SvgOptions {
  /** heading drawn above the grid. */
  title?: string;
  bankCount?: number;
  /** when the picture is wider than this, its width/height attributes are scaled down (the viewBox keeps detail). */
  maxWidth?: number;
}

/** An SVG document of the worst phase's bank map. */
export function renderBankMapSvg(f: RequestFigures, options: SvgOptions = {}): string {
  const g = bankGrid(f, options.bankCount);
  const width = LEFT + g.bankCount * CELL_W + RIGHT;
  const height = TOP + g.rows * CELL_H + BOTTOM;
  const scale = options.maxWidth && width > options.maxWidth ? options.maxWidth / width : 1;
  const out: string[] = [];
  const heading = options.title ?? `phase ${g.phase}: ${plural(g.rows, 'wavefront')}`;
  const desc = `Bank map of phase ${g.phase} (lanes ${laneRanges(g.lanes)}): banks 0 to ${g.bankCount - 1} across, ` +
    `${plural(g.rows, 'wavefront')} down; each cell names the word a bank supplies in that wavefront and the lanes that asked for it.`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * scale)}" height="${Math.round(height * scale)}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" role="img">`,
    `<title>${xml(heading)}</title>`,
    `<desc>${xml(desc)}</desc>`,
    `<rect width="${width}" height="${height}" rx="6" fill="${COLORS.background}"/>`,
    `<text x="${LEFT}" y="18" font-size="12" font-weight="bold" fill="${COLORS.text}">${xml(heading)}</text>`,
    `<text x="${LEFT - 6}" y="${TOP - 8}" font-size="9" text-anchor="end" fill="${COLORS.muted}">bank</text>`,
  );
  for (let b = 0; b < g.bankCount; b++) {
    const worst = b === g.worstBank && g.wordsPerBank[b] > 1;
    out.push(
      `<text x="${LEFT + b * CELL_W + CELL_W / 2}" y="${TOP - 8}" font-size="10" text-anchor="middle" ` +
        `fill="${worst ? COLORS.conflict.stroke : COLORS.text}"${worst ? ' font-weight="bold"' : ''}>${b}</text>`,
    );
  }
  for (let r = 0; r < g.rows; r++) {
    out.push(
      `<text x="${LEFT - 6}" y="${TOP + r * CELL_H + CELL_H / 2 + 4}" font-size="10" text-anchor="end" fill="${COLORS.text}">${r + 1}</text>`,
    );
  }
  if (g.rows >= 3) {
    out.push(
      `<text transform="translate(12 ${TOP + (g.rows * CELL_H) / 2}) rotate(-90)" font-size="9" text-anchor="middle" fill="${COLORS.muted}">wavefront</text>`,
    );
  }
  // empty cells: one pattern-filled rectangle (a 32-wavefront map would otherwise carry a thousand empty rects)
  out.push(
    `<defs><pattern id="empty" x="${LEFT}" y="${TOP}" width="${CELL_W}" height="${CELL_H}" patternUnits="userSpaceOnUse">` +
      `<rect x="1" y="1" width="${CELL_W - 2}" height="${CELL_H - 2}" rx="2" fill="${COLORS.empty.fill}" stroke="${COLORS.empty.stroke}"/></pattern></defs>`,
    `<rect x="${LEFT}" y="${TOP}" width="${g.bankCount * CELL_W}" height="${g.rows * CELL_H}" fill="url(#empty)"/>`,
  );
  for (const c of [...g.cells].sort((p, q) => p.row - q.row || p.bank - q.bank)) {
    const x = LEFT + c.bank * CELL_W;
    const y = TOP + c.row * CELL_H;
    const style = g.wordsPerBank[c.bank] > 1 ? COLORS.conflict : c.lanes.length > 1 ? COLORS.shared : COLORS.clean;
    const tip = `bank ${c.bank}, wavefront ${c.row + 1}: word ${c.word} (byte ${c.word * 4}), ${c.lanes.length === 1 ? 'lane' : 'lanes'} ${laneRanges(c.lanes)}`;
    out.push(
      `<g><title>${xml(tip)}</title>`,
      `<rect x="${x + 1}" y="${y + 1}" width="${CELL_W - 2}" height="${CELL_H - 2}" rx="2" fill="${style.fill}" stroke="${style.stroke}"/>`,
      `<text x="${x + CELL_W / 2}" y="${y + 13}" font-size="9" text-anchor="middle" fill="${COLORS.text}">${xml(laneLabel(c.lanes))}</text>`,
      `<text x="${x + CELL_W / 2}" y="${y + 24}" font-size="8" text-anchor="middle" fill="${COLORS.muted}">w${c.word}</text>`,
      `</g>`,
    );
  }
  out.push(
    `<text x="${LEFT}" y="${height - 9}" font-size="9" fill="${COLORS.muted}">` +
      xml(`banks 0–${g.bankCount - 1} across, wavefronts down; cell: lanes (L) and word (w); orange: a bank supplying several distinct words`) +
      `</text>`,
    `</svg>`,
  );
  return out.join('\n');
}

export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/**
 * The same map as monospace text. Only banks that supply words get a column (the others are listed below),
 * eight banks per block, so a 32-way conflict is one tall column and a conflict-free request four short rows.
 */
export function renderBankMapText(f: RequestFigures, options: { bankCount?: number; banksPerBlock?: number } = {}): string {
  const g = bankGrid(f, options.bankCount);
  const perBlock = options.banksPerBlock ?? 8;
  const used = g.wordsPerBank.map((n, b) => (n > 0 ? b : -1)).filter((b) => b >= 0);
  const unused = g.wordsPerBank.map((n, b) => (n === 0 ? b : -1)).filter((b) => b >= 0);
  const byBank = new Map<number, BankMapCell[]>();
  for (const c of g.cells) {
    const list = byBank.get(c.bank) ?? [];
    list[c.row] = c;
    byBank.set(c.bank, list);
  }
  const label = (c: BankMapCell) => `w${c.word} ${laneLabel(c.lanes, 9)}`;
  const lines: string[] = [];
  const rowLabel = `wavefront ${g.rows}`.length + 1;
  for (let i = 0; i < used.length; i += perBlock) {
    const banks = used.slice(i, i + perBlock);
    const rows = Math.max(...banks.map((b) => g.wordsPerBank[b]));
    const width = Math.max(8, ...banks.flatMap((b) => (byBank.get(b) ?? []).map((c) => (c ? label(c).length : 0)))) + 1;
    if (lines.length) lines.push('');
    lines.push(pad('', rowLabel) + banks.map((b) => pad(`bank ${b}${b === g.worstBank && g.wordsPerBank[b] > 1 ? '*' : ''}`, width)).join('').trimEnd());
    for (let r = 0; r < rows; r++) {
      const cells = banks.map((b) => {
        const c = byBank.get(b)?.[r];
        return pad(c ? label(c) : '·', width);
      });
      lines.push((pad(`wavefront ${r + 1}`, rowLabel) + cells.join('')).trimEnd());
    }
  }
  if (!used.length) lines.push('no bank supplies a word (no active lanes)');
  if (unused.length) lines.push('', `no words from banks ${laneRanges(unused)}`);
  if (g.wordsPerBank[g.worstBank] > 1) lines.push(`* bank ${g.worstBank} supplies ${g.wordsPerBank[g.worstBank]} distinct words`);
  return lines.join('\n');
}
