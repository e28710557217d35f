// The macros of the headers a file includes (`#include "..."`): read through AnalyzeOptions.includes (the engine reads
// no file), by the command line from disk (`-I`, `--no-headers`), and by the language server, which analyses a file
// again when a header it read changes. Figures worked out by hand from the bank model (32 banks of 4 bytes).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncludeReader } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures, ROOT } from './helpers/engine';
import { analyzeText } from '../../server/engine';
import { includeReader, IncludeGraph } from '../../server/host/headers';
import { LspTestClient } from './helpers/lsp-client';

before(() => ready);

const FIXTURE = 'test/fixtures/with-header.cu';
const fixtureReader = () => includeReader(path.join(ROOT, FIXTURE));

/** A reader over texts in memory, keyed by path; `calls` lists each spec asked for, with the file asking. */
function memoryReader(files: Record<string, string>, calls: string[] = []): IncludeReader {
  return (spec, from) => {
    calls.push(`${from ?? '<doc>'} -> ${spec}`);
    const dir = from ? path.posix.dirname(from) : '/src';
    const p = path.posix.normalize(path.posix.join(dir, spec));
    return p in files ? { path: p, text: files[p] } : null;
  };
}

const KERNEL = (extent: string) => `#include "cfg.h"
__global__ void k(float *o) {
  __shared__ float s[${extent}];
  s[threadIdx.x * STRIDE] = o[threadIdx.x];
}
`;

