// A seeded random sequence of incremental didChange edits must leave the server with the same diagnostics as a
// fresh open of the final text: 120 random edits (checked against a fresh open of that text), then their 120
// inverses in reverse order (back to the original file, checked against its first diagnostics).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { after, before, describe, it } from 'node:test';
import { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient, normalizeDiagnostics, ROOT, seededRandom } from './helpers/lsp-client';

const TEXT = fs.readFileSync(path.join(ROOT, 'examples', 'transpose.cu'), 'utf8');
const SEED = 0x5eed6;
const EDITS = 120;
const SNIPPETS = [' ', 'x', '1', ';', '\n', '[', ']', '(', ')', '+ 1', ' * 2', 'threadIdx.x', 'tile', '{', '}', '//', '/*', '*/', '\t', 'é', '😀', '\r\n'];

interface Step {
  change: TextDocumentContentChangeEvent;
  inverse: TextDocumentContentChangeEvent;
}

/** One random edit of `doc`: an insertion, deletion or replacement, mostly inside transposeNaiveTile. */
function randomStep(doc: TextDocument, rnd: () => number): Step & { next: TextDocument } {
  const text = doc.getText();
  const kernel = text.indexOf('transposeNaiveTile');
  const inKernel = kernel >= 0 && rnd() < 0.7;
  const lo = inKernel ? kernel : 0;
  const hi = inKernel ? Math.min(text.length, kernel + 900) : text.length;
  let start = lo + Math.floor(rnd() * (hi - lo + 1));
  // never split a surrogate pair or a CRLF: LSP positions are UTF-16 units, and a split pair is not valid text
  const fix = (o: number) => (o > 0 && o < text.length && /[\uDC00-\uDFFF\n]/.test(text[o]) && /[\uD800-\uDBFF\r]/.test(text[o - 1]) ? o - 1 : o);
  start = fix(start);
  const kind = rnd();
  const delLen = kind < 0.4 ? 0 : Math.floor(rnd() * 6);
  const end = fix(Math.min(text.length, start + delLen));
  const insert = kind > 0.8 && delLen > 0 ? '' : SNIPPETS[Math.floor(rnd() * SNIPPETS.length)];
  const range = { start: doc.positionAt(start), end: doc.positionAt(end) };
  const removed = text.slice(start, end);
  const next = TextDocument.update(doc, [{ range, text: insert }], doc.version + 1);
  const inverse = { range: { start: next.positionAt(start), end: next.positionAt(start + insert.length) }, text: removed };
  return { change: { range, text: insert }, inverse, next };
}

describe('lsp: random incremental edits', () => {
  let c: LspTestClient;
  before(async () => {
    c = await LspTestClient.start({});
  });
  after(async () => {
    await c.stop();
  });

  it(`${EDITS} random edits and their ${EDITS} inverses end with the diagnostics of a fresh open (seed ${SEED})`, async () => {
    const uri = 'file:///edits/transpose.cu';
    await c.open(uri, TEXT);
    const original = normalizeDiagnostics((await c.waitForDiagnostics(uri, 1)).diagnostics);
    assert.ok(original.length > 0, 'transpose.cu has a conflict to keep track of');

    const rnd = seededRandom(SEED);
    let mirror = TextDocument.create(uri, 'cuda-cpp', 1, TEXT);
    const inverses: TextDocumentContentChangeEvent[] = [];
    let version = 1;
    for (let i = 0; i < EDITS; ) {
      // now and then several changes in one notification: the server must apply them in order
      const batch = rnd() < 0.2 ? 2 + Math.floor(rnd() * 3) : 1;
      const changes: TextDocumentContentChangeEvent[] = [];
      for (let b = 0; b < batch && i < EDITS; b++, i++) {
        const s = randomStep(mirror, rnd);
        mirror = TextDocument.create(uri, 'cuda-cpp', mirror.version, s.next.getText());
        changes.push(s.change);
        inverses.push(s.inverse);
      }
      version = await c.change(uri, changes);
      if (rnd() < 0.1) await new Promise((r) => setTimeout(r, 160)); // sometimes let an analysis start
    }
    assert.equal(c.text(uri), mirror.getText(), 'the helper mirror and the client document agree');
    const mid = normalizeDiagnostics((await c.waitForDiagnostics(uri, version)).diagnostics);

    const freshUri = 'file:///edits/fresh.cu';
    await c.open(freshUri, c.text(uri));
    const fresh = normalizeDiagnostics((await c.waitForDiagnostics(freshUri, 1)).diagnostics);
    assert.deepEqual(mid, fresh, 'after the random edits');
    await c.close(freshUri);

    for (let i = inverses.length - 1; i >= 0; ) {
      const batch = Math.min(i + 1, rnd() < 0.2 ? 3 : 1);
      const changes = inverses.slice(i - batch + 1, i + 1).reverse();
      i -= batch;
      version = await c.change(uri, changes);
    }
    assert.equal(c.text(uri), TEXT, 'the inverses restore the original text');
    const back = normalizeDiagnostics((await c.waitForDiagnostics(uri, version)).diagnostics);
    assert.deepEqual(back, original, 'after undoing every edit');
  });
});
