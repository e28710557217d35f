// A minimal LSP client for the protocol tests and the benchmark: starts the REAL bundled server
// (`node dist/server.js --stdio`, or `--node-ipc`) and drives it with vscode-languageserver-protocol.
import { ChildProcess, fork, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import {
  ClientCapabilities,
  CodeAction,
  CodeActionRequest,
  CodeLens,
  CodeLensRequest,
  Diagnostic,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  Hover,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InitializeResult,
  IPCMessageReader,
  IPCMessageWriter,
  LogMessageNotification,
  Position,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  Range,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentContentChangeEvent,
  TextEdit,
  WorkspaceEdit,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

export { ROOT } from './common';
import { ROOT } from './common';
import { ensureBuilt as buildUnderLock } from '../../../scripts/ensure-built.mjs';
export const SERVER = path.join(ROOT, 'dist', 'server.js');

/** Builds dist/ when dist/server.js is missing or older than server/ (test files share a lock). */
export function ensureBuilt(): void {
  buildUnderLock(ROOT, 'server.js');
}

export interface StartOptions {
  transport?: 'stdio' | 'ipc';
  initializationOptions?: Record<string, unknown>;
  /** answered to workspace/configuration for the section `cudaBankLens`; `null`: the client does not support it. */
  settings?: Record<string, unknown> | null;
  /** merged over the default client capabilities. */
  capabilities?: ClientCapabilities;
  workspaceEditDocumentChanges?: boolean;
  /** the workspace folders the client opens (none by default). */
  workspaceFolders?: { uri: string; name: string }[];
  /** keep only the newest N publishDiagnostics (the benchmark: 200 copies of a big file's diagnostics add up). */
  maxPublished?: number;
}

type Waiter = { match: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void };

export class LspTestClient {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly logs: string[] = [];
  readonly appliedEdits: WorkspaceEdit[] = [];
  /** every `$/progress` the server sent (work done progress), with how many publishDiagnostics had come before it. */
  readonly progress: { kind: string; message?: string; afterPublished: number }[] = [];
  configurationRequests = 0;
  settings: Record<string, unknown> | null;
  initializeResult!: InitializeResult;
  private readonly waiters = new Set<Waiter>();
  private readonly versions = new Map<string, TextDocument>();

  private constructor(
    readonly connection: ProtocolConnection,
    readonly process: ChildProcess,
    options: StartOptions,
  ) {
    this.settings = options.settings === null ? null : withBudget(options.settings ?? {});
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push(p);
      if (options.maxPublished && this.published.length > options.maxPublished) this.published.shift();
      for (const w of [...this.waiters]) {
        if (w.match(p)) {
          this.waiters.delete(w);
          w.resolve(p);
        }
      }
    });
    connection.onNotification(LogMessageNotification.type, (p) => {
      this.logs.push(typeof p.message === 'string' ? p.message : JSON.stringify(p.message));
    });
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
      this.configurationRequests++;
      return params.items.map((i) => (i.section === 'cudaBankLens' ? this.settings : null));
    });
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onNotification('$/progress', (p: { value?: { kind?: string; message?: string } }) => {
      this.progress.push({ kind: String(p.value?.kind), message: p.value?.message, afterPublished: this.published.length });
    });
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onNotification('window/showMessage', (p: { message: string }) => {
      this.logs.push(`showMessage: ${p.message}`);
    });
    connection.onRequest('workspace/applyEdit', (p: { edit: WorkspaceEdit }) => {
      this.appliedEdits.push(p.edit);
      return { applied: true };
    });
  }

  static async start(options: StartOptions = {}): Promise<LspTestClient> {
    ensureBuilt();
    let proc: ChildProcess;
    let connection: ProtocolConnection;
    if (options.transport === 'ipc') {
      proc = fork(SERVER, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      connection = createProtocolConnection(new IPCMessageReader(proc), new IPCMessageWriter(proc));
    } else {
      proc = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
      connection = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    }
    proc.stderr?.on('data', () => undefined);
    const client = new LspTestClient(connection, proc, options);
    connection.listen();
    const caps: ClientCapabilities = {
      workspace: {
        configuration: options.settings !== null,
        didChangeConfiguration: { dynamicRegistration: options.settings !== null },
        workspaceEdit: { documentChanges: options.workspaceEditDocumentChanges ?? false },
        codeLens: { refreshSupport: true },
        applyEdit: true,
      },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, isPreferredSupport: true, dataSupport: true },
        codeLens: {},
      },
      ...options.capabilities,
    };
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: caps,
      initializationOptions: options.initializationOptions,
      workspaceFolders: options.workspaceFolders ?? null,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves with the first publishDiagnostics (already received or future) that matches. */
  waitForDiagnostics(uri: string, match: number | ((p: PublishDiagnosticsParams) => boolean) = () => true, timeoutMs = 20_000, since = 0): Promise<PublishDiagnosticsParams> {
    const pred = (p: PublishDiagnosticsParams) => p.uri === uri && (typeof match === 'number' ? p.version === match : match(p));
    const seen = this.published.slice(since).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(`no publishDiagnostics for ${uri} (${typeof match === 'number' ? `version ${match}` : 'predicate'}) within ${timeoutMs} ms; server log:\n${this.logs.join('\n')}`));
      }, timeoutMs);
      const w: Waiter = {
        match: pred,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      };
      this.waiters.add(w);
    });
  }

  /** The text the client believes the server has. */
  text(uri: string): string {
    return this.versions.get(uri)!.getText();
  }

  document(uri: string): TextDocument {
    return this.versions.get(uri)!;
  }

  async open(uri: string, text: string, version = 1): Promise<void> {
    this.versions.set(uri, TextDocument.create(uri, 'cuda-cpp', version, text));
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'cuda-cpp', version, text } });
  }

  /** Sends one didChange with these changes; returns the new version. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const doc = this.versions.get(uri)!;
    const version = doc.version + 1;
    this.versions.set(uri, TextDocument.update(doc, changes, version));
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async setSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings = withBudget(settings);
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { cudaBankLens: settings } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  async codeActions(uri: string, range: Range, diagnostics: Diagnostic[] = []): Promise<CodeAction[]> {
    const r = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics } });
    return (r ?? []).filter((a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
  }

  bankMap(uri: string, position: Position): Promise<{ title: string; svg: string; text: string; message: string; figures: [string, string][] } | null> {
    return this.connection.sendRequest('cudaBankLens/bankMap', { textDocument: { uri }, position });
  }

  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => {
      if (this.process.exitCode !== null) resolve(this.process.exitCode);
      else this.process.once('exit', (code) => resolve(code));
    });
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), delay(3000)]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      /* already gone */
    }
    const code = await Promise.race([exited, delay(3000).then(() => 'timeout' as const)]);
    this.connection.dispose();
    if (code === 'timeout') {
      this.process.kill();
      return null;
    }
    return code;
  }
}

