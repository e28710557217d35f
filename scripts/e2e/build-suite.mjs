// Bundles the extension-host suite (test/e2e/suite) into out/e2e/suite/: index.js (with mocha inside, so the
// extension host needs no node_modules and no require() of an ES module) and one <name>.test.js per test file.
// `vscode` stays external: the extension host provides it.
import { build } from 'esbuild';
import { readdirSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, log } from './common.mjs';

export async function buildSuite() {
  const src = join(repoRoot, 'test', 'e2e', 'suite');
  const out = join(repoRoot, 'out', 'e2e', 'suite');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const tests = readdirSync(src).filter((f) => f.endsWith('.test.ts'));
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node18', // the oldest Node inside a supported VS Code (1.91)
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode'],
    logLevel: 'warning',
    logOverride: { 'require-resolve-not-external': 'silent' }, // mocha's parallel mode, unused here
    absWorkingDir: repoRoot,
  };
  await build({ ...common, entryPoints: [join(src, 'index.ts')], outfile: join(out, 'index.js') });
  await build({ ...common, entryPoints: tests.map((f) => join(src, f)), outdir: out, outExtension: { '.js': '.js' } });
  log(`suite bundled: out/e2e/suite/index.js + ${tests.length} test file(s)`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildSuite();
}
