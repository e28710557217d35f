// Entry of the extension-host suite: VS Code (desktop through @vscode/test-electron, or code-server in a browser)
// loads this file as `extensionTestsPath` and awaits `run()`.
//
// It runs every `*.test.js` bundled beside it with mocha and writes the outcome to a JSON result file, because
// in code-server the extension host's stdout never reaches the Node runner: the runner polls that file. The file
// is written (state "running") before the first test, after every test, and (state "done") before run() returns.
//
// Where things come from (first found wins):
//   result file   $CUDA_BANK_LENS_E2E_RESULT, config.json `resultFile`, <this folder>/../results/suite.json
//   test filter   $CUDA_BANK_LENS_E2E_GREP, config.json `grep`
// config.json is written beside this file by the runner (environment variables may not reach a remote host).
import * as fs from 'fs';
import * as path from 'path';
import { SuiteConfig, TestRecord, SuiteResult, readSuiteConfig } from './config';

// mocha is bundled into this file by esbuild. Mocha 12's CommonJS export is the class, its ESM namespace has it as
// `.Mocha`/`.default`: accept each.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mochaModule: any = require('mocha');
const MochaCtor: any = typeof mochaModule === 'function' ? mochaModule : mochaModule.Mocha ?? mochaModule.default;

function writeResult(file: string, result: SuiteResult): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(result, null, 2) + '\n');
    fs.renameSync(tmp, file); // atomic: the runner never reads half a file
  } catch (e) {
    console.error(`[cuda-bank-lens-e2e] could not write ${file}: ${e}`);
  }
}

export async function run(): Promise<void> {
  const config: SuiteConfig = readSuiteConfig(__dirname);
  const resultFile = config.resultFile;
  const vscodeVersion: string = (() => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require('vscode').version;
    } catch {
      return 'unknown';
    }
  })();
  const result: SuiteResult = {
    state: 'running',
    runId: config.runId,
    vscodeVersion,
    host: `${process.platform} node ${process.version}${process.versions.electron ? ` electron ${process.versions.electron}` : ''}`,
    startedAt: new Date().toISOString(),
    passed: 0,
    failed: 0,
    pending: 0,
    tests: [],
  };
  writeResult(resultFile, result);
  console.log(`[cuda-bank-lens-e2e] suite started in VS Code ${vscodeVersion}; results -> ${resultFile}`);

  const mocha = new MochaCtor({ ui: 'bdd', color: false, timeout: config.testTimeoutMs, reporter: 'spec' });
  if (config.grep) mocha.grep(config.grep);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => (a.startsWith('smoke') ? -1 : b.startsWith('smoke') ? 1 : a.localeCompare(b)));
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  await new Promise<void>((resolve) => {
    let runner: any;
    try {
      runner = mocha.run((failures: number) => {
        result.state = 'done';
        result.finishedAt = new Date().toISOString();
        if (failures > 0 && result.failed === 0) result.failed = failures;
        writeResult(resultFile, result);
        console.log(`[cuda-bank-lens-e2e] suite done: ${result.passed} passed, ${result.failed} failed, ${result.pending} pending`);
        resolve();
      });
    } catch (e: any) {
      result.state = 'done';
      result.failed += 1;
      result.error = `mocha could not start: ${e?.stack ?? e}`;
      result.finishedAt = new Date().toISOString();
      writeResult(resultFile, result);
      resolve();
      return;
    }
    const record = (test: any, state: TestRecord['state'], err?: any) => {
      result.tests.push({
        title: test.fullTitle(),
        state,
        durationMs: test.duration ?? 0,
        ...(err ? { error: String(err?.stack ?? err?.message ?? err).slice(0, 4000) } : {}),
      });
      writeResult(resultFile, result);
    };
    runner.on('pass', (t: any) => {
      result.passed++;
      record(t, 'passed');
    });
    runner.on('fail', (t: any, err: any) => {
      result.failed++;
      record(t, 'failed', err);
    });
    runner.on('pending', (t: any) => {
      result.pending++;
      record(t, 'pending');
    });
  });
  // Desktop VS Code (test-electron) takes a rejection as the exit code: fail the process when a test failed.
  if (result.failed > 0 || result.error) throw new Error(`${result.failed} end-to-end test(s) failed`);
}
