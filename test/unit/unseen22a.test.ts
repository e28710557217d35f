// Regressions from the twenty-second sweep of unseen kernels: vector views of one row of a 2-D shared tile
// (test/fixtures/unseen22a.cu). A float4 read of four elements inside a row, or a float4 pointer over one row, reads
// the same elements when the rows are padded, so the padding fix is offered; a float4 that runs past its row's end,
// or a float4 view of the whole tile indexed across rows, still gets none.
// Figures from a brute-force lane oracle of the bank model (per lane byte address -> words -> phases of 32, 16 or 8
// lanes -> wavefronts), worked in the comments.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeText } from '../../server/engine';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';
import { applyEdits } from './helpers/lsp-client';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen22a.cu';
const arrayOf = (r: ReturnType<typeof analyzeFile>['result'], name: string) => r.arrays.find((a) => a.name === name)!;

test('a float4 read of four elements inside a row (`*reinterpret_cast<const float4 *>(&As[buf][k][ty * 4])`) leaves the padding fix: As to [2][BK][BM + 4], its transposed store conflict-free (was: refused, "a cast of `As` to `float4*` ... assumes the current row length")', () => {
  const { text, result } = analyzeFile(FIXTURE, { budgetMs: 60_000 });
  // store: word 64 (i % 8) + i / 8 on lane i: banks i / 8, 8 lanes each: 8-way
  const st = accessAt(result, text, 'As[buf][i % BK][i / BK] = A[', 'store', 'As');
  figures(st, 'conflict', 8, 8, 32, 32);
  // the read: ty = threadIdx.x / 16 takes 2 values in a warp: 2 float4 of 4 words, one per quarter-warp phase
  figures(accessAt(result, text, 'float4 a = *reinterpret_cast', 'load'), 'conflict-free', 1, 4, 8, 32);
  const as = arrayOf(result, 'As');
  assert.equal(as.noFixReason, undefined);
  // rows of 68 floats: word 68 (i % 8) + i / 8, banks 4 (i % 8) + i / 8: 32 distinct; 272-byte rows keep the
  // float4 reads aligned (rows of 65..67 floats would misalign them, so +4 is the smallest)
  assert.equal(as.fix!.title, 'Pad As to [2][BK][BM + 4]: 1 conflicting access becomes conflict-free (2 accesses checked)');
  assert.equal(as.fix!.padding, 4);
  assert.equal(as.fix!.preferred, true);
  assert.deepEqual(as.fix!.edits.map((e) => [e.range.start.line + 1, text.split('\n')[e.range.start.line].slice(e.range.start.character, e.range.end.character), e.newText]), [[9, 'BM', 'BM + 4']]);
});

test('a float4 pointer over one row (`float4 *A4 = reinterpret_cast<float4 *>(A[tx]); A4[3]`) leaves the padding fix: A to [32][68] (was: refused, "`A4[3]` ... indexes `A` through a pointer")', () => {
  const { text, result } = analyzeFile(FIXTURE, { budgetMs: 60_000 });
  // words 64 tx + 12..15: every lane on banks 12..15; 8 lanes a phase: 8-way, 4 phases, 32 wavefronts
  figures(accessAt(result, text, 'A4[3] = make_float4', 'store', 'A4'), 'conflict', 8, 32, 128, 32);
  figures(accessAt(result, text, 'A[tx][12]', 'load', 'A'), 'conflict', 32, 32, 32, 32);
  const a = arrayOf(result, 'A');
  // rows of 68: A4[3] on banks 4 tx + 12..15, distinct in each phase of 8 lanes: 4 wavefronts; A[tx][12] on bank
  // 4 tx + 12: 4-way, 4 wavefronts (every aligned row length of at most 96 floats is at least 4-way there)
  assert.equal(a.fix!.title, 'Pad A to [32][68]: the worst access goes from 32-way to 4-way; 1 of 2 conflicting accesses becomes conflict-free; wavefronts 64 -> 8 (2 accesses checked)');
  assert.equal(a.fix!.preferred, false);
});

test('a float4 view of the whole tile indexed a row at a time (`C4[tx * 16]`) and a float4 past the end of its row (`&R[8 * tx][4]` in rows of 6) still get no padding fix', () => {
  const { text, result } = analyzeFile(FIXTURE, { budgetMs: 60_000 });
  figures(accessAt(result, text, 'C4[tx * 16] = make_float4', 'store', 'C4'), 'conflict', 8, 32, 128, 32);
  assert.equal(arrayOf(result, 'C').fix, undefined);
  assert.equal(arrayOf(result, 'C').noFixReason, 'no padding fix: `C4[tx * 16]` at line 41 indexes `C` through a pointer, which assumes the current row length of `C`');
  // words 48 tx + 4..7: banks 16 tx + 4: in a phase of 8 lanes 4 lanes on bank 4 and 4 on bank 20: 4-way, 16 wavefronts
  figures(accessAt(result, text, '&R[8 * tx][4]', 'load'), 'conflict', 4, 16, 128, 32);
  assert.equal(arrayOf(result, 'R').fix, undefined);
  assert.equal(arrayOf(result, 'R').noFixReason, 'no padding fix: a cast of `R` to `float4*` at line 50, which assumes the current row length of `R`');
});

test('the padded fixture compiles with nvcc -ptx', () => {
  const { text, result } = analyzeFile(FIXTURE, { budgetMs: 60_000 });
  const edits = result.arrays.flatMap((a) => a.fix?.edits ?? []);
  assert.equal(edits.length, 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbl-u22a-'));
  const file = path.join(dir, 'padded.cu');
  fs.writeFileSync(file, applyEdits(text, edits));
  assert.match(fs.readFileSync(file, 'utf8'), /__shared__ float As\[2\]\[BK\]\[BM \+ 4\];[\s\S]*__shared__ float A\[32\]\[68\];/);
  execFileSync('nvcc', ['-ptx', '-arch=sm_80', '-o', path.join(dir, 'out.ptx'), file], { stdio: 'pipe' });
});

test('a row pointer indexed inside its row in warp mode, with the row picked by threadIdx.y (`stage[threadIdx.x]` as `short *`, `col[threadIdx.y]`), offers the fix the whole block does', () => {
  const text = [
    '__global__ void k(const short *in, short *out)',
    '{',
    '    __shared__ float stage[32][32];',
    '    short *row = reinterpret_cast<short *>(stage[threadIdx.y]);',
    '    row[threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];',
    '    __syncthreads();',
    '    const short *col = reinterpret_cast<const short *>(stage[threadIdx.x]);',
    '    out[threadIdx.y * 32 + threadIdx.x] = col[threadIdx.y];',
    '}',
    'int main() { k<<<1, dim3(32, 8)>>>(0, 0); }',
    '',
  ].join('\n');
  for (const wholeBlock of [false, true]) {
    const r = analyzeText(text, { budgetMs: 60_000, wholeBlock });
    const s = r.arrays.find((a) => a.name === 'stage')!;
    // col[ty]: byte 128 tx + 2 ty, every lane in bank ty / 2: 32-way; rows of 33: bank tx + ty / 2, conflict-free
    assert.equal(s.fix?.title, 'Pad stage to [32][33]: 1 conflicting access becomes conflict-free (2 accesses checked)', `wholeBlock ${wholeBlock}`);
  }
});
