// Timings in a fresh process, of the engine as it ships: `npm run build` bundles this file into dist/bench-cold.js,
// which scripts/bench.ts runs. Prints milliseconds as JSON.
// A first argument `--baseline-wasm` loads the grammar as the command line does (initParser's baselineWasm).
//   parse FILE     the first tree-sitter parse of a file
//   analyze FILE   the first full analysis (which includes its own parse); REPS=n in the environment runs n analyses
//                  one after another (to profile the warm engine: `node --cpu-prof dist/bench-cold.js analyze F`)
//   passes FILE... one warm-up pass over the files, then the mean per file over 5 passes (amortised), then over 50
//                  more (steady state, the JIT settled)
import * as fs from 'fs';
import { initEngine, analyzeText } from '../server/engine';
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
  else if (mode === 'passes') {
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
