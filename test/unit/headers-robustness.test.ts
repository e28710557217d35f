// Headers under stress: the language server's workspace scan of 5,000 files while the user types (keystrokes must not
// wait for it), and the files a workspace really holds: headers that include each other, a header over 2 MB, a binary
// file named `.h`, a header deleted while it is open, an include of a folder, symlinks in a loop, a 5 MB includer.
// Nothing may crash or hang. Figures from scratch/helper-h18g/oracle.py (32 banks of 4 bytes, one warp of 32 lanes).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ready, accessAt, figures } from './helpers/engine';
import { analyzeText } from '../../server/engine';
import { IncludeGraph, includeReader } from '../../server/host/headers';
import { scanWorkspace } from '../../server/host/workspace-scan';
import { LspTestClient } from './helpers/lsp-client';

before(() => ready);

const text = (d: { message: string | { value: string } }): string => (typeof d.message === 'string' ? d.message : d.message.value);

/** `src/k.cu` reads `TILE` from `include/config.h`: with TILE 32 the column store s[tx][0] is 32-way. */
const K_CU = `#include "../include/config.h"

__global__ void column(float *o)
{
  __shared__ float s[TILE][TILE];
  s[threadIdx.x][0] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = s[0][threadIdx.x];
}
`;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cbl-${name}-`));
}

function write(dir: string, rel: string, body: string | Buffer): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, body);
  return p;
}

test('lsp: 5,000 source files scanned while the user types: each keystroke\'s diagnostics come before the scan ends, with the header\'s TILE', async () => {
  const dir = tempDir('scan5000');
  write(dir, 'include/config.h', '#pragma once\n#define TILE 32\n');
  const cu = write(dir, 'src/k.cu', K_CU);
  for (let d = 0; d < 50; d++) {
    for (let f = 0; f < 100; f++) {
      write(dir, `gen/d${d}/f${f}.cu`, `#include "../../include/config.h"\n__global__ void g${f}(float *o) { o[threadIdx.x] = TILE; }\n`.repeat(1) + '// filler\n'.repeat(40));
    }
  }
  const c = await LspTestClient.start({
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'w' }],
    capabilities: { window: { workDoneProgress: true } },
    initializationOptions: { debounceMs: 0 },
  });
  try {
    const uri = pathToFileURL(cu).href;
    await c.open(uri, K_CU);
    const begun = Date.now();
    while (!c.progress.some((p) => p.kind === 'begin')) {
      assert.ok(Date.now() - begun < 30_000, 'the scan never began its progress');
      await new Promise((r) => setTimeout(r, 5));
    }
    // type while the scan reads: one character at a time, each answered before the next is sent
    const answered: number[] = [];
    for (let i = 0; i < 200 && !c.progress.some((p) => p.kind === 'end'); i++) {
      const v = await c.change(uri, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: i % 2 ? '\n' : '/' }]);
      const got = await c.waitForDiagnostics(uri, v, 30_000);
      // the header's TILE 32 on every keystroke: the column store is 32-way
      assert.ok(got.diagnostics.some((d) => /32-way bank conflict/.test(text(d))), got.diagnostics.map(text).join('\n'));
      answered.push(c.published.indexOf(got));
    }
    const end = await (async () => {
      for (;;) {
        const e = c.progress.find((p) => p.kind === 'end');
        if (e) return e;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    assert.ok(answered.length >= 1, 'the scan ended before the first keystroke');
    // the order of events: the first keystroke's diagnostics were published before the scan's progress ended
    assert.ok(answered[0] < end.afterPublished, `first keystroke answered at publish #${answered[0]}, scan ended after #${end.afterPublished}`);
    const reports = c.progress.filter((p) => p.kind === 'report');
    assert.ok(reports.length >= 2 && reports.at(-1)!.message === '5002/5002 files', reports.map((r) => r.message).join(', '));
    // the server still answers, with the header named in the hover
    const h = await c.hover(uri, c.document(uri).positionAt(c.text(uri).indexOf('s[threadIdx.x][0]')));
    assert.ok(h && JSON.stringify(h.contents).includes('config.h'), JSON.stringify(h?.contents).slice(0, 400));
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the scan terminates on symlinks in a loop (links are not followed: 2 files read)', async () => {
  const dir = tempDir('symloop');
  write(dir, 'include/config.h', '#pragma once\n#define TILE 32\n');
  write(dir, 'src/k.cu', K_CU);
  fs.symlinkSync('..', path.join(dir, 'src', 'up'));
  fs.symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
  fs.symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
  fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'src-link'));
  const graph = new IncludeGraph();
  const n = await scanWorkspace([dir], graph);
  assert.equal(n, 2); // config.h and k.cu; the links are not followed
  assert.deepEqual(graph.includersOf(path.join(dir, 'include', 'config.h')), [path.join(dir, 'src', 'k.cu')]);
  // a reader given a path through the looping links reads nothing, says why, and does not throw
  const r = includeReader(path.join(dir, 'src', 'k.cu'));
  assert.deepEqual(r('../loop-a/config.h', null), { path: path.join(dir, 'loop-a', 'config.h'), unread: 'its path goes through symbolic links in a loop' });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A workspace of the files that break readers. */
function hostileWorkspace(): { dir: string; cu: string; header: string; huge: string } {
  const dir = tempDir('hostile');
  // a.h and b.h include each other; a.h has a kernel that k.cu launches with a 16x16 block
  const header = write(dir, 'include/a.h', `#pragma once
#include "b.h"
#define TILE 32

__global__ void headerKernel(float *o)
{
  __shared__ float t[16][16];
  t[threadIdx.x][threadIdx.y] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
`);
  write(dir, 'include/b.h', '#pragma once\n#include "a.h"\n#define ROWS 8\n');
  // 2,000,001 bytes: one over the reader's cap
  write(dir, 'include/big.h', '#define BIG 1\n' + '/'.repeat(2_000_001 - 15) + '\n');
  write(dir, 'include/blob.h', Buffer.from([0x23, 0x64, 0x65, 0x66, 0, 1, 2, 0xff, 0xfe, 0, 10]));
  const cu = write(dir, 'src/k.cu', `#include "../include/a.h"
#include "../include/big.h"
#include "../include/blob.h"
#include "../include"
#include "../include/"

__global__ void column(float *o)
{
  __shared__ float s[TILE][TILE];
  s[threadIdx.x][0] = o[threadIdx.x];
}

void run(float *o)
{
  column<<<1, 32>>>(o);
  headerKernel<<<1, dim3(16, 16)>>>(o);
}
`);
  fs.symlinkSync('.', path.join(dir, 'include', 'self'));
  // a 5 MB includer: generated kernels after the include
  const kernels: string[] = ['#include "../include/a.h"'];
  let size = 0;
  for (let i = 0; size < 5_000_000; i++) {
    const k = `__global__ void big${i}(float *o)\n{\n  __shared__ float w[64];\n  w[threadIdx.x] = o[threadIdx.x];\n  o[threadIdx.x] = w[2 * threadIdx.x % 64];\n}\n`;
    kernels.push(k);
    size += k.length;
  }
  const huge = write(dir, 'src/huge.cu', kernels.join('\n'));
  return { dir, cu, header, huge };
}

test('engine: headers in a cycle are read once; one over 2 MB, binary, or a folder is not read and a notice at its include says why (was: silent, its macros only `not known here`)', () => {
  const { dir, cu } = hostileWorkspace();
  const src = fs.readFileSync(cu, 'utf8');
  const r = analyzeText(src, { includes: includeReader(cu), path: cu });
  // TILE 32 from a.h (its cycle with b.h read once each): s[tx][0] is word 32 * tx, all 32 lanes in bank 0
  figures(accessAt(r, src, 's[threadIdx.x][0] = o[threadIdx.x];', 'store', 's'), 'conflict', 32, 32, 32, 32);
  // the headers read, then those found and not read, each said at its include (was: nothing said, `TILE` of a
  // header not read was only `not known here`)
  const inc = (...p: string[]) => path.join(dir, 'include', ...p);
  assert.deepEqual(r.headers, [inc('a.h'), inc('b.h'), inc('big.h'), inc('blob.h'), path.join(dir, 'include')]);
  assert.deepEqual(r.notices.map((n) => `${n.range.start.line + 1}: ${n.message}`), [
    '2: `big.h` is not read: it is over 2 MB (2,000,001 bytes); the macros, types and constants it defines are not known here',
    '3: `blob.h` is not read: it holds binary data (a NUL byte) or cannot be read; the macros, types and constants it defines are not known here',
    '4: `include` is not read: it is a folder, not a file; the macros, types and constants it defines are not known here',
  ]);
  // through a header: said at the file's include that led to it, naming the header that includes it
  const nested = { '/w/a.h': '#include "big.h"\n#define TILE 32\n' };
  const viaText = '#include "a.h"\n' + src.slice(src.indexOf('\n__global__'));
  const viaHeader = analyzeText(viaText, {
    path: '/w/k.cu',
    includes: (spec) => (spec === 'big.h' ? { path: '/w/big.h', unread: 'it is over 2 MB (2,000,001 bytes)' } : spec === 'a.h' ? { path: '/w/a.h', text: nested['/w/a.h'] } : null),
  });
  assert.deepEqual(viaHeader.notices.map((n) => `${n.range.start.line + 1}: ${n.message}`), [
    '1: `big.h`, included by `a.h`, is not read: it is over 2 MB (2,000,001 bytes); the macros, types and constants it defines are not known here',
  ]);
  figures(accessAt(viaHeader, viaText, 's[threadIdx.x][0] = o[threadIdx.x];', 'store', 's'), 'conflict', 32, 32, 32, 32);
  // the same through the symlink to its own folder
  const viaLink = analyzeText(src.replace('"../include/a.h"', '"../include/self/self/a.h"'), { includes: includeReader(cu), path: cu });
  figures(accessAt(viaLink, src, 's[threadIdx.x][0] = o[threadIdx.x];', 'store', 's'), 'conflict', 32, 32, 32, 32);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('lsp: a hostile workspace (cycle, 2 MB+1 header, binary .h, folder include, symlink loop, 5 MB includer): a header\'s kernel gets its includer\'s block, a deleted open header keeps its text, nothing hangs', async () => {
  const { dir, cu, header, huge } = hostileWorkspace();
  const c = await LspTestClient.start({
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'w' }],
    capabilities: { window: { workDoneProgress: true } },
  });
  try {
    const uri = pathToFileURL(cu).href;
    const hUri = pathToFileURL(header).href;
    await c.open(uri, fs.readFileSync(cu, 'utf8'));
    const first = await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /32-way bank conflict/.test(text(d))), 60_000);
    assert.ok(first.diagnostics.some((d) => d.range.start.line === 2 && /^`blob\.h` is not read: it holds binary data/.test(text(d))), first.diagnostics.map(text).join('\n'));
    // the binary header rewritten as text on disk: the file is analysed again, and the notice goes
    let mark = c.published.length;
    fs.writeFileSync(path.join(dir, 'include', 'blob.h'), '#define BLOB 1\n');
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path.join(dir, 'include', 'blob.h')).href, type: 2 }] });
    await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /32-way/.test(text(d))) && !p.diagnostics.some((d) => /blob\.h/.test(text(d))), 30_000, mark);
    // the header's kernel, once the scan has read the workspace: block 16x16 from k.cu's launch.
    // t[tx][ty] is word 16 * tx + ty: per warp tx 0..15, ty two values; bank (16 * tx + ty) % 32 holds 8 words: 8-way
    await c.open(hUri, fs.readFileSync(header, 'utf8'));
    const hd = await c.waitForDiagnostics(hUri, (p) => p.diagnostics.some((d) => /8-way bank conflict/.test(text(d))), 60_000);
    assert.equal(hd.diagnostics.filter((d) => /bank conflict/.test(text(d))).length, 1, hd.diagnostics.map(text).join('\n'));
    for (const t0 = Date.now(); !c.progress.some((p) => p.kind === 'end'); await new Promise((r) => setTimeout(r, 20))) {
      assert.ok(Date.now() - t0 < 60_000, 'the scan did not end');
    }
    // the header deleted on disk while open: k.cu still reads the editor's text (TILE 32)
    fs.rmSync(header);
    mark = c.published.length;
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: hUri, type: 3 }] });
    await c.change(hUri, [{ text: fs.readFileSync(path.join(dir, 'include', 'b.h'), 'utf8').replace('ROWS 8', 'ROWS 8\n#define TILE 16') }]);
    // TILE 16: s[tx][0] is word 16 * tx, lanes tx and tx + 2 share a bank: 16-way
    await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /16-way bank conflict/.test(text(d))), 30_000, mark);
    // closed, it is gone: TILE is not known, the store is unknown, nothing else breaks
    mark = c.published.length;
    await c.close(hUri);
    const gone = await c.waitForDiagnostics(uri, (p) => !p.diagnostics.some((d) => /bank conflict/.test(text(d))), 30_000, mark);
    assert.ok(gone.diagnostics.every((d) => !/could not analyse/.test(text(d))), gone.diagnostics.map(text).join('\n'));
    // the 5 MB includer opened under the editor's default budget (500 ms): its first diagnostics come in budget
    // slices (the rest said not analysed yet), and the server still answers
    await c.setSettings({ analysisBudgetMs: 500 });
    const bigUri = pathToFileURL(huge).href;
    await c.open(bigUri, fs.readFileSync(huge, 'utf8'));
    const big = await c.waitForDiagnostics(bigUri, () => true, 120_000);
    assert.ok(big.diagnostics.length > 0);
    const h = await c.hover(uri, { line: 9, character: 3 });
    assert.ok(h === null || typeof h === 'object');
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('lsp: include folders sent by didChangeConfiguration while the first scan runs are scanned again (was: 32-way, the header\'s kernel kept the default block)', async () => {
  // a client without workspace/configuration that sends its settings just after starting, as Neovim 0.7 does
  const dir = tempDir('rescan');
  write(dir, 'include/config.h', '#pragma once\n#define TILE 32\n');
  const header = write(dir, 'include/kernels.cuh', '#pragma once\n#include "config.h"\n__global__ void headerKernel(float *out)\n{\n  __shared__ float t[TILE][TILE];\n  t[threadIdx.x][threadIdx.y] = out[threadIdx.x];\n}\n');
  write(dir, 'src/k.cu', '#include "config.h"\n#include "kernels.cuh"\nvoid run(float *d)\n{\n  headerKernel<<<1, dim3(16, 16)>>>(d);\n}\n');
  const c = await LspTestClient.start({ workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'w' }], settings: null, capabilities: { window: { workDoneProgress: true } } });
  try {
    await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { cudaBankLens: { includePaths: ['include'], analysisBudgetMs: 60_000 } } });
    const uri = pathToFileURL(header).href;
    await c.open(uri, fs.readFileSync(header, 'utf8'));
    // k.cu finds kernels.cuh only through the include folder: block 16x16, words 32 * tx + ty in banks 0 and 1,
    // sixteen each: 16-way (with the default 32x1 block, 32-way)
    const d = await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((x) => /16-way bank conflict/.test(text(x))), 30_000);
    assert.equal(text(d.diagnostics.find((x) => /16-way/.test(text(x)))!), 't: 16-way bank conflict: 16 lanes need 16 distinct words from bank 0; served in 16 wavefronts (ideal 1)');
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that includes a header and is too long to read with it is named in a notice (was: silent, the default block stated as if no file launched the kernel)', () => {
  const header = '#pragma once\n__global__ void headerKernel(float *out)\n{\n  __shared__ float t[32][32];\n  t[threadIdx.x][threadIdx.y] = out[threadIdx.x];\n}\n';
  const launch = '#include "kernels.cuh"\nvoid run(float *d) { headerKernel<<<1, dim3(16, 16)>>>(d); }\n';
  const huge = { path: '/w/huge.cu', text: launch + '//'.repeat(500_000) + '\n' };
  const small = { path: '/w/k.cu', text: launch };
  const r = analyzeText(header, { path: '/w/kernels.cuh', includedBy: [huge, small] });
  // k.cu is read: block 16x16, words 32 * tx + ty in banks 0 and 1, sixteen each: 16-way
  figures(accessAt(r, header, 't[threadIdx.x][threadIdx.y] = out[threadIdx.x];', 'store', 't'), 'conflict', 16, 16, 32, 32);
  assert.deepEqual(r.notices.map((n) => `${n.range.start.line + 1}: ${n.message}`), [
    `1: \`huge.cu\` includes this file and is not read with it: the files read with it are at most 1,000,000 characters in all, and it has ${huge.text.length.toLocaleString('en-US')}; its launches of this file's kernels do not count here`,
  ]);
  // only the long one: the default block (32x1: word 32 * tx, all in bank 0, 32-way), and the notice says why
  const alone = analyzeText(header, { path: '/w/kernels.cuh', includedBy: [huge] });
  const store = accessAt(alone, header, 't[threadIdx.x][threadIdx.y] = out[threadIdx.x];', 'store', 't');
  figures(store, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(store.block, [32, 1, 1]);
  assert.equal(alone.notices.length, 1);
  assert.match(alone.notices[0].message, /^`huge\.cu` includes this file and is not read with it/);
});
