// The fuzzer's engine side, run in a worker thread (test/unit/fuzz.test.ts starts it): the main thread keeps a
// watchdog and can terminate this thread when an input hangs the engine, which a synchronous loop in the test's own
// thread could never do. Each message is one case; the answer says how long the engine took, whether it threw, and
// which invariants of the result it broke.
import { parentPort } from 'node:worker_threads';
import { initEngine, analyzeText, EngineDocument, AnalyzeOptions, FileAnalysis, Range } from '../../../server/engine';

export type FuzzRequest =
  | { id: number; op: 'analyze'; bytes: Uint8Array; options: AnalyzeOptions }
  /** an editing session: the same EngineDocument analyses each text in turn, as the language server does. */
  | { id: number; op: 'session'; texts: Uint8Array[]; options: AnalyzeOptions; compareFresh: boolean };

export interface FuzzResponse {
  id: number;
  /** engine wall time of the slowest analyze() call of the case, in milliseconds. */
  ms: number;
  /** index of that call within a session (0 for 'analyze'). */
  slowest: number;
  error?: string;
  /** broken invariants of a result, or a difference between an incremental and a fresh result. */
  problems: string[];
  accesses: number;
  incomplete: boolean;
}

const STATUSES = new Set(['conflict', 'conflict-free', 'broadcast', 'unknown']);
const KINDS = new Set(['load', 'store', 'atomic']);
const SEVERITIES = new Set(['error', 'warning', 'information']);

/** Engine positions are 0-based (line, UTF-16 character) over the document's `\n`-separated lines. */
function checkRange(what: string, r: Range | undefined, lines: string[], problems: string[]): void {
  if (!r || !r.start || !r.end) {
    problems.push(`${what}: no range`);
    return;
  }
  for (const [end, p] of [['start', r.start], ['end', r.end]] as const) {
    if (!Number.isInteger(p.line) || !Number.isInteger(p.character) || p.line < 0 || p.character < 0) {
      problems.push(`${what}.${end}: not a position: ${JSON.stringify(p)}`);
      return;
    }
    if (p.line >= lines.length || p.character > lines[p.line].length) {
      problems.push(`${what}.${end}: ${p.line}:${p.character} is outside the document (${lines.length} lines, that one ${lines[p.line]?.length ?? 'missing'} long)`);
      return;
    }
  }
  if (r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character)) problems.push(`${what}: ends before it starts`);
}

/** Invariants every FileAnalysis must keep, whatever the input. */
export function checkResult(r: FileAnalysis, text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  try {
    JSON.stringify(r);
  } catch (e) {
    problems.push(`the result is not plain data: ${(e as Error).message}`);
  }
  if (!Array.isArray(r.accesses) || !Array.isArray(r.arrays) || !Array.isArray(r.notices)) return [...problems, 'accesses, arrays or notices is not an array'];
  r.accesses.forEach((a, i) => {
    const w = `accesses[${i}] (${a.message})`;
    if (!STATUSES.has(a.status)) problems.push(`${w}: status ${a.status}`);
    if (!KINDS.has(a.kind)) problems.push(`${w}: kind ${a.kind}`);
    if (typeof a.message !== 'string' || !a.message) problems.push(`${w}: no message`);
    if (a.status === 'unknown') {
      if (a.degree !== null || typeof a.reason !== 'string' || !a.reason) problems.push(`${w}: unknown without a reason, or with a degree`);
    } else {
      if (!Number.isInteger(a.degree) || a.degree! < 1) problems.push(`${w}: degree ${a.degree}`);
      if (!Number.isInteger(a.wavefronts) || a.wavefronts! < 1) problems.push(`${w}: wavefronts ${a.wavefronts}`);
      if (a.status === 'conflict' && a.degree! < 2) problems.push(`${w}: a conflict of degree ${a.degree}`);
    }
    checkRange(`${w}.range`, a.range, lines, problems);
    checkRange(`${w}.exprRange`, a.exprRange, lines, problems);
    checkRange(`${w}.declRange`, a.declRange, lines, problems);
    if (a.outOfBounds && (!Number.isInteger(a.outOfBounds.lane) || a.outOfBounds.lane < 0 || a.outOfBounds.lane > 31)) problems.push(`${w}: out-of-bounds lane ${a.outOfBounds.lane}`);
  });
  r.arrays.forEach((a, i) => {
    const w = `arrays[${i}] (${a.name})`;
    checkRange(`${w}.declRange`, a.declRange, lines, problems);
    for (const x of a.accesses) if (!Number.isInteger(x) || x < 0 || x >= r.accesses.length) problems.push(`${w}: access index ${x} out of range`);
    if (a.fix) a.fix.edits.forEach((e, j) => checkRange(`${w}.fix.edits[${j}]`, e.range, lines, problems));
  });
  r.notices.forEach((n, i) => {
    if (!SEVERITIES.has(n.severity)) problems.push(`notices[${i}]: severity ${n.severity}`);
    if (typeof n.message !== 'string' || !n.message) problems.push(`notices[${i}]: no message`);
    checkRange(`notices[${i}].range`, n.range, lines, problems);
  });
  if (r.incomplete && !r.notices.some((n) => /budget/.test(n.message))) problems.push('incomplete, but no notice says the budget was exceeded');
  return problems;
}

