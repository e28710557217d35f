// A launcher that picks its kernel by a `switch` on a parameter `main` sets only under a command-line flag
// (test/fixtures/steered-launches.cu, as the CUDA samples' globalToShmemAsyncCopy picks one of eight kernels).
// (was: the call was taken the way the flag is not given, so only the `default:` case's kernel had a launch; the
// others were said to have none in the file, their template parameter unbound and their accesses unknown)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

test('every case of a switch on a launcher parameter set under a flag is launched, with its block and template value', () => {
  const { text, result } = analyzeFile('test/fixtures/steered-launches.cu');
  // naive<16>, block 16x16: As[x][y] is word 16 x + y, bank (16 x + y) % 32: the 8 even x share bank y: 8-way
  const naive = accessAt(result, text, 'o[threadIdx.x] = As[threadIdx.x][threadIdx.y]', 'load');
  figures(naive, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(naive.block, [16, 16, 1]);
  assert.ok(naive.assumptions.includes('block 16x16x1 from the launch at line 40 in `run` (the call at line 60)'), naive.assumptions.join('\n'));
  // padded<16>, Bs[16][17]: rows y = 0, 1 of a warp: words 17 y + x; x = 15 of row 1 is word 32, bank 0 with word 0
  for (const [snippet, kind] of [['Bs[threadIdx.y][threadIdx.x] =', 'store'], ['o[threadIdx.x] = Bs[threadIdx.x][threadIdx.y]', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind);
    figures(a, 'conflict', 2, 2, 32, 32);
    assert.deepEqual(a.block, [16, 16, 1]);
    assert.ok(a.assumptions.includes('block 16x16x1 from the launch at line 43 in `run` (the call at line 60)'), a.assumptions.join('\n'));
  }
  // wide<32> with 32 threads: Cs[2 t] of 128 floats: lanes t and t + 16 in bank 2 t % 32: 2-way
  const wide = accessAt(result, text, 'Cs[threadIdx.x * 2] =', 'store');
  figures(wide, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(wide.block, [32, 1, 1]);
  assert.ok(!result.accesses.some((a) => a.assumptions.some((s) => /not bound by any launch|no launch of/.test(s))));
});
