// Helpers for the extension-host tests: polling with clear timeouts, diagnostics of this extension, positions.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { readSuiteConfig } from './config';

export const EXTENSION_ID = 'cuda-bank-lens.cuda-bank-lens';
export const CONFLICT_CODE = 'bank-conflict';
export const config = readSuiteConfig(__dirname);

export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open (the runner opens a copy of examples/)');
  return folder;
}

export function fileUri(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceFolder().uri, ...relative.split('/'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns something truthy (also woken by diagnostic changes); on timeout throws an
 * error that says what was awaited and what was last seen.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: { timeoutMs?: number; lastSeen?: () => string } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? config.waitMs;
  const deadline = Date.now() + timeoutMs;
  let wake: (() => void) | undefined;
  const sub = vscode.languages.onDidChangeDiagnostics(() => wake?.());
  try {
    for (;;) {
      const v = await probe();
      if (v) return v as T;
      if (Date.now() > deadline) {
        const seen = opts.lastSeen ? `\nlast seen: ${opts.lastSeen()}` : '';
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
      }
      await Promise.race([sleep(200), new Promise<void>((r) => (wake = r))]);
    }
  } finally {
    sub.dispose();
  }
}

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

/** Diagnostics with code `bank-conflict` (the extension's source, whatever it is named). */
export function conflicts(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === CONFLICT_CODE);
}

export function describeDiagnostics(uri: vscode.Uri): string {
  const all = vscode.languages.getDiagnostics(uri);
  if (!all.length) return '(no diagnostics)';
  return all
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} [${codeOf(d) ?? '-'}|${d.source ?? '-'}|sev ${d.severity}] ${d.message}`)
    .join('\n  ');
}

/** The position of the `occurrence`-th match of `needle` at or after the first line matching `after`. */
export function positionOf(doc: vscode.TextDocument, needle: string, after?: RegExp): vscode.Position {
  const text = doc.getText();
  let from = 0;
  if (after) {
    const m = after.exec(text);
    if (!m) throw new Error(`${doc.uri.path}: no match for ${after}`);
    from = m.index;
  }
  const i = text.indexOf(needle, from);
  if (i < 0) throw new Error(`${doc.uri.path}: "${needle}" not found${after ? ` after ${after}` : ''}`);
  return doc.positionAt(i);
}

export async function openDoc(relative: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(fileUri(relative));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/** Conflicts the CLI (`--format json`) reports for each example: written by the runner before the suite starts. */
export interface ExpectedAccess {
  array: string;
  line: number; // 1-based, as the CLI prints
  column: number; // 1-based
  degree: number | null;
  kernel?: string;
  message?: string;
}

export function readExpected(): Record<string, ExpectedAccess[]> | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(config.expectedFile, 'utf8'));
    return raw && typeof raw.files === 'object' ? raw.files : undefined;
  } catch {
    return undefined;
  }
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : String(c)))
    .join('\n---\n');
}
