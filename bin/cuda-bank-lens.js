#!/usr/bin/env node
// Node can hang for ever at exit when an optimising compile on a background thread is waiting for a garbage
// collection that the exiting main thread never runs (nodejs/node#54918; seen here in about 1 run in 40 on a loaded
// machine). V8 reads the flag that turns those background compiles off only at start-up, so the command line runs in
// a node started with it: this process starts that one, passes it every argument and standard stream, and exits as it
// does.
const FLAG = '--no-concurrent-recompilation';
if (process.execArgv.includes(FLAG)) {
  require('../dist/cli.js');
} else {
  const r = require('child_process').spawnSync(process.execPath, [...process.execArgv, FLAG, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`cuda-bank-lens: cannot start node: ${r.error.message}\n`);
    process.exitCode = 2;
  } else if (r.signal) {
    process.kill(process.pid, r.signal);
  } else {
    process.exitCode = r.status;
  }
}
