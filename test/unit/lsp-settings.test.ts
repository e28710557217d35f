// Settings: normalisation, the block parser, the engine options; and the package.json contributions that
// must agree with them (configuration, command, grammar), the grammar itself and the docs anchors.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import { Codes } from '../../server/lsp/protocol';
import { analysisKey, analyzeOptions, ARCHITECTURE_LABELS, DEFAULT_SETTINGS, normalizeSettings, parseBlock } from '../../server/lsp/settings';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('lsp settings', () => {
  it('parses block shapes', () => {
    assert.deepEqual(parseBlock('32'), [32, 1, 1]);
    assert.deepEqual(parseBlock('16x16'), [16, 16, 1]);
    assert.deepEqual(parseBlock(' 32 x 8 x 1 '), [32, 8, 1]);
    assert.deepEqual(parseBlock('8X8X4'), [8, 8, 4]);
    assert.equal(parseBlock(''), undefined);
    assert.equal(parseBlock('0'), undefined);
    assert.equal(parseBlock('2048'), undefined);
    assert.equal(parseBlock('64x32'), undefined, 'over 1,024 threads');
    assert.equal(parseBlock('abc'), undefined);
  });

  it('normalises raw settings over the defaults and reports bad values', () => {
    assert.deepEqual(normalizeSettings(undefined).settings, DEFAULT_SETTINGS);
    assert.deepEqual(normalizeSettings(null).settings, DEFAULT_SETTINGS);
    const ok = normalizeSettings({ architecture: 'sm_3x-8B', defaultBlock: 256, severity: 'hint', showBroadcastHints: false, showUnknown: true, analysisBudgetMs: '250' });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.settings, { architecture: 'sm_3x-8B', defaultBlock: '256', severity: 'hint', showBroadcastHints: false, showUnknown: true, analysisBudgetMs: 250, defines: [], readHeaders: true, includePaths: [] });
    const bad = normalizeSettings({ architecture: 'sm_99', defaultBlock: 'big', severity: 'loud', analysisBudgetMs: -1 });
    assert.deepEqual(bad.settings, DEFAULT_SETTINGS);
    assert.equal(bad.problems.length, 4);
  });

  it('reads defines as NAME=VALUE strings, leaves out the others and says so', () => {
    const ok = normalizeSettings({ defines: ['WARP_SIZE=32', 'USE_FAST'] });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.settings.defines, ['WARP_SIZE=32', 'USE_FAST']);
    assert.deepEqual(analyzeOptions(ok.settings).defines, { WARP_SIZE: '32', USE_FAST: '1' });
    const bad = normalizeSettings({ defines: ['WARP_SIZE=32', '2BAD=1', 7] });
    assert.deepEqual(bad.settings.defines, ['WARP_SIZE=32']);
    assert.equal(bad.problems.length, 1);
    assert.equal(normalizeSettings({ defines: 'WARP_SIZE=32' }).settings.defines.length, 0);
    assert.notEqual(analysisKey(DEFAULT_SETTINGS), analysisKey({ ...DEFAULT_SETTINGS, defines: ['WARP_SIZE=32'] }));
  });

  it('maps settings to engine options', () => {
    assert.deepEqual(analyzeOptions(DEFAULT_SETTINGS), { arch: 'sm_50+', budgetMs: 500 });
    // one architecture: the sm_50+ model, and `#if __CUDA_ARCH__` decided
    assert.deepEqual(analyzeOptions(normalizeSettings({ architecture: 'sm_90' }).settings), { arch: 'sm_90', budgetMs: 500 });
    assert.deepEqual(analyzeOptions({ ...DEFAULT_SETTINGS, architecture: 'sm_3x-8B', defaultBlock: '16x16' }), { arch: 'sm_3x-8B', budgetMs: 500, block: [16, 16, 1] });
    assert.notEqual(analysisKey(DEFAULT_SETTINGS), analysisKey({ ...DEFAULT_SETTINGS, architecture: 'sm_1x' }));
    assert.equal(analysisKey(DEFAULT_SETTINGS), analysisKey({ ...DEFAULT_SETTINGS, severity: 'error' }));
  });
});

