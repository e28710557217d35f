#!/usr/bin/env node
// Runner 2, offline and in CI: the extension-host suite in code-server (VS Code in a browser) driven by headless
// Debian Chromium through playwright-core, then the UI test in the same browser.
//
//   node scripts/e2e/run-code-server.mjs [--no-ui] [--no-suite] [--no-setup]
//
// The suite is loaded through the workbench URL's payload (extensionDevelopmentPath + extensionTestsPath) and runs
// in code-server's Node extension host; it writes out/e2e/results/code-server-suite.json, which this runner polls.
// Every wait has a limit and ends with a message that says what was awaited.
// Environment: CUDA_BANK_LENS_E2E_TIMEOUT_S (whole suite, default 600), CUDA_BANK_LENS_E2E_GREP (mocha --grep),
//              CUDA_BANK_LENS_E2E_KEEP=1 (keep the scratch folder), CUDA_BANK_LENS_E2E_CACHE, CHROMIUM_PATH.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';
import { prepareRun } from './workspace.mjs';
import { buildSuite } from './build-suite.mjs';
import { startCodeServer, launchChromium, workbenchUrl } from './code-server.mjs';
import { runUiTest } from './ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Loads the suite in a workbench page and waits for its result file; returns { passed, failed, tests[] }. */
export async function runSuite(browser, cs, run, consoleLog) {
  const timeoutMs = Number(process.env.CUDA_BANK_LENS_E2E_TIMEOUT_S || 600) * 1000;
  const startLimitMs = Number(process.env.CUDA_BANK_LENS_E2E_START_TIMEOUT_S || 180) * 1000;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  let pageProblem = null;
  page.on('console', (m) => {
    const text = m.text();
    appendFileSync(consoleLog, `[${m.type()}] ${text}\n`);
    if (/No extension host found|cannot launch the test runner|Extension host .*terminated unexpectedly/i.test(text)) {
      pageProblem = `the workbench says: ${text.slice(0, 500)}`;
    }
    if (text.includes('Cannot find module') && text.includes(run.suiteIndex)) pageProblem = `the extension host could not load the suite: ${text.slice(0, 500)}`;
  });
  page.on('pageerror', (e) => appendFileSync(consoleLog, `[pageerror] ${e.stack || e}\n`));
  page.on('crash', () => (pageProblem = 'the browser page crashed'));
  const url = workbenchUrl(cs.url, { folder: run.workspace, extensionDevelopmentPath: repoRoot, extensionTestsPath: run.suiteIndex });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  log(`suite: workbench loaded, waiting for ${run.resultFile}`);
  let reported = 0;
  let last;
  try {
    for (;;) {
      last = readJson(run.resultFile);
      if (last && last.runId !== run.runId) last = undefined; // a stale file from another run
      if (last) {
        for (const t of last.tests.slice(reported)) {
          log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'pending' ? 'skip' : 'FAIL'} ${t.title} (${t.durationMs} ms)`);
          if (t.error) log(`       ${t.error.split('\n').slice(0, 6).join('\n       ')}`);
        }
        reported = last.tests.length;
        if (last.state === 'done') break;
      }
      const elapsed = Date.now() - t0;
      if (cs.exitInfo) throw new Error(`code-server exited while the suite ran (${JSON.stringify(cs.exitInfo)}); see ${cs.logFile}`);
      if (pageProblem) throw new Error(`${pageProblem}; see ${consoleLog}`);
      if (!last && elapsed > startLimitMs) {
        throw new Error(
          `the suite did not start within ${startLimitMs / 1000} s: the extension host never ran ${run.suiteIndex} ` +
            `(no ${run.resultFile}); see ${consoleLog} and ${cs.logFile}`,
        );
      }
      if (elapsed > timeoutMs) {
        throw new Error(`the suite did not finish within ${timeoutMs / 1000} s (last: ${last ? `${last.passed} passed, ${last.failed} failed, still running` : 'never started'}); raise CUDA_BANK_LENS_E2E_TIMEOUT_S`);
      }
      await sleep(500);
    }
  } catch (e) {
    await page.screenshot({ path: join(paths.results, 'code-server-suite-failure.png') }).catch(() => {});
    await context.close().catch(() => {});
    const partial = last ? last.tests : [];
    return { passed: partial.filter((t) => t.state === 'passed').length, failed: partial.filter((t) => t.state === 'failed').length + 1, tests: [...partial, { title: 'suite: the extension-host suite ran to the end', state: 'failed', error: e.message }] };
  }
  if (last.error) log(`suite error: ${last.error}`);
  log(`suite: ${last.passed} passed, ${last.failed} failed, ${last.pending} pending in VS Code ${last.vscodeVersion} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  await context.close().catch(() => {});
  return { passed: last.passed, failed: last.failed + (last.error ? 1 : 0), tests: last.tests };
}

export async function runCodeServerRunner({ suite = true, ui = true, setup = true } = {}) {
  const t0 = Date.now();
  if (setup) {
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'e2e', 'setup.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('e2e setup failed (see above)');
  }
  await buildSuite();
  const run = prepareRun('code-server');
  mkdirSync(paths.results, { recursive: true });
  for (const f of readdirSync(paths.results)) {
    if (/^(ui-failure-\d+|code-server-suite-failure)\.png$/.test(f)) rmSync(join(paths.results, f), { force: true });
  }
  const consoleLog = join(paths.results, 'code-server-console.log');
  writeFileSync(consoleLog, '');
  const results = { passed: 0, failed: 0, tests: [] };
  let cs;
  let browser;
  try {
    cs = await startCodeServer(run, { env: { CUDA_BANK_LENS_E2E_RESULT: run.resultFile } });
    browser = await launchChromium(run.root);
    log(`chromium ${browser.version()} launched (${paths.chromium})`);
    if (suite) {
      const r = await runSuite(browser, cs, run, consoleLog);
      results.passed += r.passed;
      results.failed += r.failed;
      results.tests.push(...r.tests);
    }
    if (ui) {
      const r = await runUiTest({ browser, cs, run, consoleLog });
      results.passed += r.passed;
      results.failed += r.failed;
      results.tests.push(...r.tests);
    }
  } catch (e) {
    results.failed += 1;
    results.tests.push({ title: 'code-server runner', state: 'failed', error: e.stack || String(e) });
    log(`FAILED: ${e.message}`);
  } finally {
    await browser?.close().catch(() => {});
    await cs?.stop().catch(() => {});
    run.cleanup();
  }
  results.seconds = (Date.now() - t0) / 1000;
  writeFileSync(join(paths.results, 'code-server.json'), JSON.stringify(results, null, 2) + '\n');
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Set(process.argv.slice(2));
  const hardLimit = setTimeout(() => {
    console.error('[e2e] code-server runner: hard time limit reached (CUDA_BANK_LENS_E2E_TIMEOUT_S + 5 min); exiting');
    process.exit(124);
  }, (Number(process.env.CUDA_BANK_LENS_E2E_TIMEOUT_S || 600) + 300) * 1000);
  hardLimit.unref();
  const r = await runCodeServerRunner({ suite: !args.has('--no-suite'), ui: !args.has('--no-ui'), setup: !args.has('--no-setup') });
  console.log(`code-server: ${r.passed} passed, ${r.failed} failed`);
  process.exit(r.failed ? 1 : 0);
}
