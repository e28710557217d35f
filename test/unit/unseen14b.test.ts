// Regressions from the fourteenth sweep of unseen kernels, helper B (data processing: GPU database operators, stream
// compaction, run-length and LZ-style compression, pattern matching): a host `switch` on a block size (or an item
// count) the launcher itself sets before the switch (`block_dim = proc_bs;` in a compaction library), whose other
// cases' launches never run. Figures from a brute-force lane oracle of the bank model (scratch/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen14b.cu';

test('a switch on a block size the launcher sets just before runs only the case of that value (was: 32-way from the 1024 instance)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // BLOCK_DIM 256, WARPS 8: words 8t, four banks, eight words each
  const s = accessAt(result, text, 'votes[threadIdx.x * WARPS] = v > lo;', 'store', 'votes');
  figures(s, 'conflict', 8, 8, 32, 32);
  assert.deepEqual(s.block, [256, 1, 1]);
  assert.equal(s.cases?.length ?? 0, 0, JSON.stringify(s.cases));
  assert.ok(s.assumptions.some((a) => /block 256x1x1 from the launch at line 43/.test(a)), s.assumptions.join('\n'));
  figures(accessAt(result, text, 'const uint32_t mine = votes[(warp * 32 + lane) * WARPS];', 'load', 'votes'), 'conflict', 8, 8, 32, 32);
  // one lane per warp stores its word; every lane reads it back
  const b = accessAt(result, text, 'warp_base[warp] = counts[blockIdx.x * WARPS + warp];', 'store', 'warp_base');
  figures(b, 'conflict-free', 1, 1, 1, 1);
  assert.deepEqual(b.block, [256, 1, 1]);
  figures(accessAt(result, text, 'out[warp_base[warp] + before] = v;', 'load', 'warp_base'), 'broadcast', 1, 1, 1, 32);
});

test('a switch whose known value matches no case runs its default: only that instance (was: 4-way from the ITEMS = 4 case)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // ITEMS 3: words 3t + i, stride 3, conflict-free in every iteration
  const r = accessAt(result, text, 'runs[threadIdx.x * ITEMS + i] = vals[', 'store', 'runs');
  figures(r, 'conflict-free', 1, 1, 32, 32);
  assert.equal(r.cases?.length ?? 0, 0, JSON.stringify(r.cases));
  assert.ok(r.assumptions.some((a) => /from the launch at line 80/.test(a)), r.assumptions.join('\n'));
  figures(accessAt(result, text, 'acc += runs[threadIdx.x * ITEMS + i] * starts[i * 128 + threadIdx.x];', 'load', 'runs'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'acc += runs[threadIdx.x * ITEMS + i] * starts[i * 128 + threadIdx.x];', 'load', 'starts'), 'conflict-free', 1, 1, 32, 32);
});

test('a known value entering an empty case falls through to the next one; a parameter the launcher sets is its block (was: 4-way at 32 threads)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // 64 threads: stride 128 / 64 = 2 words, two words in each of 16 banks
  const s = accessAt(result, text, 'table[threadIdx.x * stride] = keys[', 'store', 'table');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [64, 1, 1]);
  const l = accessAt(result, text, 'hits[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x * stride];', 'load', 'table');
  figures(l, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(l.block, [64, 1, 1]);
  assert.ok(!l.assumptions.some((a) => /32x1x1/.test(a)), l.assumptions.join('\n'));
});

test('a constant of a policy struct that is no template, named through the type parameter bound to it, is its value (was: unknown, `Policy::BLOCK_THREADS` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // TilePolicyWide: 128 threads, 4 items; words i * 128 + t (conflict-free), words 4t + i (4-way)
  const s = accessAt(result, text, 'tile[i * Policy::BLOCK_THREADS + threadIdx.x] = col[', 'store', 'tile');
  figures(s, 'conflict-free', 1, 1, 32, 32);
  assert.deepEqual(s.block, [128, 1, 1]);
  assert.ok(s.assumptions.some((a) => /run_tile_sum<TilePolicyWide>/.test(a)), s.assumptions.join('\n'));
  const l = accessAt(result, text, 'acc += tile[threadIdx.x * Policy::ITEMS_PER_THREAD + i];', 'load', 'tile');
  figures(l, 'conflict', 4, 4, 32, 32);
  assert.deepEqual(l.block, [128, 1, 1]);
});

test('a policy constant made of its sibling constants reads them in its own class, though another class has ones of that name (was: unknown, `BLOCK_THREADS` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // TILE = 128 * 4: word 511, read by every lane
  const l = accessAt(result, text, 'acc += tile[Policy::TILE - 1];', 'load', 'tile');
  figures(l, 'broadcast', 1, 1, 1, 32);
  assert.deepEqual(l.block, [128, 1, 1]);
  assert.ok(!result.accesses.some((a) => a.kernel === 'tile_sum' && a.status === 'unknown'),
    result.accesses.filter((a) => a.kernel === 'tile_sum' && a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('`*p` through a kernel\'s pointer parameter to an integer is one value per warp, as `p[0]` is (was: unknown, "is not integer arithmetic")', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words start + 2t (+ 1): two per bank in 16 banks, whatever `start` is (rule 6); `t < num` is assumed true
  const snippet = 'out[threadIdx.x] = win[start + threadIdx.x * 2 + 1] - win[start + threadIdx.x * 2];';
  const hi = accessAt(result, text, snippet, 'load', 'win[start + threadIdx.x * 2 + 1]');
  figures(hi, 'conflict', 2, 2, 32, 32);
  assert.ok(hi.assumptions.some((a) => /\*startPtr/.test(a) && /rule 6/.test(a)), hi.assumptions.join('\n'));
  assert.ok(hi.assumptions.some((a) => /`\*numPtr`/.test(a)), hi.assumptions.join('\n'));
  figures(accessAt(result, text, snippet, 'load', 'win[start + threadIdx.x * 2]'), 'conflict', 2, 2, 32, 32);
});
