#!/usr/bin/env node
// Runner 1, the ecosystem standard: @vscode/test-electron's runTests() starts desktop VS Code with the extension
// in development and the same mocha suite (out/e2e/suite/index.js).
//
//   VSCODE_EXECUTABLE=/path/to/code node scripts/e2e/run-electron.mjs   # a VS Code already on the machine
//   node scripts/e2e/run-electron.mjs                                   # downloads VS Code into .vscode-test/
//
// On Linux without a display, run it under a virtual one: `xvfb-run -a node scripts/e2e/run-electron.mjs`.
// Environment: VSCODE_EXECUTABLE (a VS Code binary: `code`, or the Electron binary inside an install),
//              VSCODE_VERSION (what to download when VSCODE_EXECUTABLE is unset; default stable),
//              CUDA_BANK_LENS_E2E_TIMEOUT_S (whole run, default 600), CUDA_BANK_LENS_E2E_GREP.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';
import { prepareRun } from './workspace.mjs';
import { buildSuite } from './build-suite.mjs';

const require = createRequire(import.meta.url);

export async function runElectron() {
  const t0 = Date.now();
  const tests = [];
  const done = (extra) => {
    const passed = tests.filter((t) => t.state === 'passed').length;
    const out = { passed, failed: tests.length - passed - tests.filter((t) => t.state === 'pending').length, tests, seconds: (Date.now() - t0) / 1000, ...extra };
    mkdirSync(paths.results, { recursive: true });
    writeFileSync(join(paths.results, 'electron.json'), JSON.stringify(out, null, 2) + '\n');
    return out;
  };
  const exe = process.env.VSCODE_EXECUTABLE;
  if (exe && !existsSync(exe)) {
    tests.push({ title: 'electron runner', state: 'failed', error: `VSCODE_EXECUTABLE=${exe} does not exist` });
    return done();
  }
  await buildSuite();
  const run = prepareRun('electron');
  const { runTests } = require('@vscode/test-electron');
  const launchArgs = [
    run.workspace,
    '--disable-extensions', // other installed extensions; built-in ones (the cuda-cpp language) stay
    '--disable-workspace-trust',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-telemetry',
    '--disable-gpu',
    '--user-data-dir', run.userDataDir,
    '--extensions-dir', run.extensionsDir,
  ];
  if (process.getuid?.() === 0) launchArgs.push('--no-sandbox'); // Chromium refuses to run as root with its sandbox
  log(exe ? `electron: VS Code from VSCODE_EXECUTABLE=${exe}` : `electron: downloading VS Code ${process.env.VSCODE_VERSION || 'stable'} (set VSCODE_EXECUTABLE to use one already installed)`);
  let exitCode;
  let error;
  try {
    exitCode = await runTests({
      ...(exe ? { vscodeExecutablePath: exe } : { version: process.env.VSCODE_VERSION || 'stable', timeout: 60_000 }),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: run.suiteIndex,
      extensionTestsEnv: { CUDA_BANK_LENS_E2E_RESULT: run.resultFile },
      launchArgs,
    });
  } catch (e) {
    error = e;
  }
  let result;
  try {
    result = JSON.parse(readFileSync(run.resultFile, 'utf8'));
  } catch {
    result = undefined;
  }
  run.cleanup();
  if (result) {
    for (const t of result.tests) {
      tests.push(t);
      log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'pending' ? 'skip' : 'FAIL'} ${t.title}`);
      if (t.error) log(`       ${t.error.split('\n').slice(0, 6).join('\n       ')}`);
    }
    if (result.state !== 'done') tests.push({ title: 'electron: the suite ran to the end', state: 'failed', error: `VS Code exited (${exitCode ?? error?.message}) before the suite finished` });
  } else {
    const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|socket hang up|fetch failed|timeout/i.test(String(error?.message ?? error));
    const why = !exe && offline
      ? `could not download VS Code (${error.message}). This machine is offline: set VSCODE_EXECUTABLE to a local VS Code, or use the offline runner (npm run test:e2e:code-server)`
      : `VS Code ran no suite (exit ${exitCode ?? '-'}${error ? `, ${error.message}` : ''})`;
    tests.push({ title: 'electron: VS Code started and ran the suite', state: 'failed', error: why });
    log(`FAILED: ${why}`);
  }
  return done({ vscodeVersion: result?.vscodeVersion, exitCode });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const limitS = Number(process.env.CUDA_BANK_LENS_E2E_TIMEOUT_S || 600);
  const hard = setTimeout(() => {
    console.error(`[e2e] electron runner: no result after ${limitS} s (CUDA_BANK_LENS_E2E_TIMEOUT_S); exiting`);
    process.exit(124);
  }, limitS * 1000);
  hard.unref();
  const r = await runElectron();
  console.log(`electron: ${r.passed} passed, ${r.failed} failed`);
  process.exit(r.failed ? 1 : 0);
}
