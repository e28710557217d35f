// Formats findings for people (text), programs (JSON, per ../shared/cli-contract.md) and code scanning (SARIF 2.1.0).
import * as path from 'path';
import { AccessFinding, FileAnalysis, RequestFigures } from '../engine';

export interface FileReport {
  path: string;
  analysis: FileAnalysis;
}

const DOCS = 'https://github.com/cuda-bank-lens/cuda-bank-lens/blob/main/docs/diagnostics.md';

/** Banks 0..31 across, wavefronts down; each cell the lowest lane that needs that bank's n-th word. */
export function bankGrid(f: RequestFigures, banks = 32): string {
  const rows = Math.max(1, f.degree);
  const cells: string[][] = Array.from({ length: rows }, () => Array(banks).fill('  .'));
  for (const col of f.worstPhase.banks) {
    col.words.forEach((w, i) => {
      if (i < rows && col.bank < banks) cells[i][col.bank] = String(w.lanes[0]).padStart(3) + (w.lanes.length > 1 ? '+' : '');
    });
  }
  const head = '    bank ' + Array.from({ length: banks }, (_, b) => String(b).padStart(3)).join(' ');
  const body = cells.map((r, i) => `    wf ${String(i + 1).padStart(3)} ` + r.map((c) => c.padEnd(3)).join(' '));
  return [head, ...body].join('\n');
}

function severity(a: AccessFinding): string | null {
  if (a.outOfBounds) return 'error';
  if (a.status === 'conflict') return 'warning';
  if (a.status === 'broadcast') return 'note';
  return null;
}

export function renderText(reports: FileReport[], fixes: string[], verbose: boolean): string {
  const lines: string[] = [];
  const count = { conflict: 0, broadcast: 0, 'conflict-free': 0, unknown: 0 } as Record<string, number>;
  for (const r of reports) {
    for (const a of r.analysis.accesses) {
      count[a.status]++;
      const where = `${r.path}:${a.range.start.line + 1}:${a.range.start.character + 1}`;
      const ctx = `[${a.kind}${a.kernel ? `, ${a.kernel}` : ''}${a.block ? `, block ${a.block.join('x')}` : ''}]`;
      if (a.outOfBounds) lines.push(`${where}: error: ${a.outOfBounds.message} [out-of-bounds]`);
      const sev = severity(a) === 'error' ? (a.status === 'conflict' ? 'warning' : a.status === 'broadcast' ? 'note' : null) : severity(a);
      if (sev) lines.push(`${where}: ${sev}: ${a.message} ${ctx}`);
      else if (verbose) lines.push(`${where}: ${a.status === 'unknown' ? 'unknown' : 'ok'}: ${a.message} ${ctx}`);
      if (verbose && a.worst && a.status === 'conflict') lines.push(bankGrid(a.worst));
      if (verbose) for (const s of a.assumptions) lines.push(`    assumes: ${s}`);
      if (verbose && a.cases.length) for (const c of a.cases) lines.push(`    case ${JSON.stringify(c.context)}: ${c.degree}-way, ${c.wavefronts} wavefronts`);
    }
    for (const arr of r.analysis.arrays) {
      if (arr.fix) lines.push(`${r.path}:${arr.declRange.start.line + 1}:${arr.declRange.start.character + 1}: fix: ${arr.fix.title}`);
      else if (arr.noFixReason && verbose) lines.push(`${r.path}:${arr.declRange.start.line + 1}:${arr.declRange.start.character + 1}: no fix: ${arr.noFixReason}`);
    }
    for (const n of r.analysis.notices) lines.push(`${r.path}:${n.range.start.line + 1}:${n.range.start.character + 1}: ${n.severity}: ${n.message}`);
  }
  for (const f of fixes) lines.push(`fixed: ${f}`);
  const total = Object.values(count).reduce((a, b) => a + b, 0);
  lines.push(
    `${reports.length} file${reports.length === 1 ? '' : 's'}, ${total} shared-memory access${total === 1 ? '' : 'es'}: ` +
      `${count.conflict} with bank conflicts, ${count.broadcast} broadcast, ${count['conflict-free']} conflict-free, ${count.unknown} unknown`,
  );
  return lines.join('\n') + '\n';
}

