// Per-document analysis: debounced after each edit, one document per macrotask, and a version check so a result
// for text that has since changed is dropped instead of published. The engine is synchronous; its own budget
// (analysisBudgetMs) bounds one run, and the debounce keeps typing from queueing runs.
import type { FileAnalysis } from '../engine';
import type { Settings } from './settings';

export interface SchedulerDocument {
  version: number;
  getText(): string;
}

/** What the scheduler needs from the engine: one object per open document. */
export interface AnalyzerDocument {
  update(text: string): void;
  analyze(settings: Settings): FileAnalysis;
  dispose(): void;
}

export interface AnalysisResult {
  uri: string;
  version: number;
  result: FileAnalysis;
  settings: Settings;
  /** milliseconds spent in the engine. */
  ms: number;
  /** milliseconds from the last edit (schedule call) to this result, debounce included. */
  sinceEditMs: number;
  /** settings epoch the result was computed under. */
  epoch: number;
  /** the document's refresh count when it was computed (see refresh). */
  stamp?: number;
}

export interface SchedulerOptions {
  debounceMs: number;
  /**
   * When a result is `incomplete` (the budget stopped the engine), analyse the same text again after this idle delay:
   * the engine continues with the kernels it has not finished. At most `max` times per version.
   */
  continueIncomplete?: { delayMs: number; max: number };
  getDocument(uri: string): SchedulerDocument | undefined;
  getSettings(uri: string): Promise<Settings>;
  createAnalyzer(uri: string): AnalyzerDocument;
  onResult(result: AnalysisResult): void;
  onError(uri: string, version: number, error: unknown): FileAnalysis | undefined;
}