const decode = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
/** a result the budget did not cut short anywhere (a budget-stopped padding search differs from run to run). */
const complete = (r: FileAnalysis) => !r.incomplete && !r.arrays.some((a) => a.noFixReason?.includes('budget'));
const comparable = (r: FileAnalysis) => JSON.stringify({ accesses: r.accesses, arrays: r.arrays, notices: r.notices, model: r.model });

/** the first place where two results differ, for the failure message. */
function difference(incremental: FileAnalysis, fresh: FileAnalysis): string {
  for (const key of ['notices', 'accesses', 'arrays'] as const) {
    const a = incremental[key] as unknown[];
    const b = fresh[key] as unknown[];
    if (a.length !== b.length) return `${a.length} ${key} incrementally, ${b.length} fresh`;
    for (let i = 0; i < a.length; i++) {
      const x = JSON.stringify(a[i]);
      const y = JSON.stringify(b[i]);
      if (x === y) continue;
      let at = 0;
      while (x[at] === y[at]) at++;
      return `${key}[${i}] differs at ...${x.slice(Math.max(0, at - 80), at + 80)}... (fresh: ...${y.slice(Math.max(0, at - 80), at + 80)}...)`;
    }
  }
  return incremental.model === fresh.model ? 'in an unknown way' : 'model';
}

function handle(msg: FuzzRequest): FuzzResponse {
  const out: FuzzResponse = { id: msg.id, ms: 0, slowest: 0, problems: [], accesses: 0, incomplete: false };
  const texts = msg.op === 'analyze' ? [msg.bytes] : msg.texts;
  const doc = msg.op === 'session' ? new EngineDocument('') : null;
  try {
    texts.forEach((bytes, i) => {
      const text = decode(bytes);
      const t0 = performance.now();
      let r: FileAnalysis;
      if (doc) {
        doc.update(text);
        r = doc.analyze(msg.options);
      } else r = analyzeText(text, msg.options);
      const ms = performance.now() - t0;
      if (ms > out.ms) {
        out.ms = ms;
        out.slowest = i;
      }
      out.accesses = r.accesses.length;
      out.incomplete = !!r.incomplete;
      for (const p of checkResult(r, text)) out.problems.push(texts.length > 1 ? `edit ${i}: ${p}` : p);
      if (doc && msg.op === 'session' && msg.compareFresh && complete(r)) {
        const fresh = analyzeText(text, msg.options);
        if (complete(fresh) && comparable(fresh) !== comparable(r)) out.problems.push(`edit ${i}: the incremental result differs from a fresh analysis of the same text: ${difference(r, fresh)}`);
      }
    });
  } catch (e) {
    out.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  } finally {
    doc?.dispose();
  }
  return out;
}

if (parentPort) {
  const port = parentPort;
  initEngine().then(
    () => {
      port.on('message', (msg: FuzzRequest) => port.postMessage(handle(msg)));
      port.postMessage({ ready: true });
    },
    (e: unknown) => port.postMessage({ ready: false, error: String(e) }),
  );
}
