// Wires LSP handlers to the engine and the renderers. No rendering and no bank math here.
import {
  CodeActionKind,
  CodeActionParams,
  CodeLensRefreshRequest,
  Connection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ExecuteCommandParams,
  Hover,
  InitializeParams,
  InitializeResult,
  MarkupKind,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';
import { includeReader, readText, HeaderCache, IncludeGraph } from '../host/headers';
import { isSource, scanWorkspace } from '../host/workspace-scan';
import { EngineDocument, FileAnalysis, initEngine, Range, TextEdit } from '../engine';
import { bankCountFor } from './bank-map';
import { codeActions, workspaceEdit } from './code-actions';
import { codeLenses } from './code-lens';
import { toDiagnostics } from './diagnostics';
import { accessHover, bankMapResult, declarationHover, findAccessAt, findAccessesAt, findArrayAt, HoverContext, toPlainText } from './hover';
import { ApplyPaddingCommand, BankMapParams, BankMapRequestMethod, BankMapResult, InitializationOptions } from './protocol';
import { AnalysisResult, AnalysisScheduler } from './scheduler';
import { analyzeOptions, DEFAULT_SETTINGS, normalizeSettings, Settings } from './settings';

export const DEFAULT_DEBOUNCE_MS = 150;

export interface ServerInfo {
  name: string;
  version: string;
}

interface ClientFeatures {
  configuration: boolean;
  watchedFilesRegistration: boolean;
  workDoneProgress: boolean;
  configurationRegistration: boolean;
  relatedInformation: boolean;
  documentChanges: boolean;
  codeLensRefresh: boolean;
  markdown: boolean;
}

export function startServer(connection: Connection, info: ServerInfo = { name: 'cuda-bank-lens', version: '0.0.0' }): void {
  const documents = new TextDocuments(TextDocument);
  let client: ClientFeatures = {
    configuration: false,
    watchedFilesRegistration: false,
    workDoneProgress: false,
    configurationRegistration: false,
    relatedInformation: true,
    documentChanges: false,
    codeLensRefresh: false,
    markdown: true,
  };
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  let globalSettings: Settings = { ...DEFAULT_SETTINGS };
  const settingsCache = new Map<string, Promise<Settings>>();
  const reported = new Set<string>();
  let engineReady: Promise<void> = Promise.resolve();
  let engineError: string | undefined;
  let faultMarker: string | undefined;
  let scheduler: AnalysisScheduler | undefined;
  /** the workspace folders' paths: relative `includePaths` are relative to each. */
  let roots: string[] = [];
  const headerCache: HeaderCache = new Map();
  /** header path -> the documents whose last analysis read it (`#include "..."`). */
  const dependents = new Map<string, Set<string>>();
  const headersOf = new Map<string, string[]>();
  /** who includes whom in the workspace (scanned at start, then kept up to date): a header's kernels are launched there. */
  const graphDirs: string[] = [];
  const graph = new IncludeGraph(graphDirs);
  let scanning = false;
  let scanAgain = false;
  let scannedDirs = '[]';

  const pathToUri = (p: string): string => pathToFileURL(p).href;

  function fsPathOf(uri: string): string | null {
    if (!uri.startsWith('file:')) return null;
    try {
      return path.normalize(fileURLToPath(uri));
    } catch {
      return null;
    }
  }

  /** An open document's text by its path: it wins over the disk's. */
  function openText(p: string): string | undefined {
    for (const d of documents.all()) if (fsPathOf(d.uri) === p) return d.getText();
    return undefined;
  }

  function includeDirs(settings: Settings): string[] {
    return settings.includePaths.flatMap((d) => (path.isAbsolute(d) ? [d] : roots.map((r) => path.resolve(r, d))));
  }

  function recordHeaders(uri: string, headers: string[]): void {
    for (const h of headersOf.get(uri) ?? []) dependents.get(h)?.delete(uri);
    if (headers.length) headersOf.set(uri, headers);
    else headersOf.delete(uri);
    for (const h of headers) {
      let set = dependents.get(h);
      if (!set) dependents.set(h, (set = new Set()));
      set.add(uri);
    }
  }

  /**
   * Files changed (edited in the editor, closed, or changed on disk): the documents that read them (as headers, or
   * as files that include them) and the open documents they include, again.
   */
  function headersChanged(paths: (string | null)[], except?: string): void {
    for (const p of paths) {
      if (p === null) continue;
      headerCache.delete(p);
      const again = new Set(dependents.get(p) ?? []);
      for (const d of documents.all()) {
        const own = fsPathOf(d.uri);
        if (own && (graph.includersOf(own).includes(p) || graph.launchersOf(own).includes(p))) again.add(d.uri);
      }
      again.delete(except ?? '');
      for (const uri of again) scheduler?.refresh(uri);
    }
  }

  /**
   * The workspace's includes, read once at start, with progress where the client shows it; read again after it when
   * asked while it runs (other include folders: a client that sends its settings just after starting, as Neovim does).
   */
  async function scanIncludes(progressSupported: boolean): Promise<void> {
    if (!roots.length) return;
    if (scanning) {
      scanAgain = true;
      return;
    }
    scanning = true;
    try {
      do {
        scanAgain = false;
        const settings = await getSettings(pathToUri(roots[0]));
        graphDirs.splice(0, graphDirs.length, ...includeDirs(settings));
        graph.foldersChanged();
        scannedDirs = JSON.stringify(graphDirs);
        const bar = progressSupported ? await connection.window.createWorkDoneProgress().catch(() => undefined) : undefined;
        bar?.begin('CUDA Bank Lens: reading includes', 0, 'listing files');
        const n = await scanWorkspace(roots, graph, (done, total) => bar?.report(Math.round((100 * done) / Math.max(1, total)), `${done}/${total} files`));
        bar?.done();
        connection.console.log(`read the includes of ${n} files`);
      } while (scanAgain);
    } finally {
      scanning = false;
    }
    for (const d of documents.all()) {
      const own = fsPathOf(d.uri);
      if (own && (graph.includersOf(own).length || graph.launchersOf(own).length)) scheduler?.refresh(d.uri);
    }
  }

  function logProblems(problems: string[]): void {
    for (const p of problems) {
      if (reported.has(p)) continue;
      reported.add(p);
      connection.console.warn(p);
    }
  }

  function getSettings(uri: string): Promise<Settings> {
    if (!client.configuration) return Promise.resolve(globalSettings);
    let p = settingsCache.get(uri);
    if (!p) {
      p = connection.workspace
        .getConfiguration({ scopeUri: uri, section: 'cudaBankLens' })
        .then(
          (raw: unknown) => {
            const { settings, problems } = normalizeSettings(raw);
            logProblems(problems);
            return settings;
          },
          (err: unknown) => {
            connection.console.warn(`workspace/configuration failed (${String(err)}); using defaults`);
            return globalSettings;
          },
        );
      settingsCache.set(uri, p);
    }
    return p;
  }

  function textOf(uri: string) {
    const doc = documents.get(uri);
    return (range: Range) => doc?.getText(range) ?? '';
  }

  function hoverContext(uri: string, result: FileAnalysis): HoverContext {
    return { textOf: textOf(uri), bankCount: bankCountFor(result.model) };
  }

  let logTimings = false;
  function publish(r: AnalysisResult): void {
    const t0 = performance.now();
    const diagnostics = toDiagnostics(r.result, {
      uri: r.uri,
      version: r.version,
      settings: r.settings,
      relatedInformation: client.relatedInformation,
    });
    void connection.sendDiagnostics({ uri: r.uri, version: r.version, diagnostics });
    if (logTimings) {
      const total = r.sinceEditMs + performance.now() - t0;
      connection.console.log(
        `analysed ${r.uri} version ${r.version} in ${r.ms.toFixed(1)} ms; ${diagnostics.length} diagnostics sent ${total.toFixed(1)} ms after the edit`,
      );
    }
  }

  function failure(uri: string, version: number, error: unknown): FileAnalysis {
    const message = error instanceof Error ? error.message : String(error);
    connection.console.error(`analysis of ${uri} (version ${version}) failed: ${error instanceof Error && error.stack ? error.stack : message}`);
    const zero = { line: 0, character: 0 };
    return {
      model: '',
      accesses: [],
      arrays: [],
      notices: [{ range: { start: zero, end: zero }, severity: 'error', message: `cuda-bank-lens could not analyse this file: ${engineError ?? message}` }],
    };
  }

  connection.onInitialize(async (params: InitializeParams): Promise<InitializeResult> => {
    const caps = params.capabilities;
    client = {
      configuration: !!caps.workspace?.configuration,
      watchedFilesRegistration: !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
      workDoneProgress: !!caps.window?.workDoneProgress,
      configurationRegistration: !!caps.workspace?.didChangeConfiguration?.dynamicRegistration,
      relatedInformation: caps.textDocument?.publishDiagnostics?.relatedInformation !== false,
      documentChanges: !!caps.workspace?.workspaceEdit?.documentChanges,
      codeLensRefresh: !!caps.workspace?.codeLens?.refreshSupport,
      markdown: caps.textDocument?.hover?.contentFormat?.includes(MarkupKind.Markdown) ?? true,
    };
    roots = (params.workspaceFolders ?? []).map((f) => fsPathOf(f.uri)).filter((p): p is string => p !== null);
    const rootPath = params.rootUri ? fsPathOf(params.rootUri) : null;
    if (!roots.length && rootPath) roots = [rootPath];
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) debounceMs = init.debounceMs;
    logTimings = init.logTimings === true;
    faultMarker = typeof init.faultMarker === 'string' && init.faultMarker ? init.faultMarker : undefined;
    if (init.settings) {
      const { settings, problems } = normalizeSettings(init.settings);
      globalSettings = settings;
      logProblems(problems);
    }
    scheduler = new AnalysisScheduler({
      debounceMs,
      // a file too big for one budget is finished in further slices while the editor is idle
      continueIncomplete: { delayMs: Math.max(debounceMs, 50), max: 20 },
      getDocument: (uri) => documents.get(uri),
      getSettings: async (uri) => {
        await engineReady;
        return getSettings(uri);
      },
      createAnalyzer: (uri) => {
        const doc = new EngineDocument(documents.get(uri)?.getText() ?? '');
        return {
          update: (text) => doc.update(text),
          analyze: (settings) => {
            if (engineError) throw new Error(engineError);
            if (faultMarker && doc.text.includes(faultMarker)) throw new Error(`injected fault (${faultMarker})`);
            const options = analyzeOptions(settings);
            const own = fsPathOf(uri);
            if (own && settings.readHeaders) {
              options.includes = includeReader(own, includeDirs(settings), headerCache, openText);
              options.path = own;
              const by = graph.includersOf(own).concat(graph.launchersOf(own)).flatMap((p) => {
                const text = readText(p, headerCache, openText);
                return text === null ? [] : [{ path: p, text }];
              });
              if (by.length) options.includedBy = by;
            }
            const result = doc.analyze(options);
            recordHeaders(uri, result.headers ?? []);
            return result;
          },
          dispose: () => doc.dispose(),
        };
      },
      onResult: publish,
      onError: failure,
    });
    engineReady = initEngine().catch((err: unknown) => {
      engineError = `the tree-sitter grammar did not load: ${err instanceof Error ? err.message : String(err)}`;
      connection.console.error(engineError);
    });
    await engineReady;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [ApplyPaddingCommand] },
      },
      serverInfo: info,
    };
  });

  connection.onInitialized(() => {
    if (client.configurationRegistration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'cudaBankLens' });
    }
    // a header a file includes changed on disk: the file is analysed again
    if (client.watchedFilesRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{cu,cuh,h,hh,hpp,hxx,inc,inl,cpp,cc,cxx}' }] });
    }
    void scanIncludes(client.workDoneProgress).catch((err: unknown) => connection.console.warn(`reading the workspace's includes failed: ${String(err)}`));
    if (engineError) void connection.window.showErrorMessage(`CUDA Bank Lens: ${engineError}`);
  });

  connection.onDidChangeConfiguration((change) => {
    settingsCache.clear();
    if (!client.configuration) {
      const raw = (change.settings as { cudaBankLens?: unknown } | null)?.cudaBankLens;
      if (raw !== undefined) {
        const { settings, problems } = normalizeSettings(raw);
        globalSettings = settings;
        logProblems(problems);
      }
    }
    scheduler?.invalidateAll();
    // other include folders: the workspace's includes are read again
    if (roots.length) {
      void getSettings(pathToUri(roots[0])).then((settings) => {
        if (JSON.stringify(includeDirs(settings)) !== scannedDirs) return scanIncludes(client.workDoneProgress);
      }).catch(() => undefined);
    }
    if (client.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  });

  // the first analysis of a document runs at once; later ones wait for typing to pause (debounce)
  documents.onDidChangeContent((e) => {
    scheduler?.schedule(e.document.uri, scheduler.latest(e.document.uri) ? undefined : 0);
    const own = fsPathOf(e.document.uri);
    if (own && isSource(own)) graph.setFile(own, e.document.getText());
    headersChanged([own], e.document.uri);
  });
  connection.onDidChangeWatchedFiles((p) => {
    const paths = p.changes.map((c) => fsPathOf(c.uri));
    for (const [i, c] of p.changes.entries()) {
      const f = paths[i];
      if (!f || !isSource(f) || openText(f) !== undefined) continue;
      if (c.type === 3) graph.removeFile(f);
      else {
        const text = readText(f, headerCache);
        if (text === null) graph.removeFile(f);
        else graph.setFile(f, text);
      }
    }
    headersChanged(paths);
  });
  documents.onDidClose((e) => {
    scheduler?.close(e.document.uri);
    recordHeaders(e.document.uri, []);
    const own = fsPathOf(e.document.uri);
    if (own && isSource(own)) {
      const disk = readText(own, headerCache);
      if (disk === null) graph.removeFile(own);
      else graph.setFile(own, disk);
    }
    // what the files that include it read now is the disk's text
    headersChanged([fsPathOf(e.document.uri)], e.document.uri);
    settingsCache.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover(async (params, token): Promise<Hover | null> => {
    const r = await scheduler?.whenFresh(params.textDocument.uri, token);
    if (!r) return null;
    const ctx = hoverContext(r.uri, r.result);
    const contents = (value: string) =>
      client.markdown ? { kind: MarkupKind.Markdown, value } : { kind: MarkupKind.PlainText, value: toPlainText(value) };
    const indexes = findAccessesAt(r.result, params.position);
    if (indexes.length) {
      const value = indexes.map((i) => accessHover(r.result, i, ctx)).join('\n\n---\n\n');
      return { contents: contents(value), range: r.result.accesses[indexes[0]].range };
    }
    const array = findArrayAt(r.result, params.position);
    if (array) return { contents: contents(declarationHover(r.result, array, ctx)), range: array.declRange };
    return null;
  });

  connection.onCodeLens(async (params, token) => {
    const r = await scheduler?.whenFresh(params.textDocument.uri, token);
    return r ? codeLenses(r.result, r.uri, r.version) : [];
  });

  connection.onCodeAction(async (params: CodeActionParams, token) => {
    const only = params.context.only;
    if (only && !only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${k}.`) || k === CodeActionKind.Empty)) return [];
    const uri = params.textDocument.uri;
    const r = await scheduler?.whenFresh(uri, token);
    return codeActions({
      uri,
      range: params.range,
      diagnostics: params.context.diagnostics,
      analysis: r ? { result: r.result, version: r.version } : undefined,
      documentChanges: client.documentChanges,
    });
  });

  connection.onExecuteCommand(async (params: ExecuteCommandParams) => {
    if (params.command !== ApplyPaddingCommand) return null;
    const arg = params.arguments?.[0] as { uri?: string; version?: number | null; title?: string; edits?: TextEdit[] } | undefined;
    if (!arg?.uri || !Array.isArray(arg.edits)) return null;
    const doc = documents.get(arg.uri);
    if (doc && arg.version != null && doc.version !== arg.version) {
      void connection.window.showWarningMessage('CUDA Bank Lens: the file changed since this fix was computed; try again once the lens updates.');
      return null;
    }
    const edit = workspaceEdit(arg.edits, { uri: arg.uri, version: arg.version ?? null, documentChanges: client.documentChanges });
    const result = await connection.workspace.applyEdit({ label: arg.title, edit });
    return result.applied;
  });

  connection.onRequest(BankMapRequestMethod, async (params: BankMapParams, token): Promise<BankMapResult | null> => {
    const r = await scheduler?.whenFresh(params.textDocument.uri, token);
    if (!r) return null;
    const index = findAccessAt(r.result, params.position);
    return index >= 0 ? bankMapResult(r.result, index, hoverContext(r.uri, r.result)) : null;
  });

  connection.onShutdown(() => scheduler?.dispose());
  documents.listen(connection);
}
