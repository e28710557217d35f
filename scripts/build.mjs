// One bundle per entry into dist/, and the two tree-sitter .wasm files copied next to them.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, existsSync } from 'fs';
import { createRequire } from 'module';

const require = createRequire(import.meta.url);
mkdirSync('dist', { recursive: true });
// the ESM build of web-tree-sitter needs import.meta.url, which a CommonJS bundle lacks: take its CJS build
const common = { alias: { 'web-tree-sitter': require.resolve('web-tree-sitter').replace(/\.js$/, '.cjs') }, bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
const entries = [
  { entryPoints: ['server/cli/main.ts'], outfile: 'dist/cli.js' },
  { entryPoints: ['server/lsp/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['client/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  // `npm run bench` times the engine as it ships (a bundle), not as tsx compiles it for the tests
  { entryPoints: ['scripts/bench-cold.ts'], outfile: 'dist/bench-cold.js' },
].filter((e) => existsSync(e.entryPoints[0]));
await Promise.all(entries.map((e) => build({ ...common, ...e })));
copyFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), 'dist/web-tree-sitter.wasm');
copyFileSync(require.resolve('tree-sitter-cuda/tree-sitter-cuda.wasm'), 'dist/tree-sitter-cuda.wasm');
