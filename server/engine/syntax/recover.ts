// Error recovery above tree-sitter's: a half-typed function (an unclosed brace, say) swallows every function after
// it into one ERROR. Where a top-level node with an error spans a line that plainly starts a new top-level
// definition, the broken part is blanked (spaces, line breaks kept, so every offset still holds) and the text is
// parsed again, so the intact kernels after it keep their exact results.
import { parse, Tree } from './parser';

const TOP_LEVEL = /^(?:template\s*<|(?:(?:static|inline|extern(?:\s+"C")?|__forceinline__)\s+)*(?:__global__|__device__|__host__)\b|(?:struct|class|union|namespace|typedef|using)\b|#\s*(?:define|include|if|ifdef|ifndef|endif)\b|(?:void|int|float|double|auto|bool|unsigned|size_t)\s+[A-Za-z_]\w*\s*\()/;

/**
 * Text that only begins a definition (its template header, `__global__`, `static`, `__launch_bounds__(...)`, comments):
 * a line after it that looks like a new definition is the rest of the same one.
 */
// each alternative matches a piece of text in one way only (a blank is one character, a comment runs to its end, a
// template header's brackets and the bounds' parentheses nest two levels), so a text that does not match fails in
// linear time: with `\s+` and `[^;{}]*` a long run of blanks and brackets backtracked for seconds
const DECL_PREFIX = /^(?:\s|\/\/[^\n]*(?:\n|$)|\/\*(?:[^*]|\*+[^*/])*\*+\/|template\s*<(?:[^;{}<>]|<(?:[^;{}<>]|<[^;{}<>]*>)*>)*>|(?:static|inline|constexpr|extern(?:\s+"C")?|__forceinline__|__noinline__|__global__|__device__|__host__)\b|__launch_bounds__\s*\((?:[^;{}()]|\([^;{}()]*\))*\))*$/;

/** What a well-formed file holds at its top level (a `;` after a struct or class included). */
const TOP_LEVEL_TYPES = new Set([
  'function_definition', 'declaration', 'template_declaration', 'template_instantiation', 'comment', 'namespace_definition',
  'namespace_alias_definition', 'linkage_specification', 'type_definition', 'struct_specifier', 'class_specifier',
  'union_specifier', 'enum_specifier', 'using_declaration', 'alias_declaration', 'static_assert_declaration',
  'concept_definition', 'expression_statement', ';',
]);
const isTopLevel = (n: { type: string }) => TOP_LEVEL_TYPES.has(n.type) || n.type.startsWith('preproc_');

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

/** Braces opened and not closed in `s` (comments, strings and character literals skipped). */
function openBraces(s: string): number {
  let depth = 0;
  const re = /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|[{}]/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m[0] === '{') depth++;
    else if (m[0] === '}' && depth > 0) depth--;
  }
  return depth;
}

/**
 * The definition being typed at the end of the file (`for (...) {` not closed yet): its missing closing braces are
 * added after the end of the text (every offset of the text still holds), when that makes it a definition again. A
 * half-typed last line or two that still keep it from parsing are blanked. Null when that does not help.
 */
function closeAtEnd(text: string, tree: Tree): { text: string; tree: Tree; closed: Closed } | null {
  const kids = tree.rootNode.children.filter((c) => c !== null);
  const last = kids[kids.length - 1];
  if (!last || !last.hasError || text.slice(last.endIndex).trim() !== '') return null;
  // a definition whose braces all close is not cut short: its error is inside (a macro use the grammar cannot read,
  // `CALL_IF(1, 8) else ...`), left to evaluation, not closed again after blanking its last lines
  if (openBraces(text.slice(last.startIndex)) === 0 && text.trimEnd().endsWith('}')) return null;
  for (const { body, missing, blankedFrom } of closings(text, last.startIndex)) {
    const candidate = `${body}\n${'}'.repeat(missing)}\n`;
    const next = parse(candidate);
    const fixed = next.rootNode.children.filter((c): c is NonNullable<typeof c> => c !== null && c.startIndex >= last.startIndex);
    // a definition again (a half-typed statement inside it stays an error its evaluation skips, with a note)
    if (fixed.length === 1 && /^(function_definition|template_declaration|namespace_definition|linkage_specification)$/.test(fixed[0].type))
      return {
        text: candidate, tree: next,
        closed: { line: last.startPosition.row, braces: missing, blankedFrom },
      };
    next.delete();
  }
  return null;
}

