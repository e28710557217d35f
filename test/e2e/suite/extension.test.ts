// The extension in a real editor: activation on cuda-cpp, diagnostics from the language server for every
// example, the hover card with its bank map, the padding quick fix applied through the editor, and the
// architecture setting changing the results.
import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  conflicts,
  describeDiagnostics,
  fileUri,
  hoverText,
  openDoc,
  positionOf,
  readExpected,
  waitFor,
  workspaceFolder,
} from './util';

const TRANSPOSE = 'transpose.cu';
const NAIVE_READ = 'tile[threadIdx.x][threadIdx.y + j]';
const NAIVE_KERNEL = /transposeNaiveTile\s*\(/;
const NAIVE_MESSAGE = 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)';
const PAD_TITLE = 'Pad tile to [TILE_DIM][TILE_DIM + 1]';

/** The conflict diagnostic that covers `pos`, if any. */
function conflictAt(uri: vscode.Uri, pos: vscode.Position): vscode.Diagnostic | undefined {
  return conflicts(uri).find((d) => d.range.contains(pos));
}

async function naiveRead(): Promise<{ doc: vscode.TextDocument; pos: vscode.Position }> {
  const doc = await openDoc(TRANSPOSE);
  // inside the array name of the column read of the first (naive) kernel
  const pos = positionOf(doc, NAIVE_READ, NAIVE_KERNEL).translate(0, 1);
  return { doc, pos };
}

