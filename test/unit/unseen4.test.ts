// Regressions from the fourth sweep of unseen kernels (scratch/unseen4/NOTES.md): figures from a brute-force oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

test('a `#pragma unroll` between a `for (...)` and its body leaves the body inside the loop', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen4.cu');
  const p = accessAt(result, text, 'float v = patch[', 'load');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 2);
  assert.equal(p.wavefronts, 2);
  const c = accessAt(result, text, 'colsT[tid][ky * KS + kx] = v;', 'store');
  assert.equal(c.status, 'conflict-free');
  assert.equal(c.degree, 1);
  assert.deepEqual(c.cases ?? [], []);
});

test('`__brev`, `__popc`, `__clz` and `__ffs` are evaluated lane by lane (the FFT\'s bit-reversed store is 16-way)', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen4.cu');
  const b = accessAt(result, text, 'buf[r] = in[i];', 'store');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 16);
  assert.equal(b.wavefronts, 32);
  assert.equal(b.idealWavefronts, 2);
  const r = accessAt(result, text, 're[r] = in[i].x;', 'store');
  assert.equal(r.degree, 8);
  assert.equal(r.wavefronts, 8);
  const p = accessAt(result, text, 'bits[__popc(t) * 32] = 1;', 'store');
  assert.equal(p.degree, 6);
  assert.equal(p.worst!.distinctWords, 6);
  const c = accessAt(result, text, 'bits[__clz(t + 1) * 33] = 2;', 'store');
  assert.equal(c.status, 'conflict-free');
  assert.equal(c.worst!.distinctWords, 6);
  const f = accessAt(result, text, 'bits[__ffs(t) * 32 + 1] = 3;', 'store');
  assert.equal(f.degree, 6);
  assert.equal(f.worst!.distinctWords, 6);
});

test('a lambda is called like a device function, seeing what it captures by reference or by copy', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen4.cu');
  const at = accessAt(result, text, 'auto at = [&](int r, int c)', 'load');
  assert.equal(at.status, 'conflict');
  assert.equal(at.degree, 32);
  const put = accessAt(result, text, 'tile[r][flip(c)] = v;', 'store');
  assert.equal(put.status, 'conflict-free');
  assert.equal(put.worst!.activeLanes, 32);
  const degree = (snippet: string) => accessAt(result, text, snippet, 'load').degree;
  assert.equal(degree('auto byCopy = [=]'), 2);
  assert.equal(degree('auto byRef = [&]'), 32);
  assert.equal(degree('auto copyButRef = [=, &stride]'), 32);
  assert.equal(degree('auto refButCopy = [&, stride]'), 2);
});

test('wmma::load_matrix_sync / store_matrix_sync on shared memory are access sites, unknown with the reason', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen4.cu');
  const l = accessAt(result, text, 'nvcuda::wmma::load_matrix_sync(af, &As', 'load');
  assert.equal(l.status, 'unknown');
  assert.equal(l.degree, null);
  assert.equal(l.reason, '`wmma::load_matrix_sync` gives no lane\'s address: the layout of a WMMA fragment is not documented');
  const s = accessAt(result, text, 'nvcuda::wmma::store_matrix_sync(&Cs', 'store');
  assert.equal(s.status, 'unknown');
  assert.equal(s.reason, '`wmma::store_matrix_sync` gives no lane\'s address: the layout of a WMMA fragment is not documented');
  // the store to global memory is no shared access
  const line = text.split('\n').findIndex((x) => x.includes('store_matrix_sync(C, cf'));
  assert.equal(result.accesses.filter((a) => a.range.start.line === line).length, 0);
});
