// The GPU validation corpus (test/gpu/) in dry-run: every corpus file compiles for sm_90, every kernel keeps the
// corpus rules (one shared instruction of the measured kind), and the engine predicts every kernel's access (no
// `unknown`, no missing access). The GPU half (`npm run validate:gpu`) needs a GPU machine and is not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

test('scripts/validate-gpu.mjs --dry-run: the corpus compiles and the engine predicts every kernel', async () => {
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['scripts/validate-gpu.mjs', '--dry-run'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
  assert.equal(r.code, 0, `validate-gpu --dry-run exited ${r.code}:\n${r.stderr.trim()}\n${r.stdout.trim().split('\n').slice(-15).join('\n')}`);
  assert.match(r.stdout, /\d+ corpus files, (\d+) kernels, \1 with a prediction, 0 problems/);
});