test('a size defined in an included header gives the access its figures (was: unknown, `TILE` not known)', () => {
  const { text, result } = analyzeFile(FIXTURE, { includes: fixtureReader() });
  // tile[TILE_DIM][TILE_DIM + TILE_PAD] = [32][33], block 32x8 from `dim3 block(TILE_DIM, BLOCK_ROWS)`:
  // the column read tile[tx][ty + j] is word 33 * tx + ty + j, one per bank
  const load = accessAt(result, text, 'out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];', 'load', 'tile');
  figures(load, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(load.block, [32, 8, 1]);
  assert.ok(load.assumptions.includes('`TILE_DIM` = 32 (defined in tile_config.h, line 7)'), load.assumptions.join('\n'));
  // TILE_PAD comes from detail/pad.h, which tile_config.h includes from its own folder
  assert.ok(load.assumptions.includes('`TILE_PAD` = 1 (defined in pad.h, line 3)'), load.assumptions.join('\n'));
  assert.deepEqual(result.headers, [path.join(ROOT, 'test/fixtures/include/tile_config.h'), path.join(ROOT, 'test/fixtures/include/detail/pad.h')]);
  // without a reader the same access is unknown, as before
  const alone = analyzeFile(FIXTURE);
  const before = accessAt(alone.result, alone.text, 'out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];', 'load', 'tile');
  assert.equal(before.status, 'unknown');
  // (the loop's bound TILE_DIM is not known either)
  assert.equal(before.reason, '`j` is changed by the loop at line 16, whose trip count is unknown, by a step not known to be the same on every lane');
  assert.equal(alone.result.headers, undefined);
});

test('the file\'s own #define before the include decides the header\'s #ifdef (NARROW_ROWS: ROW_WORDS 16, not 32)', () => {
  const { text, result } = analyzeFile(FIXTURE, { includes: fixtureReader() });
  // rows[8][16]: rows[tx / 4][tx % 4] is word 16 * (tx / 4) + tx % 4: rows 0, 2, 4, 6 share banks 0-3, four words each
  const store = accessAt(result, text, 'rows[threadIdx.x / 4][threadIdx.x % 4] = out[threadIdx.x];', 'store', 'rows');
  figures(store, 'conflict', 4, 4, 32, 32);
  assert.ok(store.assumptions.includes('`ROW_WORDS` = 16 (defined in tile_config.h, line 11)'), store.assumptions.join('\n'));
  // rows[tx % 8][0]: words 0, 16, ..., 112; bank 0 holds 0, 32, 64, 96
  figures(accessAt(result, text, 'out[threadIdx.x] = rows[threadIdx.x % 8][0];', 'load', 'rows'), 'conflict', 4, 4, 8, 32);
});

test('a function-like macro of the header is expanded (LOAD_F2: an 8-byte load, was a call not defined in this file)', () => {
  const { text, result } = analyzeFile(FIXTURE, { includes: fixtureReader() });
  // float2 at byte 8 * tx: 64 words, two phases of 16 lanes, one word per bank in each
  const load = accessAt(result, text, 'float2 v = LOAD_F2(buf[2 * threadIdx.x]);', 'load');
  figures(load, 'conflict-free', 1, 2, 64, 32);
  assert.equal(load.elementBytes, 8);
});

test('-D (defines) wins over a header, and the file\'s own #define over both', () => {
  const files = { '/src/cfg.h': '#pragma once\n#define STRIDE 2\n#define N 64\n' };
  const text = KERNEL('N');
  // STRIDE 2 from the header: words 2 * tx, two per bank in 16 banks
  let r = analyzeText(text, { includes: memoryReader(files) });
  assert.equal(r.accesses[0].degree, 2);
  // STRIDE=4 given: words 4 * tx, four per bank
  r = analyzeText(text, { includes: memoryReader(files), defines: { STRIDE: '4' } });
  assert.equal(r.accesses[0].degree, 4);
  assert.ok(!r.accesses[0].assumptions.some((a) => a.includes('STRIDE')), r.accesses[0].assumptions.join('\n'));
  // the file defines STRIDE 1 after the include: conflict-free
  r = analyzeText(text.replace('__global__', '#undef STRIDE\n#define STRIDE 1\n__global__'), { includes: memoryReader(files), defines: { STRIDE: '4' } });
  assert.equal(r.accesses[0].status, 'conflict-free');
});

test('a macro two undecided branches of a header define differently is not taken (unknown), nor is an include in #if 0 read', () => {
  const calls: string[] = [];
  const files = {
    '/src/cfg.h': '#pragma once\n#define N 64\n#if FROM_ELSEWHERE > 1\n#define STRIDE 2\n#else\n#define STRIDE 1\n#endif\n',
    '/src/never.h': '#define N 8\n',
  };
  const text = `#if 0\n#include "never.h"\n#endif\n${KERNEL('N')}`;
  const r = analyzeText(text, { includes: memoryReader(files, calls) });
  assert.deepEqual(calls, ['<doc> -> cfg.h']);
  assert.equal(r.accesses[0].status, 'unknown');
  assert.match(r.accesses[0].reason!, /`STRIDE` is not known here/);
  // decided from outside, it is known
  const given = analyzeText(text, { includes: memoryReader(files), defines: { FROM_ELSEWHERE: '2' } });
  assert.equal(given.accesses[0].degree, 2);
});

test('headers that include each other are read once each, nested ones from their own folder', () => {
  const calls: string[] = [];
  const files = {
    '/src/cfg.h': '#include "detail/a.h"\n#define N 64\n',
    '/src/detail/a.h': '#include "b.h"\n#define STRIDE (HALF * 2)\n',
    '/src/detail/b.h': '#include "a.h"\n#include "../cfg.h"\n#define HALF 2\n',
  };
  const r = analyzeText(KERNEL('N'), { includes: memoryReader(files, calls) });
  // STRIDE 4: four words per bank
  assert.equal(r.accesses[0].degree, 4);
  assert.deepEqual(r.headers, ['/src/cfg.h', '/src/detail/a.h', '/src/detail/b.h']);
  assert.deepEqual(calls, ['<doc> -> cfg.h', '/src/cfg.h -> detail/a.h', '/src/detail/a.h -> b.h', '/src/detail/b.h -> a.h', '/src/detail/b.h -> ../cfg.h']);
});

const CLI = path.join(ROOT, 'bin', 'cuda-bank-lens.js');
const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

/** A project folder: src/k.cu includes "tiles.h", which is in include/. */
function project(): { dir: string; cu: string; header: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-headers-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'include'));
  const header = path.join(dir, 'include', 'tiles.h');
  fs.writeFileSync(header, '#pragma once\n#define N 64\n#define STRIDE 2\n');
  const cu = path.join(dir, 'src', 'k.cu');
  fs.writeFileSync(cu, KERNEL('N').replace('cfg.h', 'tiles.h'));
  return { dir, cu, header };
}

