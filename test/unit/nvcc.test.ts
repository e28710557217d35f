// Every CUDA file the project ships (examples/, test/fixtures/, test/gpu/) must be real CUDA: it compiles with
// `nvcc -ptx -arch=sm_80`. A missing nvcc fails the test (it never skips): the corpus would go unchecked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, cuFiles } from './helpers/common';

const DIRS = ['examples', 'test/fixtures', 'test/gpu'];
const POOL = 2;


function nvcc(args: string[]): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve) => {
    execFile('nvcc', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? ((error as NodeJS.ErrnoException).code ?? 1) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() });
    });
  });
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/**
 * A multi-file project's `-I`: a folder of test/fixtures/projects/ that has an `include/` folder is built as its CMake
 * would build it, with that folder on the include path.
 */
function includeDirs(f: string): string[] {
  const m = /^test\/fixtures\/projects\/[^/]+\//.exec(f);
  const inc = m ? path.join(m[0], 'include') : null;
  return inc && fs.existsSync(path.join(ROOT, inc)) ? ['-I', inc] : [];
}

test('every .cu under examples/, test/fixtures/ and test/gpu/ compiles with nvcc -ptx -arch=sm_80', async () => {
  const version = await nvcc(['--version']);
  assert.ok(
    version.code === 0,
    version.code === 'ENOENT'
      ? 'nvcc was not found on PATH: these checks need the CUDA compiler (nvcc), e.g. /usr/local/cuda/bin/nvcc'
      : `nvcc --version failed (${version.code}): ${version.output}`,
  );

  const files = DIRS.flatMap(cuFiles);
  assert.ok(files.includes('examples/transpose.cu'), `expected the examples among ${files.length} .cu files`);
  assert.ok(files.some((f) => f.startsWith('test/gpu/')), 'expected the GPU validation corpus in test/gpu/');
  assert.ok(files.some((f) => f.startsWith('test/fixtures/projects/') && includeDirs(f).length), 'expected a project with an include/ folder in test/fixtures/projects/');

  const results = await pool(files, POOL, async (f) => ({ f, ...(await nvcc(['-ptx', '-arch=sm_80', ...includeDirs(f), '-o', '/dev/null', f])) }));
  const failed = results.filter((r) => r.code !== 0);
  assert.deepEqual(
    failed.map((r) => r.f),
    [],
    failed.map((r) => `${r.f} does not compile:\n${r.output}`).join('\n\n'),
  );
});
