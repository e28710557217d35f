#!/usr/bin/env node
// Node can hang for ever at exit when an optimising compile on a background thread waits for a garbage collection
// that the exiting main thread never runs (nodejs/node#54918; seen here in about 1 run in 40 on a loaded machine).
// So the command line runs in a child node, which says its exit status on file descriptor 3 once everything it prints
// is written; this process passes the child every argument, stream and signal, exits with that status, and ends a
// child that has not exited a second after saying it.
const { spawn } = require('child_process');
const CHILD = 'CUDA_BANK_LENS_CHILD';
const GRACE_MS = 1000;

if (process.env[CHILD] === '1') {
  require('../dist/cli.js');
} else {
  const child = spawn(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [CHILD]: '1' },
  });
  let said = null;
  child.stdio[3].on('data', (d) => {
    const code = Number(String(d).trim());
    if (said !== null || !Number.isInteger(code)) return;
    said = code;
    setTimeout(() => child.kill('SIGKILL'), GRACE_MS).unref();
  });
  const forward = (signal) => child.kill(signal);
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, forward);
  child.on('error', (e) => {
    process.stderr.write(`cuda-bank-lens: cannot start node: ${e.message}\n`);
    process.exitCode = 2;
  });
  child.on('exit', (status, signal) => {
    if (said !== null) process.exitCode = said;
    else if (signal) {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeListener(s, forward);
      process.kill(process.pid, signal);
    } else process.exitCode = status ?? 2;
  });
}
