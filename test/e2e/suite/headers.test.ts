// Headers in a real editor: the runner's workspace holds include/config.h (TILE 32), include/kernels.cuh (a kernel
// launched only from src/k.cu) and src/k.cu, with `cudaBankLens.includePaths: ["include"]` in .vscode/settings.json
// (scripts/e2e/workspace.mjs). The language server reads the workspace's includes at start, with work-done progress
// in VS Code's UI. Figures from the bank model (32 banks of 4 bytes), worked lane by lane.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { conflicts, describeDiagnostics, fileUri, hoverText, openDoc, positionOf, waitFor } from './util';

const CONFIG = 'include/config.h';
const HEADER_KERNEL = 'include/kernels.cuh';
const INCLUDER = 'src/k.cu';
/** columnRead's column read, tile[TILE][TILE] with block 32x8: word 32 * tx + ty, every lane in one bank. */
const COLUMN_READ = 'tile[threadIdx.x][threadIdx.y]';

const conflictAt = (uri: vscode.Uri, pos: vscode.Position) => conflicts(uri).find((d) => d.range.contains(pos));

async function hoverAt(uri: vscode.Uri, pos: vscode.Position, want: RegExp): Promise<string> {
  let last = '';
  return waitFor(
    `a hover matching ${want}`,
    async () => {
      last = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? []);
      return want.test(last) ? last : undefined;
    },
    { lastSeen: () => last.slice(0, 2000) || '(no hover)' },
  );
}

async function setTile(value: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(fileUri(CONFIG));
  const at = doc.getText().search(/#define TILE \d+/);
  assert.ok(at >= 0, `${CONFIG} has no #define TILE`);
  const line = doc.positionAt(at).line;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, doc.lineAt(line).range, `#define TILE ${value}`);
  assert.ok(await vscode.workspace.applyEdit(edit), 'workspace.applyEdit refused the header edit');
  assert.ok(await doc.save(), `${CONFIG} was not saved`);
}

describe('headers: a workspace whose sizes and kernels are in headers', function () {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a header\'s kernel gets the block of its includer\'s launch, read by the workspace scan (includer never opened)', async () => {
    // src/k.cu is not open: only the scan at start (with progress) can have told the server who includes kernels.cuh
    const doc = await openDoc(HEADER_KERNEL);
    assert.strictEqual(doc.languageId, 'cuda-cpp');
    // t[tx][ty] with TILE 32 and block 16x16: per warp tx 0..15, ty 0..1, words 32 * tx + ty in banks 0 and 1,
    // sixteen words each: 16-way (the default block 32x1 would make it 32-way)
    const store = positionOf(doc, 't[threadIdx.x][threadIdx.y]').translate(0, 1);
    const d = await waitFor('the 16-way store of the header\'s kernel', () => {
      const c = conflictAt(doc.uri, store);
      return c && /16-way/.test(c.message) ? c : undefined;
    }, { lastSeen: () => describeDiagnostics(doc.uri) });
    assert.strictEqual(d.message, 't: 16-way bank conflict: 16 lanes need 16 distinct words from bank 0; served in 16 wavefronts (ideal 1)');
    const hover = await hoverAt(doc.uri, store, /block 16x16x1 from the launch at line 16 of k\.cu/);
    assert.match(hover, /\\?`TILE\\?` = 32 \(defined in config\.h, line 3\)/);
  });

  it('the includer\'s diagnostics use the header\'s TILE, and the hover names config.h', async () => {
    const doc = await openDoc(INCLUDER);
    const read = positionOf(doc, COLUMN_READ).translate(0, 1);
    const d = await waitFor('the 32-way column read with TILE 32 from config.h', () => conflictAt(doc.uri, read), {
      lastSeen: () => describeDiagnostics(doc.uri),
    });
    assert.strictEqual(d.message, 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)');
    await hoverAt(doc.uri, read, /\\?`TILE\\?` = 32 \(defined in config\.h, line 3\)/);
  });

  it('editing and saving the header in the editor changes the includer\'s diagnostics', async () => {
    const doc = await openDoc(INCLUDER);
    const read = positionOf(doc, COLUMN_READ).translate(0, 1);
    await waitFor('the 32-way column read', () => conflictAt(doc.uri, read), { lastSeen: () => describeDiagnostics(doc.uri) });
    try {
      // TILE 33: word 33 * tx + ty, one per bank: the conflict goes, with no edit of k.cu
      await setTile(33);
      await vscode.window.showTextDocument(doc);
      await waitFor('the column read to be conflict-free with TILE 33', () => !conflictAt(doc.uri, read), {
        lastSeen: () => describeDiagnostics(doc.uri),
      });
      await hoverAt(doc.uri, read, /\\?`TILE\\?` = 33 \(defined in config\.h, line 3\)/);
    } finally {
      await setTile(32);
    }
    await vscode.window.showTextDocument(doc);
    await waitFor('the 32-way column read back with TILE 32', () => conflictAt(doc.uri, read), { lastSeen: () => describeDiagnostics(doc.uri) });
  });
});
