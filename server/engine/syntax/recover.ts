// Error recovery above tree-sitter's: a half-typed function (an unclosed brace, say) swallows every function after
// it into one ERROR. Where a top-level node with an error spans a line that plainly starts a new top-level
// definition, the broken part is blanked (spaces, line breaks kept, so every offset still holds) and the text is
// parsed again, so the intact kernels after it keep their exact results.
import { parse, Tree } from './parser';

const TOP_LEVEL = /^(?:template\s*<|(?:(?:static|inline|extern(?:\s+"C")?|__forceinline__)\s+)*(?:__global__|__device__|__host__)\b|(?:struct|class|union|namespace|typedef|using)\b|#\s*(?:define|include|if|ifdef|ifndef|endif)\b|(?:void|int|float|double|auto|bool|unsigned|size_t)\s+[A-Za-z_]\w*\s*\()/;

export interface Blanked {
  /** first blanked offset and line (0-based). */
  start: number;
  end: number;
  line: number;
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

const blank = (s: string) => s.replace(/[^\n\r]/g, ' ');

/** Returns the repaired text and tree (or the input tree when nothing needed repair), and what was blanked. */
export function recover(text: string, tree: Tree, maxPasses = 8): { text: string; tree: Tree; blanked: Blanked[] } {
  const blanked: Blanked[] = [];
  let cur = text;
  let t = tree;
  for (let pass = 0; pass < maxPasses && t.rootNode.hasError; pass++) {
    const starts = lineStarts(cur);
    let cut: Blanked | null = null;
    for (const node of t.rootNode.children) {
      if (!node || !node.hasError) continue;
      const first = node.startPosition.row;
      const last = node.endPosition.row;
      for (let line = first + 1; line <= last && line < starts.length; line++) {
        const lineText = cur.slice(starts[line], starts[line + 1] ?? cur.length);
        if (TOP_LEVEL.test(lineText)) {
          cut = { start: node.startIndex, end: starts[line], line: first };
          break;
        }
      }
      if (cut) break;
    }
    if (!cut) break;
    cur = cur.slice(0, cut.start) + blank(cur.slice(cut.start, cut.end)) + cur.slice(cut.end);
    blanked.push(cut);
    const next = parse(cur);
    if (t !== tree) t.delete();
    t = next;
  }
  return { text: cur, tree: t, blanked };
}
