// The LSP renderers on a hand-made FileAnalysis: diagnostics, hover cards, the bank map (SVG and text), code lenses
// and code actions, independent of the engine and of the protocol.
import { strict as assert } from 'assert';
import { describe, it } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { bankGrid, renderBankMapSvg, renderBankMapText, svgDataUri } from '../../server/lsp/bank-map';
import { codeActions } from '../../server/lsp/code-actions';
import { codeLenses, lensTitle } from '../../server/lsp/code-lens';
import { DiagnosticData, toDiagnostics } from '../../server/lsp/diagnostics';
import { laneRanges, prose } from '../../server/lsp/format';
import { accessHover, bankMapResult, casesDiffer, declarationHover, findAccessAt, findAccessesAt, findArrayAt, toPlainText } from '../../server/lsp/hover';
import { DEFAULT_SETTINGS, Settings } from '../../server/lsp/settings';
import { fakeAnalysis, figures, r } from './helpers/lsp-fixtures';

const URI = 'file:///fake.cu';
const settings = (s: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, ...s });
const BANNED = /slow(er|down)?|\d+x (slower|faster)|speed-?up|cache miss|coalesc/i;

describe('lsp render: diagnostics', () => {
  it('renders conflicts, broadcasts, out-of-bounds and notices with codes, links and severities', () => {
    const d = toDiagnostics(fakeAnalysis(), { uri: URI, version: 3, settings: settings() });
    const byCode = (c: string) => d.filter((x) => x.code === c);
    assert.equal(byCode('bank-conflict').length, 2);
    assert.equal(byCode('broadcast').length, 1);
    assert.equal(byCode('unknown').length, 0, 'unknown accesses are silent by default');
    assert.equal(byCode('out-of-bounds').length, 1);
    assert.equal(byCode('notice').length, 1);
    const [tile] = byCode('bank-conflict');
    assert.equal(tile.message, 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)');
    assert.deepEqual(tile.range, r(10, 4, 4));
    assert.equal(tile.severity, DiagnosticSeverity.Warning);
    assert.equal(tile.source, 'cuda-bank-lens');
    assert.equal(tile.codeDescription?.href, 'https://github.com/cuda-bank-lens/cuda-bank-lens/blob/main/docs/diagnostics.md#bank-conflict');
    assert.deepEqual(tile.relatedInformation?.[0].location, { uri: URI, range: r(2, 19, 4) });
    assert.match(tile.relatedInformation![0].message, /tile is declared here as __shared__ float\[32\]\[32\]/);
    const data = tile.data as DiagnosticData;
    assert.equal(data.version, 3);
    assert.equal(data.degree, 32);
    assert.equal(data.wavefronts, 32);
    assert.equal(data.idealWavefronts, 1);
    assert.equal(data.fix?.title, 'Pad tile to [TILE_DIM][TILE_DIM + 1] (conflict-free)');
    assert.equal((byCode('bank-conflict')[1].data as DiagnosticData).fix, undefined, 's has no fix');
    assert.equal(byCode('broadcast')[0].severity, DiagnosticSeverity.Hint);
    assert.equal(byCode('broadcast')[0].codeDescription?.href.endsWith('#broadcast'), true);
    const oob = byCode('out-of-bounds')[0];
    assert.equal(oob.severity, DiagnosticSeverity.Error);
    assert.deepEqual(oob.range, r(14, 14, 10), 'on the whole access expression');
    assert.equal(oob.codeDescription?.href.endsWith('#out-of-bounds'), true);
    assert.equal(byCode('notice')[0].severity, DiagnosticSeverity.Information);
  });

  it('follows the settings', () => {
    const a = fakeAnalysis();
    const d = toDiagnostics(a, { uri: URI, version: 1, settings: settings({ severity: 'error', showBroadcastHints: false, showUnknown: true }) });
    assert.ok(d.filter((x) => x.code === 'bank-conflict').every((x) => x.severity === DiagnosticSeverity.Error));
    assert.equal(d.filter((x) => x.code === 'broadcast').length, 0);
    const unknown = d.filter((x) => x.code === 'unknown');
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0].severity, DiagnosticSeverity.Information);
    assert.equal(unknown[0].message, 'w: unknown: the index depends on idx[t]');
    for (const [s, sev] of [['information', 3], ['hint', 4], ['warning', 2]] as const) {
      const x = toDiagnostics(a, { uri: URI, version: 1, settings: settings({ severity: s }) }).find((y) => y.code === 'bank-conflict');
      assert.equal(x?.severity, sev);
    }
    const noRelated = toDiagnostics(a, { uri: URI, version: 1, settings: settings(), relatedInformation: false });
    assert.ok(noRelated.every((x) => x.relatedInformation === undefined));
  });
});

