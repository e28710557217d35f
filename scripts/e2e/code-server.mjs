// Starting and stopping code-server (VS Code served to a browser) and headless Chromium, for the offline runner.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { paths, log, CHROMIUM_ARGS } from './common.mjs';

const require = createRequire(import.meta.url);

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts code-server on 127.0.0.1 with no auth, its own config/user-data/extensions folders (nothing under ~),
 * and waits for /healthz. Returns { url, port, stop(), exited, logFile }.
 */
export async function startCodeServer(run, { name = 'code-server', env = {}, startTimeoutMs = 90_000 } = {}) {
  if (!existsSync(paths.codeServerEntry)) {
    throw new Error(`code-server is not installed at ${paths.codeServerDir}: run \`node scripts/e2e/setup.mjs\``);
  }
  const port = await freePort();
  const configFile = join(run.root, 'code-server.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  mkdirSync(paths.results, { recursive: true });
  const logFile = join(paths.results, `${name}.log`);
  const logStream = createWriteStream(logFile);
  const args = [
    paths.codeServerEntry,
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', run.userDataDir,
    '--extensions-dir', run.extensionsDir,
    '--ignore-last-opened',
  ];
  const childEnv = { ...process.env, ...env, XDG_CONFIG_HOME: join(run.root, 'xdg-config'), XDG_DATA_HOME: join(run.root, 'xdg-data') };
  for (const k of Object.keys(childEnv)) if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete childEnv[k];
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], cwd: run.root });
  child.stdout.pipe(logStream, { end: false });
  child.stderr.pipe(logStream, { end: false });
  let exitInfo = null;
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exitInfo = { code, signal }))));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exitInfo) throw new Error(`code-server exited during start-up (${JSON.stringify(exitInfo)}); see ${logFile}`);
    try {
      const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`code-server did not answer ${url}/healthz within ${startTimeoutMs / 1000} s; see ${logFile}`);
    }
    await sleep(250);
  }
  log(`code-server ${paths.codeServerVersion} up at ${url} (pid ${child.pid}, log ${logFile})`);
  return {
    url,
    port,
    logFile,
    exited,
    get exitInfo() {
      return exitInfo;
    },
    async stop() {
      if (!exitInfo) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (!exitInfo) child.kill('SIGKILL');
        await Promise.race([exited, sleep(2000)]);
      }
      logStream.end();
    },
  };
}

/** Headless Debian Chromium through playwright-core; `home` keeps its config and crash reports out of ~. */
export async function launchChromium(home) {
  if (!existsSync(paths.chromium)) throw new Error(`no browser at ${paths.chromium}: run \`node scripts/e2e/setup.mjs\` (Debian package chromium)`);
  const { chromium } = require('playwright-core');
  const env = home ? { ...process.env, XDG_CONFIG_HOME: join(home, 'xdg-config'), XDG_CACHE_HOME: join(home, 'xdg-cache') } : process.env;
  const browser = await chromium.launch({ executablePath: paths.chromium, headless: true, args: CHROMIUM_ARGS, env, timeout: 60_000 });
  return browser;
}

/**
 * The workbench URL that opens `folder` and, optionally, loads an extension in development and its tests.
 * Paths are given as vscode-remote URIs of this server: a file:// URI would ask the browser's own (web worker)
 * extension host, which cannot run a Node test runner ("No extension host found that can launch the test runner").
 */
export function workbenchUrl(base, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const authority = new URL(base).host;
  const remote = (p) => `vscode-remote://${authority}${p.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  const q = new URLSearchParams();
  q.set('folder', folder);
  q.set('payload', JSON.stringify(payload));
  return `${base}/?${q.toString()}`;
}
