// Status-bar item naming the bank model in use (`cudaBankLens.architecture`); shown for CUDA editors only.
import * as vscode from 'vscode';
import { ARCHITECTURE_LABELS, DEFAULT_SETTINGS } from '../server/lsp/settings';

export class ArchitectureStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly languageId: string) {
    this.item = vscode.window.createStatusBarItem('cudaBankLens.architecture', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'CUDA Bank Lens: Architecture';
    this.item.command = { title: 'Change bank model', command: 'workbench.action.openSettings', arguments: ['cudaBankLens.architecture'] };
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cudaBankLens')) this.update();
      }),
    );
    this.update();
  }

  update(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== this.languageId) {
      this.item.hide();
      return;
    }
    const config = vscode.workspace.getConfiguration('cudaBankLens', editor.document.uri);
    const arch = config.get<string>('architecture', DEFAULT_SETTINGS.architecture);
    const block = config.get<string>('defaultBlock', '');
    this.item.text = `$(symbol-array) ${arch}`;
    const tip = new vscode.MarkdownString(
      `**CUDA Bank Lens** bank model: \`${arch}\` (${ARCHITECTURE_LABELS[arch] ?? 'unknown architecture'})` +
        (block ? `\n\ndefault block: \`${block}\`` : '') +
        '\n\nClick to change `cudaBankLens.architecture`.',
    );
    this.item.tooltip = tip;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
