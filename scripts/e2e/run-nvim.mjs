#!/usr/bin/env node
// A second editor: Neovim's built-in LSP client against `node bin/cuda-bank-lens-server.js --stdio`.
// Runs test/e2e/nvim/lsp.lua headless on a copy of examples/transpose.cu and checks what it wrote.
//   node scripts/e2e/run-nvim.mjs
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';
import { writeHeaderProject } from './workspace.mjs';

const NAIVE_READ = 'tile[threadIdx.x][threadIdx.y + j]';
const NAIVE_MESSAGE = 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)';

function naiveRead(text) {
  const k = text.search(/transposeNaiveTile\s*\(/);
  const i = text.indexOf(NAIVE_READ, k < 0 ? 0 : k);
  if (i < 0) throw new Error(`"${NAIVE_READ}" not found in transpose.cu`);
  const before = text.slice(0, i);
  return { line: before.split('\n').length - 1, character: i - before.lastIndexOf('\n') - 1 };
}

export async function runNvim() {
  const t0 = Date.now();
  const tests = [];
  const add = (title, ok, error) => {
    tests.push({ title: `nvim: ${title}`, state: ok ? 'passed' : 'failed', ...(ok ? {} : { error }) });
    log(`  ${ok ? 'ok  ' : 'FAIL'} nvim: ${title}${ok ? '' : `: ${error}`}`);
  };
  const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (nvim.status !== 0) {
    add('Neovim is installed', false, 'nvim not found: run `node scripts/e2e/setup.mjs` (Debian package neovim)');
    return summary(tests, t0);
  }
  const server = join(repoRoot, 'bin', 'cuda-bank-lens-server.js');
  if (!existsSync(join(repoRoot, 'dist', 'server.js'))) {
    add('the language server is built', false, 'dist/server.js is missing: run `npm run build`');
    return summary(tests, t0);
  }
  const root = mkdtempSync(join(tmpdir(), 'cuda-bank-lens-e2e-nvim-'));
  const file = join(root, 'examples', 'transpose.cu');
  cpSync(join(repoRoot, 'examples'), join(root, 'examples'), { recursive: true });
  const pos = naiveRead(readFileSync(file, 'utf8'));
  mkdirSync(paths.results, { recursive: true });
  const resultFile = join(paths.results, 'nvim.json');
  rmSync(resultFile, { force: true });
  const timeoutMs = Number(process.env.CUDA_BANK_LENS_E2E_NVIM_WAIT_MS || 30_000);
  const env = {
    ...process.env,
    E2E_RESULT: resultFile,
    E2E_FILE: file,
    E2E_SERVER_CMD: JSON.stringify([process.execPath, server, '--stdio']),
    E2E_HOVER_LINE: String(pos.line),
    E2E_HOVER_CHAR: String(pos.character + 1),
    E2E_TIMEOUT_MS: String(timeoutMs),
    E2E_SETTINGS: JSON.stringify({ cudaBankLens: { architecture: 'sm_50+', analysisBudgetMs: 30000 } }),
    // keep Neovim's state, logs and swap out of ~
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CACHE_HOME: join(root, 'cache'),
  };
  const { r, hardLimit } = await runScript(env, root, timeoutMs);
  let res;
  try {
    res = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    add(
      'Neovim ran the LSP script',
      false,
      r.timedOut ? `nvim killed after ${hardLimit / 1000} s with no result file` : `no result file (nvim exit ${r.code}): ${r.output.slice(0, 800)}`,
    );
    rmSync(root, { recursive: true, force: true });
    return summary(tests, t0);
  }
  const stepOk = (name) => res.steps?.find((s) => s.name === name);
  log(`Neovim ${res.nvim}, server ${JSON.stringify(res.server_info ?? null)}`);
  add(`Neovim ${res.nvim} started the server and it answered initialize`, !!stepOk('initialize')?.ok && !!res.capabilities?.hoverProvider, `steps ${JSON.stringify(res.steps)}; error ${res.error ?? '-'}; log ${JSON.stringify(res.log?.slice(-5))}`);
  const diags = res.diagnostics ?? [];
  const naive = diags.find((d) => d.range?.start?.line === pos.line && d.range.start.character <= pos.character + 1 && d.range.end.character > pos.character);
  add(
    'diagnostics arrive, with the 32-way conflict of the naive transpose',
    !!naive && naive.message === NAIVE_MESSAGE && (naive.code === 'bank-conflict' || naive.code?.value === 'bank-conflict'),
    `${diags.length} diagnostic(s): ${diags.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} [${JSON.stringify(d.code)}] ${d.message}`).join(' | ')}`,
  );
  const hover = res.hover && res.hover !== null ? res.hover : undefined;
  const contents = hover?.contents;
  const text = typeof contents === 'string' ? contents : Array.isArray(contents) ? contents.map((c) => c.value ?? c).join('\n') : (contents?.value ?? '');
  add('a hover arrives with the conflict and its bank map', /32-way/.test(text) && text.includes('data:image/svg+xml'), `hover: ${text.slice(0, 300) || JSON.stringify(res.steps)}`);
  add('Neovim quit cleanly', r.code === 0 && res.exit === 0, `nvim exit ${r.code}, script exit ${res.exit}, error ${res.error ?? '-'}`);
  await headersInNvim({ root, server, timeoutMs, add, env });
  rmSync(root, { recursive: true, force: true });
  return summary(tests, t0);
}

/** Runs lsp.lua headless in `root` with `env`; resolves when Neovim exits or is killed. */
async function runScript(env, root, timeoutMs) {
  const lua = join(repoRoot, 'test', 'e2e', 'nvim', 'lsp.lua');
  const hardLimit = timeoutMs * 4 + 15_000;
  const r = await new Promise((resolve) => {
    const child = spawn('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${lua}`], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, timedOut: true, output });
    }, hardLimit);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false, output });
    });
  });
  return { r, hardLimit };
}

