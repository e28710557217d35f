// Protocol tests against examples/transpose.cu: what the engine reports there, rendered by the real server.
// transposeNaiveTile (block 32x8) reads `tile[threadIdx.x][threadIdx.y + j]` by column: a 32-way conflict with a
// padding fix to [TILE_DIM][TILE_DIM + 1]; transposeCoalesced (already padded) has none.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { after, before, describe, it } from 'node:test';
import { CodeAction, Diagnostic, DiagnosticSeverity, MarkupContent } from 'vscode-languageserver-protocol';
import { applyEdits, editsFor, LspTestClient, rangeOf, ROOT } from './helpers/lsp-client';

const FILE = path.join(ROOT, 'examples', 'transpose.cu');
const TEXT = fs.readFileSync(FILE, 'utf8');
const URI = 'file:///examples/transpose.cu';
const MESSAGE = 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)';
const NAIVE = '__global__ void transposeNaiveTile';
const COALESCED = '__global__ void transposeCoalesced';
const COLUMN_READ = 'tile[threadIdx.x][threadIdx.y + j]';

/** `tile` in the column read of transposeNaiveTile. */
const readName = rangeOf(TEXT, COLUMN_READ, { after: NAIVE, length: 'tile'.length });
/** `tile` in the naive declaration. */
const declName = rangeOf(TEXT, 'tile[TILE_DIM][TILE_DIM];', { after: NAIVE, length: 'tile'.length });
const coalescedBody = rangeOf(TEXT, COALESCED);

function conflictAt(diags: Diagnostic[], range = readName): Diagnostic | undefined {
  return diags.find((d) => d.code === 'bank-conflict' && d.range.start.line === range.start.line && d.range.start.character === range.start.character);
}

