// Quick fixes from the engine's padding fixes: on diagnostics (their `data` carries the fix) and at a declaration.
import { CodeAction, CodeActionKind, Diagnostic, OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { FileAnalysis, PaddingFix, Range, TextEdit } from '../engine';
import type { DiagnosticData } from './diagnostics';
import { intersects } from './format';
import { Codes, SOURCE } from './protocol';

export interface EditOptions {
  uri: string;
  /** the version the edits were computed for; used only when the client takes versioned document changes. */
  version: number | null;
  documentChanges: boolean;
}

export function workspaceEdit(edits: readonly TextEdit[], o: EditOptions): WorkspaceEdit {
  const list = edits.map((e) => ({ range: e.range, newText: e.newText }));
  if (o.documentChanges) {
    return { documentChanges: [TextDocumentEdit.create(OptionalVersionedTextDocumentIdentifier.create(o.uri, o.version), list)] };
  }
  return { changes: { [o.uri]: list } };
}

function isFixable(d: Diagnostic): d is Diagnostic & { data: DiagnosticData & { fix: NonNullable<DiagnosticData['fix']> } } {
  const data = d.data as DiagnosticData | undefined;
  return d.source === SOURCE && d.code === Codes.bankConflict && !!data?.fix && Array.isArray(data.fix.edits);
}

export interface CodeActionInput {
  uri: string;
  range: Range;
  diagnostics: readonly Diagnostic[];
  /** the latest analysis of the current version (for actions at a declaration), if any. */
  analysis?: { result: FileAnalysis; version: number | null };
  documentChanges: boolean;
}

/** One quick fix per array: from the diagnostics in the request, then from declarations under the range. */
export function codeActions(input: CodeActionInput): CodeAction[] {
  const byArray = new Map<string, CodeAction>();
  for (const d of input.diagnostics) {
    if (!isFixable(d)) continue;
    const { fix, array, version } = d.data;
    const key = `${array}\u0000${fix.title}`;
    const existing = byArray.get(key);
    if (existing) {
      existing.diagnostics!.push(d);
      continue;
    }
    byArray.set(key, action(fix, [d], { uri: input.uri, version, documentChanges: input.documentChanges }));
  }
  if (input.analysis) {
    const { result, version } = input.analysis;
    for (const array of result.arrays) {
      if (!array.fix || !intersects(array.declRange, input.range)) continue;
      const key = `${array.name}\u0000${array.fix.title}`;
      if (byArray.has(key)) continue;
      byArray.set(key, action(array.fix, [], { uri: input.uri, version, documentChanges: input.documentChanges }));
    }
  }
  return [...byArray.values()];
}

function action(fix: Pick<PaddingFix, 'title' | 'preferred' | 'edits'>, diagnostics: Diagnostic[], o: EditOptions): CodeAction {
  const a = CodeAction.create(fix.title, workspaceEdit(fix.edits, o), CodeActionKind.QuickFix);
  a.isPreferred = fix.preferred;
  a.diagnostics = diagnostics;
  return a;
}
