// Applies LSP-style edits (0-based line/character in UTF-16 code units) to a text, last edit first.
import { TextEdit, Position } from '../engine';

export function offsetAt(text: string, pos: Position): number {
  let line = 0;
  let i = 0;
  while (line < pos.line) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) return text.length;
    i = nl + 1;
    line++;
  }
  return Math.min(i + pos.character, text.length);
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  const withOffsets = edits
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of withOffsets) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