describe('lsp render: bank map', () => {
  it('lays out words by bank and wavefront', () => {
    const g = bankGrid(fakeAnalysis().accesses[0].worst!);
    assert.equal(g.bankCount, 32);
    assert.equal(g.rows, 32);
    assert.equal(g.wordsPerBank[0], 32);
    assert.deepEqual(g.cells[5], { bank: 0, row: 5, word: 160, lanes: [5] });
    assert.equal(bankGrid(figures((l) => l), 16).bankCount, 32, 'never fewer columns than banks in the data');
  });

  it('draws an SVG with 32 bank columns, one row per wavefront, and cells naming lanes and words', () => {
    const svg = renderBankMapSvg(fakeAnalysis().accesses[0].worst!, { title: 'tile <32-way> & more' });
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
    assert.ok(svg.endsWith('</svg>'));
    assert.ok(svg.includes('tile &lt;32-way&gt; &amp; more'), 'the title is escaped');
    assert.doesNotMatch(svg.replace(/&(amp|lt|gt|quot);/g, ''), /&/);
    for (let b = 0; b < 32; b++) assert.ok(svg.includes(`>${b}</text>`), `bank ${b} header`);
    assert.equal((svg.match(/<g>/g) ?? []).length, 32, 'one filled cell per word');
    assert.equal((svg.match(/<g>/g) ?? []).length, (svg.match(/<\/g>/g) ?? []).length);
    assert.ok(svg.includes('>L31</text>') && svg.includes('>w992</text>'));
    assert.ok(svg.includes('wavefront'));
    const scaled = renderBankMapSvg(fakeAnalysis().accesses[0].worst!, { maxWidth: 500 });
    assert.match(scaled, /^<svg [^>]*width="500"/);
    assert.match(svgDataUri(svg), /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(svgDataUri(svg).split(',')[1], 'base64').toString('utf8'), svg);
  });

  it('writes a monospace grid with only the banks that supply words', () => {
    const t = renderBankMapText(fakeAnalysis().accesses[0].worst!);
    const lines = t.split('\n');
    assert.match(lines[0], /^\s+bank 0\*$/);
    assert.match(lines[1], /^wavefront 1\s+w0 L0$/);
    assert.match(lines[32], /^wavefront 32\s+w992 L31$/);
    assert.ok(t.includes('no words from banks 1–31'));
    const row = renderBankMapText(fakeAnalysis().accesses[1].worst!);
    assert.equal(row.split('\n').filter((l) => l.startsWith('wavefront')).length, 4, 'four blocks of eight banks, one wavefront each');
    assert.ok(!row.includes('no words'));
    assert.match(renderBankMapText(fakeAnalysis().accesses[2].worst!), /w0 L0–31/);
  });

  it('compresses lane lists', () => {
    assert.equal(laneRanges([0, 1, 2, 3, 8, 9, 12]), '0–3, 8, 9, 12');
    assert.equal(laneRanges([]), '');
  });
});

