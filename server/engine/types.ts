// The engine's public data: what `analyze` returns. Pure data, no behaviour, no LSP or VS Code types.
// Positions are 0-based (line, character in UTF-16 code units), like LSP; the CLI adds 1 when it prints.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type AccessKind = 'load' | 'store' | 'atomic';
export type AccessStatus = 'conflict' | 'conflict-free' | 'broadcast' | 'unknown';

/** One bank's column in the bank map of one phase: the distinct words it must supply, each with its lanes. */
export interface BankColumn {
  bank: number;
  words: { word: number; lanes: number[] }[];
}

/** The CM-306 figures of one warp request (model/), plus the picture of its worst phase. */
export interface RequestFigures {
  activeLanes: number;
  distinctWords: number;
  requestedBytes: number;
  resultBytes: number;
  banksUsed: number;
  wavefronts: number;
  idealWavefronts: number;
  /** worst phase's wavefront count (1 = conflict-free). */
  degree: number;
  broadcast: boolean;
  phases: number;
  lanesPerPhase: number;
  /** the worst phase: its index, its lanes, and the banks it touches (only banks with at least one word). */
  worstPhase: { index: number; lanes: number[]; banks: BankColumn[] };
  /** the bank that needs the most distinct words in the worst phase. */
  worstBank: number;
}

/** One evaluated context of an access: template instance x block shape x loop iteration x warp. */
export interface AccessCase {
  /** e.g. { s: 1 } for a loop variable, { BLOCK: 16 } for a template parameter. */
  context: Record<string, number | string>;
  block: [number, number, number];
  warp: number;
  degree: number;
  wavefronts: number;
  figures: RequestFigures;
}

export interface AccessFinding {
  /** the name at the access site (an alias reports its own name). */
  array: string;
  /** the underlying __shared__ declaration's name. */
  sharedArray: string;
  /** range of the array name at the access site. */
  range: Range;
  /** range of the whole access expression (e.g. `tile[tx][ty]`). */
  exprRange: Range;
  /** range of the declaration's name. */
  declRange: Range;
  kind: AccessKind;
  /** bytes one lane accesses; 0 when the element type's size is not known (renderers show null / "unknown"). */
  elementBytes: number;
  status: AccessStatus;
  degree: number | null;
  wavefronts: number | null;
  idealWavefronts: number | null;
  /** figures of the worst case (null when unknown). */
  worst: RequestFigures | null;
  kernel: string;
  block: [number, number, number] | null;
  /** every distinct (context, degree); more than one entry when degree differs across contexts. */
  cases: AccessCase[];
  assumptions: string[];
  message: string;
  /** why the access is `unknown`. */
  reason?: string;
  /** set when some active lane indexes outside the declared extent. */
  outOfBounds?: { lane: number; warp: number; index: number; extent: number; message: string };
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface PaddingFix {
  title: string;
  /** true when every conflicting access of the array becomes conflict-free. */
  preferred: boolean;
  edits: TextEdit[];
  /** the new declaration text of the padded extent, e.g. `[TILE_DIM][TILE_DIM + 1]`. */
  newShape: string;
  padding: number;
  totalWavefrontsBefore: number;
  totalWavefrontsAfter: number;
  conflictingBefore: number;
  conflictingAfter: number;
  accessesChecked: number;
}

export interface ArrayFinding {
  name: string;
  declRange: Range;
  /** e.g. `float[32][32]`. */
  typeText: string;
  external: boolean;
  /** indexes into FileAnalysis.accesses. */
  accesses: number[];
  worstDegree: number | null;
  fix?: PaddingFix;
  /** why no padding fix is offered, when the array has conflicts. */
  noFixReason?: string;
}

export interface Notice {
  range: Range;
  message: string;
  severity: 'error' | 'warning' | 'information';
}

export interface FileAnalysis {
  model: string;
  accesses: AccessFinding[];
  arrays: ArrayFinding[];
  /** analysis-level notes: budget exceeded, skipped kernels, syntax errors near a kernel. */
  notices: Notice[];
  /**
   * true when the budget stopped the analysis before every kernel was evaluated, or before a padding search was done.
   * The same EngineDocument keeps the kernels it finished and the paddings it tried: calling analyze() again continues
   * with the rest (an editor can do so when idle).
   */
  incomplete?: boolean;
  /** the headers whose macros were read (`#include "..."`, through AnalyzeOptions.includes), as the reader names them. */
  headers?: string[];
}

/**
 * The text of the header `#include "spec"` names, as a compiler looks for it from the file `from` (null: the document
 * being analysed): its path (what the results name, and what a cache is keyed by) and its text; null where there is
 * none that can be read. The engine reads no file itself: the CLI and the language server give it one.
 */
/**
 * Looks for `#include "spec"` (from the file `from`, null for the document): its path and text; `{ path, unread }`
 * for one found that is not read (`unread` says why: `it is over 2 MB`); null for one not found.
 */
/**
 * Reads the header an `#include` names, from the file `from` (null: the document). `angle`: it is written `#include
 * <spec>`: looked for in the include paths only (-I), never in the includer's folder, and a header not found there is
 * a system or toolkit header: null, not read and not said.
 */
export type IncludeReader = (spec: string, from: string | null, angle?: boolean) => { path: string; text: string } | { path: string; unread: string } | null;

export interface AnalyzeOptions {
  /** `sm_50+` (default), `sm_1x`, `sm_2x`, `sm_3x`, `sm_3x-8B`, `sm_80`, `sm_100`, `compute_75`, `sm_35:8B`, ... */
  arch?: string;
  /** block shape for kernels whose shape is not found in the source (CLI --block, editor setting). */
  block?: [number, number, number];
  /** wall-clock budget for one document, in milliseconds (default 500). */
  budgetMs?: number;
  /** compute padding fixes (default true). */
  fixes?: boolean;
  /**
   * object-like macros given from outside, as `-D` gives them to a compiler (`{ WARP_SIZE: '32' }`): values the file
   * names but takes from a header. A `#define` of the same name in the file wins. They decide `#if` as the file's do.
   */
  defines?: Record<string, string>;
  /**
   * reads the headers the file includes with `#include "..."`: their macros (`#define TILE 32` in `config.h`) hold as
   * `defines` do, where neither the file nor `defines` defines them (see syntax/includes.ts). Without it, a header's
   * macros are not known.
   */
  includes?: IncludeReader;
  /** the document's own path, as `includes` names files: an include of it (from a file that includes it) is not read. */
  path?: string;
  /**
   * the files that include this one (directly, or through other headers): a header's kernels are launched there
   * (`kernels.cuh` included by `runner.cu`); or that launch its kernels through a header both include (`kernels.cu`
   * defines `k`, `main.cu` launches it, both include `kernels.h`, which declares it). Their launches, host code and macros are read after the file's own text,
   * as if they followed it; only the file's own findings are reported, and a line of theirs is named with its file
   * (`block 16x16x1 from the launch at line 12 of runner.cu`). Used where the file defines a kernel.
   */
  includedBy?: { path: string; text: string }[];
  /**
   * evaluate every thread of every block, never one warp standing for all (default false: the engine evaluates one
   * warp where that is exact; the results are the same, which the tests check with this).
   */
  wholeBlock?: boolean;
  /**
   * search padding fixes by running the kernels again for every candidate padding (default false: one more run, its
   * addresses moved to where each padding puts them, where that is exact; the results are the same, which the tests
   * check with this).
   */
  rerunPadding?: boolean;
}