interface CancellationLike {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

interface DocState {
  analyzer?: AnalyzerDocument;
  timer?: ReturnType<typeof setTimeout>;
  scheduledAt: number;
  running: boolean;
  rerun: boolean;
  latest?: AnalysisResult;
  waiters: Set<(r: AnalysisResult | undefined) => void>;
  /** how often something outside the text changed (a header it reads): a result of an older count is stale. */
  stamp: number;
  /** continuation runs made for `continuedVersion`. */
  continuations: number;
  continuedVersion: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class AnalysisScheduler {
  private readonly docs = new Map<string, DocState>();
  private epoch = 0;
  private disposed = false;

  constructor(private readonly o: SchedulerOptions) {}

  get debounceMs(): number {
    return this.o.debounceMs;
  }

  private state(uri: string): DocState {
    let s = this.docs.get(uri);
    if (!s) {
      s = { running: false, rerun: false, waiters: new Set(), scheduledAt: performance.now(), stamp: 0, continuations: 0, continuedVersion: -1 };
      this.docs.set(uri, s);
    }
    return s;
  }

  /** (Re)starts the debounce timer of a document: call after every open and change. */
  schedule(uri: string, delayMs = this.o.debounceMs, continuation = false): void {
    if (this.disposed) return;
    const s = this.state(uri);
    if (s.timer) clearTimeout(s.timer);
    if (!continuation) s.scheduledAt = performance.now();
    s.timer = setTimeout(() => {
      s.timer = undefined;
      void this.run(uri);
    }, Math.max(0, delayMs));
  }

  /** Settings changed: every result is stale; re-analyse all open documents now. */
  invalidateAll(): void {
    this.epoch++;
    for (const uri of this.docs.keys()) if (this.o.getDocument(uri)) this.schedule(uri, 0);
  }

  /** Something the document's result depends on outside its text changed (a header it includes): analyse it again. */
  refresh(uri: string): void {
    if (!this.o.getDocument(uri)) return;
    this.state(uri).stamp++;
    this.schedule(uri);
  }

  /** The newest published result, whatever its version. */
  latest(uri: string): AnalysisResult | undefined {
    return this.docs.get(uri)?.latest;
  }

  private isFresh(uri: string, r: AnalysisResult | undefined): r is AnalysisResult {
    const doc = this.o.getDocument(uri);
    return !!r && !!doc && r.version === doc.version && r.epoch === this.epoch && (r.stamp ?? 0) === (this.docs.get(uri)?.stamp ?? 0);
  }

  /** The latest result if it matches the current text, else waits for the pending analysis (undefined when cancelled or closed). */
  whenFresh(uri: string, token?: CancellationLike): Promise<AnalysisResult | undefined> {
    const s = this.docs.get(uri);
    if (!this.o.getDocument(uri)) return Promise.resolve(undefined);
    if (s && this.isFresh(uri, s.latest)) return Promise.resolve(s.latest);
    const st = this.state(uri);
    if (!st.timer && !st.running) this.schedule(uri, 0);
    return new Promise((resolve) => {
      let sub: { dispose(): void } | undefined;
      const waiter = (r: AnalysisResult | undefined) => {
        sub?.dispose();
        resolve(r);
      };
      st.waiters.add(waiter);
      if (token) {
        if (token.isCancellationRequested) {
          st.waiters.delete(waiter);
          resolve(undefined);
          return;
        }
        sub = token.onCancellationRequested(() => {
          st.waiters.delete(waiter);
          resolve(undefined);
        });
      }
    });
  }

  private async run(uri: string): Promise<void> {
    const s = this.state(uri);
    if (s.running) {
      s.rerun = true;
      return;
    }
    s.running = true;
    try {
      await this.runOnce(uri, s);
    } finally {
      s.running = false;
      if (s.rerun && !this.disposed) {
        s.rerun = false;
        if (!s.timer) this.schedule(uri, 0);
      }
    }
  }

  private async runOnce(uri: string, s: DocState): Promise<void> {
    const doc = this.o.getDocument(uri);
    if (!doc || this.disposed) return;
    const version = doc.version;
    const epoch = this.epoch;
    const stamp = s.stamp;
    const settings = await this.o.getSettings(uri);
    // Edits that arrived while the settings were fetched restarted the timer: leave the work to that run.
    if (this.stale(uri, version, epoch) || s.stamp !== stamp || s.timer) return;
    const t0 = performance.now();
    let result: FileAnalysis | undefined;
    try {
      s.analyzer ??= this.o.createAnalyzer(uri);
      s.analyzer.update(doc.getText());
      result = s.analyzer.analyze(settings);
    } catch (error) {
      result = this.o.onError(uri, version, error);
    }
    const ms = performance.now() - t0;
    // Let messages that queued up during the (synchronous) analysis arrive, then drop the result if it is stale.
    await yieldToLoop();
    if (this.stale(uri, version, epoch) || s.stamp !== stamp || !result) return;
    const r: AnalysisResult = { uri, version, result, settings, ms, epoch, stamp, sinceEditMs: performance.now() - s.scheduledAt };
    s.latest = r;
    this.o.onResult(r);
    for (const w of [...s.waiters]) {
      s.waiters.delete(w);
      w(r);
    }
    const more = this.o.continueIncomplete;
    if (result.incomplete && more) {
      if (s.continuedVersion !== version) {
        s.continuedVersion = version;
        s.continuations = 0;
      }
      if (s.continuations < more.max && !s.timer) {
        s.continuations++;
        this.schedule(uri, more.delayMs, true);
      }
    }
  }

  private stale(uri: string, version: number, epoch: number): boolean {
    const doc = this.o.getDocument(uri);
    return this.disposed || !doc || doc.version !== version || epoch !== this.epoch;
  }

  /** A document closed: forget its state and answer its waiters with undefined. */
  close(uri: string): void {
    const s = this.docs.get(uri);
    if (!s) return;
    if (s.timer) clearTimeout(s.timer);
    s.analyzer?.dispose();
    for (const w of s.waiters) w(undefined);
    this.docs.delete(uri);
  }

  dispose(): void {
    this.disposed = true;
    for (const uri of [...this.docs.keys()]) this.close(uri);
  }
}
