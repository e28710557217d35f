// FileAnalysis -> LSP diagnostics. Renders the engine's findings; never recomputes bank math.
import { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity } from 'vscode-languageserver';
import type { AccessFinding, ArrayFinding, FileAnalysis, TextEdit } from '../engine';
import { Codes, DOCS_BASE, SOURCE } from './protocol';
import type { SeveritySetting, Settings } from './settings';

/** What a diagnostic carries for code actions, so they never need the analysis again. */
export interface DiagnosticData {
  /** document version the finding was computed for. */
  version: number | null;
  array: string;
  status: AccessFinding['status'];
  degree: number | null;
  wavefronts: number | null;
  idealWavefronts: number | null;
  fix?: { title: string; preferred: boolean; edits: TextEdit[]; newShape: string };
}

const SEVERITY: Record<SeveritySetting, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function codeHref(code: string): string {
  return `${DOCS_BASE}#${code}`;
}

/** The array finding that owns access number `index`. */
export function arrayOfAccess(analysis: FileAnalysis, index: number): ArrayFinding | undefined {
  return analysis.arrays.find((a) => a.accesses.includes(index));
}

const HREFS = new Map<string, { href: string }>();

function make(
  range: Diagnostic['range'],
  message: string,
  severity: DiagnosticSeverity,
  code: string,
  related?: DiagnosticRelatedInformation[],
  data?: DiagnosticData,
): Diagnostic {
  let codeDescription = HREFS.get(code);
  if (!codeDescription) HREFS.set(code, (codeDescription = { href: codeHref(code) }));
  const d: Diagnostic = { range, message, severity, code, codeDescription, source: SOURCE };
  if (related) d.relatedInformation = related;
  if (data) d.data = data;
  return d;
}

export interface DiagnosticOptions {
  uri: string;
  version: number | null;
  settings: Pick<Settings, 'severity' | 'showBroadcastHints' | 'showUnknown'>;
  /** false when the client did not announce relatedInformation support. */
  relatedInformation?: boolean;
}

export function toDiagnostics(analysis: FileAnalysis, options: DiagnosticOptions): Diagnostic[] {
  const { settings, uri } = options;
  const out: Diagnostic[] = [];
  // owner array of each access, and per-array parts shared by its diagnostics (one pass, not a search per access)
  const owner: (ArrayFinding | undefined)[] = new Array(analysis.accesses.length);
  const fixes = new Map<ArrayFinding, DiagnosticData['fix']>();
  for (const array of analysis.arrays) {
    for (const i of array.accesses) owner[i] ??= array;
    if (array.fix) fixes.set(array, { title: array.fix.title, preferred: array.fix.preferred, edits: array.fix.edits, newShape: array.fix.newShape });
  }
  const conflictSeverity = SEVERITY[settings.severity];
  analysis.accesses.forEach((a, index) => {
    const array = owner[index];
    const related = (): DiagnosticRelatedInformation[] | undefined =>
      options.relatedInformation === false
        ? undefined
        : [
            {
              location: { uri, range: a.declRange },
              message: `${a.sharedArray} is declared here${array?.typeText ? ` as __shared__ ${array.typeText}` : ''}`,
            },
          ];
    const data = (withFix: boolean): DiagnosticData => {
      const d: DiagnosticData = {
        version: options.version,
        array: a.sharedArray,
        status: a.status,
        degree: a.degree,
        wavefronts: a.wavefronts,
        idealWavefronts: a.idealWavefronts,
      };
      const fix = withFix && array ? fixes.get(array) : undefined;
      if (fix) d.fix = fix;
      return d;
    };
    if (a.status === 'conflict') {
      out.push(make(a.range, a.message, conflictSeverity, Codes.bankConflict, related(), data(true)));
    } else if (a.status === 'broadcast' && settings.showBroadcastHints) {
      out.push(make(a.range, a.message, DiagnosticSeverity.Hint, Codes.broadcast, undefined, data(false)));
    } else if (a.status === 'unknown' && settings.showUnknown) {
      const message = a.message || `${a.array}: unknown: ${a.reason ?? 'the analysis could not evaluate this access'}`;
      out.push(make(a.range, message, DiagnosticSeverity.Information, Codes.unknown, undefined, data(false)));
    }
    if (a.outOfBounds) {
      out.push(make(a.exprRange ?? a.range, a.outOfBounds.message, DiagnosticSeverity.Error, Codes.outOfBounds, related(), data(false)));
    }
  });
  for (const n of analysis.notices) {
    out.push(make(n.range, n.message, DiagnosticSeverity.Information, Codes.notice));
  }
  return out;
}
