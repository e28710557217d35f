// Multi-file projects as repositories lay them out (test/fixtures/projects/<name>/): kernels in `.cuh` files launched
// from a `.cu`, configuration headers with guards and `#pragma once`, `include/` and `src/` folders built with `-I`,
// a header two runners include. Every figure is checked against a brute-force lane oracle of the bank model
// (32 banks of 4 bytes; phases of 32, 16 and 8 lanes for 4-, 8- and 16-byte accesses), not taken from the engine.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ready, accessAt, figures, ROOT } from './helpers/engine';
import { analyzeText, FileAnalysis } from '../../server/engine';
import { includeReader } from '../../server/host/headers';
import { LspTestClient } from './helpers/lsp-client';

before(() => ready);

const P = (...parts: string[]) => path.join(ROOT, 'test', 'fixtures', 'projects', ...parts);
const read = (p: string) => fs.readFileSync(p, 'utf8');

/** The engine on a header of a project, with the given files that include it, as the command line gives them. */
function header(file: string, includers: string[], dirs: string[] = []): { text: string; result: FileAnalysis } {
  const text = read(file);
  const result = analyzeText(text, {
    budgetMs: 60_000, path: file, includes: includeReader(file, dirs),
    includedBy: includers.map((p) => ({ path: p, text: read(p) })),
  });
  return { text, result };
}

const CLI = path.join(ROOT, 'bin', 'cuda-bank-lens.js');
const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
type JsonAccess = { line: number; column: number; kind: string; array: string; status: string; degree: number | null; wavefronts: number | null; distinctWords: number | null; activeLanes: number | null; block: number[]; assumptions: string[]; reason?: string };
const json = (args: string[]) => JSON.parse(cli(['--format', 'json', ...args]).stdout) as { files: { path: string; accesses: JsonAccess[]; notices?: { line: number; message: string }[] }[] };

