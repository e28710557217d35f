// A function-like macro applied to a shared array whose expansion is a block or an `if`
// (test/fixtures/shared-statement-macros.cu, as OpenCV's and others' helper macros are written).
// (was: a block body was read as a GNU statement expression, an expression: its `if` never ran, every lane was
// counted and `arr[2 * t]` was a 2-way conflict of 32 lanes; an `if` body without braces lost its store altogether)
import { test, before } from 'node:test';
import { ready, analyzeFile, accessAt, warpFigures } from './helpers/engine';

before(() => ready);

test('the guard inside a statement macro applied to a shared array holds', () => {
  const { text, result } = analyzeFile('test/fixtures/shared-statement-macros.cu');
  // lanes 0-15, words 2 t: banks 0, 2, ..., 30, one word each
  warpFigures(accessAt(result, text, 'CLEAR_EVEN(s, tx);', 'store'), 'conflict-free', 1, 1, 16, 16);
  // lanes 0-15, words 2 t + 1
  warpFigures(accessAt(result, text, 'CLEAR_ODD(s, tx);', 'store'), 'conflict-free', 1, 1, 16, 16);
  // a local the block declares: lanes 0-15, words 4 t: banks 0, 4, ..., 28, lanes t and t + 8 on each: 2-way
  warpFigures(accessAt(result, text, 'CLEAR_LOCAL(s, tx);', 'store'), 'conflict', 2, 2, 16, 16);
});
