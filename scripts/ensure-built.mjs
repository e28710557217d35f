// Builds dist/ (scripts/build.mjs) when the bundle a caller needs is missing or older than server/. The unit tests
// and `npm run validate:gpu` run side by side: one lock directory per checkout makes them build it once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function isFresh(root, bundle) {
  const file = path.join(root, 'dist', bundle);
  const server = path.join(root, 'server');
  return fs.existsSync(file) && (!fs.existsSync(server) || fs.statSync(file).mtimeMs >= newestMtime(server));
}

/**
 * Makes sure `dist/<bundle>` is built from the current server/ sources, under the shared build lock. Throws when
 * the lock stays taken for two minutes or the build fails (the error's message says which).
 */
export function ensureBuilt(root, bundle, { stdio = 'inherit' } = {}) {
  if (isFresh(root, bundle)) return;
  const lock = path.join(os.tmpdir(), `cuda-bank-lens-build-${Buffer.from(root).toString('hex').slice(-24)}.lock`);
  const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 60_000) fs.rmSync(lock, { recursive: true, force: true });
      } catch {
        /* gone already */
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      sleep(100);
    }
  }
  try {
    if (!isFresh(root, bundle)) execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
