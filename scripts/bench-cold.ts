// Timings in a fresh process, of the engine as it ships: `npm run build` bundles this file into dist/bench-cold.js,
// which scripts/bench.ts runs. Prints milliseconds as JSON.
// A first argument `--baseline-wasm` loads the grammar as the command line does (initParser's baselineWasm).
//   parse FILE     the first tree-sitter parse of a file
//   analyze FILE   the first full analysis (which includes its own parse); REPS=n in the environment runs n analyses
//                  one after another (to profile the warm engine: `node --cpu-prof dist/bench-cold.js analyze F`)
//   keys FILE      after one full analysis, REPS=n (default 200) one-character edits (a digit typed, then deleted)
//                  before the first `.0f;` past the middle of the file, each followed by an analysis of the same
//                  EngineDocument: the editor's keystroke path without the protocol (prints p50 and p95)
//   passes FILE... one warm-up pass over the files, then the mean per file over 5 passes (amortised), then over 50
//                  more (steady state, the JIT settled)
import * as fs from 'fs';
import { initEngine, analyzeText, EngineDocument } from '../server/engine';
import { parse } from '../server/engine/syntax/parser';

(async () => {
  const args = process.argv.slice(2);
  const baselineWasm = args[0] === '--baseline-wasm';
  const [mode, ...files] = baselineWasm ? args.slice(1) : args;
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  await initEngine({ baselineWasm });
  const t0 = performance.now();
  if (mode === 'parse') parse(texts[0]).delete();
  else if (mode === 'analyze') for (let i = 0; i < Number(process.env.REPS ?? 1); i++) analyzeText(texts[0], { budgetMs: 600000 });
  else if (mode === 'keys') {
    const text = texts[0];
    const doc = new EngineDocument(text);
    doc.analyze({ budgetMs: 600000 });
    const at = text.indexOf('.0f;', text.length >> 1);
    const times: number[] = [];
    for (let i = 0; i < Number(process.env.REPS ?? 200); i++) {
      const t = performance.now();
      doc.update(i % 2 === 0 ? text.slice(0, at) + String(i % 10) + text.slice(at) : text);
      doc.analyze({ budgetMs: 600000 });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ p50: times[Math.ceil(times.length / 2) - 1], p95: times[Math.ceil(times.length * 0.95) - 1] }) + '\n');
    doc.dispose();
    return;
  } else if (mode === 'passes') {
    for (const t of texts) analyzeText(t);
    const timed = (reps: number) => {
      const s = performance.now();
      for (let i = 0; i < reps; i++) for (const t of texts) analyzeText(t);
      return (performance.now() - s) / (reps * texts.length);
    };
    const amortised = timed(5);
    const steady = timed(50);
    process.stdout.write(JSON.stringify({ amortised, steady }) + '\n');
    return;
  } else throw new Error(`unknown mode ${mode}`);
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }) + '\n');
})();