function accessJson(a: AccessFinding) {
  const f = a.worst;
  return {
    array: a.array,
    sharedArray: a.sharedArray,
    line: a.range.start.line + 1,
    column: a.range.start.character + 1,
    endLine: a.range.end.line + 1,
    endColumn: a.range.end.character + 1,
    kind: a.kind,
    elementBytes: a.elementBytes || null, // null: the element type's size is not known
    status: a.status,
    degree: a.degree,
    wavefronts: a.wavefronts,
    idealWavefronts: a.idealWavefronts,
    distinctWords: f ? f.distinctWords : null,
    banksUsed: f ? f.banksUsed : null,
    activeLanes: f ? f.activeLanes : null,
    requestedBytes: f ? f.requestedBytes : null,
    resultBytes: f ? f.resultBytes : null,
    kernel: a.kernel,
    block: a.block,
    assumptions: a.assumptions,
    message: a.message,
    ...(a.reason ? { reason: a.reason } : {}),
    ...(a.cases.length ? { cases: a.cases.map((c) => ({ context: c.context, degree: c.degree, wavefronts: c.wavefronts, block: c.block, warp: c.warp })) } : {}),
    ...(a.outOfBounds ? { outOfBounds: a.outOfBounds } : {}),
  };
}

export function renderJson(reports: FileReport[], errors: { path: string; message: string }[], model: string, version: string): string {
  return JSON.stringify(
    {
      tool: 'cuda-bank-lens',
      version,
      model,
      files: reports.map((r) => ({
        path: r.path.split(path.sep).join('/'),
        accesses: r.analysis.accesses.map(accessJson),
        arrays: r.analysis.arrays.map((a) => ({
          name: a.name,
          line: a.declRange.start.line + 1,
          column: a.declRange.start.character + 1,
          type: a.typeText,
          accesses: a.accesses.length,
          worstDegree: a.worstDegree,
          ...(a.fix ? { fix: { title: a.fix.title, preferred: a.fix.preferred, newShape: a.fix.newShape, padding: a.fix.padding, edits: a.fix.edits } } : {}),
          ...(a.noFixReason ? { noFixReason: a.noFixReason } : {}),
        })),
        notices: r.analysis.notices.map((n) => ({ line: n.range.start.line + 1, column: n.range.start.character + 1, severity: n.severity, message: n.message })),
      })),
      errors,
    },
    null,
    2,
  );
}

export function renderSarif(reports: FileReport[], errors: { path: string; message: string }[], version: string): string {
  const rules = [
    { id: 'bank-conflict', name: 'SharedMemoryBankConflict', level: 'warning', text: 'A shared-memory request needs more wavefronts than ideal because lanes need distinct words from the same bank.' },
    { id: 'broadcast', name: 'SharedMemoryBroadcast', level: 'note', text: 'Every active lane addresses the same word: one word serves all lanes.' },
    { id: 'out-of-bounds', name: 'SharedMemoryOutOfBounds', level: 'error', text: 'An active lane indexes outside the declared extent of a shared array.' },
  ];
  const results: object[] = [];
  for (const r of reports) {
    const uri = r.path.split(path.sep).join('/');
    const loc = (a: AccessFinding) => [{
      physicalLocation: {
        artifactLocation: { uri },
        region: { startLine: a.range.start.line + 1, startColumn: a.range.start.character + 1, endLine: a.range.end.line + 1, endColumn: a.range.end.character + 1 },
      },
    }];
    for (const a of r.analysis.accesses) {
      const props = { kind: a.kind, degree: a.degree, wavefronts: a.wavefronts, idealWavefronts: a.idealWavefronts, kernel: a.kernel, block: a.block, assumptions: a.assumptions };
      if (a.outOfBounds) results.push({ ruleId: 'out-of-bounds', ruleIndex: 2, level: 'error', message: { text: a.outOfBounds.message }, locations: loc(a), properties: props });
      if (a.status === 'conflict') results.push({ ruleId: 'bank-conflict', ruleIndex: 0, level: 'warning', message: { text: a.message }, locations: loc(a), properties: props });
      else if (a.status === 'broadcast') results.push({ ruleId: 'broadcast', ruleIndex: 1, level: 'note', message: { text: a.message }, locations: loc(a), properties: props });
    }
  }
  return JSON.stringify(
    {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'cuda-bank-lens',
              version,
              semanticVersion: version,
              informationUri: 'https://github.com/cuda-bank-lens/cuda-bank-lens',
              rules: rules.map((x) => ({
                id: x.id, name: x.name, shortDescription: { text: x.text }, helpUri: `${DOCS}#${x.id}`, defaultConfiguration: { level: x.level },
              })),
            },
          },
          columnKind: 'utf16CodeUnits',
          results,
          invocations: [
            {
              executionSuccessful: errors.length === 0,
              toolExecutionNotifications: errors.map((e) => ({ level: 'error', message: { text: `${e.path}: ${e.message}` } })),
            },
          ],
        },
      ],
    },
    null,
    2,
  );
}
