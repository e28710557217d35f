// One run's scratch state, shared by both runners: a copy of examples/ as the workspace (the suite applies a
// fix and writes a file: the repository's examples are never touched), a fresh user-data dir with the settings the
// tests need, the suite's config.json, and expected.json from the CLI.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';

export const USER_SETTINGS = {
  // the workspace-trust dialog would cover the workbench and block clicks
  'security.workspace.trust.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  // the default 500 ms budget can run out on the first analysis in a fresh server on a busy 2-core machine
  // (the browser and code-server share it), which shows an "analysis budget exceeded" notice instead of conflicts
  'cudaBankLens.analysisBudgetMs': 30000,
  'editor.hover.delay': 150,
  'editor.fontSize': 14,
  'editor.minimap.enabled': false, // cleaner screenshots
  'editor.cursorBlinking': 'solid', // the same picture every run
};

/**
 * @param {string} name  runner name: results go to out/e2e/results/<name>-suite.json
 */
export function prepareRun(name) {
  const root = mkdtempSync(join(tmpdir(), `cuda-bank-lens-e2e-${name}-`));
  const workspace = join(root, 'examples');
  cpSync(join(repoRoot, 'examples'), workspace, { recursive: true });
  writeHeaderProject(workspace);
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2) + '\n');

  mkdirSync(paths.results, { recursive: true });
  const runId = `${name}-${process.pid}-${Date.now()}`;
  const resultFile = join(paths.results, `${name}-suite.json`);
  rmSync(resultFile, { force: true });
  const expectedFile = join(repoRoot, 'out', 'e2e', `expected.json`);
  writeExpected(workspace, expectedFile);
  const suiteDir = join(repoRoot, 'out', 'e2e', 'suite');
  if (!existsSync(join(suiteDir, 'index.js'))) throw new Error('out/e2e/suite/index.js is missing: run scripts/e2e/build-suite.mjs');
  const config = {
    runId,
    resultFile,
    expectedFile,
    ...(process.env.CUDA_BANK_LENS_E2E_GREP ? { grep: process.env.CUDA_BANK_LENS_E2E_GREP } : {}),
  };
  writeFileSync(join(suiteDir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
  return {
    runId,
    root,
    workspace,
    userDataDir,
    extensionsDir,
    resultFile,
    suiteIndex: join(suiteDir, 'index.js'),
    cleanup() {
      if (!process.env.CUDA_BANK_LENS_E2E_KEEP) rmSync(root, { recursive: true, force: true });
      else log(`kept ${root}`);
    },
  };
}

/**
 * A project whose sizes and kernels live in headers (the suite's headers.test.ts): `include/config.h` defines TILE,
 * `include/kernels.cuh` holds a kernel that `src/k.cu` launches, and the workspace's settings give `include` as an
 * include folder, as a CMake project's `-I` would.
 */
export function writeHeaderProject(workspace) {
  const put = (rel, lines) => {
    mkdirSync(join(workspace, rel, '..'), { recursive: true });
    writeFileSync(join(workspace, rel), lines.join('\n') + '\n');
  };
  put('.vscode/settings.json', [JSON.stringify({ 'cudaBankLens.includePaths': ['include'] }, null, 2)]);
  put('include/config.h', ['// Written by the end-to-end runner: the tile size every kernel of src/ uses.', '#pragma once', '#define TILE 32']);
  put('include/kernels.cuh', [
    '// Written by the end-to-end runner: a kernel that is launched only from src/k.cu (with a 16x16 block).',
    '#pragma once',
    '#include "config.h"',
    '',
    '__global__ void headerKernel(float *out)',
    '{',
    '  __shared__ float t[TILE][TILE];',
    '  t[threadIdx.x][threadIdx.y] = out[threadIdx.x];',
    '  __syncthreads();',
    '  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];',
    '}',
  ]);
  put('src/k.cu', [
    '// Written by the end-to-end runner: TILE comes from include/config.h (the include folder is a setting).',
    '#include "config.h"',
    '#include "kernels.cuh"',
    '',
    '__global__ void columnRead(float *out)',
    '{',
    '  __shared__ float tile[TILE][TILE];',
    '  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];',
    '  __syncthreads();',
    '  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];',
    '}',
    '',
    'void run(float *d)',
    '{',
    '  columnRead<<<1, dim3(32, 8)>>>(d);',
    '  headerKernel<<<1, dim3(16, 16)>>>(d);',
    '}',
  ]);
}

/** The CLI's conflicts per example (the suite checks the editor shows the same). */
function writeExpected(workspace, file) {
  rmSync(file, { force: true });
  const cli = join(repoRoot, 'bin', 'cuda-bank-lens.js');
  if (!existsSync(join(repoRoot, 'dist', 'cli.js'))) {
    log('no dist/cli.js: expected.json not written (the per-example check will fail until the CLI exists)');
    return;
  }
  const r = spawnSync(process.execPath, [cli, '--format', 'json', workspace], { encoding: 'utf8', cwd: repoRoot, timeout: 120_000 });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    log(`CLI --format json gave no JSON (exit ${r.status}): ${(r.stderr || r.stdout || '').slice(0, 500)}`);
    return;
  }
  const files = {};
  for (const f of json.files ?? []) {
    const abs = f.path.startsWith('/') ? f.path : join(repoRoot, f.path);
    let rel = relative(workspace, abs);
    if (rel.startsWith('..')) rel = f.path.split('/').pop();
    files[rel] = (f.accesses ?? [])
      .filter((a) => a.status === 'conflict')
      .map((a) => ({ array: a.array, line: a.line, column: a.column, degree: a.degree, kernel: a.kernel, message: a.message }));
  }
  writeFileSync(file, JSON.stringify({ model: json.model, files }, null, 2) + '\n');
  log(`expected.json: ${Object.entries(files).map(([k, v]) => `${k} ${v.length}`).join(', ')}`);
}