describe('lsp render: hover', () => {
  const text = () => 'tile[threadIdx.x][threadIdx.y + j]';

  it('finds the access under the cursor: name first, then the innermost expression', () => {
    const a = fakeAnalysis();
    assert.equal(findAccessAt(a, { line: 10, character: 6 }), 0);
    assert.equal(findAccessAt(a, { line: 10, character: 20 }), 0, 'inside the subscript');
    assert.equal(findAccessAt(a, { line: 11, character: 0 }), -1);
    assert.equal(findArrayAt(a, { line: 2, character: 20 })?.name, 'tile');
  });

  it('returns every request at one name (a compound assignment is a load and a store), worst first', () => {
    const a = fakeAnalysis();
    a.accesses.push({ ...a.accesses[1], range: a.accesses[0].range, exprRange: a.accesses[0].exprRange, kind: 'store' });
    assert.deepEqual(findAccessesAt(a, { line: 10, character: 5 }), [0, 6]);
    assert.equal(findAccessAt(a, { line: 10, character: 5 }), 0);
  });

  it('renders an access card with status, figures, assumptions, the picture and the text grid', () => {
    const md = accessHover(fakeAnalysis(), 0, { textOf: text });
    assert.ok(md.startsWith('**`tile[threadIdx.x][threadIdx.y + j]`** · load · **32-way bank conflict**'));
    assert.ok(md.includes('served in 32 wavefronts (ideal 1)'));
    for (const [k, v] of [['conflict degree', '32-way'], ['wavefronts', '32 wavefronts (ideal 1)'], ['active lanes', '32'], ['distinct words', '32'],
      ['requested bytes', '128'], ['result bytes', '128'], ['banks used', '1'], ['element size', '4 bytes'], ['phases', '1 (32 lanes each)']]) {
      assert.ok(md.includes(`| ${k} | ${v} |`), `row ${k}`);
    }
    assert.ok(md.includes('- block 32x8x1 from the launch in main()'));
    assert.ok(!md.includes('**Cases**'), 'no case table when every case agrees');
    assert.match(md, /!\[bank map\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)/);
    assert.match(md, /```text\n\s+bank 0\*\nwavefront 1 +w0 L0\n/);
    assert.doesNotMatch(md, BANNED);
  });

  it('shows the engine\'s backticked names as inline code in a card, the prose around them escaped', () => {
    const a = fakeAnalysis();
    a.accesses[0].assumptions = ['`TILE_DIM` = 32 (defined in tile_config.h, line 7)', '`blockIdx.x * 32` adds the same offset to every lane; it does not change the degree (bank model rule 6)'];
    const card = accessHover(a, 0, { textOf: text });
    assert.ok(card.includes('- `TILE_DIM` = 32 (defined in tile\\_config.h, line 7)'), card);
    assert.ok(card.includes('- `blockIdx.x * 32` adds the same offset to every lane'), card);
    assert.ok(!card.includes('\\`'), 'no escaped backtick');
    // a stray backtick cannot open a code span that swallows the rest: escaped whole
    assert.equal(prose('a `b * c` d_e'), 'a `b * c` d\\_e');
    assert.equal(prose('odd ` count * here'), 'odd \\` count \\* here');
  });

  it('adds a table of cases when they differ (per iteration of s)', () => {
    const a = fakeAnalysis();
    assert.equal(casesDiffer(a.accesses[5].cases), true);
    const md = accessHover(a, 5);
    assert.ok(md.includes('**Cases**'));
    assert.ok(md.includes('| s | degree | wavefronts |'));
    const rows = md.split('\n').filter((l) => /^\| \d+ \| /.test(l));
    assert.deepEqual(rows.map((l) => l.split('|')[2].trim()), ['2-way', '4-way', '8-way', '8-way', '8-way', '4-way', '2-way', '1 (conflict-free)']);
    assert.ok(md.includes('| worst case | warp 0, s = 4 |'));
  });

  it('renders broadcast, unknown and out-of-bounds cards', () => {
    const a = fakeAnalysis();
    const b = accessHover(a, 2);
    assert.ok(b.includes('**broadcast**'));
    assert.ok(b.includes('32 lanes read 1 word (4 bytes requested, 128 bytes of results)'));
    const u = accessHover(a, 3);
    assert.ok(u.includes('**unknown**'));
    assert.ok(u.includes('the index depends on idx\\[t\\]'));
    assert.ok(!u.includes('data:image'), 'no picture without figures');
    const o = accessHover(a, 4);
    assert.ok(o.includes('**out of bounds:**'));
    for (const m of [b, u, o]) assert.doesNotMatch(m, BANNED);
  });

  it('renders a declaration card with every access and the fix', () => {
    const a = fakeAnalysis();
    const md = declarationHover(a, a.arrays[0], { textOf: text });
    assert.ok(md.startsWith('**`tile`** · `__shared__ float[32][32]` · 2 accesses · worst 32-way bank conflict'));
    const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, 2);
    assert.ok(rows[0].startsWith('| 9 |'), 'sorted by line');
    assert.ok(md.includes('**Quick fix:** Pad tile to'));
    assert.ok(md.includes('conflicting accesses 1 → 0; wavefronts of the 2 accesses checked, summed over their cases: 33 → 2'));
    const s = declarationHover(a, a.arrays[2]);
    assert.ok(s.includes('No padding fix: padding does not help a stride that grows with s'));
    const w = declarationHover(a, a.arrays[1]);
    assert.ok(w.includes('no bank conflicts'));
    assert.ok(w.includes('out of bounds'));
  });

  it('drops the image for plain-text clients and keeps the text grid', () => {
    const plain = toPlainText(accessHover(fakeAnalysis(), 0));
    assert.ok(!plain.includes('data:image'));
    assert.ok(plain.includes('wavefront 32'));
  });

  it('answers the bank map request with the full-size picture, grid and figures', () => {
    const res = bankMapResult(fakeAnalysis(), 0, { textOf: text });
    assert.ok(res);
    assert.equal(res.title, 'tile[threadIdx.x][threadIdx.y + j]: 32-way bank conflict');
    const m = /^<svg[^>]*width="(\d+)"[^>]*viewBox="0 0 (\d+) /.exec(res.svg);
    assert.equal(m?.[1], m?.[2], 'full size: width equals the viewBox width');
    assert.ok(res.figures.some(([k, v]) => k === 'distinct words' && v === '32'));
    assert.equal(bankMapResult(fakeAnalysis(), 3), null, 'unknown: no map');
  });
});

