// A kernel attribute spelled by a function-like macro the file does not define (its header not found, as PyTorch's
// C10_LAUNCH_BOUNDS_1 from c10/macros), between `template <...>` and `__global__` inside namespaces
// (test/fixtures/projects/kernel-attributes/columns.cu).
// (was: the grammar read the macro as a declaration and every kernel after it was lost: no access reported, rc 0)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { IncludeReader } from '../../server/engine';
import { ready, analyzeFile, accessAt, warpFigures, ROOT } from './helpers/engine';

before(() => ready);
const FILE = 'test/fixtures/projects/kernel-attributes/columns.cu';

test('a kernel whose attribute macro is not known is analysed, with or without its header', () => {
  const HEADER = path.join(ROOT, 'test/fixtures/projects/kernel-attributes/bounds.h');
  const read: string[] = [];
  const includes: IncludeReader = (spec) => (spec === 'bounds.h' ? (read.push(spec), { path: HEADER, text: fs.readFileSync(HEADER, 'utf8') }) : null);
  for (const options of [{}, { includes }]) {
    const { text, result } = analyzeFile(FILE, options);
    assert.equal(result.accesses.length, 4, result.accesses.map((a) => a.message).join('\n'));
    // s[t][0]: word 32 t, bank 0: 32-way; p[t][0] of rows of 33: conflict-free
    warpFigures(accessAt(result, text, 's[threadIdx.x][0] = 1.0f', 'store'), 'conflict', 32, 32, 32, 32);
    warpFigures(accessAt(result, text, 'p[threadIdx.x][0] = 1.0f', 'store'), 'conflict-free', 1, 1, 32, 32);
    assert.ok(!result.notices.some((n) => /is not closed/.test(n.message)), result.notices.map((n) => n.message).join('\n'));
  }
  assert.deepEqual(read, ['bounds.h']);
});
