// Webview that shows the hover's bank map at full size, with the figures and the text grid.
import * as vscode from 'vscode';
import type { BankMapResult } from '../server/lsp/protocol';

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Keeps one panel; a second command call replaces its content. */
export class BankMapPanel {
  static current: BankMapPanel | undefined;
  static readonly viewType = 'cudaBankLens.bankMap';

  private constructor(private readonly panel: vscode.WebviewPanel) {
    panel.onDidDispose(() => {
      if (BankMapPanel.current === this) BankMapPanel.current = undefined;
    });
  }

  static show(_extensionUri: vscode.Uri, result: BankMapResult): void {
    if (!BankMapPanel.current) {
      const panel = vscode.window.createWebviewPanel(BankMapPanel.viewType, 'Bank Map', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        localResourceRoots: [],
      });
      BankMapPanel.current = new BankMapPanel(panel);
    }
    const p = BankMapPanel.current.panel;
    p.title = `Bank Map: ${result.title.length > 40 ? result.title.slice(0, 37) + '...' : result.title}`;
    p.webview.html = renderPage(result);
    p.reveal(undefined, true);
  }
}

/** The page: no scripts; the SVG is inline (our own markup, escaped) so its cell tooltips work. */
export function renderPage(r: BankMapResult): string {
  const rows = r.figures.map(([k, v]) => `<tr><th>${html(k)}</th><td>${html(v)}</td></tr>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Bank Map</title>
<style>
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 12px 20px; }
  h1 { font-size: 1.2em; font-family: var(--vscode-editor-font-family); }
  .map svg { width: 100%; height: auto; max-width: 1600px; }
  table { border-collapse: collapse; margin: 12px 0; }
  th { text-align: left; font-weight: normal; color: var(--vscode-descriptionForeground); padding: 2px 16px 2px 0; }
  td { font-family: var(--vscode-editor-font-family); }
  pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); overflow-x: auto; }
</style>
</head>
<body>
<h1>${html(r.title)}</h1>
<p>${html(r.message)}</p>
<div class="map">${r.svg}</div>
<table>${rows}</table>
<details><summary>Text grid</summary><pre>${html(r.text)}</pre></details>
</body>
</html>`;
}