test('the CLI looks for a header in the file\'s folder, then in -I folders; --no-headers reads none', () => {
  const { dir, cu } = project();
  const j = (args: string[]) => JSON.parse(cli(['--format', 'json', ...args, cu]).stdout).files[0].accesses[0];
  // not in src/: unknown, as before
  assert.equal(j([]).status, 'unknown');
  const found = j(['-I', path.join(dir, 'include')]);
  assert.equal(found.degree, 2);
  assert.ok(found.assumptions.includes('`STRIDE` = 2 (defined in tiles.h, line 3)'), found.assumptions.join('\n'));
  assert.equal(j([`-I${path.join(dir, 'include')}`]).degree, 2);
  assert.equal(j(['--no-headers', '-I', path.join(dir, 'include')]).status, 'unknown');
  // the exit status follows the findings: 1 for the 2-way conflict
  assert.equal(cli(['-I', path.join(dir, 'include'), cu]).status, 1);
});

test('`#include <...>` is looked for in the -I folders alone: a project header written so is read, a toolkit header is not (was: never read)', () => {
  const { dir, cu } = project();
  // the same name next to the file, which only a quoted include would find first
  fs.writeFileSync(path.join(dir, 'src', 'tiles.h'), '#pragma once\n#define N 64\n#define STRIDE 4\n');
  fs.writeFileSync(cu, `#include <cuda_runtime.h>\n#include <tiles.h>\n${KERNEL('N').replace('#include "cfg.h"\n', '')}`);
  const j = (args: string[]) => JSON.parse(cli(['--format', 'json', ...args, cu]).stdout).files[0];
  // without -I: not looked for next to the file (the compiler would not either), and nothing said of either header
  const alone = j([]);
  assert.equal(alone.accesses[0].status, 'unknown');
  assert.ok(!JSON.stringify(alone).includes('cuda_runtime.h'), JSON.stringify(alone));
  // with -I include/: include/tiles.h, STRIDE 2 (a 2-way conflict), not src/tiles.h (STRIDE 4)
  const found = j(['-I', path.join(dir, 'include')]).accesses[0];
  assert.equal(found.degree, 2);
  assert.ok(found.assumptions.includes('`STRIDE` = 2 (defined in tiles.h, line 3)'), found.assumptions.join('\n'));
  // the reader the host gives: a quoted include finds the file's neighbour first, an angle one only -I's
  const reader = includeReader(cu, [path.join(dir, 'include')]);
  assert.equal((reader('tiles.h', null) as { path: string }).path, path.join(dir, 'src', 'tiles.h'));
  assert.equal((reader('tiles.h', null, true) as { path: string }).path, path.join(dir, 'include', 'tiles.h'));
  assert.equal(reader('cuda_runtime.h', null, true), null);
  // and the workspace's include graph links the file to the header it reads
  const graph = new IncludeGraph([path.join(dir, 'include')]);
  graph.setFile(cu, fs.readFileSync(cu, 'utf8'));
  assert.deepEqual([...graph.includersOf(path.join(dir, 'include', 'tiles.h'))], [cu]);
});

test('the engine asks the reader for an angle include with `angle` set, from where it stands', () => {
  const calls: string[] = [];
  const files = { '/inc/cfg.h': '#define N 64\n#define STRIDE 2\n' };
  const reader: IncludeReader = (spec, from, angle) => {
    calls.push(`${from ?? '<doc>'} -> ${spec}${angle ? ' (angle)' : ''}`);
    const p = `/inc/${spec}`;
    return angle && p in files ? { path: p, text: files[p as keyof typeof files] } : null;
  };
  const r = analyzeText(`#include <vector>\n${KERNEL('N').replace('"cfg.h"', '<cfg.h>')}`, { includes: reader });
  assert.deepEqual(calls, ['<doc> -> vector (angle)', '<doc> -> cfg.h (angle)']);
  assert.equal(r.accesses[0].degree, 2);
  assert.deepEqual(r.headers, ['/inc/cfg.h']);
});

/** A diagnostic's message, as text. */
const text = (d: { message: string | { value: string } }): string => (typeof d.message === 'string' ? d.message : d.message.value);

