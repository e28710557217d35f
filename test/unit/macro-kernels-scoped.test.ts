// Kernels that a file-scope macro defines inside `namespace { }`, `namespace ops { }` and `extern "C" { }`, and
// constants that a nested namespace shadows (test/fixtures/macro-kernels-scoped.cu). Figures worked out lane by lane:
// `t[threadIdx.x][threadIdx.y]` of a 32x32 float tile puts a warp's 32 lanes 32 words apart (one bank, 32-way); a
// stride of S words over 32 lanes uses 32/S banks, S lanes each (S-way).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText, AccessFinding, FileAnalysis } from '../../server/engine';
import { ready, analyzeFile, figures, lineOf, inKernel } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/macro-kernels-scoped.cu';

test('a kernel macro used inside namespace { }, extern "C" { } or namespace ops { } on one line is expanded there (was: not analysed, and no word at all for the one-line use)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const read = (k: string) => inKernel(result, text, 'out[threadIdx.y * TILE + threadIdx.x] = t[threadIdx.x][threadIdx.y];', 'load', k);
  figures(read('transpose_naive'), 'conflict', 32, 32, 32, 32);
  figures(read('transpose_padded'), 'conflict-free', 1, 1, 32, 32);
  figures(read('transpose_ops'), 'conflict', 32, 32, 32, 32);
  // each takes its block from its own launch: the qualified `ops::transpose_ops<<<1, dim3(TILE, 8)>>>` too
  assert.deepEqual(read('transpose_naive').block, [32, 32, 1]);
  assert.deepEqual(read('transpose_ops').block, [32, 8, 1]);
  assert.ok(read('transpose_ops').assumptions.includes(`block 32x8x1 from the launch at line ${lineOf(text, 'ops::transpose_ops<<<') + 1}`), read('transpose_ops').assumptions.join('\n'));
  assert.ok(read('transpose_ops').assumptions[0].includes(`the macro \`DEFINE_TRANSPOSE\` (line 7) used at line ${lineOf(text, 'namespace ops { DEFINE_TRANSPOSE') + 1}`), read('transpose_ops').assumptions[0]);
  assert.deepEqual(result.notices, []);
});

test('a constant a nested namespace shadows: each kernel reads its own namespace\'s (was: both read the last one, a 4-way conflict called 2-way)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const store = (k: string) => inKernel(result, text, 's[threadIdx.x * STRIDE] = out[threadIdx.x];', 'store', k);
  figures(store('strided4'), 'conflict', 4, 4, 32, 32);
  figures(store('strided2'), 'conflict', 2, 2, 32, 32);
});

test('a global constant is not replaced by a namespace\'s of the same name, declared after it (was: the global kernel read the namespace\'s)', () => {
  const src = `constexpr int TILE = 32;
namespace fp16 { constexpr int TILE = 16; }
namespace a::b {
constexpr int PAD = 0;
__global__ void k1(float *o) { __shared__ float t[TILE][TILE + PAD]; o[0] = t[threadIdx.x][0]; }
}
namespace fp16 {
__global__ void k2(float *o) { __shared__ float t[TILE][TILE]; o[0] = t[threadIdx.x % TILE][0]; }
}
__global__ void k3(float *o) { __shared__ float t[TILE][TILE]; o[0] = t[threadIdx.x][0]; }
int main() { float *o; a::b::k1<<<1, 32>>>(o); fp16::k2<<<1, 32>>>(o); k3<<<1, 32>>>(o); }
`;
  const r = analyzeText(src);
  const of = (k: string) => r.accesses.find((a) => a.kernel === k)!;
  // 32 rows of 32 floats: every lane in bank 0
  figures(of('k1'), 'conflict', 32, 32, 32, 32);
  figures(of('k3'), 'conflict', 32, 32, 32, 32);
  // fp16's 16 x 16: rows 0..15 (lanes t and t + 16 share one), even rows in bank 0 and odd rows in bank 16
  figures(of('k2'), 'conflict', 8, 8, 16, 32);
  assert.equal(of('k2').worst!.banksUsed, 2);
});