test('a runner\'s #define before its #include decides the header\'s #ifndef default (was: STAGE_W 32 from the header, block 32x32, 32-way)', () => {
  const dir = P('tile-override');
  const { text, result } = header(path.join(dir, 'stage_tile.cuh'), [path.join(dir, 'wide.cu')]);
  // wide.cu: STAGE_W 16, block 16x16: tile[tx][ty] is word 16 * tx + ty, a warp holds tx 0..15 and ty 0..1:
  // the even tx in bank ty, the odd in bank 16 + ty: 8 words in each of 4 banks (oracle: 8, 8, 32, 32)
  const load = accessAt(result, text, 'out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(load, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(load.block, [16, 16, 1]);
  assert.ok(load.assumptions.includes('block 16x16x1 from the launch at line 6 of wide.cu'), load.assumptions.join('\n'));
  assert.ok(load.assumptions.includes('`STAGE_W` = 16 (defined in wide.cu, line 1)'), load.assumptions.join('\n'));
  // the row store, word 16 * ty + tx: 32 words in 32 banks
  figures(accessAt(result, text, 'tile[threadIdx.y][threadIdx.x] = out', 'store', 'tile'), 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(result.notices, []);
});

test('two runners that include a header with different macros: the first by path is read, the other is a notice (was: both read with the header\'s default, wide.cu\'s block 32x32)', () => {
  const dir = P('tile-override');
  const { text, result } = header(path.join(dir, 'stage_tile.cuh'), [path.join(dir, 'wide.cu'), path.join(dir, 'square.cu')]);
  // square.cu: STAGE_W 32, block 32x8: tile[tx][ty] is word 32 * tx + ty: every lane in bank ty (oracle: 32, 32, 32, 32)
  const load = accessAt(result, text, 'out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];', 'load', 'tile');
  figures(load, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(load.block, [32, 8, 1]);
  assert.ok(load.assumptions.includes('block 32x8x1 from the launch at line 6 of square.cu'), load.assumptions.join('\n'));
  assert.equal(result.accesses.filter((a) => a.cases.some((c) => c.block?.[0] === 16)).length, 0);
  assert.deepEqual(result.notices.map((n) => [n.range.start.line, n.message]), [[0,
    'the launches in wide.cu are not read: where it includes this file, `STAGE_W` is 16, and not defined where square.cu includes it (the file is analysed as square.cu includes it)']]);
  // the command line on the folder says the same
  const out = json([dir]);
  const h = out.files.find((f) => f.path.endsWith('stage_tile.cuh'))!;
  assert.equal(h.accesses.find((a) => a.line === 14)!.degree, 32);
  assert.equal(h.notices!.length, 1);
});

test('a struct in a namespace, named with it (`hist::Bin`), has its layout (was: unknown, the layout of `hist::Bin` is not known)', () => {
  const dir = P('include-src');
  const cu = path.join(dir, 'src', 'histogram.cu');
  const text = read(cu);
  const r = analyzeText(text, { budgetMs: 60_000, path: cu, includes: includeReader(cu, [path.join(dir, 'include')]) });
  // Bin is 8 bytes, rows of 64 (512 bytes, 128 words); copy = (t / 32) % 4 is one row per warp
  // .count of bins[copy][t % 64]: word 128 * copy + 2 * (t % 64): two words per bank (oracle: 2, 2, 32, 32)
  const count = accessAt(r, text, 'bins[copy][t % HIST_BINS].count = 0;', 'store', 'bins');
  figures(count, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(count.block, [128, 1, 1]);
  assert.ok(count.assumptions.includes('`HIST_BINS` = 64 (defined in config.h, line 7)'), count.assumptions.join('\n'));
  // .weight of bins[copy][(4t) % 64]: word 128 * copy + 8 * (t % 16) + 1: 16 words in banks 1, 9, 17, 25 (oracle: 4, 4, 16, 32)
  figures(accessAt(r, text, 'bins[copy][(t * 4) % HIST_BINS].weight', 'store', 'bins'), 'conflict', 4, 4, 16, 32);
  // the whole Bin copied for t < 64: two 4-byte pieces, each at stride 2 words (oracle: 2, 2, 32, 32)
  figures(accessAt(r, text, 'out[t] = bins[0][t];', 'load', 'bins'), 'conflict', 2, 2, 32, 32);
  // config.h's optional `#include "hist/build_info.h"` (under __has_include) is a file the project lacks: nothing read
  assert.deepEqual(r.headers, [path.join(dir, 'include', 'hist', 'config.h'), path.join(dir, 'include', 'hist', 'layout.h')]);
  // the same struct in a namespace of the file itself
  const one = 'namespace hist {\nstruct Bin { unsigned count; float weight; };\n}\n__global__ void k() { __shared__ hist::Bin b[64]; b[threadIdx.x].count = 0; }\n';
  figures(analyzeText(one).accesses[0], 'conflict', 2, 2, 32, 32);
  // a name whose namespaces are not those of the definition is not that type
  const other = one.replace('hist::Bin b', 'other::Bin b');
  assert.equal(analyzeText(other).accesses[0].status, 'unknown');
});

test('the command line on an include/ + src/ project: -I finds the headers, without it the accesses stay unknown (guards: exit codes, -I)', () => {
  const dir = P('include-src');
  const withI = json(['-I', path.join(dir, 'include'), dir]).files[0].accesses;
  assert.deepEqual(withI.map((a) => [a.line, a.column, a.status, a.degree]), [[9, 3, 'conflict', 2], [10, 3, 'conflict', 4], [12, 31, 'conflict', 2]]);
  assert.equal(cli(['-I', path.join(dir, 'include'), dir]).status, 1);
  const without = json([dir]).files[0].accesses;
  assert.ok(without.every((a) => a.status === 'unknown'), JSON.stringify(without));
  assert.equal(cli([dir]).status, 0);
  assert.equal(json(['--no-headers', '-I', path.join(dir, 'include'), dir]).files[0].accesses[0].status, 'unknown');
});

test('SGEMM-style layout: kernels.cuh includes kernels/*.cuh, runner.cu launches them (guards: figures, positions, fix in the header, SARIF)', () => {
  const dir = P('sgemm-layout');
  const out = json([dir]);
  const byName = (n: string) => out.files.find((f) => f.path.endsWith(n))!.accesses;
  // smemBlocking<32>, block 1024: As/Bs[row * 32 + col] with col = t % 32 are one row per warp; As[row * 32 + d] one word
  assert.deepEqual(byName('smem_blocking.cuh').map((a) => [a.line, a.column, a.array, a.kind, a.status, a.degree, a.wavefronts, a.distinctWords, a.activeLanes]), [
    [18, 5, 'As', 'store', 'conflict-free', 1, 1, 32, 32],
    [19, 5, 'Bs', 'store', 'conflict-free', 1, 1, 32, 32],
    [24, 14, 'As', 'load', 'broadcast', 1, 1, 1, 32],
    [24, 33, 'Bs', 'load', 'conflict-free', 1, 1, 32, 32],
  ]);
  assert.ok(byName('smem_blocking.cuh')[0].assumptions.includes('block 1024x1x1 from the launch at line 8 of runner.cu'));
  // transposeTile, tile[32][32 + 0], block 32x8: the column read tile[tx][ty + j] is 32-way (oracle: 32, 32, 32, 32)
  const t = byName('transpose_tile.cuh');
  assert.deepEqual(t.map((a) => [a.line, a.column, a.kind, a.status, a.degree, a.wavefronts, a.distinctWords, a.activeLanes]), [
    [10, 5, 'store', 'conflict-free', 1, 1, 32, 32],
    [15, 32, 'load', 'conflict', 32, 32, 32, 32],
  ]);
  assert.deepEqual(t[1].block, [32, 8, 1]);
  for (const s of ['block 32x8x1 from the launch at line 15 of runner.cu', '`TILE_DIM` = 32 (defined in tile_config.h, line 3)', '`TILE_PAD` = 0 (defined in tile_config.h, line 6)', '`BLOCK_ROWS` = 8 (defined in tile_config.h, line 4)'])
    assert.ok(t[1].assumptions.includes(s), `${s}\n${t[1].assumptions.join('\n')}`);
  // -D TILE_PAD=1 decides the header's #ifndef: [32][33], conflict-free
  assert.equal(json(['-D', 'TILE_PAD=1', dir]).files.find((f) => f.path.endsWith('transpose_tile.cuh'))!.accesses[1].status, 'conflict-free');
  // SARIF names the header and the access's position
  const sarif = JSON.parse(cli(['--format', 'sarif', dir]).stdout);
  const warn = sarif.runs[0].results.filter((r: { level: string }) => r.level === 'warning');
  assert.equal(warn.length, 1);
  assert.match(warn[0].locations[0].physicalLocation.artifactLocation.uri, /src\/kernels\/transpose_tile\.cuh$/);
  assert.equal(warn[0].locations[0].physicalLocation.region.startLine, 15);
  assert.equal(warn[0].locations[0].physicalLocation.region.startColumn, 32);
  // the header alone, with no includer in the run: the launch is not seen, the block is assumed
  const alone = json([path.join(dir, 'src', 'kernels', 'transpose_tile.cuh')]).files[0].accesses[1];
  assert.deepEqual(alone.block, [32, 1, 1]);
});

test('--fix on a project pads the header\'s declaration, edits no other file, and the project still compiles (guards)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-projects-'));
  fs.cpSync(P('sgemm-layout'), tmp, { recursive: true });
  const before = new Map(['src/runner.cu', 'src/kernels.cuh', 'src/tile_config.h', 'src/kernels/smem_blocking.cuh'].map((f) => [f, read(path.join(tmp, f))]));
  const r = cli(['--fix', tmp]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /fixed: .*transpose_tile\.cuh:6:20: Pad tile to \[TILE_DIM\]\[TILE_DIM \+ TILE_PAD \+ 1\]/);
  assert.match(read(path.join(tmp, 'src/kernels/transpose_tile.cuh')), /__shared__ float tile\[TILE_DIM\]\[TILE_DIM \+ TILE_PAD \+ 1\];/);
  for (const [f, text] of before) assert.equal(read(path.join(tmp, f)), text, f);
  const nvcc = spawnSync('nvcc', ['-ptx', '-arch=sm_80', '-o', '/dev/null', path.join(tmp, 'src/runner.cu')], { encoding: 'utf8' });
  assert.equal(nvcc.status, 0, nvcc.stderr);
  // a second run changes nothing
  assert.doesNotMatch(cli(['--fix', tmp]).stdout, /fixed:/);
});

test('a header two .cu files include with different launches: each launch is a case (guards: Harris reduction 128 and 256, pitch 16 and 33)', () => {
  const dir = P('two-runners');
  const { text, result } = header(path.join(dir, 'reduce.cuh'), [path.join(dir, 'bench_large.cu'), path.join(dir, 'bench_small.cu')]);
  // buf[index + s], index = 2 * s * t < BS: oracle per s, BS = 256: 2, 4, 8, 8, 8, 4, 2, 1; BS = 128: 2, 4, 4, 4, 4, 2, 1
  const load = accessAt(result, text, 'buf[index] += buf[index + s];', 'load', 'buf[index + s]');
  figures(load, 'conflict', 8, 8, 32, 32);
  const per = (bs: number) => load.cases.filter((c) => c.context.BS === bs).map((c) => c.degree);
  assert.deepEqual(per(256), [2, 4, 8, 8, 8, 4, 2, 1]);
  assert.deepEqual(per(128), [2, 4, 4, 4, 4, 2, 1]);
  // Moments is 8 bytes: m[lane].sum is word 2 * lane (oracle: 2, 2, 32, 32); only bench_small.cu launches it
  const m = accessAt(result, text, 'm[lane].sum = v;', 'store', 'm');
  figures(m, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(m.block, [64, 1, 1]);
  assert.ok(m.assumptions.includes('`WARP_SZ` = 32 (defined in common.h, line 4)'), m.assumptions.join('\n'));
  // rows[(t % 32) * pitch]: pitch 16 (bench_small.cu, block 32) 16-way; pitch 33 (bench_large.cu, block 64) conflict-free
  const col = accessAt(result, text, 'out[threadIdx.x] = rows[(threadIdx.x % 32) * pitch];', 'load', 'rows');
  figures(col, 'conflict', 16, 16, 32, 32);
  assert.deepEqual(col.cases.map((c) => [c.context.pitch, c.degree]).sort(), [[16, 16], [33, 1]]);
  assert.ok(col.assumptions.includes('`pitch` = 16 from the launch at line 12 of bench_small.cu'), col.assumptions.join('\n'));
  assert.deepEqual(result.notices, []);
});

test('kernel traits in a header (`TileTraits<64, 32, PAD>::kLd`) and an alignas(16) struct bind per launch (guards)', () => {
  const dir = P('traits-gemm');
  const { text, result } = header(path.join(dir, 'gemm_tile.cuh'), [path.join(dir, 'main.cu')]);
  // tile[r * kLd + c], r = t: kLd 32 puts every lane in one bank (oracle: 32); kLd 33 is conflict-free (oracle: 1)
  const st = accessAt(result, text, 'tile[r * Traits::kLd + c] = in', 'store', 'tile');
  figures(st, 'conflict', 32, 32, 32, 32);
  assert.deepEqual(st.block, [64, 1, 1]);
  assert.deepEqual([...new Set(st.cases.map((c) => `${c.context.Traits}: ${c.degree}`))], ['TileTraits<64, 32, 0>: 32', 'TileTraits<64, 32, 1>: 1']);
  // Frag4 (16 bytes) at stride 2: phases of 8 lanes, 2 words per bank in each, 4 phases (oracle: 2, 8, 128, 32)
  figures(accessAt(result, text, 'out[threadIdx.x] = frags[(2 * threadIdx.x) % 64];', 'load', 'frags'), 'conflict', 2, 8, 128, 32);
  figures(accessAt(result, text, 'frags[threadIdx.x] = in[threadIdx.x];', 'store', 'frags'), 'conflict-free', 1, 4, 128, 32);
});

const msg = (d: { message: string | { value: string } }): string => (typeof d.message === 'string' ? d.message : d.message.value);

test('lsp: a header of a workspace project follows its runners\' edits, and a runner\'s #define before the include (guards; was: STAGE_W 32)', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-projects-lsp-'));
  fs.cpSync(P('tile-override'), tmp, { recursive: true });
  fs.rmSync(path.join(tmp, 'square.cu'));
  const c = await LspTestClient.start({ workspaceFolders: [{ uri: pathToFileURL(tmp).href, name: 'p' }] });
  try {
    const hUri = pathToFileURL(path.join(tmp, 'stage_tile.cuh')).href;
    await c.open(hUri, read(path.join(tmp, 'stage_tile.cuh')));
    // wide.cu's STAGE_W 16, block 16x16: 8-way
    await c.waitForDiagnostics(hUri, (p) => p.diagnostics.some((d) => /8-way bank conflict/.test(msg(d))));
    // the runner opened, its #define edited to 32 (block 32x32): the column read is 32-way
    const wide = path.join(tmp, 'wide.cu');
    const wUri = pathToFileURL(wide).href;
    let mark = c.published.length;
    await c.open(wUri, read(wide));
    await c.change(wUri, [{ text: read(wide).replace('#define STAGE_W 16', '#define STAGE_W 32') }]);
    await c.waitForDiagnostics(hUri, (p) => p.diagnostics.some((d) => /32-way bank conflict/.test(msg(d))), 20_000, mark);
    // closed, the runner is the disk's again: 8-way
    mark = c.published.length;
    await c.close(wUri);
    await c.waitForDiagnostics(hUri, (p) => p.diagnostics.some((d) => /8-way bank conflict/.test(msg(d))), 20_000, mark);
    await c.close(hUri);
  } finally {
    await c.stop();
  }
});

test('a header\'s __device__ helpers run in the includers\' kernels that call them (was: no access reported in the header, a notice in each .cu)', () => {
  const dir = P('device-helpers');
  const { text, result } = header(path.join(dir, 'block_utils.cuh'), [path.join(dir, 'pack.cu'), path.join(dir, 'spread.cu')]);
  // buf[t * stride]: stride 8 (spread.cu) puts 8 words in each of banks 0, 8, 16, 24 (oracle: 8, 8, 32, 32);
  // stride 33 (pack.cu) is odd: conflict-free (oracle: 1, 1, 32, 32)
  const put = accessAt(result, text, 'buf[threadIdx.x * stride] = v;', 'store', 'buf');
  figures(put, 'conflict', 8, 8, 32, 32);
  assert.equal(put.kernel, 'spreadEight');
  assert.deepEqual(put.block, [32, 1, 1]);
  assert.ok(put.assumptions.includes('block 32x1x1 from the launch at line 13 of spread.cu'), put.assumptions.join('\n'));
  // each call is a case, its line named with its file (was: `call = line 38`, a line of the combined text)
  assert.deepEqual(put.cases.map((c) => [c.context.kernel, c.context.call, c.degree]), [['packPadded', 'line 6 of pack.cu', 1], ['spreadEight', 'line 6 of spread.cu', 8]]);
  assert.match(put.message, /\(worst case: kernel = spreadEight, call = line 6 of spread\.cu\)/);
  // tile[t * 33 + k], k = 0..3: odd stride, conflict-free in every pass (oracle: 1, 1, 32, 32)
  figures(accessAt(result, text, 'acc += tile[threadIdx.x * ld + k];', 'load', 'tile'), 'conflict-free', 1, 1, 32, 32);
  // only the header's lines, and no padding fix: the arrays are the includers'
  assert.ok(result.accesses.every((a) => a.range.end.line < text.split('\n').length));
  assert.deepEqual(result.arrays, []);
  // alone, the helpers' pointers are not known to be shared memory: nothing to report, as before
  assert.deepEqual(analyzeText(text).accesses, []);
});

test('a host loop bounded by a cast count, `j < (int)(sizeof(block_sizes) / sizeof(int))`, gives one launch per block size (was: block_size not evaluated, 32 threads assumed)', () => {
  const file = P('llmc-dev', 'softmax.cu');
  const text = read(file);
  const r = analyzeText(text, { budgetMs: 60_000, path: file, includes: includeReader(file) });
  // shared[lane % (blockDim.x / 32)]: 2, 4, 8 or 16 words for blocks of 64 to 512, all in distinct banks
  // (oracle: 1, 1, 2, 32 for the 64-thread block, the worst on a tie being the first)
  const load = accessAt(r, text, 'shared[lane % (blockDim.x / 32)]', 'load', 'shared');
  figures(load, 'conflict-free', 1, 1, 2, 32);
  assert.deepEqual(load.block, [64, 1, 1]);
  assert.ok(load.assumptions.includes('block 64x1x1 from the launch at line 16 in `softmax_forward` (the call at line 27 with `j` = 0 (the loop at line 25))'), load.assumptions.join('\n'));
  // the four block sizes 64, 128, 256 and 512 are the contexts
  assert.ok(load.assumptions.some((a) => a.startsWith('4 contexts evaluated (block shapes,')), load.assumptions.join('\n'));
});

test('lsp: a header\'s __device__ helper is reported with the workspace\'s kernels that call it, and follows their edits (was: no diagnostic in the header)', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-projects-lsp-'));
  fs.cpSync(P('device-helpers'), tmp, { recursive: true });
  const c = await LspTestClient.start({ workspaceFolders: [{ uri: pathToFileURL(tmp).href, name: 'p' }] });
  try {
    const hUri = pathToFileURL(path.join(tmp, 'block_utils.cuh')).href;
    await c.open(hUri, read(path.join(tmp, 'block_utils.cuh')));
    // spread.cu's stride 8: 8-way at the helper's store
    const first = await c.waitForDiagnostics(hUri, (p) => p.diagnostics.some((d) => /8-way bank conflict/.test(msg(d))));
    assert.deepEqual(first.diagnostics.filter((d) => /bank conflict/.test(msg(d))).map((d) => d.range.start.line), [5]);
    // spread.cu opened and its stride made odd: the conflict goes
    const spread = path.join(tmp, 'spread.cu');
    const sUri = pathToFileURL(spread).href;
    const mark = c.published.length;
    await c.open(sUri, read(spread));
    await c.change(sUri, [{ text: read(spread).replace('putStrided(buf, 8,', 'putStrided(buf, 7,') }]);
    await c.waitForDiagnostics(hUri, (p) => !p.diagnostics.some((d) => /bank conflict/.test(msg(d))), 20_000, mark);
    await c.close(sUri);
    await c.close(hUri);
  } finally {
    await c.stop();
  }
});