describe('extension: cuda-bank-lens in a real editor', function () {
  it('activates on a cuda-cpp document', async () => {
    const doc = await openDoc(TRANSPOSE);
    assert.strictEqual(doc.languageId, 'cuda-cpp', `${TRANSPOSE} opened as ${doc.languageId}`);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} not found`);
    await waitFor('the extension to activate', () => ext.isActive, {
      lastSeen: () => `isActive=${ext.isActive}`,
    });
  });

  it('shows the 32-way conflict of the naive transpose as a warning', async () => {
    const { doc, pos } = await naiveRead();
    const d = await waitFor(`a bank-conflict diagnostic at ${TRANSPOSE}:${pos.line + 1}`, () => conflictAt(doc.uri, pos), {
      lastSeen: () => describeDiagnostics(doc.uri),
    });
    assert.strictEqual(d.message, NAIVE_MESSAGE);
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Warning);
    // the padded kernel's identical read is conflict-free
    const padded = positionOf(doc, NAIVE_READ, /transposeCoalesced\s*\(/).translate(0, 1);
    assert.strictEqual(conflictAt(doc.uri, padded), undefined, 'the padded tile must not conflict');
  });

  it('shows the conflicts the CLI reports, for every example', async () => {
    const expected = readExpected();
    const folder = workspaceFolder();
    const entries = (await vscode.workspace.fs.readDirectory(folder.uri)).filter(([n, t]) => t === vscode.FileType.File && /\.cuh?$/.test(n));
    assert.ok(entries.length > 0, 'no example in the workspace');
    assert.ok(expected, 'no expected.json from the CLI (the runner writes it with `cuda-bank-lens --format json`)');
    for (const [name] of entries) {
      const want = expected[name];
      assert.ok(want, `the CLI reported nothing for ${name} (expected.json has: ${Object.keys(expected).join(', ')})`);
      const doc = await openDoc(name);
      assert.strictEqual(doc.languageId, 'cuda-cpp');
      const wanted = want.map((a) => new vscode.Position(a.line - 1, a.column - 1));
      // every conflicting access the CLI reports is covered by a bank-conflict diagnostic, and nothing else is
      await waitFor(
        `${name}: ${wanted.length} conflicting access(es) at ${want.map((a) => `${a.line}:${a.column} ${a.array}`).join(', ') || '(none)'}`,
        () => {
          const got = conflicts(doc.uri);
          const covered = wanted.every((p) => got.some((d) => d.range.contains(p)));
          const noExtra = got.every((d) => wanted.some((p) => d.range.contains(p)));
          // an example with no conflict: wait until the server has published for it (an empty set still counts
          // once the client has had time to answer didOpen); the settle period is in the probe below.
          return covered && noExtra && (wanted.length > 0 || settled(doc.uri));
        },
        { lastSeen: () => describeDiagnostics(doc.uri) },
      );
    }
  });

  it('hovers the conflicting read with the bank map card', async () => {
    const { doc, pos } = await naiveRead();
    await waitFor('the conflict diagnostic', () => conflictAt(doc.uri, pos), { lastSeen: () => describeDiagnostics(doc.uri) });
    let last = '';
    const text = await waitFor(
      'a hover with a bank map image',
      async () => {
        const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
        last = hoverText(hovers);
        return /32-way/.test(last) && last.includes('data:image/svg+xml') ? last : undefined;
      },
      { lastSeen: () => last.slice(0, 2000) || '(no hover)' },
    );
    assert.match(text, /bank/i);
    // VS Code's markdown renderer cuts a markdown string at 100,000 characters: past that the image link is
    // broken and the hover shows base64 text instead of the picture.
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
    for (const c of hovers.flatMap((h) => h.contents)) {
      const value = typeof c === 'string' ? c : c.value;
      if (!value.includes('data:image/svg+xml')) continue;
      assert.ok(value.length <= 100_000, `the hover markdown is ${value.length} characters; VS Code renders only the first 100,000, so the bank map image is cut off`);
      assert.match(
        value,
        /!\[[^\]]*\]\(data:image\/svg\+xml[^)\s]*\)|<img[^>]+src="data:image\/svg\+xml[^"]*"/,
        'the bank map is not a complete image: ![...](data:image/svg+xml...) or <img src="data:image/svg+xml...">',
      );
    }
  });

  it('offers the padding quick fix, and applying it clears the conflict', async () => {
    const { doc, pos } = await naiveRead();
    const diag = await waitFor('the conflict diagnostic', () => conflictAt(doc.uri, pos), {
      lastSeen: () => describeDiagnostics(doc.uri),
    });
    let titles: string[] = [];
    const action = await waitFor(
      `a code action titled "${PAD_TITLE}: ..."`,
      async () => {
        const actions =
          (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, diag.range)) ?? [];
        titles = actions.map((a) => a.title);
        return actions.find((a): a is vscode.CodeAction => a.title.startsWith(PAD_TITLE + ':') && 'kind' in a);
      },
      { lastSeen: () => titles.join(' | ') || '(no code actions)' },
    );
    assert.ok(action.kind && vscode.CodeActionKind.QuickFix.contains(action.kind), `kind is ${action.kind?.value}`);
    try {
      if (action.edit) assert.ok(await vscode.workspace.applyEdit(action.edit), 'workspace.applyEdit refused the fix');
      if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
      assert.ok(action.edit || action.command, 'the quick fix has neither an edit nor a command');
      const naiveKernel = doc.getText().slice(doc.getText().search(NAIVE_KERNEL));
      assert.match(naiveKernel, /__shared__ float tile\[TILE_DIM\]\[TILE_DIM \+ 1\];/, 'the declaration was not padded');
      await waitFor('the conflict to clear after the fix', () => !conflictAt(doc.uri, pos), {
        lastSeen: () => describeDiagnostics(doc.uri),
      });
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await waitFor('the conflict to come back after the revert', () => conflictAt(doc.uri, pos), {
      lastSeen: () => describeDiagnostics(doc.uri),
    });
  });

  describe('the cudaBankLens.architecture setting', () => {
    const FILE = 'e2e-char-per-lane.cu';
    const SOURCE = [
      '// Written by the end-to-end suite. c[t] reads one char per lane: conflict-free since cc 2.x (lanes that',
      '// share a word never conflict), but under cc 1.x four lanes of a half-warp share one bank word and conflict.',
      '// w[2 * t] is a 2-way conflict under every model: it shows that the file has been analysed.',
      '__global__ void charPerLane(float *out)',
      '{',
      '  __shared__ char c[64];',
      '  __shared__ float w[64];',
      '  int t = threadIdx.x;',
      '  c[t] = (char)t;',
      '  w[t] = (float)t;',
      '  w[t + 32] = (float)t;',
      '  __syncthreads();',
      '  float witness = w[2 * t];',
      '  out[t] = c[t] + witness;',
      '}',
      '',
      'int main()',
      '{',
      '  float *d = 0;',
      '  charPerLane<<<1, 32>>>(d);',
      '  return 0;',
      '}',
      '',
    ].join('\n');
    const section = () => vscode.workspace.getConfiguration('cudaBankLens');

    before(async () => {
      await vscode.workspace.fs.writeFile(fileUri(FILE), Buffer.from(SOURCE, 'utf8'));
    });
    after(async () => {
      await section().update('architecture', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(fileUri(FILE));
    });

    it('declares the setting with sm_1x among its values', () => {
      const inspect = section().inspect<string>('architecture');
      assert.ok(inspect, 'cudaBankLens.architecture is not a registered setting');
      assert.strictEqual(inspect.defaultValue, 'sm_50+');
    });

    it('a char read per lane conflicts under sm_1x but not under the default', async () => {
      const doc = await openDoc(FILE);
      const read = positionOf(doc, 'c[t] + witness', /out\[t\] = /);
      const witness = positionOf(doc, 'w[2 * t]', /float witness = /);
      // default (sm_50+): the witness conflict shows that the server has analysed the file; the char read is clean.
      await waitFor('the witness conflict w[2 * t] under the default', () => conflictAt(doc.uri, witness), {
        lastSeen: () => describeDiagnostics(doc.uri),
      });
      assert.strictEqual(conflictAt(doc.uri, read), undefined, `conflict under the default:\n  ${describeDiagnostics(doc.uri)}`);

      await section().update('architecture', 'sm_1x', vscode.ConfigurationTarget.Global);
      const d = await waitFor('a conflict on the char read under sm_1x', () => conflictAt(doc.uri, read), {
        lastSeen: () => describeDiagnostics(doc.uri),
      });
      assert.match(d.message, /^c: .*conflict/);

      await section().update('architecture', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('the conflict to go away under the default again', () => !conflictAt(doc.uri, read), {
        lastSeen: () => describeDiagnostics(doc.uri),
      });
    });
  });
});

// A document with no expected conflicts shows nothing both before and after the server ran; waiting a fixed time
// after it was opened (and after any diagnostic change) is the only way to tell "analysed: clean" from "not yet".
const SETTLE_MS = 3000;
const firstSeen = new Map<string, number>();
function settled(uri: vscode.Uri): boolean {
  const key = uri.toString();
  const now = Date.now();
  if (!firstSeen.has(key)) firstSeen.set(key, now);
  return now - (firstSeen.get(key) ?? now) >= SETTLE_MS;
}