/**
 * The ways to close the definition from `start` to the end of `body`: its open braces counted as it stands, then with
 * its last one and two lines that have text in them blanked (a half-typed statement). Each has 1 to 64 braces missing.
 */
function* closings(body: string, start: number): Generator<{ body: string; missing: number; blankedFrom: number | null }> {
  let blankedFrom: number | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) {
      // blank the last line that has text in it
      const end = body.trimEnd().length;
      const from = body.lastIndexOf('\n', end - 1) + 1;
      if (from <= start) return;
      body = body.slice(0, from) + blank(body.slice(from));
      blankedFrom = from;
    }
    const missing = openBraces(body.slice(start));
    if (missing >= 1 && missing <= 64) yield { body, missing, blankedFrom };
  }
}

/** A definition at the end of the file analysed as if its open braces were closed there. */
export interface Closed {
  /** the definition's first line (0-based). */
  line: number;
  braces: number;
  /** where the half-typed last lines left out start (an offset), or null. */
  blankedFrom: number | null;
}

/** Returns the repaired text and tree (or the input tree when nothing needed repair), and what was blanked. */
export function recover(text: string, tree: Tree, maxPasses = 8): { text: string; tree: Tree; blanked: Blanked[]; closed?: Closed } {
  const blanked: Blanked[] = [];
  let cur = text;
  let t = tree;
  for (let pass = 0; pass < maxPasses && t.rootNode.hasError; pass++) {
    const starts = lineStarts(cur);
    let cut: Blanked | null = null;
    for (const node of t.rootNode.children) {
      if (!node) continue;
      // a piece of a definition the parser could not put together (`__global__`, `{`, a `for` header) stands at the
      // top level: the definition is broken up to the next line that starts one, wherever that is
      const piece = !node.hasError && !isTopLevel(node);
      if (!node.hasError && !piece) continue;
      const first = node.startPosition.row;
      const last = piece ? starts.length - 1 : node.endPosition.row;
      // a definition whose braces all close, with its error inside (a macro used without its `;`, `BODY(0) BODY(1)`),
      // is not cut short at a directive of its body (`#define BODY(k) { ... }` on its own line, `#if`): that lost every
      // access after the directive; its error is left to evaluation
      const closedDef = !piece && /^(?:function_definition|template_declaration)$/.test(node.type) && node.text.trimEnd().endsWith('}') && openBraces(node.text) === 0;
      for (let line = first + 1; line <= last && line < starts.length; line++) {
        const lineText = cur.slice(starts[line], starts[line + 1] ?? cur.length);
        if (closedDef && /^#/.test(lineText)) continue;
        // `template <int N>` or `__global__` on a line of its own starts the same definition as the line below it
        if (TOP_LEVEL.test(lineText) && !DECL_PREFIX.test(cur.slice(node.startIndex, starts[line]))) {
          // the `//` comments right above the next definition are its own (a `// bank-lens: block=16x16`): kept
          let end = line;
          while (end - 1 > first && /^\s*\/\//.test(cur.slice(starts[end - 1], starts[end]))) end--;
          cut = { start: node.startIndex, end: starts[end], line: first };
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
  if (t.rootNode.hasError) {
    const c = closeAtEnd(cur, t);
    if (c) {
      if (t !== tree) t.delete();
      return { text: c.text, tree: c.tree, blanked, closed: c.closed };
    }
  }
  return { text: cur, tree: t, blanked };
}

/**
 * A definition cut short in the middle of the file (`region`, as recover() blanked it): the texts to try, each with
 * the region's open braces closed on a line of their own where the region ends (before the next definition), after
 * blanking the region's last 0, 1 and 2 lines with text in them (a half-typed statement). Offsets before the region's
 * end are those of `text`; later ones move. Empty when the region is not short of closing braces.
 */
export function closingCandidates(text: string, region: { start: number; end: number }): { text: string; blankedFrom: number | null }[] {
  return [...closings(text.slice(0, region.end), region.start)].map(({ body, missing, blankedFrom }) =>
    ({ text: `${body}${'}'.repeat(missing)}\n${text.slice(region.end)}`, blankedFrom }));
}
