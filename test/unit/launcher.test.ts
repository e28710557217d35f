// bin/cuda-bank-lens.js runs the command line in a child node that says its exit status on file descriptor 3 once its
// output is written, and ends a child that then does not exit (Node can hang at exit: nodejs/node#54918). These tests
// run the launcher over a stand-in for dist/cli.js in a folder of their own, so each child does exactly what the
// test needs: hang after saying its status, fail without saying it, or wait for a signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './helpers/engine';

/** A copy of the launcher whose `../dist/cli.js` is `child`. */
function launcherWith(child: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-launcher-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.copyFileSync(path.join(ROOT, 'bin', 'cuda-bank-lens.js'), path.join(dir, 'bin', 'cuda-bank-lens.js'));
  fs.writeFileSync(path.join(dir, 'dist', 'cli.js'), child);
  return path.join(dir, 'bin', 'cuda-bank-lens.js');
}

test('a child that says its status and then never exits is ended: the launcher exits with that status, its output passed on', () => {
  const bin = launcherWith(`process.stdout.write('findings ' + process.argv.slice(2).join(' ') + '\\n');
require('fs').writeSync(3, '1\\n');
setInterval(() => {}, 1000); // as a node stuck at exit: alive, never done
`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [bin, '--format', 'json', 'x.cu'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, 'findings --format json x.cu\n');
  assert.ok(Date.now() - t0 < 30_000, `took ${Date.now() - t0} ms`);
});

test('a child that exits without saying its status (a crash) gives its own exit status', () => {
  const bin = launcherWith(`process.stderr.write('boom\\n'); process.exit(3);\n`);
  const r = spawnSync(process.execPath, [bin], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 3);
  assert.equal(r.stderr, 'boom\n');
});

test('a signal to the launcher reaches the child, and the launcher ends by it', async () => {
  const bin = launcherWith(`process.stdout.write(process.pid + '\\n'); setInterval(() => {}, 1000);\n`);
  const p = spawn(process.execPath, [bin], { stdio: ['ignore', 'pipe', 'pipe'] });
  const childPid = await new Promise<number>((resolve) => p.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => p.on('exit', (code, signal) => resolve({ code, signal })));
  p.kill('SIGTERM');
  const r = await ended;
  assert.equal(r.signal, 'SIGTERM');
  // the child is gone too
  let alive = true;
  for (let i = 0; i < 100 && alive; i++) {
    try {
      process.kill(childPid, 0);
      await new Promise((res) => setTimeout(res, 50));
    } catch {
      alive = false;
    }
  }
  assert.equal(alive, false, `child ${childPid} still running`);
});