test('lsp: a file is analysed with its header\'s macros, and again when the header is edited in the editor', async () => {
  const { dir, cu, header } = project();
  const c = await LspTestClient.start({ settings: { includePaths: [path.join(dir, 'include')] } });
  try {
    const uri = pathToFileURL(cu).href;
    await c.open(uri, fs.readFileSync(cu, 'utf8'));
    const first = await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /2-way bank conflict/.test(text(d))));
    assert.equal(first.diagnostics.filter((d) => /bank conflict/.test(text(d))).length, 1);
    // the header opened and changed (STRIDE 1): the file's diagnostics go, with no edit of the file
    const since = c.published.length;
    const hUri = pathToFileURL(header).href;
    await c.open(hUri, fs.readFileSync(header, 'utf8'));
    await c.change(hUri, [{ text: '#pragma once\n#define N 64\n#define STRIDE 1\n' }]);
    const after = await c.waitForDiagnostics(uri, (p) => !p.diagnostics.some((d) => /bank conflict/.test(text(d))), 20_000, since);
    assert.equal(after.version, 1);
    // closed, the header is the disk's again (STRIDE 2); then changed on disk (STRIDE 4), as a file watcher reports it
    let mark = c.published.length;
    await c.close(hUri);
    await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /2-way bank conflict/.test(text(d))), 20_000, mark);
    mark = c.published.length;
    fs.writeFileSync(header, '#pragma once\n#define N 64\n#define STRIDE 4\n');
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: hUri, type: 2 }] });
    await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /4-way bank conflict/.test(text(d))), 20_000, mark);
  } finally {
    await c.stop();
  }
});

/** A project whose kernels are in a header that a runner includes through another header, as many repositories do. */
function kernelsProject(): { dir: string; kernel: string; runner: string; kernelText: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-includers-'));
  fs.mkdirSync(path.join(dir, 'src', 'kernels'), { recursive: true });
  const kernel = path.join(dir, 'src', 'kernels', 'transpose.cuh');
  const kernelText = `#pragma once
template <int BS>
__global__ void scale(float *out)
{
  __shared__ float buf[BS];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x * 2) % BS];
}

__global__ void transposeNaive(float *out)
{
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
`;
  fs.writeFileSync(kernel, kernelText);
  fs.writeFileSync(path.join(dir, 'src', 'kernels.cuh'), '#pragma once\n#define TILE 16\n#include "kernels/transpose.cuh"\n');
  const runner = path.join(dir, 'src', 'runner.cu');
  fs.writeFileSync(runner, '#include "kernels.cuh"\n\nvoid run(float *o)\n{\n  scale<256><<<64, 256>>>(o);\n  dim3 block(TILE, TILE);\n  transposeNaive<<<1, block>>>(o);\n}\n');
  return { dir, kernel, runner, kernelText };
}

test('a header\'s kernels take their launches from the files that include it (was: 32 threads assumed, templates not bound)', () => {
  const { kernel, runner, kernelText, dir } = kernelsProject();
  const by = [{ path: path.join(dir, 'src', 'kernels.cuh'), text: fs.readFileSync(path.join(dir, 'src', 'kernels.cuh'), 'utf8') }, { path: runner, text: fs.readFileSync(runner, 'utf8') }];
  const r = analyzeText(kernelText, { includes: includeReader(kernel), path: kernel, includedBy: by });
  // TILE 16 (kernels.cuh), block 16x16 from runner.cu: tile[tx][ty] is word 16 * tx + ty, eight words in bank 0
  const load = accessAt(r, kernelText, 'out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(load, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(load.block, [16, 16, 1]);
  assert.ok(load.assumptions.includes('block 16x16x1 from the launch at line 7 of runner.cu'), load.assumptions.join('\n'));
  // scale<256>, block 256: (2 * tx) % 256 is two words per bank
  const s = accessAt(r, kernelText, 'out[threadIdx.x] = buf[(threadIdx.x * 2) % BS];', 'load', 'buf');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [256, 1, 1]);
  // only the header's own accesses: every range lies in its lines
  const lines = kernelText.split('\n').length;
  assert.ok(r.accesses.every((a) => a.range.end.line < lines));
  assert.deepEqual(r.headers, [path.join(dir, 'src', 'kernels.cuh'), runner]);
  // the padding fix edits the header's own declaration
  const fix = r.arrays.find((a) => a.name === 'tile')!.fix!;
  assert.ok(fix.edits.every((e) => e.range.start.line === 12), JSON.stringify(fix.edits));
  // alone: the template is not bound and TILE is not known
  const alone = analyzeText(kernelText, { includes: includeReader(kernel) });
  assert.equal(accessAt(alone, kernelText, 'out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile').status, 'unknown');
});

