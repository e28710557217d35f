// The command line as other programs use it (../shared/cli-contract.md): JSON and SARIF shapes, exit codes,
// unreadable paths, broken input, --arch, --block and --fix. Runs the built bundle (npm test builds first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, lineOf } from './helpers/engine';

const CLI = path.join(ROOT, 'bin', 'cuda-bank-lens.js');

function run(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function tmpFile(name: string, text: string | Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

test('--format json examples follows the contract', () => {
  const r = run(['--format', 'json', 'examples']);
  assert.equal(r.code, 1, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.tool, 'cuda-bank-lens');
  assert.equal(j.version, '0.1.0');
  assert.equal(j.model, 'sm_50+');
  assert.deepEqual(j.errors, []);
  const paths = j.files.map((f: { path: string }) => f.path);
  assert.ok(paths.includes('examples/transpose.cu') && paths.includes('examples/cm306.cu'), paths.join(','));
  for (const f of j.files)
    for (const a of f.accesses) {
      for (const k of ['array', 'line', 'column', 'kind', 'elementBytes', 'status', 'degree', 'wavefronts', 'idealWavefronts', 'distinctWords', 'banksUsed', 'activeLanes', 'kernel', 'block', 'assumptions', 'message'])
        assert.ok(k in a, `${f.path}:${a.line} lacks ${k}`);
      assert.ok(['load', 'store', 'atomic'].includes(a.kind));
      assert.ok(['conflict', 'conflict-free', 'broadcast', 'unknown'].includes(a.status));
      if (a.status === 'unknown') {
        assert.equal(a.degree, null);
        assert.equal(typeof a.reason, 'string');
      } else assert.equal(typeof a.degree, 'number');
      if (a.status === 'conflict') assert.ok(a.degree >= 2);
    }
  const text = fs.readFileSync(path.join(ROOT, 'examples/transpose.cu'), 'utf8');
  const t = j.files.find((f: { path: string }) => f.path === 'examples/transpose.cu');
  const read = t.accesses.find((a: { kernel: string; kind: string }) => a.kernel === 'transposeNaiveTile' && a.kind === 'load');
  const line = lineOf(text, 'tile[threadIdx.x][threadIdx.y + j]');
  assert.equal(read.line, line + 1);
  assert.equal(read.column, text.split('\n')[line].indexOf('tile[threadIdx.x]') + 1);
  assert.equal(read.array, 'tile');
  assert.equal(read.elementBytes, 4);
  assert.equal(read.status, 'conflict');
  assert.equal(read.degree, 32);
  assert.equal(read.wavefronts, 32);
  assert.equal(read.idealWavefronts, 1);
  assert.equal(read.distinctWords, 32);
  assert.equal(read.banksUsed, 1);
  assert.equal(read.activeLanes, 32);
  assert.deepEqual(read.block, [32, 8, 1]);
  const launch = lineOf(text, 'transposeNaiveTile<<<');
  assert.ok(read.assumptions.includes(`block 32x8x1 from the launch at line ${launch + 1}`), read.assumptions.join(' | '));
  // a compound assignment is one load and one store; cases list the loop iterations where the degree differs
  const red = j.files.find((f: { path: string }) => f.path === 'examples/reduction.cu');
  const rtext = fs.readFileSync(path.join(ROOT, 'examples/reduction.cu'), 'utf8');
  const rl = lineOf(rtext, 'sdata[index] += sdata[index + s];') + 1;
  const col = rtext.split('\n')[rl - 1].indexOf('sdata[index]') + 1;
  const kinds = red.accesses.filter((a: { line: number; column: number }) => a.line === rl && a.column === col).map((a: { kind: string }) => a.kind);
  assert.deepEqual(kinds.sort(), ['load', 'store']);
  const c = red.accesses.find((a: { line: number; column: number; kind: string }) => a.line === rl && a.column === col && a.kind === 'load');
  assert.deepEqual(c.cases.map((x: { context: { s: number }; degree: number }) => [x.context.s, x.degree]), [[1, 2], [2, 4], [4, 8], [8, 8], [16, 8], [32, 4], [64, 2], [128, 1]]);
});

test('--format sarif is SARIF 2.1.0 with rules, levels and regions', () => {
  const r = run(['--format', 'sarif', 'examples/cm306.cu']);
  assert.equal(r.code, 1);
  const s = JSON.parse(r.out);
  assert.equal(s.version, '2.1.0');
  assert.match(s.$schema, /sarif-2\.1\.0/);
  const run0 = s.runs[0];
  assert.equal(run0.tool.driver.name, 'cuda-bank-lens');
  const ids = run0.tool.driver.rules.map((x: { id: string }) => x.id);
  assert.deepEqual(ids, ['bank-conflict', 'broadcast', 'out-of-bounds']);
  const text = fs.readFileSync(path.join(ROOT, 'examples/cm306.cu'), 'utf8');
  const conflict = run0.results.filter((x: { ruleId: string }) => x.ruleId === 'bank-conflict');
  assert.equal(conflict.length, 1);
  assert.equal(conflict[0].level, 'warning');
  assert.equal(conflict[0].locations[0].physicalLocation.region.startLine, lineOf(text, 'w[2 * t]') + 1);
  assert.equal(conflict[0].locations[0].physicalLocation.artifactLocation.uri, 'examples/cm306.cu');
  const bc = run0.results.filter((x: { ruleId: string }) => x.ruleId === 'broadcast');
  assert.equal(bc.length, 1);
  assert.equal(bc[0].level, 'note');
});

test('exit status: 0 without conflicts, 1 with, 2 for bad usage', () => {
  const clean = tmpFile('clean.cu', '__global__ void k(float *o) { __shared__ float s[32]; s[threadIdx.x] = 1; o[0] = s[threadIdx.x]; }\n');
  assert.equal(run([clean]).code, 0);
  assert.equal(run(['examples/cm306.cu']).code, 1);
  const bad = run(['--frobnicate', 'examples']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown option/);
  assert.equal(run(['--arch', 'sm_99x9', 'examples']).code, 2);
  assert.equal(run(['--block', '0x4', 'examples']).code, 2);
  assert.equal(run([]).code, 2);
});

test('an unreadable path gives exit 2 and a one-line reason; the other files are still reported', () => {
  const r = run(['--format', 'json', 'no/such/file.cu', 'examples/cm306.cu']);
  assert.equal(r.code, 2);
  const lines = r.err.trim().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0], /no\/such\/file\.cu: no such file or directory/);
  const j = JSON.parse(r.out);
  assert.equal(j.files.length, 1);
  assert.equal(j.errors[0].path, 'no/such/file.cu');
});

