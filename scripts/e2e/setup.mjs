#!/usr/bin/env node
// Prepares the offline end-to-end tools, idempotently and cached:
//   - Debian packages: chromium (the browser playwright-core drives), neovim (the second editor),
//     ripgrep (stands in for @vscode/ripgrep's download), libkrb5-dev (code-server's kerberos module).
//   - code-server (VS Code served to a browser) from the npm registry, installed into a cache folder
//     outside node_modules: it is never a dependency of this project.
// Usage: node scripts/e2e/setup.mjs [--check] [--no-apt]
//   --check  only report what is missing (exit 1 if anything is)
//   --no-apt never run apt-get (fail with a clear message instead)
// Environment: CUDA_BANK_LENS_E2E_CACHE (default ~/.cache/cuda-bank-lens-e2e),
//              CODE_SERVER_VERSION (default 4.100.3, the newest that runs on Node 20).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, rmSync, renameSync, readFileSync, copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { paths, log, APT_PACKAGES } from './common.mjs';

const args = new Set(process.argv.slice(2));
const checkOnly = args.has('--check');
const noApt = args.has('--no-apt');
const t0 = Date.now();

function secs(t) {
  return ((Date.now() - t) / 1000).toFixed(1) + 's';
}

function run(cmd, argv, opts = {}) {
  log(`$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${r.status}`);
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

// ---- 1. Debian packages --------------------------------------------------------------------------
function ensureApt() {
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg) {
    const missing = [['/usr/bin/chromium', 'chromium'], ['rg', 'ripgrep'], ['nvim', 'neovim']]
      .filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0).map(([, p]) => p);
    if (missing.length) throw new Error(`Not a Debian system and missing: ${missing.join(', ')}. Install them by hand.`);
    return [];
  }
  const missing = APT_PACKAGES.filter((p) => !dpkgInstalled(p));
  if (!missing.length) {
    log(`apt: all present (${APT_PACKAGES.join(', ')})`);
    return [];
  }
  if (checkOnly) return missing.map((p) => `apt package ${p}`);
  if (noApt) throw new Error(`Missing Debian packages: ${missing.join(' ')} (run: apt-get install ${missing.join(' ')})`);
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo', '-n'] : [];
  const t = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptCmd = (a) => (sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...a], { env }) : run('apt-get', a, { env }));
  aptCmd(['update', '-qq']);
  aptCmd(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  log(`apt: installed ${missing.join(' ')} in ${secs(t)}`);
  return [];
}

// ---- 2. ripgrep stand-in for @vscode/ripgrep's download --------------------------------------------
// @vscode/ripgrep@1.15.11 looks for ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz in
// $TMPDIR/vscode-ripgrep-cache-1.15.11 before trying the network; the tarball holds `rg` at its root.
function ensureRipgrepTarball(tmpDir) {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) throw new Error('ripgrep (rg) not found; install Debian package ripgrep');
  const cacheDir = join(tmpDir, 'vscode-ripgrep-cache-1.15.11');
  const arch = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
  const tarball = join(cacheDir, `ripgrep-v13.0.0-10-${arch}.tar.gz`);
  if (existsSync(tarball)) return;
  mkdirSync(cacheDir, { recursive: true });
  const stage = join(cacheDir, 'stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage);
  copyFileSync(rg, join(stage, 'rg'));
  chmodSync(join(stage, 'rg'), 0o755);
  execFileSync('tar', ['czf', tarball, '-C', stage, 'rg']);
  rmSync(stage, { recursive: true, force: true });
  log(`ripgrep: built ${tarball} from ${rg}`);
}

// ---- 3. code-server ----------------------------------------------------------------------------
function codeServerOk() {
  return existsSync(paths.codeServerStamp) && existsSync(paths.codeServerEntry);
}

function ensureCodeServer() {
  if (codeServerOk()) {
    log(`code-server ${paths.codeServerVersion}: cached at ${paths.codeServerDir}`);
    return [];
  }
  if (checkOnly) return [`code-server ${paths.codeServerVersion} in ${paths.codeServerDir}`];
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor !== 20) {
    log(`warning: code-server ${paths.codeServerVersion} requires Node 20, this is ${process.version}; setting FORCE_NODE_VERSION`);
  }
  const t = Date.now();
  const tmpDir = join(paths.cache, 'tmp');
  mkdirSync(tmpDir, { recursive: true });
  ensureRipgrepTarball(tmpDir);
  const stage = paths.codeServerDir + '.partial';
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  writeFileSync(join(stage, 'package.json'), JSON.stringify({ name: 'cuda-bank-lens-e2e-code-server', private: true }, null, 2));
  const env = {
    ...process.env,
    TMPDIR: tmpDir, // where @vscode/ripgrep finds the tarball above
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...(nodeMajor !== 20 ? { FORCE_NODE_VERSION: String(nodeMajor) } : {}),
  };
  // No package-lock of ours is touched: this runs in its own folder with its own package.json.
  run('npm', ['install', '--no-save', '--omit=dev', '--loglevel=error', `code-server@${paths.codeServerVersion}`], { cwd: stage, env });
  if (!existsSync(join(stage, 'node_modules', 'code-server', 'out', 'node', 'entry.js'))) {
    throw new Error('code-server installed but out/node/entry.js is missing');
  }
  rmSync(paths.codeServerDir, { recursive: true, force: true });
  renameSync(stage, paths.codeServerDir);
  writeFileSync(paths.codeServerStamp, JSON.stringify({ version: paths.codeServerVersion, node: process.version, seconds: (Date.now() - t) / 1000, at: new Date().toISOString() }) + '\n');
  log(`code-server ${paths.codeServerVersion}: installed in ${secs(t)}`);
  return [];
}

// ---- 4. playwright-core is a devDependency; chromium must start ------------------------------------
function checkChromium() {
  if (checkOnly && !existsSync(paths.chromium)) return [`chromium at ${paths.chromium}`];
  if (!existsSync(paths.chromium)) throw new Error(`chromium not found at ${paths.chromium}`);
  const v = spawnSync(paths.chromium, ['--version'], { encoding: 'utf8' });
  log(`chromium: ${(v.stdout || v.stderr || '').trim()}`);
  return [];
}

try {
  mkdirSync(paths.cache, { recursive: true });
  const missing = [...ensureApt(), ...ensureCodeServer()];
  if (!missing.length) missing.push(...checkChromium());
  if (checkOnly && missing.length) {
    log(`missing: ${missing.join('; ')}`);
    process.exit(1);
  }
  const nv = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (nv.status === 0) log(`neovim: ${nv.stdout.split('\n')[0]}`);
  log(`setup done in ${secs(t0)}`);
} catch (e) {
  console.error(`[e2e setup] FAILED: ${e && e.message ? e.message : e}`);
  process.exit(1);
}
