// Names shared by the server and the VS Code client. Plain constants and types only: the client bundle imports
// this file, so it must not pull in vscode-languageserver or the engine.

export const SOURCE = 'cuda-bank-lens';
export const DOCS_BASE = 'https://github.com/cuda-bank-lens/cuda-bank-lens/blob/main/docs/diagnostics.md';

/** Diagnostic codes; each has an anchor of the same name in docs/diagnostics.md. */
export const Codes = {
  bankConflict: 'bank-conflict',
  broadcast: 'broadcast',
  unknown: 'unknown',
  outOfBounds: 'out-of-bounds',
  notice: 'notice',
} as const;
export type DiagnosticCodeName = (typeof Codes)[keyof typeof Codes];

/** Custom request: the bank map of the access at a position (the hover's picture, for a larger view). */
export const BankMapRequestMethod = 'cudaBankLens/bankMap';

export interface BankMapParams {
  textDocument: { uri: string };
  position: { line: number; character: number };
}

export interface BankMapResult {
  /** e.g. `tile[threadIdx.x][threadIdx.y + j]: 32-way bank conflict`. */
  title: string;
  /** the engine's message for the access. */
  message: string;
  /** the SVG document (not base64). */
  svg: string;
  /** the monospace text grid of the same phase. */
  text: string;
  /** label/value figure rows, as in the hover card. */
  figures: [string, string][];
}

/** Server-side command (workspace/executeCommand) that applies a padding fix; used by the code lens. */
export const ApplyPaddingCommand = 'cudaBankLens.applyPadding';

/** Client command that opens the bank map in a webview. */
export const ShowBankMapCommand = 'cudaBankLens.showBankMap';

/** Options a client may pass in `initializationOptions`. */
export interface InitializationOptions {
  /** debounce between the last edit and the analysis, in milliseconds (default 150; the benchmark uses 0). */
  debounceMs?: number;
  /** log each analysis (document, version, milliseconds) to the client's output. */
  logTimings?: boolean;
  /** settings for clients that do not answer workspace/configuration (same keys as `cudaBankLens.*`). */
  settings?: Record<string, unknown>;
  /**
   * Tests of fault isolation only: the analysis of a document whose text contains this marker throws, as an engine
   * bug would.
   */
  faultMarker?: string;
}