describe('lsp: examples/transpose.cu', () => {
  let c: LspTestClient;
  let diagnostics: Diagnostic[];
  before(async () => {
    c = await LspTestClient.start({ initializationOptions: { debounceMs: 20 } });
    await c.open(URI, TEXT);
    diagnostics = (await c.waitForDiagnostics(URI, 1)).diagnostics;
  });
  after(async () => {
    await c.stop();
  });

  it('reports the column read of transposeNaiveTile as a 32-way bank conflict on the array name', () => {
    const d = conflictAt(diagnostics);
    assert.ok(d, `no bank-conflict at ${JSON.stringify(readName)}; got ${JSON.stringify(diagnostics.map((x) => [x.code, x.range.start, x.message]))}`);
    assert.deepEqual(d.range, readName);
    assert.equal(d.message, MESSAGE);
    assert.equal(d.severity, DiagnosticSeverity.Warning);
    assert.equal(d.source, 'cuda-bank-lens');
    assert.equal(d.codeDescription?.href, 'https://github.com/cuda-bank-lens/cuda-bank-lens/blob/main/docs/diagnostics.md#bank-conflict');
    assert.equal(d.relatedInformation?.[0]?.location.uri, URI);
    assert.deepEqual(d.relatedInformation?.[0]?.location.range, declName);
    const data = d.data as { degree: number; wavefronts: number; idealWavefronts: number; fix?: { title: string } };
    assert.equal(data.degree, 32);
    assert.equal(data.wavefronts, 32);
    assert.equal(data.idealWavefronts, 1);
    assert.match(data.fix?.title ?? '', /^Pad tile to \[TILE_DIM\]\[TILE_DIM \+ 1\]/);
  });

  it('reports nothing in transposeCoalesced and no conflict on the row write', () => {
    const later = diagnostics.filter((d) => d.code === 'bank-conflict' && d.range.start.line >= coalescedBody.start.line);
    assert.deepEqual(later, []);
    const rowWrite = rangeOf(TEXT, 'tile[threadIdx.y + j][threadIdx.x]', { after: NAIVE, length: 4 });
    assert.equal(conflictAt(diagnostics, rowWrite), undefined);
  });

  it('hovers the access with its figures, a bank map image and a text grid', async () => {
    const h = await c.hover(URI, { line: readName.start.line, character: readName.start.character + 2 });
    assert.ok(h, 'no hover on the column read');
    const md = (h.contents as MarkupContent).value;
    assert.equal((h.contents as MarkupContent).kind, 'markdown');
    assert.match(md, /32-way bank conflict/);
    assert.match(md, /served in 32 wavefronts \(ideal 1\)/);
    for (const label of ['active lanes', 'distinct words', 'requested bytes', 'result bytes', 'banks used', 'element size', 'phases']) {
      assert.ok(md.includes(`| ${label} |`), `hover lacks ${label}`);
    }
    const img = /!\[bank map\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(md);
    assert.ok(img, 'no data:image/svg+xml image in the hover');
    const svg = Buffer.from(img[1], 'base64').toString('utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(md, /```text\n[\s\S]*wavefront 32[\s\S]*```/);
    assert.doesNotMatch(md, /slow/i);
  });

  it('hovers the declaration with a summary of its accesses', async () => {
    const h = await c.hover(URI, declName.start);
    assert.ok(h);
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /accesses/);
    assert.match(md, /32-way bank conflict/);
    assert.match(md, /Pad tile to \\\[TILE\\_DIM\\\]\\\[TILE\\_DIM \+ 1\\\]|Pad tile to \[TILE_DIM\]\[TILE_DIM \+ 1\]/);
  });

  it('puts a code lens above each __shared__ declaration', async () => {
    const lenses = (await c.codeLenses(URI)) ?? [];
    const naive = lenses.find((l) => l.range.start.line === declName.start.line);
    assert.ok(naive, `no lens on line ${declName.start.line}: ${JSON.stringify(lenses)}`);
    assert.match(naive.command?.title ?? '', /^\d+ access(es)? · worst 32-way · pad to \[TILE_DIM\]\[TILE_DIM \+ 1\]$/);
    const padded = rangeOf(TEXT, 'tile[TILE_DIM][TILE_DIM + 1];', { after: COALESCED });
    const clean = lenses.find((l) => l.range.start.line === padded.start.line);
    assert.match(clean?.command?.title ?? '', /^\d+ access(es)? · no conflicts$/);
  });

  it('returns the bank map for the custom request', async () => {
    const r = await c.bankMap(URI, readName.start);
    assert.ok(r);
    assert.match(r.svg, /^<svg/);
    assert.match(r.text, /wavefront 32/);
    assert.equal(r.message, MESSAGE);
  });

  let fix: CodeAction | undefined;
  it('offers the padding quick fix on the diagnostic and at the declaration', async () => {
    const d = conflictAt(diagnostics)!;
    const actions = await c.codeActions(URI, d.range, [d]);
    fix = actions.find((a) => a.title.startsWith('Pad tile to [TILE_DIM][TILE_DIM + 1]'));
    assert.ok(fix, `no padding fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.kind, 'quickfix');
    assert.equal(fix.isPreferred, true);
    assert.deepEqual(fix.diagnostics?.map((x) => x.range), [d.range]);
    const atDecl = await c.codeActions(URI, declName, []);
    assert.ok(atDecl.some((a) => a.title === fix!.title), 'the fix is not offered at the declaration');
  });

  it('applying the fix and re-sending the document clears the conflict', async () => {
    assert.ok(fix?.edit, 'no fix to apply');
    const fixed = applyEdits(c.text(URI), editsFor(fix.edit, URI));
    const naiveDecl = fixed.slice(fixed.indexOf(NAIVE)).split('\n').find((l) => l.includes('__shared__'));
    assert.equal(naiveDecl?.trim(), '__shared__ float tile[TILE_DIM][TILE_DIM + 1];');
    const version = await c.change(URI, [{ text: fixed }]);
    const after = await c.waitForDiagnostics(URI, version);
    assert.deepEqual(after.diagnostics.filter((d) => d.code === 'bank-conflict'), []);
  });

  it('uses the severity setting and versioned edits when the client asks for them', async () => {
    const c2 = await LspTestClient.start({ settings: { severity: 'error' }, workspaceEditDocumentChanges: true, initializationOptions: { debounceMs: 0 } });
    try {
      const uri = 'file:///examples/transpose-2.cu';
      await c2.open(uri, TEXT, 7);
      const d = conflictAt((await c2.waitForDiagnostics(uri, 7)).diagnostics);
      assert.equal(d?.severity, DiagnosticSeverity.Error);
      const [a] = await c2.codeActions(uri, d!.range, [d!]);
      const dc = a.edit?.documentChanges?.[0] as { textDocument: { version: number } } | undefined;
      assert.equal(dc?.textDocument.version, 7);
    } finally {
      await c2.stop();
    }
  });
});
