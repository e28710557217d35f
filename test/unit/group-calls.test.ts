// Calls on a cooperative-groups tile (test/fixtures/group-calls.cu): what their arguments read from shared memory is
// reported. Before, `tile.shfl(s[r][l], 0)`, `tile.shfl_down(...)` and `tile.ballot(...)` returned without reading
// their arguments, so those loads were left out without a word. Figures from a brute-force lane oracle.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, analyzeFile, accessAt, figures } from './helpers/engine';

before(() => ready);

const FIXTURE = 'test/fixtures/group-calls.cu';

test('a thread-group call reads its arguments: shfl, shfl_down and ballot of shared elements are loads', () => {
  const { text, result } = analyzeFile(FIXTURE);
  // lanes l read words 32r + (8l mod 32): four words, each multicast to eight lanes
  const v = accessAt(result, text, 'int v = tile.shfl(s[r][(l * 8) % 32], 0);', 'load');
  figures(v, 'conflict-free', 1, 1, 4, 32);
  assert.deepEqual(v.block, [256, 1, 1]);
  // words 64r + 2l: two words in each of 16 banks
  figures(accessAt(result, text, 'float f = tile.shfl_down(w[r][2 * l], 1);', 'load'), 'conflict', 2, 2, 32, 32);
  figures(accessAt(result, text, 'unsigned any = tile.ballot(s[r][31 - l] > 0);', 'load'), 'conflict-free', 1, 1, 32, 32);
  assert.equal(result.accesses.filter((a) => a.kernel === 'tile_calls').length, 5);
});
