#!/usr/bin/env node
// `npm run test:e2e` (after `npm run build`): setup, then every end-to-end part, then one summary.
//   1. the extension-host suite + UI test in code-server and headless Chromium (offline; always)
//   2. the same suite in desktop VS Code through @vscode/test-electron (when VSCODE_EXECUTABLE is set, or
//      CUDA_BANK_LENS_E2E_ELECTRON=1 to let it download VS Code)
//   3. Neovim's LSP client against the language server
// Ends with "e2e: N passed, N failed" and exits 1 when anything failed.
// Skips: CUDA_BANK_LENS_E2E_SKIP=code-server,nvim,electron (comma list).
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';
import { runCodeServerRunner } from './run-code-server.mjs';
import { runElectron } from './run-electron.mjs';
import { runNvim } from './run-nvim.mjs';

const t0 = Date.now();
const limitS = Number(process.env.CUDA_BANK_LENS_E2E_TOTAL_TIMEOUT_S || 1800);
const hard = setTimeout(() => {
  console.error(`[e2e] the end-to-end tests did not finish within ${limitS} s (CUDA_BANK_LENS_E2E_TOTAL_TIMEOUT_S); exiting`);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(124);
}, limitS * 1000);
hard.unref();

const skip = new Set((process.env.CUDA_BANK_LENS_E2E_SKIP || '').split(',').map((s) => s.trim()).filter(Boolean));
const parts = [];
const timings = {};

const tSetup = Date.now();
const setup = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'e2e', 'setup.mjs')], { stdio: 'inherit' });
timings.setup = (Date.now() - tSetup) / 1000;
if (setup.status !== 0) {
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
}

if (!skip.has('code-server')) {
  log('--- code-server + Chromium: extension-host suite and UI test ---');
  const r = await runCodeServerRunner({ setup: false });
  timings['code-server'] = r.seconds;
  parts.push(['code-server', r]);
}
if (!skip.has('electron') && (process.env.VSCODE_EXECUTABLE || process.env.CUDA_BANK_LENS_E2E_ELECTRON === '1')) {
  log('--- @vscode/test-electron: extension-host suite in desktop VS Code ---');
  const r = await runElectron();
  timings.electron = r.seconds;
  parts.push(['electron', r]);
} else if (!skip.has('electron')) {
  log('--- @vscode/test-electron: skipped (set VSCODE_EXECUTABLE, or CUDA_BANK_LENS_E2E_ELECTRON=1 to download VS Code) ---');
}
if (!skip.has('nvim')) {
  log('--- Neovim LSP client ---');
  const r = await runNvim();
  timings.nvim = r.seconds;
  parts.push(['nvim', r]);
}

let passed = 0;
let failed = 0;
console.log('\n[e2e] summary');
for (const [name, r] of parts) {
  passed += r.passed;
  failed += r.failed;
  for (const t of r.tests) console.log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'pending' ? 'skip' : 'FAIL'} [${name}] ${t.title}`);
}
timings.total = (Date.now() - t0) / 1000;
mkdirSync(paths.results, { recursive: true });
writeFileSync(join(paths.results, 'summary.json'), JSON.stringify({ passed, failed, timings, parts: Object.fromEntries(parts) }, null, 2) + '\n');
console.log(`[e2e] timings (s): ${Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
