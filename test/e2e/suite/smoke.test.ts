// The harness itself: a real VS Code extension host, the workspace the runner prepared, the extension under
// development found. Passes without the language server; everything else builds on it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, workspaceFolder } from './util';

describe('smoke: the extension host', () => {
  it('is a real VS Code with the vscode API', () => {
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
    assert.strictEqual(typeof vscode.languages.getDiagnostics, 'function');
    console.log(`[cuda-bank-lens-e2e] vscode.version = ${vscode.version}, appName = ${vscode.env.appName}, host = ${vscode.env.appHost}`);
  });

  it('has the examples workspace open', async () => {
    const folder = workspaceFolder();
    const entries = await vscode.workspace.fs.readDirectory(folder.uri);
    assert.ok(
      entries.some(([name]) => name.endsWith('.cu')),
      `no .cu file in the workspace ${folder.uri.toString()}: ${entries.map(([n]) => n).join(', ')}`,
    );
  });

  it('knows the cuda-cpp language id', async () => {
    const languages = await vscode.languages.getLanguages();
    assert.ok(languages.includes('cuda-cpp'), `cuda-cpp not among ${languages.length} languages`);
  });

  it('has this extension loaded for development', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among the installed extensions`);
    assert.ok((ext.packageJSON.activationEvents ?? []).includes('onLanguage:cuda-cpp'), 'activates on onLanguage:cuda-cpp');
  });
});