describe('lsp package.json contributions', () => {
  const props = pkg.contributes.configuration.properties as Record<string, { default: unknown; enum?: string[]; markdownDescription?: string; description?: string }>;

  it('declares every setting with its default and a description', () => {
    const keys = Object.keys(DEFAULT_SETTINGS).map((k) => `cudaBankLens.${k}`).sort();
    assert.deepEqual(Object.keys(props).sort(), keys);
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS)) {
      const p = props[`cudaBankLens.${k}`];
      assert.deepEqual(p.default, v, `default of ${k}`);
      assert.ok((p.markdownDescription ?? p.description ?? '').length > 20, `description of ${k}`);
    }
    assert.deepEqual(props['cudaBankLens.architecture'].enum, Object.keys(ARCHITECTURE_LABELS));
    assert.deepEqual(props['cudaBankLens.severity'].enum, ['error', 'warning', 'information', 'hint']);
    const all = JSON.stringify(pkg.contributes);
    assert.doesNotMatch(all, /slow(er|down)/i);
  });

  it('activates on cuda-cpp and contributes the bank map command', () => {
    assert.deepEqual(pkg.activationEvents, ['onLanguage:cuda-cpp']);
    const cmd = pkg.contributes.commands.find((c: { command: string }) => c.command === 'cudaBankLens.showBankMap');
    assert.equal(`${cmd.category}: ${cmd.title}`, 'CUDA Bank Lens: Show Bank Map');
    assert.equal(pkg.main, './dist/client.js');
    assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
    assert.equal(pkg.repository.url, 'https://github.com/cuda-bank-lens/cuda-bank-lens');
    assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')));
  });

  it('injects a grammar for bank-lens: directives into cuda-cpp comments', () => {
    const [g] = pkg.contributes.grammars;
    assert.deepEqual(g.injectTo, ['source.cuda-cpp']);
    const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, g.path), 'utf8'));
    assert.equal(grammar.scopeName, g.scopeName);
    assert.match(grammar.injectionSelector, /comment/);
    const begin = new RegExp(grammar.repository.directive.begin);
    assert.ok(begin.test('// bank-lens: block=16x16'));
    assert.ok(begin.test('/* bank-lens:block=256 */'));
    assert.ok(!begin.test('// my-bank-lens: x'));
    const pair = new RegExp(grammar.repository.pair.match);
    assert.deepEqual([...('block=16x16'.match(pair) ?? [])].slice(1), ['block', '=', '16x16']);
    assert.deepEqual([...('block = 32 x 8'.match(pair) ?? [])].slice(1), ['block', '=', '32 x 8']);
    // every pattern compiles (Oniguruma syntax used here is a subset of JavaScript's)
    const walk = (o: unknown): void => {
      if (!o || typeof o !== 'object') return;
      for (const [k, v] of Object.entries(o)) {
        if ((k === 'match' || k === 'begin' || k === 'end') && typeof v === 'string') assert.doesNotThrow(() => new RegExp(v), v);
        else walk(v);
      }
    };
    walk(grammar);
  });

  it('documents every diagnostic code and setting', () => {
    const diag = fs.readFileSync(path.join(ROOT, 'docs', 'diagnostics.md'), 'utf8');
    for (const code of Object.values(Codes)) assert.ok(diag.includes(`\n## ${code}\n`), `docs/diagnostics.md#${code}`);
    const settings = fs.readFileSync(path.join(ROOT, 'docs', 'settings.md'), 'utf8');
    for (const k of Object.keys(DEFAULT_SETTINGS)) assert.ok(settings.includes(`\n## cudaBankLens.${k}\n`), `docs/settings.md: ${k}`);
    assert.doesNotMatch(diag + settings, /slowdown|\dx slower/i);
  });

  it('keeps sources and tests out of the .vsix', () => {
    const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim());
    assert.ok(ignore.includes('**'), 'everything is excluded by default');
    for (const keep of ['!dist/server.js', '!dist/client.js', '!dist/web-tree-sitter.wasm', '!dist/tree-sitter-cuda.wasm']) assert.ok(ignore.includes(keep), keep);
    assert.ok(!ignore.some((l) => /^!(server|client|test|scripts)\b/.test(l)));
  });
});