test('a file with a syntax error keeps exact results for its intact kernel; junk never gives a stack trace', () => {
  const src = `__global__ void broken(float *o) {
  __shared__ float a[32];
  for (int i = 0; i < ; i++ {
    a[threadIdx.x * 2 = ;
}

__global__ void intact(float *o) {
  __shared__ float t[32][32];
  o[threadIdx.x] = t[threadIdx.x][0];
}
`;
  const f = tmpFile('broken.cu', src);
  const r = run(['--format', 'json', '--block', '32', f]);
  assert.equal(r.err, '');
  const j = JSON.parse(r.out);
  const intact = j.files[0].accesses.find((a: { kernel: string }) => a.kernel === 'intact');
  assert.equal(intact.degree, 32);
  const junk = tmpFile('junk.cu', Buffer.from(Array.from({ length: 20000 }, (_, i) => (i * 7919) % 256)));
  const jr = run([junk]);
  assert.ok(jr.code === 0 || jr.code === 1, jr.err);
  assert.doesNotMatch(jr.err, /at .*\.js:\d+/);
});

test('--arch picks the bank model: char s[t] conflicts on cc 1.x only; Kepler serves words i and i+32 of a segment together', () => {
  const src = `__global__ void k(float *o) {
  __shared__ char c[64];
  __shared__ float f[128];
  int t = threadIdx.x;
  o[t] = c[t] + f[2 * t] + f[4 * t];
}
void run(float *o) { k<<<1, 32>>>(o); }
`;
  const f = tmpFile('arch.cu', src);
  const line = src.split('\n')[4];
  const get = (arch?: string) => {
    const j = JSON.parse(run(['--format', 'json', ...(arch ? ['--arch', arch] : []), f]).out);
    const acc = j.files[0].accesses;
    const at = (needle: string) => acc.find((a: { column: number }) => a.column === line.indexOf(needle) + 1);
    return { model: j.model, c: at('c[t]'), f2: at('f[2'), f4: at('f[4') };
  };
  const d = get();
  assert.equal(d.c.status, 'conflict-free');
  assert.equal(d.f2.degree, 2);
  assert.equal(d.f4.degree, 4);
  const old = get('sm_13');
  assert.equal(old.model, 'sm_1x');
  assert.equal(old.c.degree, 4);
  const kepler4 = get('sm_35');
  assert.equal(kepler4.model, 'sm_3x');
  assert.equal(kepler4.f2.status, 'conflict-free');
  assert.equal(kepler4.f4.degree, 2);
  const kepler8 = get('sm_35:8B');
  assert.equal(kepler8.model, 'sm_3x-8B');
  assert.equal(kepler8.f2.status, 'conflict-free');
  assert.equal(kepler8.f4.degree, 2);
});