test('the CLI on a folder gives a header the launches of the files of the run that include it', () => {
  const { dir, kernel } = kernelsProject();
  const out = JSON.parse(cli(['--format', 'json', dir]).stdout);
  const file = out.files.find((f: { path: string }) => path.resolve(f.path) === kernel);
  const load = file.accesses.find((a: { line: number; kind: string }) => a.line === 16 && a.kind === 'load');
  assert.equal(load.degree, 8);
  assert.deepEqual(load.block, [16, 16, 1]);
  // the header alone: no includer in the run
  const alone = JSON.parse(cli(['--format', 'json', kernel]).stdout).files[0].accesses.find((a: { line: number; kind: string }) => a.line === 16 && a.kind === 'load');
  assert.equal(alone.status, 'unknown');
});

test('lsp: a header\'s kernels take their launches from the workspace\'s files that include it, and follow their edits', async () => {
  const { dir, kernel, runner, kernelText } = kernelsProject();
  const c = await LspTestClient.start({ workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'p' }] });
  try {
    const uri = pathToFileURL(kernel).href;
    await c.open(uri, kernelText);
    // once the workspace's includes are read: block 16x16 from runner.cu, 8-way
    await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /8-way bank conflict/.test(text(d))));
    // the runner opened and its block changed to 8x4 in the editor
    const since = c.published.length;
    const rUri = pathToFileURL(runner).href;
    await c.open(rUri, fs.readFileSync(runner, 'utf8'));
    await c.change(rUri, [{ text: fs.readFileSync(runner, 'utf8').replace('dim3 block(TILE, TILE);', 'dim3 block(8, 4);') }]);
    // block 8x4: words 16 * tx + ty, tx 0..7 and ty 0..3: the four even tx in banks 0-3, four words each
    const after = await c.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /4-way bank conflict/.test(text(d))), 20_000, since);
    assert.equal(after.version, 1);
  } finally {
    await c.stop();
  }
});

