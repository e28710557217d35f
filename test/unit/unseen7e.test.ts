// Regressions from the seventh sweep of unseen kernels, sweep E (benchmark suites and textbook code;
// scratch/suites/NOTES.md): figures from a brute-force lane oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt } from './helpers/engine';

before(() => ready);

test('an element type spelled by an object-like macro (`#define VALUE_T float`) has its layout: exact figures', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  // a struct whose fields are macro-typed: 12 bytes, stride 3 words
  const ps = accessAt(result, text, 'pts[threadIdx.x] = (struct point3)', 'store');
  assert.equal(ps.status, 'conflict-free');
  const pl = accessAt(result, text, 'out[threadIdx.x] = pts[threadIdx.x].py', 'load', 'pts[threadIdx.x].py');
  assert.equal(pl.status, 'conflict-free');
  assert.equal(pl.worst!.distinctWords, 32);
  const v = accessAt(result, text, 'vals[2 * threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(v.status, 'conflict');
  assert.equal(v.degree, 2);
  assert.equal(v.wavefronts, 2);
  // a macro naming `double`: 8-byte lanes, two phases
  const w = accessAt(result, text, 'wide[threadIdx.x] = in[threadIdx.x];', 'store');
  assert.equal(w.status, 'conflict-free');
  assert.equal(w.wavefronts, 2);
  assert.equal(w.idealWavefronts, 2);
  // a typedef of the macro
  const a = accessAt(result, text, 'alias[threadIdx.x * 4 % 256] = in[threadIdx.x];', 'store');
  assert.equal(a.degree, 4);
  // a pointer declared with the macro type was silently missed: now its access is reported
  const p = accessAt(result, text, 'out[threadIdx.x] = pts[threadIdx.x].py', 'load', 'view[threadIdx.x * 8 % 256]');
  assert.equal(p.status, 'conflict');
  assert.equal(p.degree, 8);
  assert.equal(p.wavefronts, 8);
});

test('member functions called on a struct object in shared memory: their accesses are reported, with exact figures', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  const reset = accessAt(result, text, '__device__ void reset(int b) { count[b] = 0; }', 'store');
  assert.equal(reset.status, 'conflict-free');
  assert.equal(reset.worst!.activeLanes, 4);
  // slot starts 4 words in; rows of 72 words (8 banks apart): lanes (b = t % 4, at = t / 4) fill all 32 banks
  const put = accessAt(result, text, 'slot[b][at] = v;', 'store');
  assert.equal(put.status, 'conflict-free');
  assert.equal(put.worst!.distinctWords, 32);
  const peek = accessAt(result, text, 'return slot[b][at] + this->count[b];', 'load', 'slot');
  assert.equal(peek.status, 'conflict-free');
  const cnt = accessAt(result, text, 'return slot[b][at] + this->count[b];', 'load', 'this->count');
  assert.equal(cnt.status, 'conflict-free');
  assert.equal(cnt.worst!.distinctWords, 4);
  assert.equal(result.accesses.filter((a) => a.kernel === 'queue_bins').length, 4);
});

test('a variable added to by a different amount on each lane in a loop of unknown trip count is not a uniform shift', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  const even = accessAt(result, text, 'buf[even] = 1.f;', 'store');
  assert.equal(even.status, 'conflict');
  assert.equal(even.degree, 2);
  // a step read from memory per lane: not known to be the same on every lane
  const own = accessAt(result, text, 'buf[own] = 2.f;', 'store');
  assert.equal(own.status, 'unknown');
  assert.equal(own.reason, '`own` is changed by the loop at line 51, whose trip count is unknown, by a step not known to be the same on every lane');
  const far = accessAt(result, text, 'buf[far % 2048] += 3.f;', 'store');
  assert.equal(far.status, 'unknown');
  assert.equal(far.reason, '`far` is changed by the loop at line 51, whose trip count is unknown, by a step not known to be the same on every lane');
  // a step that differs from lane to lane (`threadIdx.x & 3`): lane 0 stays at word 1024, lane 1 moves on
  const mine = accessAt(result, text, 'buf[1024 + mine % 1024] = 4.f;', 'store');
  assert.equal(mine.status, 'unknown');
  assert.equal(mine.reason, '`mine` takes different values on different lanes in the loop at line 51, whose trip count is unknown');
  // the step's own load, and an access after the loop, keep their figures
  assert.equal(accessAt(result, text, 'far += hop[threadIdx.x];', 'load').status, 'conflict-free');
  assert.equal(accessAt(result, text, 'out[threadIdx.x] = buf[threadIdx.x];', 'load').status, 'conflict-free');
});

test('a vector-typed local declared without a value, assigned component by component, has exact components', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  const a = accessAt(result, text, 'scatter[(pos.x & 3) * 128 + (pos.x >> 2)] = keys[threadIdx.x];', 'store');
  assert.equal(a.status, 'conflict-free');
  const b = accessAt(result, text, 'scatter[pos.y] = keys[threadIdx.x + 128];', 'store');
  assert.equal(b.status, 'conflict');
  assert.equal(b.degree, 4);
  // braced initial values, one component assigned later
  const c = accessAt(result, text, 'out[threadIdx.x] = scatter[win.z + win.w];', 'load');
  assert.equal(c.status, 'conflict');
  assert.equal(c.degree, 2);
});

test('a kernel template launched without template arguments gets its type parameter from the arguments of each launch', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  const st = accessAt(result, text, 'stage[threadIdx.x] = src[threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict-free');
  const ld = accessAt(result, text, 'dst[threadIdx.x] = stage[4 * (threadIdx.x % 32)];', 'load');
  // double (a parameter), float (a local), char (a host template's parameter, `pick_as<char>`)
  assert.equal(ld.status, 'conflict');
  assert.equal(ld.degree, 4);
  assert.equal(ld.wavefronts, 8);
  assert.deepEqual(ld.cases.map((c) => [c.context.E, c.degree, c.wavefronts]).sort(), [['char', 1, 1], ['double', 4, 8], ['float', 4, 4]]);
});

test('a launch in a member function of a class template defined outside the class is read once per `S<float>` the file names', () => {
  const { text, result } = analyzeFile('test/fixtures/unseen7e.cu');
  const st = accessAt(result, text, 'halo[threadIdx.x][threadIdx.y] = plane[threadIdx.y * 16 + threadIdx.x];', 'store');
  assert.equal(st.status, 'conflict');
  assert.equal(st.degree, 2);
  assert.deepEqual(st.block, [16, 16, 1]);
  assert.deepEqual(st.cases.map((c) => [c.context.P, c.degree, c.wavefronts]).sort(), [['double', 1, 2], ['float', 2, 2]]);
  const ld = accessAt(result, text, 'plane[threadIdx.y * 16 + threadIdx.x] = halo[threadIdx.y][threadIdx.x];', 'load');
  assert.equal(ld.degree, 2);
  assert.ok(st.assumptions.includes('block 16x16x1 from the launch at line 117 in `run<float>` (`column_pass<float>` at line 120)'), st.assumptions.join(' | '));
});