/**
 * The header project of workspace.mjs as a Neovim workspace: include/kernels.cuh opened alone (src/k.cu never is),
 * with includePaths ["include"]: once the server's scan (work-done progress, which Neovim shows) has read the
 * workspace, the header's store t[tx][ty] (TILE 32 from config.h, block 16x16 from k.cu's launch) is 16-way.
 */
async function headersInNvim({ root, add, env, timeoutMs }) {
  const ws = join(root, 'headers');
  mkdirSync(ws, { recursive: true });
  writeHeaderProject(ws);
  const file = join(ws, 'include', 'kernels.cuh');
  const text = readFileSync(file, 'utf8');
  const i = text.indexOf('t[threadIdx.x][threadIdx.y]');
  const before = text.slice(0, i);
  const resultFile = join(paths.results, 'nvim-headers.json');
  rmSync(resultFile, { force: true });
  const message = 't: 16-way bank conflict: 16 lanes need 16 distinct words from bank 0; served in 16 wavefronts (ideal 1)';
  const { r } = await runScript({
    ...env,
    E2E_RESULT: resultFile,
    E2E_FILE: file,
    E2E_ROOT: ws,
    E2E_WAIT_MESSAGE: message,
    E2E_HOVER_LINE: String(before.split('\n').length - 1),
    E2E_HOVER_CHAR: String(i - before.lastIndexOf('\n')),
    E2E_SETTINGS: JSON.stringify({ cudaBankLens: { analysisBudgetMs: 30000, includePaths: ['include'] } }),
  }, ws, timeoutMs);
  let res;
  try {
    res = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    add('a header\'s kernel gets the block of its includer\'s launch', false, `no result file (nvim exit ${r.code}): ${r.output.slice(0, 800)}`);
    return;
  }
  const diags = res.diagnostics ?? [];
  add(
    'a header\'s kernel gets the block of its includer\'s launch (16-way with 16x16 from k.cu, never opened)',
    diags.some((d) => d.message === message),
    `${diags.length} diagnostic(s): ${diags.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`).join(' | ')}`,
  );
  const contents = res.hover && res.hover !== null ? res.hover.contents : undefined;
  const hover = typeof contents === 'string' ? contents : Array.isArray(contents) ? contents.map((c) => c.value ?? c).join('\n') : (contents?.value ?? '');
  add(
    'the hover names the launch in k.cu and the TILE of config.h',
    hover.includes('block 16x16x1 from the launch at line 16 of k.cu') && /\\?`TILE\\?` = 32 \(defined in config\.h, line 3\)/.test(hover),
    `hover: ${hover.slice(0, 1500) || JSON.stringify(res.steps)}`,
  );
  const progress = res.progress ?? [];
  add(
    'the workspace scan\'s progress begins and ends in Neovim, which quits cleanly',
    progress[0] === 'begin' && progress.at(-1) === 'end' && r.code === 0 && res.exit === 0,
    `progress ${JSON.stringify(progress)}; nvim exit ${r.code}, script exit ${res.exit}, error ${res.error ?? '-'}`,
  );
}

function summary(tests, t0) {
  const passed = tests.filter((t) => t.state === 'passed').length;
  const failed = tests.length - passed;
  const out = { passed, failed, tests, seconds: (Date.now() - t0) / 1000 };
  mkdirSync(paths.results, { recursive: true });
  writeFileSync(join(paths.results, 'nvim-summary.json'), JSON.stringify(out, null, 2) + '\n');
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runNvim();
  console.log(`nvim: ${r.passed} passed, ${r.failed} failed`);
  process.exit(r.failed ? 1 : 0);
}
