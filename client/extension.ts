// VS Code client: starts the bundled language server (dist/server.js) over IPC for `cuda-cpp` documents,
// shows the active bank model in the status bar, and opens bank maps in a webview.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { BankMapPanel } from './bank-map-panel';
import { ArchitectureStatus } from './status-bar';
import { BankMapParams, BankMapRequestMethod, BankMapResult, ShowBankMapCommand } from '../server/lsp/protocol';

export const LANGUAGE_ID = 'cuda-cpp';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
  const output = vscode.window.createOutputChannel('CUDA Bank Lens', { log: true });
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
      // headers VS Code opens as C or C++ (`.h`, `.hpp`): a CUDA file that includes one follows its edits as they are
      // typed, and a kernel in one is analysed
      { scheme: 'file', language: 'cpp', pattern: '**/*.{h,hh,hpp,hxx,inl}' },
      { scheme: 'file', language: 'c', pattern: '**/*.h' },
    ],
    // settings: the server pulls `cudaBankLens` (workspace/configuration) and registers for its changes itself
    outputChannel: output,
  };
  client = new LanguageClient('cudaBankLens', 'CUDA Bank Lens', serverOptions, clientOptions);
  context.subscriptions.push(output);

  const status = new ArchitectureStatus(LANGUAGE_ID);
  context.subscriptions.push(status);

  context.subscriptions.push(
    vscode.commands.registerCommand(ShowBankMapCommand, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !client) return;
      if (editor.document.languageId !== LANGUAGE_ID) {
        void vscode.window.showInformationMessage('CUDA Bank Lens: open a CUDA file and put the cursor on a shared-memory access.');
        return;
      }
      const params: BankMapParams = {
        textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
        position: { line: editor.selection.active.line, character: editor.selection.active.character },
      };
      const result = await client.sendRequest<BankMapResult | null>(BankMapRequestMethod, params);
      if (!result) {
        void vscode.window.showInformationMessage('CUDA Bank Lens: no analysed shared-memory access under the cursor.');
        return;
      }
      BankMapPanel.show(context.extensionUri, result);
    }),
  );

  await client.start();
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.stop();
}
