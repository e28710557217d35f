// Regressions from the fourteenth sweep of unseen kernels, helper D (classic machine learning on GPUs: k-means as
// kmcuda writes it, k-NN, ThunderSVM, tree-boosting histograms, t-SNE, word2vec): file-scope `__constant__` scalars
// the host sets with `cudaMemcpyToSymbol` (feature and cluster counts, a shared-memory budget) are one value for every
// thread. Figures from a brute-force lane oracle of the bank model (scratch/unseen14d/oracle.py, not shipped).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/unseen14d.cu';

test('a centroid element indexed by `__constant__` sizes is one word for the warp: a broadcast (was: unknown, `c_dims` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words c * D + f: the same on every lane, whatever D is
  const l = accessAt(result, text, 'dot += points[p * c_dims + f] * s_cent[c * c_dims + f];', 'load', 's_cent');
  figures(l, 'broadcast', 1, 1, 1, 32);
  assert.deepEqual(l.block, [128, 1, 1]);
  assert.ok(l.assumptions.some((a) => /`c_dims` is a `__constant__` variable/.test(a)), l.assumptions.join('\n'));
  // s_norm = s_cent + K * D, read at the loop's c: one word
  figures(accessAt(result, text, 'const float d = s_norm[c] - 2.f * dot + c_eps;', 'load', 's_norm'), 'broadcast', 1, 1, 1, 32);
  // stored at c = t past a `__constant__`-sized offset: 32 consecutive words (was: unknown, `c_clusters` is not known here)
  figures(accessAt(result, text, 's_norm[c] = centroids[c_clusters * c_dims + c];', 'store', 's_norm'), 'conflict-free', 1, 1, 32, 32);
  figures(accessAt(result, text, 's_cent[i] = centroids[i];', 'store', 's_cent'), 'conflict-free', 1, 1, 32, 32);
});

test('a per-lane index plus a `__constant__` offset keeps the per-lane degree (rule 6) (was: unknown, `c_offset` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words 2t + off: 32 words, two in each of 16 banks, for every off
  const s = accessAt(result, text, 's_pair[2 * t + c_offset] = in[t];', 'store', 's_pair');
  figures(s, 'conflict', 2, 2, 32, 32);
  assert.deepEqual(s.block, [256, 1, 1]);
  figures(accessAt(result, text, 'out[t] = s_pair[t + c_offset];', 'load', 's_pair'), 'conflict-free', 1, 1, 32, 32);
});

test('a per-lane index times a `__constant__` stride stays unknown, the stride named as one value for the warp', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * D: 1, 2, 4 or 32 wavefronts as D is 1, 2, 4 or 32; no figure holds for every D
  for (const [snippet, kind] of [['s_rows[t * c_dims] = in[t];', 'store'], ['out[t] = s_rows[t * c_dims];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 's_rows');
    assert.equal(a.status, 'unknown');
    assert.equal(a.degree, null);
    assert.match(a.reason ?? '', /unknown warp-uniform value `c_dims`/);
  }
  // a reason quoting a value written over two lines says it on one (was: the line break and the indentation kept)
  const p = accessAt(result, text, 'out[64 + t] = s_rows[t * pitch];', 'load', 's_rows');
  assert.equal(p.status, 'unknown');
  assert.equal(p.reason, '`t * pitch` combines the unknown warp-uniform value `c_dims / c_clusters` with per-lane values');
  assert.ok(!p.message.includes('\n'), p.message);
});

test('a macro of the dispatching function that calls a launcher template binds its parameters where it is used (was: block 32 assumed, unknown: `STRIDE` is not known here)', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // words t * S in each warp of 256 threads: 1, 2 and 4 wavefronts for S = 1, 2, 4
  for (const [snippet, kind] of [['bins[t * STRIDE] = in[t];', 'store'], ['out[t] = bins[t * STRIDE] + bins[t];', 'load']] as const) {
    const a = accessAt(result, text, snippet, kind, 'bins[t * STRIDE]');
    figures(a, 'conflict', 4, 4, 32, 32);
    assert.deepEqual(a.block, [256, 1, 1]);
    const cases = (a.cases ?? []).map((c) => [c.context.STRIDE, c.degree, c.wavefronts]).sort();
    assert.deepEqual(cases, [[1, 1, 1], [2, 2, 2], [4, 4, 4]]);
    assert.ok(a.assumptions.some((s) => /block 256x1x1 from the launch at line \d+ in `run_fold<blockSize, \(4\)>` \(the call at line \d+\)/.test(s)), a.assumptions.join('\n'));
  }
  figures(accessAt(result, text, 'out[t] = bins[t * STRIDE] + bins[t];', 'load', 'bins[t]'), 'conflict-free', 1, 1, 32, 32);
});
