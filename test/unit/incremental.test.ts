// An EngineDocument edited keystroke by keystroke (incremental reparse, reused facts, reused kernel results and
// findings) must always say exactly what a fresh analysis of the same text says.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ready, ROOT } from './helpers/engine';
import { seededRandom } from './helpers/common';
import { analyzeText, EngineDocument, FileAnalysis } from '../../server/engine';

before(() => ready);

const rng = seededRandom;

const canon = (r: FileAnalysis) => JSON.stringify({ a: r.accesses, arrays: r.arrays, n: r.notices, m: r.model });

test('300 random keystrokes inside and between kernels: incremental results equal fresh ones after every edit', () => {
  const files = ['examples/transpose.cu', 'examples/reduction.cu', 'test/fixtures/facts.cu'];
  const next = rng(424242);
  const pieces = [' ', '1', '+', 'x', '\n', ';', '(', '2 * ', '#', 'j', '}', '{', 'threadIdx.x', '__shared__ '];
  for (const f of files) {
    let text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    const doc = new EngineDocument(text);
    const opts = { budgetMs: 60000 };
    assert.equal(canon(doc.analyze(opts)), canon(analyzeText(text, opts)));
    // aim most edits inside kernel bodies, where the reuse paths apply
    const bodies = [...text.matchAll(/__global__[^{]*\{/g)].map((m) => m.index! + m[0].length);
    for (let i = 0; i < 100; i++) {
      const near = bodies[Math.floor(next() * bodies.length)] + Math.floor(next() * 200);
      const at = Math.min(text.length, next() < 0.8 ? near : Math.floor(next() * text.length));
      if (next() < 0.5 && at < text.length) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 2));
      else text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
      doc.update(text);
      const inc = canon(doc.analyze(opts));
      const fresh = canon(analyzeText(text, opts));
      assert.equal(inc, fresh, `${f}: edit ${i} at ${at} differs`);
    }
    doc.dispose();
  }
});