test('--block applies to kernels without a launch; the assumption says where the shape came from', () => {
  const src = `__global__ void k(float *o) {
  __shared__ float t[32][32];
  o[threadIdx.y] = t[threadIdx.x][threadIdx.y];
}
`;
  const f = tmpFile('block.cu', src);
  const def = JSON.parse(run(['--format', 'json', f]).out).files[0].accesses[0];
  assert.deepEqual(def.block, [32, 1, 1]);
  assert.ok(def.assumptions.some((a: string) => a.includes('assumed a one-dimensional block of 32 threads')));
  const given = JSON.parse(run(['--format', 'json', '--block', '16x16', f]).out).files[0].accesses[0];
  assert.deepEqual(given.block, [16, 16, 1]);
  assert.equal(given.degree, 16);
});

test('--fix pads in place, changes nothing the second time, and the result compiles with nvcc -ptx', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-fix-'));
  const file = path.join(dir, 'transpose.cu');
  const original = fs.readFileSync(path.join(ROOT, 'examples/transpose.cu'), 'utf8');
  fs.writeFileSync(file, original);
  const first = run(['--fix', file]);
  assert.equal(first.code, 0, first.out + first.err);
  assert.match(first.out, /fixed: .*transpose\.cu:\d+:\d+: Pad tile to \[TILE_DIM\]\[TILE_DIM \+ 1\]/);
  const fixed = fs.readFileSync(file, 'utf8');
  assert.equal(fixed, original.replace('__shared__ float tile[TILE_DIM][TILE_DIM];', '__shared__ float tile[TILE_DIM][TILE_DIM + 1];'));
  const second = run(['--fix', file]);
  assert.doesNotMatch(second.out, /fixed:/);
  assert.equal(fs.readFileSync(file, 'utf8'), fixed);
  execFileSync('nvcc', ['-ptx', '-arch=sm_80', '-o', path.join(dir, 'out.ptx'), file], { stdio: 'pipe' });
});

test('an element type whose size is not known gives elementBytes null, not 0', () => {
  const file = tmpFile('unbound.cu', `template <typename T>
__global__ void k(T *o) {
  __shared__ T s[32];
  o[threadIdx.x] = s[threadIdx.x];
}
`);
  const r = run(['--format', 'json', file]);
  const a = JSON.parse(r.out).files[0].accesses[0];
  assert.equal(a.status, 'unknown');
  assert.equal(a.elementBytes, null);
  assert.match(a.reason, /T/);
});

test('-D / --define give a macro the file takes from a header; the file\'s own #define wins; a bad one is a usage error', () => {
  const src = [
    '#include "common.cuh"',
    '__global__ void k(float *out) {',
    '  __shared__ float s[TILE_W][TILE_W];',
    '  s[threadIdx.x][threadIdx.y] = out[threadIdx.x];',
    '}',
    'void run(float *o) { k<<<1, dim3(TILE_W, 4)>>>(o); }',
    '',
  ].join('\n');
  const f = tmpFile('define.cu', src);
  const first = (args: string[]) => {
    const r = run(['--format', 'json', ...args, f]);
    return { code: r.code, a: JSON.parse(r.out).files[0].accesses[0] };
  };
  const none = first([]);
  assert.equal(none.a.status, 'unknown');
  for (const args of [['-D', 'TILE_W=32'], ['-DTILE_W=32'], ['--define', 'TILE_W=32'], ['--define=TILE_W=32']]) {
    const r = first(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.a.status, 'conflict');
    assert.equal(r.a.degree, 32);
    assert.deepEqual(r.a.block, [32, 4, 1]);
  }
  // the file's own `#define TILE_W 16` is the one used: a 16x4 block
  const own = tmpFile('own.cu', src.replace('#include "common.cuh"', '#define TILE_W 16'));
  const j = JSON.parse(run(['--format', 'json', '-D', 'TILE_W=32', own]).out);
  assert.deepEqual(j.files[0].accesses[0].block, [16, 4, 1]);
  const bad = run(['-D', '2X=1', f]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /bad definition `2X=1`/);
});