test('a header\'s types and constants are known: struct layouts, constexpr in a namespace, typedefs (was: unknown layout, not known)', () => {
  const files = {
    '/src/particle.h': `#pragma once
namespace cfg {
constexpr int kBlock = 128;
}
constexpr int kStride = 2;
struct Particle {
  float x, y, z;
  __device__ float norm() const { return x * x + y * y + z * z; }
};
typedef struct { double a; double b; } Pair;
#if FROM_ELSEWHERE
constexpr int kPad = 1;
#endif
`,
  };
  const text = `#include "particle.h"
__global__ void k(float *o) {
  __shared__ Particle p[cfg::kBlock];
  __shared__ Pair q[64];
  __shared__ float s[256];
  p[threadIdx.x].x = o[threadIdx.x];
  s[threadIdx.x * kStride] = p[threadIdx.x].norm();
  q[threadIdx.x].b = 1.0;
  s[threadIdx.x + kPad] = 0.0f;
}
int main() { k<<<1, cfg::kBlock>>>(0); }
`;
  const r = analyzeText(text, { includes: memoryReader(files) });
  // Particle is 12 bytes: .x of lane t is word 3t, an odd stride: 32 banks
  const px = accessAt(r, text, 'p[threadIdx.x].x = o[threadIdx.x];', 'store', 'p');
  figures(px, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(px.block, [128, 1, 1]);
  // kStride 2: two words per bank
  figures(accessAt(r, text, 's[threadIdx.x * kStride] =', 'store', 's'), 'conflict', 2, 2, 32, 32);
  // Pair is 16 bytes: .b of lane t at byte 16t + 8, 8 bytes, in half-warp phases: lanes t and t + 8 share banks
  figures(accessAt(r, text, 'q[threadIdx.x].b = 1.0;', 'store', 'q'), 'conflict', 2, 4, 64, 32);
  // the member function's body is the header's: its call is still one the file does not see
  assert.match(accessAt(r, text, 'p[threadIdx.x].norm()', 'atomic', 'p').reason!, /member function of `Particle` that this file does not define/);
  // a constant under a #if the file cannot decide, in no other branch, is read, as the file's own would be (the file
  // names it, so it compiles only where the #if holds): kPad = 1, 32 consecutive words (was: not known)
  figures(accessAt(r, text, 's[threadIdx.x + kPad] = 0.0f;', 'store', 's'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(!r.notices.some((n) => /kPad/.test(n.message)));
  // only the file's own lines
  assert.ok(r.accesses.every((a) => a.range.end.line < text.split('\n').length));
});

test('the file\'s own definition of a name wins over a header\'s, as the compiler would refuse the two', () => {
  const files = { '/src/cfg.h': '#pragma once\nconstexpr int N = 64;\nconstexpr int STRIDE = 4;\nstruct Cell { float v; };\n' };
  const text = `#include "cfg.h"
struct Cell { float v; float w; };
__global__ void k(float *o) {
  __shared__ float s[N * 4];
  __shared__ Cell c[32];
  s[threadIdx.x * STRIDE] = o[threadIdx.x];
  c[threadIdx.x].v = 1.0f;
}
`.replace('__global__', 'constexpr int STRIDE = 1;\n__global__');
  const r = analyzeText(text, { includes: memoryReader(files) });
  assert.equal(accessAt(r, text, 's[threadIdx.x * STRIDE]', 'store', 's').status, 'conflict-free');
  // the file's Cell is 8 bytes: .v of lane t is word 2t, two per bank
  assert.equal(accessAt(r, text, 'c[threadIdx.x].v = 1.0f;', 'store', 'c').degree, 2);
});

test('a .cu file\'s kernel takes the launches of another .cu file that launches it through a header both include (was: 32 threads assumed)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-launchers-'));
  fs.writeFileSync(path.join(dir, 'kernels.h'), '#pragma once\n#define TILE 16\n__global__ void transposeNaive(float *out);\n');
  const kernelText = '#include "kernels.h"\n__global__ void transposeNaive(float *out)\n{\n  __shared__ float tile[TILE][TILE];\n  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];\n  __syncthreads();\n  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n}\n';
  fs.writeFileSync(path.join(dir, 'kernels.cu'), kernelText);
  fs.writeFileSync(path.join(dir, 'main.cu'), '#include "kernels.h"\nint main()\n{\n  dim3 block(TILE, TILE);\n  transposeNaive<<<1, block>>>(0);\n  return 0;\n}\n');
  // not launchers: a file sharing no header with it, and one that defines a kernel of the same name itself
  fs.writeFileSync(path.join(dir, 'other.cu'), 'int main() { transposeNaive<<<1, 64>>>(0); }\n');
  fs.writeFileSync(path.join(dir, 'own.cu'), '#include "kernels.h"\n__global__ void transposeNaive(float *out) { out[0] = 0; }\nint main() { transposeNaive<<<1, 128>>>(0); }\n');
  const graph = new IncludeGraph();
  for (const f of ['kernels.h', 'kernels.cu', 'main.cu', 'other.cu', 'own.cu']) graph.setFile(path.join(dir, f), fs.readFileSync(path.join(dir, f), 'utf8'));
  assert.deepEqual(graph.launchersOf(path.join(dir, 'kernels.cu')), [path.join(dir, 'main.cu')]);
  assert.deepEqual(graph.includersOf(path.join(dir, 'kernels.cu')), []);
  // the CLI on the folder: block 16x16 from main.cu, tile[tx][ty] is word 16 * tx + ty: eight words in bank 0
  const out = JSON.parse(cli(['--format', 'json', dir]).stdout);
  const file = out.files.find((f: { path: string }) => path.resolve(f.path) === path.join(dir, 'kernels.cu'));
  const load = file.accesses.find((a: { line: number; kind: string }) => a.line === 7 && a.kind === 'load');
  assert.equal(load.degree, 8);
  assert.deepEqual(load.block, [16, 16, 1]);
  assert.ok(load.assumptions.includes('block 16x16x1 from the launch at line 5 of main.cu'), load.assumptions.join('\n'));
});