describe('lsp render: code lenses', () => {
  it('summarises each declaration', () => {
    const a = fakeAnalysis();
    assert.equal(lensTitle(a, a.arrays[0]), '2 accesses · worst 32-way · pad to [TILE_DIM][TILE_DIM + 1]');
    assert.equal(lensTitle(a, a.arrays[1]), '3 accesses · no conflicts · 1 unknown · 1 out of bounds');
    assert.equal(lensTitle(a, a.arrays[2]), '1 access · worst 8-way');
    const lenses = codeLenses(a, URI, 4);
    assert.equal(lenses.length, 3);
    assert.deepEqual(lenses[0].range, r(2, 19, 4));
    assert.equal(lenses[0].command?.command, 'cudaBankLens.applyPadding');
    assert.deepEqual(lenses[0].command?.arguments?.[0], { uri: URI, version: 4, title: a.arrays[0].fix!.title, edits: a.arrays[0].fix!.edits });
    assert.equal(lenses[1].command?.command, '', 'no fix: a plain label');
  });
});

describe('lsp render: code actions', () => {
  const a = fakeAnalysis();
  const diags = toDiagnostics(a, { uri: URI, version: 9, settings: settings() });
  const tileDiag = diags.find((d) => d.code === 'bank-conflict' && String(d.message).startsWith('tile'))!;

  it('turns the fix in a diagnostic into one preferred quick fix', () => {
    const actions = codeActions({ uri: URI, range: tileDiag.range, diagnostics: [tileDiag, tileDiag], documentChanges: false });
    assert.equal(actions.length, 1, 'one action per array');
    const [fix] = actions;
    assert.equal(fix.title, 'Pad tile to [TILE_DIM][TILE_DIM + 1] (conflict-free)');
    assert.equal(fix.kind, 'quickfix');
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.diagnostics?.length, 2);
    assert.deepEqual(fix.edit, { changes: { [URI]: [{ range: r(2, 34, 8), newText: 'TILE_DIM + 1' }] } });
  });

  it('uses versioned document changes when the client supports them', () => {
    const [fix] = codeActions({ uri: URI, range: tileDiag.range, diagnostics: [tileDiag], documentChanges: true });
    assert.deepEqual(fix.edit?.documentChanges, [{ textDocument: { uri: URI, version: 9 }, edits: [{ range: r(2, 34, 8), newText: 'TILE_DIM + 1' }] }]);
  });

  it('offers the fix at the declaration, and nothing for broadcasts or foreign diagnostics', () => {
    const atDecl = codeActions({ uri: URI, range: r(2, 20, 0), diagnostics: [], analysis: { result: a, version: 9 }, documentChanges: false });
    assert.deepEqual(atDecl.map((x) => x.title), ['Pad tile to [TILE_DIM][TILE_DIM + 1] (conflict-free)']);
    assert.deepEqual(atDecl[0].diagnostics, []);
    const bcast = diags.find((d) => d.code === 'broadcast')!;
    const foreign = { ...tileDiag, source: 'clangd' };
    assert.deepEqual(codeActions({ uri: URI, range: bcast.range, diagnostics: [bcast, foreign], documentChanges: false }), []);
    const both = codeActions({ uri: URI, range: r(2, 20, 0), diagnostics: [tileDiag], analysis: { result: a, version: 9 }, documentChanges: false });
    assert.equal(both.length, 1, 'the declaration does not duplicate the diagnostic fix');
  });
});
