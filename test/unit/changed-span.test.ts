// changedSpan (analyze.ts) finds the span an edit changed, a chunk at a time: it must agree with the plain
// character-by-character scan on every pair of texts, edits near, across and at chunk boundaries included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from './helpers/common';
import { changedSpan } from '../../server/engine/analyze';

/** The scan changedSpan replaced: the longest common prefix, then the longest common suffix after it. */
function naive(old: string, src: string): { start: number; endOld: number; endNew: number } {
  let start = 0;
  const max = Math.min(old.length, src.length);
  while (start < max && old.charCodeAt(start) === src.charCodeAt(start)) start++;
  let endOld = old.length, endNew = src.length;
  while (endOld > start && endNew > start && old.charCodeAt(endOld - 1) === src.charCodeAt(endNew - 1)) {
    endOld--;
    endNew--;
  }
  return { start, endOld, endNew };
}

test('changedSpan agrees with a character-by-character scan on random edits of texts up to 6,000 characters', () => {
  const rnd = seededRandom(20261203);
  const pick = (n: number) => Math.floor(rnd() * n);
  // few letters, so that a change often repeats its neighbours (prefix and suffix then overlap the edit)
  const text = (n: number) => Array.from({ length: n }, () => 'ab\n '[pick(4)]).join('');
  let checked = 0;
  for (let i = 0; i < 600; i++) {
    const old = text(pick(6000));
    // at a chunk boundary (1024) one time in three, anywhere otherwise
    const at = i % 3 === 0 ? Math.min(old.length, 1024 * pick(6) + pick(3) - 1) : pick(old.length + 1);
    const cut = pick(i % 5 === 0 ? 3000 : 4);
    const src = old.slice(0, Math.max(0, at)) + text(pick(i % 7 === 0 ? 2500 : 3)) + old.slice(Math.max(0, at) + cut);
    assert.deepEqual(changedSpan(old, src), naive(old, src), `edit ${i}: at ${at}, cut ${cut}, ${old.length} -> ${src.length}`);
    checked++;
  }
  assert.equal(checked, 600);
  // the cases a chunked scan gets wrong first: no change, one text a prefix of the other, everything changed
  const big = text(5000);
  for (const [a, b] of [[big, big], [big, big.slice(0, 3000)], [big.slice(0, 3000), big], [big, big.slice(2048)], ['', big], [big, 'x' + big.slice(1)]])
    assert.deepEqual(changedSpan(a, b), naive(a, b));
});

test('changedSpan of a one-character insertion in a 150 KB text: the exact span', () => {
  const old = 'int x;\n'.repeat(22000);
  const src = old.slice(0, 77777) + '9' + old.slice(77777);
  // the inserted '9' sits after 'x' (77777 = 7 * 11111: the start of a line), so nothing around it repeats it
  assert.deepEqual(changedSpan(old, src), { start: 77777, endOld: 77777, endNew: 77778 });
});
