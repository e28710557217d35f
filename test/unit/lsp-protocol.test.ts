// Protocol tests of the real server (dist/server.js) that do not depend on what the engine finds:
// lifecycle, transports, capabilities, versioned publishing, debounce, settings, empty answers.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import { after, before, describe, it } from 'node:test';
import { TextDocumentSyncKind } from 'vscode-languageserver-protocol';
import { delay, ensureBuilt, LspTestClient, SERVER } from './helpers/lsp-client';

const SMALL = `__global__ void k(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = (float)t;
  __syncthreads();
  out[t] = w[2 * t] + w[0];
}

int main() { k<<<1, 32>>>(0); return 0; }
`;

describe('lsp: process and transports', () => {
  before(() => ensureBuilt());

  it('prints its version and usage, and refuses to start without a transport', () => {
    const v = spawnSync(process.execPath, [SERVER, '--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+/);
    const none = spawnSync(process.execPath, [SERVER], { encoding: 'utf8' });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /--stdio/);
  });

  for (const transport of ['stdio', 'ipc'] as const) {
    it(`initializes over ${transport} and shuts down cleanly`, async () => {
      const c = await LspTestClient.start({ transport });
      const caps = c.initializeResult.capabilities;
      const sync = caps.textDocumentSync as { change: number; openClose: boolean };
      assert.equal(sync.change, TextDocumentSyncKind.Incremental);
      assert.equal(sync.openClose, true);
      assert.ok(caps.hoverProvider);
      assert.ok(caps.codeLensProvider);
      assert.deepEqual((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, ['quickfix']);
      assert.deepEqual(caps.executeCommandProvider?.commands, ['cudaBankLens.applyPadding']);
      assert.equal(c.initializeResult.serverInfo?.name, 'cuda-bank-lens');
      const uri = 'file:///proto/small.cu';
      await c.open(uri, SMALL);
      const p = await c.waitForDiagnostics(uri, 1);
      assert.ok(Array.isArray(p.diagnostics));
      assert.equal(await c.stop(), 0);
    });
  }
});

describe('lsp: documents, debounce and versions', () => {
  let c: LspTestClient;
  before(async () => {
    c = await LspTestClient.start({});
  });
  after(async () => {
    await c.stop();
  });

  it('publishes with the document version, and coalesces a burst of edits into few analyses', async () => {
    const uri = 'file:///proto/burst.cu';
    await c.open(uri, SMALL);
    await c.waitForDiagnostics(uri, 1);
    const since = c.published.length;
    let version = 1;
    for (let i = 0; i < 20; i++) {
      // type "x" at the start of line 4, as fast as the pipe takes it
      version = await c.change(uri, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: ' ' }]);
    }
    const last = await c.waitForDiagnostics(uri, version);
    assert.equal(last.version, 21);
    const during = c.published.slice(since).filter((p) => p.uri === uri);
    assert.ok(during.length <= 3, `a 150 ms debounce should coalesce 20 quick edits; got ${during.length} publishes`);
    assert.ok(during.every((p) => typeof p.version === 'number' && p.version >= 2));
    // nothing older than the final version arrives once the final one is out
    await delay(300);
    const tail = c.published.slice(c.published.indexOf(last) + 1).filter((p) => p.uri === uri);
    assert.deepEqual(tail, []);
  });

  it('clears diagnostics when a document closes', async () => {
    const uri = 'file:///proto/close.cu';
    await c.open(uri, SMALL);
    await c.waitForDiagnostics(uri, 1);
    const since = c.published.length;
    await c.close(uri);
    const cleared = await c.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, 5000, since);
    assert.deepEqual(cleared.diagnostics, []);
  });

  it('answers hover, code lens, code actions and bankMap with nothing where there is nothing', async () => {
    const uri = 'file:///proto/empty.cu';
    await c.open(uri, '// no kernels here\nint main() { return 0; }\n');
    await c.waitForDiagnostics(uri, 1);
    assert.equal(await c.hover(uri, { line: 0, character: 3 }), null);
    assert.deepEqual(await c.codeLenses(uri), []);
    assert.deepEqual(await c.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }), []);
    assert.equal(await c.bankMap(uri, { line: 0, character: 3 }), null);
  });

  it('answers a hover sent right after an edit for the new text (it waits for the pending analysis)', async () => {
    const uri = 'file:///proto/hover-after-edit.cu';
    await c.open(uri, SMALL);
    await c.waitForDiagnostics(uri, 1);
    const v = await c.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n' }]);
    await c.hover(uri, { line: 3, character: 2 });
    // by the time the hover is answered the analysis of version v has been published
    assert.ok(c.published.some((p) => p.uri === uri && p.version === v), `version ${v} not published before the hover answer`);
  });
});

describe('lsp: settings', () => {
  it('pulls cudaBankLens through workspace/configuration and re-analyses on didChangeConfiguration', async () => {
    const c = await LspTestClient.start({ settings: { architecture: 'sm_50+', showUnknown: false } });
    try {
      const uri = 'file:///proto/settings.cu';
      await c.open(uri, SMALL);
      await c.waitForDiagnostics(uri, 1);
      assert.ok(c.configurationRequests >= 1, 'the server should ask for the cudaBankLens section');
      const asked = c.configurationRequests;
      const since = c.published.length;
      await c.setSettings({ architecture: 'sm_2x', showUnknown: true });
      const again = await c.waitForDiagnostics(uri, (p) => p.version === 1, 5000, since);
      assert.ok(again);
      assert.ok(c.configurationRequests > asked, 'settings are pulled again after a change');
    } finally {
      await c.stop();
    }
  });

  it('works with a client that has no workspace/configuration (settings from initializationOptions, then didChangeConfiguration)', async () => {
    const c = await LspTestClient.start({ settings: null, initializationOptions: { settings: { severity: 'error' }, debounceMs: 0 } });
    try {
      const uri = 'file:///proto/noconfig.cu';
      await c.open(uri, SMALL);
      await c.waitForDiagnostics(uri, 1);
      const since = c.published.length;
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { cudaBankLens: { severity: 'hint' } } });
      await c.waitForDiagnostics(uri, 1, 5000, since);
      assert.equal(c.configurationRequests, 0);
    } finally {
      await c.stop();
    }
  });

  it('logs invalid settings and keeps the defaults', async () => {
    const c = await LspTestClient.start({ settings: { architecture: 'sm_99', defaultBlock: '2000x2', severity: 'loud' } });
    try {
      const uri = 'file:///proto/bad-settings.cu';
      await c.open(uri, SMALL);
      await c.waitForDiagnostics(uri, 1);
      const log = c.logs.join('\n');
      assert.match(log, /cudaBankLens\.architecture/);
      assert.match(log, /cudaBankLens\.defaultBlock/);
      assert.match(log, /cudaBankLens\.severity/);
    } finally {
      await c.stop();
    }
  });
});