/**
 * Settings as a test gives them, with an analysis budget of a minute unless the test names its own: the tests read
 * figures, not the clock, so a loaded machine cannot turn a kernel into `analysis budget exceeded` (the budget and
 * its slices are tested with budgets the tests give, in lsp-scheduler.test.ts and robustness.test.ts).
 */
function withBudget(settings: Record<string, unknown>): Record<string, unknown> {
  return { analysisBudgetMs: 60_000, ...settings };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The text edits of a WorkspaceEdit for one document (`changes` or `documentChanges`). */
export function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  if (edit.changes?.[uri]) return edit.changes[uri];
  const out: TextEdit[] = [];
  for (const dc of edit.documentChanges ?? []) {
    if ('textDocument' in dc && dc.textDocument.uri === uri) out.push(...(dc.edits as TextEdit[]));
  }
  return out;
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'cuda-cpp', 0, text), edits);
}

/** Range of the `nth` occurrence of `needle` in `text`, optionally searching from an anchor string onwards. */
export function rangeOf(text: string, needle: string, options: { after?: string; nth?: number; length?: number } = {}): Range {
  let from = 0;
  if (options.after) {
    from = text.indexOf(options.after);
    if (from < 0) throw new Error(`anchor ${JSON.stringify(options.after)} not found`);
  }
  let at = text.indexOf(needle, from);
  for (let i = 1; i < (options.nth ?? 1) && at >= 0; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  const doc = TextDocument.create('file:///x', 'cuda-cpp', 0, text);
  return { start: doc.positionAt(at), end: doc.positionAt(at + (options.length ?? needle.length)) };
}

/** Diagnostics in a comparable form: the per-version and per-uri parts removed, sorted. */
export function normalizeDiagnostics(diags: readonly Diagnostic[]): unknown[] {
  return diags
    .map((d) => {
      const data = d.data && typeof d.data === 'object' ? { ...(d.data as Record<string, unknown>), version: undefined } : d.data;
      return {
        range: d.range,
        message: d.message,
        severity: d.severity,
        code: d.code,
        source: d.source,
        related: d.relatedInformation?.map((r) => ({ range: r.location.range, message: r.message })),
        data,
      };
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

export { seededRandom } from './common';
