// The per-document scheduler with a fake analyzer: debounce, version checks, waiting for fresh results,
// cancellation, settings invalidation and close.
import { strict as assert } from 'assert';
import { describe, it } from 'node:test';
import type { FileAnalysis } from '../../server/engine';
import { AnalysisResult, AnalysisScheduler } from '../../server/lsp/scheduler';
import { DEFAULT_SETTINGS, Settings } from '../../server/lsp/settings';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function setup(debounceMs = 30, opts: { analyzeMs?: number; fail?: boolean; incompleteRuns?: number; maxContinuations?: number; onAnalyze?: (text: string) => void } = {}) {
  const docs = new Map<string, { version: number; text: string }>();
  const results: AnalysisResult[] = [];
  const analysed: string[] = [];
  let settings: Settings = { ...DEFAULT_SETTINGS };
  let incompleteLeft = opts.incompleteRuns ?? 0;
  const s = new AnalysisScheduler({
    debounceMs,
    continueIncomplete: { delayMs: 5, max: opts.maxContinuations ?? 20 },
    getDocument: (uri) => {
      const d = docs.get(uri);
      return d && { version: d.version, getText: () => d.text };
    },
    getSettings: async () => settings,
    createAnalyzer: () => {
      let text = '';
      return {
        update: (t) => {
          text = t;
        },
        analyze: (st): FileAnalysis => {
          if (opts.fail) throw new Error('boom');
          const until = Date.now() + (opts.analyzeMs ?? 0);
          while (Date.now() < until) {
            /* a synchronous engine */
          }
          analysed.push(text);
          opts.onAnalyze?.(text);
          const incomplete = incompleteLeft > 0;
          if (incomplete) incompleteLeft--;
          return { model: st.architecture, accesses: [], arrays: [], notices: [], incomplete };
        },
        dispose: () => undefined,
      };
    },
    onResult: (r) => results.push(r),
    onError: (_uri, _v, e) => ({ model: 'error', accesses: [], arrays: [], notices: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: String(e), severity: 'error' }] }),
  });
  const edit = (uri: string, text: string) => {
    const d = docs.get(uri);
    docs.set(uri, { version: (d?.version ?? 0) + 1, text });
    s.schedule(uri);
  };
  return { s, docs, results, analysed, edit, setSettings: (x: Partial<Settings>) => (settings = { ...settings, ...x }) };
}

describe('lsp scheduler', () => {
  it('debounces a burst of edits into one analysis of the last text', async () => {
    const t = setup(30);
    for (let i = 0; i < 10; i++) t.edit('a', `v${i}`);
    await sleep(100);
    assert.deepEqual(t.analysed, ['v9']);
    assert.equal(t.results.length, 1);
    assert.equal(t.results[0].version, 10);
    t.s.dispose();
  });

  it('drops a result when the text changed while the analysis ran', async () => {
    // an edit that arrives while the (synchronous) analysis of version 1 runs: queued during it, as a message on the
    // connection would be, so it lands after the analysis and before the scheduler looks at the version again
    const t = setup(0, {
      analyzeMs: 40,
      onAnalyze: (text) => {
        if (text === 'one') setImmediate(() => t.edit('a', 'two'));
      },
    });
    t.edit('a', 'one');
    await sleep(150);
    assert.deepEqual(t.analysed, ['one', 'two']);
    assert.ok(t.results.every((r) => r.version === 2), `stale results published: ${t.results.map((r) => r.version)}`);
    assert.equal(t.results.at(-1)?.version, 2);
    t.s.dispose();
  });

  it('whenFresh returns the current result at once, or waits for the pending one', async () => {
    const t = setup(30);
    t.edit('a', 'x');
    const waiting = t.s.whenFresh('a');
    const r = await waiting;
    assert.equal(r?.version, 1);
    const again = await t.s.whenFresh('a');
    assert.equal(again, r, 'fresh result reused');
    t.edit('a', 'y');
    assert.equal((await t.s.whenFresh('a'))?.version, 2);
    assert.equal(await t.s.whenFresh('nope'), undefined);
    t.s.dispose();
  });

  it('whenFresh honours cancellation', async () => {
    const t = setup(200);
    t.edit('a', 'x');
    let cancel: () => void = () => undefined;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (l: () => void) => {
        cancel = l;
        return { dispose: () => undefined };
      },
    };
    const p = t.s.whenFresh('a', token);
    cancel();
    assert.equal(await p, undefined);
    t.s.dispose();
  });

  it('re-analyses every open document when the settings change', async () => {
    const t = setup(10);
    t.edit('a', 'x');
    t.edit('b', 'y');
    await sleep(60);
    assert.equal(t.results.length, 2);
    t.setSettings({ architecture: 'sm_2x' });
    t.s.invalidateAll();
    const r = await t.s.whenFresh('a');
    assert.equal(r?.settings.architecture, 'sm_2x');
    await sleep(30);
    assert.equal(t.results.length, 4);
    t.s.dispose();
  });

  it('turns an engine error into a result with a notice', async () => {
    const t = setup(0, { fail: true });
    t.edit('a', 'x');
    const r = await t.s.whenFresh('a');
    assert.equal(r?.result.notices[0].message, 'Error: boom');
    t.s.dispose();
  });

  it('continues an incomplete analysis while idle, up to the cap', async () => {
    const t = setup(0, { incompleteRuns: 2 });
    t.edit('a', 'x');
    await sleep(80);
    assert.deepEqual(t.results.map((r) => [r.version, !!r.result.incomplete]), [[1, true], [1, true], [1, false]]);
    const capped = setup(0, { incompleteRuns: 100, maxContinuations: 3 });
    capped.edit('a', 'x');
    await sleep(80);
    assert.equal(capped.results.length, 4, 'the first run and three continuations');
    t.s.dispose();
    capped.s.dispose();
  });

  it('close cancels the timer and answers waiters with undefined', async () => {
    const t = setup(100);
    t.edit('a', 'x');
    const p = t.s.whenFresh('a');
    t.docs.delete('a');
    t.s.close('a');
    assert.equal(await p, undefined);
    await sleep(150);
    assert.equal(t.results.length, 0);
  });
});
