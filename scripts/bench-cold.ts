// One cold measurement in a fresh process (run by scripts/bench.ts): `parse` times the first tree-sitter parse of a
// file, `analyze` the first full analysis (which includes its own parse). Prints milliseconds as JSON.
import * as fs from 'fs';
import { initEngine, analyzeText } from '../server/engine';
import { parse } from '../server/engine/syntax/parser';

(async () => {
  const [mode, file] = process.argv.slice(2);
  const text = fs.readFileSync(file, 'utf8');
  await initEngine();
  const t0 = performance.now();
  if (mode === 'parse') parse(text).delete();
  else analyzeText(text, { budgetMs: 60000 });
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }) + '\n');
})();
