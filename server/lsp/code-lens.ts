// One code lens above each __shared__ declaration: `3 accesses · worst 32-way · pad to [32][33]`.
import { CodeLens, Command } from 'vscode-languageserver';
import type { ArrayFinding, FileAnalysis } from '../engine';
import { plural } from './format';
import { ApplyPaddingCommand } from './protocol';

export function lensTitle(analysis: FileAnalysis, array: ArrayFinding): string {
  const accesses = array.accesses.map((i) => analysis.accesses[i]).filter(Boolean);
  const parts = [plural(accesses.length, 'access', 'accesses')];
  const conflicts = accesses.filter((a) => a.status === 'conflict');
  const unknown = accesses.filter((a) => a.status === 'unknown').length;
  if (conflicts.length) {
    const worst = array.worstDegree ?? Math.max(...conflicts.map((a) => a.degree ?? 0));
    parts.push(`worst ${worst}-way`);
    if (array.fix) parts.push(`pad to ${array.fix.newShape}`);
  } else if (accesses.length && unknown === accesses.length) {
    parts.push('unknown');
  } else {
    parts.push('no conflicts');
  }
  if (unknown && unknown < accesses.length) parts.push(`${unknown} unknown`);
  const oob = accesses.filter((a) => a.outOfBounds).length;
  if (oob) parts.push(`${oob} out of bounds`);
  return parts.join(' · ');
}

/** Lenses for every array; with a fix, clicking applies it (server command `cudaBankLens.applyPadding`). */
export function codeLenses(analysis: FileAnalysis, uri: string, version: number | null): CodeLens[] {
  return analysis.arrays.map((array) => {
    const title = lensTitle(analysis, array);
    const command: Command = array.fix
      ? Command.create(title, ApplyPaddingCommand, { uri, version, title: array.fix.title, edits: array.fix.edits })
      : Command.create(title, '');
    const lens: CodeLens = { range: array.declRange, command };
    return lens;
  });
}
