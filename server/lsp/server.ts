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
import { fileURLToPath } from 'url';
import { includeReader, HeaderCache } from '../host/headers';
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

  /** Headers changed (edited in the editor, closed, or changed on disk): the documents that read them again. */
  function headersChanged(paths: (string | null)[], except?: string): void {
    for (const p of paths) {
      if (p === null) continue;
      headerCache.delete(p);
      for (const uri of dependents.get(p) ?? []) if (uri !== except) scheduler?.refresh(uri);
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
            if (own && settings.readHeaders) options.includes = includeReader(own, includeDirs(settings), headerCache, openText);
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
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{h,hh,hpp,hxx,cuh,inc,inl}' }] });
    }
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
    if (client.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  });

  // the first analysis of a document runs at once; later ones wait for typing to pause (debounce)
  documents.onDidChangeContent((e) => {
    scheduler?.schedule(e.document.uri, scheduler.latest(e.document.uri) ? undefined : 0);
    headersChanged([fsPathOf(e.document.uri)], e.document.uri);
  });
  connection.onDidChangeWatchedFiles((p) => headersChanged(p.changes.map((c) => fsPathOf(c.uri))));
  documents.onDidClose((e) => {
    scheduler?.close(e.document.uri);
    recordHeaders(e.document.uri, []);
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
