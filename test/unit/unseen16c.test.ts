// Regressions from the sixteenth sweep of unseen kernels, helper C (HPC proxy applications and benchmark suites:
// HeCBench's axhelm, PolyBench/GPU's pipelined 2mm, RAJAPerf's reductions). The sweep found no wrong figure, dropped
// access or needless unknown in that corpus; these tests pin the idioms it leans on: 8x8 blocks of doubles (two rows of
// `threadIdx.y` per half-warp), double buffers whose pointers swap in a loop of unknown trip count, and structs of
// three doubles. Figures from a brute-force lane oracle of the bank model (scratch/oracle/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen16c.cu';

test('an 8x8 block of doubles: `s_D[i * 8 + m]` is 4-way in each half-warp, the other operator reads are clean', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const snippet = 'dr += s_D[i * NQ + m] * s_q[j * NQ + m];';
  // words 16i + 2m (+1): i = 0, 2, 4, 6 land in one bank pair, 4 distinct words; 2 half-warps of 4 wavefronts
  const d = accessAt(result, text, snippet, 'load', 's_D');
  figures(d, 'conflict', 4, 8, 16, 32);
  assert.deepEqual(d.block, [8, 8, 1]);
  // words 16j + 2m: j = 0, 1 per half-warp, distinct banks
  figures(accessAt(result, text, snippet, 'load', 's_q'), 'conflict-free', 1, 2, 8, 32);
  figures(accessAt(result, text, 'ds += s_D[j * NQ + m] * s_q[m * NQ + i];', 'load', 's_D'), 'conflict-free', 1, 2, 8, 32);
  figures(accessAt(result, text, 'ds += s_D[j * NQ + m] * s_q[m * NQ + i];', 'load', 's_q'), 'conflict-free', 1, 2, 16, 32);
  figures(accessAt(result, text, 's_D[j * NQ + i] = D[j * NQ + i];', 'store'), 'conflict-free', 1, 2, 64, 32);
});

test('double buffers swapped in a loop of unknown trip count keep their figures, whichever buffer the pointer names', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const snippet = 'acc += cur[k * TILE + tx] * cur[tx * TILE + k];';
  const rows = result.accesses.filter((a) => a.range.start.line === text.split('\n').findIndex((l) => l.includes(snippet)) && a.kind === 'load');
  assert.equal(rows.length, 2);
  const [row, col] = rows.sort((a, b) => a.range.start.character - b.range.start.character);
  // words 32k + tx: one row; words 32tx + k: one bank
  figures(row, 'conflict-free', 1, 1, 32, 32);
  figures(col, 'conflict', 32, 32, 32, 32);
  assert.ok(col.assumptions.some((a) => /swaps between arrays/.test(a)), col.assumptions.join('\n'));
  figures(accessAt(result, text, 'nxt[ty * TILE + tx] = A[t * TILE * TILE + ty * TILE + tx];', 'store'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 'C[ty * TILE + tx] = acc + cur[ty * TILE + tx];', 'load'), 'conflict-free', 1, 1, 32, 32);
  assert.ok(!result.accesses.some((a) => a.status === 'unknown'), result.accesses.filter((a) => a.status === 'unknown').map((a) => a.reason).join('\n'));
});

test('a struct of three doubles in shared memory: stride 6 words, clean; the loop-invariant member read is a broadcast', () => {
  const { text, result } = analyzeFile(FIXTURE);
  const snippet = 'for (int j = 0; j < 64; j++) acc += sp[j].x - sp[t].z;';
  figures(accessAt(result, text, snippet, 'load', 'sp[t]'), 'conflict-free', 1, 2, 64, 32);
  figures(accessAt(result, text, snippet, 'load', 'sp[j]'), 'broadcast', 1, 2, 2, 32);
  figures(accessAt(result, text, 'sp[t] = pos[blockIdx.x * 64 + t];', 'store'), 'conflict-free', 1, 2, 64, 32);
});
