// Launches through a configuration (test/fixtures/launch-config.cu): cudaLaunchKernelEx with a cudaLaunchConfig_t
// set field by field or with designated initializers, and a CUDA graph kernel node. Figures by hand from
// docs/bank-model.md.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/launch-config.cu';

test('cudaLaunchKernelEx takes the block shape set in its config and passes the arguments after the kernel', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // block 32x8, `stride` = 2: lanes 2 words apart, 2 lanes per bank
  const st = accessAt(result, text, 's[t * stride] = out[t];', 'store');
  assert.deepEqual(st.block, [32, 8, 1]);
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.equal(st.wavefronts, 2);
  assert.ok(st.assumptions.includes('block 32x8x1 from the launch at line 35'), st.assumptions.join('\n'));
  assert.ok(st.assumptions.includes('`stride` = 2 from the launch at line 35'), st.assumptions.join('\n'));
  // designated initializers (`.blockDim = dim3(64)`): two warps
  const d = accessAt(result, text, 'out[threadIdx.x] = s[0][63 - threadIdx.x];', 'load');
  assert.deepEqual(d.block, [64, 1, 1]);
  assert.equal(d.status, 'conflict-free');
  assert.ok(d.assumptions.includes('block 64x1x1 from the launch at line 38'), d.assumptions.join('\n'));
});

test('a CUDA graph kernel node (`params.func = (void *)k`) gives `k` the block shape set in its params', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const g = accessAt(result, text, 'out[threadIdx.x] = s[(threadIdx.x * 4) % 128];', 'load');
  assert.deepEqual(g.block, [128, 1, 1]);
  // 4 words apart in 128 words: lanes 0, 8, 16, 24 of each warp on bank 0
  assert.equal(g.status, 'conflict');
  assert.equal(g.degree, 4);
  assert.equal(g.wavefronts, 4);
  assert.ok(g.assumptions.includes('block 128x1x1 from the CUDA graph kernel node at line 48'), g.assumptions.join('\n'));
});
