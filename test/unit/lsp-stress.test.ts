// Server property test (the robustness issue): 2,000 random incremental edits streamed without waiting, with hovers,
// code actions, code lenses and bank-map requests interleaved, end with the diagnostics of a fresh open of the final
// text, and the server still answers. Seeded, so a failure reproduces.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient, normalizeDiagnostics, ROOT, seededRandom } from './helpers/lsp-client';

const FILES = ['examples/transpose.cu', 'examples/reduction.cu', 'test/fixtures/facts.cu'];
const EDITS = 2000;
const SNIPPETS = [' ', 'x', '1', ';', '\n', '[', ']', '(', ')', '+ 1', ' * 2', 'threadIdx.x', 'tile', 's', '{', '}', '//', '#', '\t', '2 * '];

describe('lsp: stress', () => {
  let c: LspTestClient;
  before(async () => {
    c = await LspTestClient.start({});
  });
  after(async () => {
    await c.stop();
  });

  it(`${EDITS} random edits over ${FILES.length} documents, interleaved with requests, end where a fresh open ends`, async () => {
    const rnd = seededRandom(0xbadc0de);
    const docs = FILES.map((f, i) => {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      return { uri: `file:///stress/${i}/${path.basename(f)}`, doc: TextDocument.create(`file:///stress/${i}`, 'cuda-cpp', 1, text) };
    });
    for (const d of docs) await c.open(d.uri, d.doc.getText());
    let requests = 0;
    for (let i = 0; i < EDITS; i++) {
      const d = docs[Math.floor(rnd() * docs.length)];
      const text = d.doc.getText();
      // mostly inside kernels: after a random `__global__`
      const kernels = [...text.matchAll(/__global__/g)].map((m) => m.index!);
      const base = kernels.length && rnd() < 0.8 ? kernels[Math.floor(rnd() * kernels.length)] : 0;
      const start = Math.min(text.length, base + Math.floor(rnd() * (base ? 600 : text.length)));
      const end = Math.min(text.length, start + (rnd() < 0.5 ? 0 : Math.floor(rnd() * 4)));
      const range = { start: d.doc.positionAt(start), end: d.doc.positionAt(end) };
      const insert = rnd() < 0.75 ? SNIPPETS[Math.floor(rnd() * SNIPPETS.length)] : '';
      d.doc = TextDocument.update(d.doc, [{ range, text: insert }], d.doc.version + 1);
      await c.change(d.uri, [{ range, text: insert }]);
      if (i % 25 === 0) {
        const at = d.doc.positionAt(Math.floor(rnd() * d.doc.getText().length));
        const results = await Promise.all([
          c.hover(d.uri, at),
          c.codeActions(d.uri, { start: at, end: at }),
          c.codeLenses(d.uri),
          c.bankMap(d.uri, at),
        ]);
        assert.ok(Array.isArray(results[1]));
        requests += 4;
      }
    }
    assert.ok(requests >= 300);
    // the final state of every document equals a fresh open of its text
    for (const d of docs) {
      const inc = await c.waitForDiagnostics(d.uri, d.doc.version, 60_000);
      const freshUri = d.uri.replace('/stress/', '/fresh/');
      await c.open(freshUri, d.doc.getText());
      const fresh = await c.waitForDiagnostics(freshUri, 1, 60_000);
      assert.deepEqual(normalizeDiagnostics(inc.diagnostics), normalizeDiagnostics(fresh.diagnostics), `${d.uri} after ${d.doc.version - 1} edits`);
    }
    // and the server still answers
    const h = await c.hover(docs[0].uri, { line: 0, character: 0 });
    assert.ok(h === null || typeof h === 'object');
  });
});

describe('lsp: fault isolation', () => {
  let c: LspTestClient;
  before(async () => {
    c = await LspTestClient.start({ initializationOptions: { faultMarker: 'BANG_BANG' } });
  });
  after(async () => {
    await c.stop();
  });

  it('an exception while analysing one document is logged with the file, clears its diagnostics, and the server serves on', async () => {
    const text = fs.readFileSync(path.join(ROOT, 'examples/transpose.cu'), 'utf8');
    const bad = 'file:///faults/bad.cu';
    const good = 'file:///faults/good.cu';
    await c.open(bad, text);
    const before = await c.waitForDiagnostics(bad, 1);
    assert.ok(before.diagnostics.some((d) => d.code === 'bank-conflict'));
    // the same document now makes the analysis throw: its stale conflict must go, replaced by one error notice
    const v = await c.change(bad, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// BANG_BANG\n' }]);
    const broken = await c.waitForDiagnostics(bad, v);
    assert.equal(broken.diagnostics.length, 1);
    assert.match(String(broken.diagnostics[0].message), /could not analyse this file: injected fault/);
    assert.ok(c.logs.some((l) => l.includes('file:///faults/bad.cu') && l.includes('injected fault')), c.logs.join('\n'));
    // another document is served as usual, and so are requests
    await c.open(good, text);
    const ok = await c.waitForDiagnostics(good, 1);
    assert.ok(ok.diagnostics.some((d) => d.code === 'bank-conflict'));
    assert.ok(await c.hover(good, { line: 0, character: 0 }) !== undefined);
    // removing the cause brings the findings back
    const v2 = await c.change(bad, [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }]);
    const back = await c.waitForDiagnostics(bad, v2);
    assert.deepEqual(normalizeDiagnostics(back.diagnostics), normalizeDiagnostics(before.diagnostics));
  });
});
