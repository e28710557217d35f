// Test helpers: run the engine on a file or a source string and pick accesses by what the source says.
import * as fs from 'fs';
import * as path from 'path';
import assert from 'node:assert/strict';
import { initEngine, analyzeText, AnalyzeOptions, FileAnalysis, AccessFinding } from '../../../server/engine';

import { ROOT } from './common';
export { ROOT };
export const ready = initEngine();

/**
 * A fixture's analysis. Tests that read a file check figures, not the clock: the budget is a minute unless a test
 * gives its own (the budget itself is tested with explicit budgets, robustness and fuzz tests), so a loaded machine
 * cannot turn a fixture's kernel into `analysis budget exceeded`.
 */
export function analyzeFile(rel: string, options: AnalyzeOptions = {}): { text: string; result: FileAnalysis } {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  return { text, result: analyzeText(text, { budgetMs: 60_000, ...options }) };
}

/** 0-based line of the first line containing `snippet` (after `from`, if given). */
export function lineOf(text: string, snippet: string, from = 0): number {
  const lines = text.split('\n');
  for (let i = from; i < lines.length; i++) if (lines[i].includes(snippet)) return i;
  throw new Error(`no line contains ${JSON.stringify(snippet)}`);
}

/** The access of `kind` whose expression is `expr` on the line containing `snippet` (and inside `kernel`, if given). */
export function accessAt(r: FileAnalysis, text: string, snippet: string, kind: AccessFinding['kind'], expr?: string): AccessFinding {
  const line = lineOf(text, snippet);
  const lines = text.split('\n');
  const found = r.accesses.filter((a) => a.range.start.line === line && a.kind === kind &&
    (!expr || lines[line].slice(a.exprRange.start.character, a.exprRange.end.character).startsWith(expr)));
  if (found.length !== 1) throw new Error(`expected one ${kind} at ${JSON.stringify(snippet)}${expr ? ` (${expr})` : ''}, found ${found.length}: ${found.map((f) => f.message).join(' | ')}`);
  return found[0];
}

/** The access of `kind` on the line containing `snippet` in `kernel` (several kernels may share a macro's line). */
export function inKernel(r: FileAnalysis, text: string, snippet: string, kind: AccessFinding['kind'], kernel: string): AccessFinding {
  const line = lineOf(text, snippet);
  const found = r.accesses.filter((a) => a.range.start.line === line && a.kind === kind && a.kernel === kernel);
  if (found.length !== 1) throw new Error(`expected one ${kind} of ${kernel} at ${JSON.stringify(snippet)}, found ${found.length}: ${found.map((f) => f.message).join(' | ')}`);
  return found[0];
}

/** Asserts an access's status, degree, wavefronts and its worst request's distinct words and active lanes. */
export function figures(a: AccessFinding, status: string, degree: number, wavefronts: number, words: number, lanes: number): void {
  assert.equal(a.status, status, a.message);
  assert.equal(a.degree, degree);
  assert.equal(a.wavefronts, wavefronts);
  assert.equal(a.worst!.distinctWords, words);
  assert.equal(a.worst!.activeLanes, lanes);
}

/** figures() of an access of a one-warp launch (block 32x1x1). */
export function warpFigures(a: AccessFinding, status: string, degree: number, wavefronts: number, words: number, lanes: number): void {
  figures(a, status, degree, wavefronts, words, lanes);
  assert.deepEqual(a.block, [32, 1, 1]);
}
