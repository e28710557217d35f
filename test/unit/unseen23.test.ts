// The twenty-third sweep of unseen kernels (test/fixtures/unseen23a.cu, unseen23b.cu): every figure matched the bank
// model on the first run; these tests keep them. Each is worked by hand in the comments (per lane byte address ->
// words -> banks -> the most distinct words in one bank of a phase).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

test('siboehm kernel 10 (warp tiling): template arguments from `const uint` locals, constexpr tile sizes, __device__ helpers in a namespace: exact degrees', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen23a.cu', { budgetMs: 60_000 });
  // NUM_THREADS = 128 from `dim3 blockDim(K10_NUM_THREADS)`; BK = 16: innerColA = t % 4, innerRowA = t / 4
  for (const k of [0, 1, 2, 3]) {
    // word (4 colA + k) * 64 + rowA: bank rowA (64 * 4 is a multiple of 32), colA 0..3 put 4 words in it
    const st = accessAt(result, text, `As[(innerColA * 4 + ${k}) * BM + innerRowA + offset]`, 'store');
    figures(st, 'conflict', 4, 4, 32, 32);
    assert.deepEqual(st.block, [128, 1, 1]);
  }
  // float4 store: innerColB = t % 32: 32 consecutive float4, 512 bytes, one per quarter-warp phase of 8 lanes
  figures(accessAt(result, text, '&Bs[(innerRowB + offset) * BN + innerColB * 4]', 'store'), 'conflict-free', 1, 4, 128, 32);
  // WMITER = (32 * 64) / (32 * 4 * 4 * 1) = 4, WSUBN = 64: threadRowInWarp = lane / 16, two words, two banks
  figures(accessAt(result, text, 'As[(dotIdx * BM) + warpRow * WM', 'load'), 'conflict-free', 1, 1, 2, 32);
  // threadColInWarp = lane % 16: words 4 c + i, 16 of them in banks 0, 4, ..., 28: two words in each
  const bs = accessAt(result, text, 'Bs[(dotIdx * BN) + warpCol * WN', 'load');
  figures(bs, 'conflict', 2, 2, 16, 32);
  assert.match(bs.message, /^Bs: 2-way bank conflict: 4 lanes need 2 distinct words from bank 0; served in 2 wavefronts \(ideal 1\)/);
});

test('a reduction through sharedBuffer<T>() (a typed view of an extern byte buffer), float and half views of one extern buffer, float4 members, a struct of arrays: exact degrees', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen23b.cu', { budgetMs: 60_000 });
  figures(accessAt(result, text, 'sdata[tid] = mySum;', 'store'), 'conflict-free', 1, 1, 32, 32);
  // reduce6<float, 256, true>: `blockSize >= 512` is false, nothing runs there; said, not guessed
  const dead = accessAt(result, text, '(blockSize >= 512) && (tid < 256)', 'store');
  assert.equal(dead.status, 'unknown');
  assert.match(dead.message, /no thread runs this access: the condition `blockSize >= 512`/);
  // a[2 t]: words 2 t, banks 2 t % 32: lanes t and t + 16 share each: 2-way
  figures(accessAt(result, text, 'out[threadIdx.x] = a[threadIdx.x * 2]', 'load', 'a'), 'conflict', 2, 2, 32, 32);
  // b = (half *)(a + 256): b[t] is 2 bytes at 1024 + 2 t: two lanes per word, 16 words
  figures(accessAt(result, text, 'out[threadIdx.x] = a[threadIdx.x * 2]', 'load', 'b'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 'b[threadIdx.x * 2] = __float2half', 'store'), 'conflict-free', 1, 1, 32, 32);
  // sh[t].x: word 4 t, banks 0, 4, ..., 28, four words each
  figures(accessAt(result, text, 'sh[threadIdx.x].x = 1.0f', 'store'), 'conflict', 4, 4, 32, 32);
  // a whole float4 per lane: four quarter-warp phases of 8 lanes x 16 bytes, each every bank once
  figures(accessAt(result, text, 'float4 v = sh[threadIdx.x];', 'load'), 'conflict-free', 1, 4, 128, 32);
  figures(accessAt(result, text, 'sh[threadIdx.x ^ 1].z', 'load', 'sh'), 'conflict', 4, 4, 32, 32);
  // s.y[(2 t) % 32]: lanes t and t + 16 store one word: 16 words in 16 banks
  figures(accessAt(result, text, 's.y[(threadIdx.x * 2) % 32]', 'store'), 'conflict-free', 1, 1, 16, 32);
  figures(accessAt(result, text, 's.x[31 - threadIdx.x]', 'load'), 'conflict-free', 1, 1, 32, 32);
});
