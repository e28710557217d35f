// The `cudaBankLens.*` settings: defaults, validation, and the mapping to the engine's AnalyzeOptions.
import type { AnalyzeOptions } from '../engine';
import { parseDefine } from '../engine/syntax/preprocess';

export type SeveritySetting = 'error' | 'warning' | 'information' | 'hint';

export interface Settings {
  /** bank model: `sm_50+` (default), `sm_1x`, `sm_2x`, `sm_3x`, `sm_3x-8B`. */
  architecture: string;
  /** block shape for kernels whose launch is not found: `""` (engine default), `"256"`, `"16x16"`, `"32x8x1"`. */
  defaultBlock: string;
  severity: SeveritySetting;
  showBroadcastHints: boolean;
  showUnknown: boolean;
  analysisBudgetMs: number;
  /** macros the files take from headers, `NAME=VALUE` each (`WARP_SIZE=32`), as `-D` gives them to a compiler. */
  defines: string[];
  /** read the macros of the headers a file includes with `#include "..."`. */
  readHeaders: boolean;
  /** where such headers are looked for after the including file's directory (`-I`); relative to each workspace folder. */
  includePaths: string[];
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  architecture: 'sm_50+',
  defaultBlock: '',
  severity: 'warning',
  showBroadcastHints: true,
  showUnknown: false,
  analysisBudgetMs: 500,
  defines: [],
  readHeaders: true,
  includePaths: [],
});

/**
 * The architectures the setting offers, with one line each for the status bar tooltip and docs. A setting's value is
 * the engine's `arch` option as it stands (archRange and profileFor read these spellings).
 */
export const ARCHITECTURE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'sm_50+': 'compute capability 5.x and newer: 32 banks of 4 bytes',
  sm_1x: 'compute capability 1.x: 16 banks, one request per half-warp',
  sm_2x: 'compute capability 2.x: 32 banks, whole warp',
  sm_3x: 'compute capability 3.x, 4-byte bank mode',
  'sm_3x-8B': 'compute capability 3.x, 8-byte bank mode',
  sm_60: 'compute capability 6.0 (P100): the 5.x-and-newer model, __CUDA_ARCH__ 600',
  sm_70: 'compute capability 7.0 (V100): the 5.x-and-newer model, __CUDA_ARCH__ 700',
  sm_75: 'compute capability 7.5 (T4, RTX 20xx): the 5.x-and-newer model, __CUDA_ARCH__ 750',
  sm_80: 'compute capability 8.0 (A100): the 5.x-and-newer model, __CUDA_ARCH__ 800',
  sm_86: 'compute capability 8.6 (RTX 30xx, A10): the 5.x-and-newer model, __CUDA_ARCH__ 860',
  sm_89: 'compute capability 8.9 (L4, RTX 40xx): the 5.x-and-newer model, __CUDA_ARCH__ 890',
  sm_90: 'compute capability 9.0 (H100, H200): the 5.x-and-newer model, __CUDA_ARCH__ 900',
  sm_100: 'compute capability 10.0 (B200): the 5.x-and-newer model, __CUDA_ARCH__ 1000',
  sm_120: 'compute capability 12.0 (RTX 50xx): the 5.x-and-newer model, __CUDA_ARCH__ 1200',
});

const SEVERITIES: SeveritySetting[] = ['error', 'warning', 'information', 'hint'];

/** Parses `"32"`, `"16x16"`, `"32x8x1"` (also `*` or `,` as separator); undefined when empty or invalid. */
export function parseBlock(text: string): [number, number, number] | undefined {
  const m = /^\s*(\d+)(?:\s*[x×*,]\s*(\d+))?(?:\s*[x×*,]\s*(\d+))?\s*$/i.exec(text ?? '');
  if (!m) return undefined;
  const dims = [m[1], m[2] ?? '1', m[3] ?? '1'].map((s) => parseInt(s, 10)) as [number, number, number];
  if (dims.some((d) => !Number.isFinite(d) || d < 1)) return undefined;
  if (dims[0] * dims[1] * dims[2] > 1024 || dims[2] > 64) return undefined;
  return dims;
}

/** Problems found while reading settings, for the server's log. */
export interface SettingsResult {
  settings: Settings;
  problems: string[];
}

/** Merges a raw `cudaBankLens` section (from workspace/configuration or initializationOptions) over the defaults. */
export function normalizeSettings(raw: unknown): SettingsResult {
  const s: Settings = { ...DEFAULT_SETTINGS };
  const problems: string[] = [];
  if (!raw || typeof raw !== 'object') return { settings: s, problems };
  const r = raw as Record<string, unknown>;
  if (r.architecture !== undefined) {
    if (typeof r.architecture === 'string' && r.architecture in ARCHITECTURE_LABELS) s.architecture = r.architecture;
    else problems.push(`cudaBankLens.architecture: unknown value ${JSON.stringify(r.architecture)}; using ${s.architecture}`);
  }
  if (r.defaultBlock !== undefined) {
    const text = typeof r.defaultBlock === 'number' ? String(r.defaultBlock) : r.defaultBlock;
    if (typeof text === 'string' && (text.trim() === '' || parseBlock(text))) s.defaultBlock = text.trim();
    else problems.push(`cudaBankLens.defaultBlock: ${JSON.stringify(r.defaultBlock)} is not a block shape like "256" or "16x16" (at most 1024 threads)`);
  }
  if (r.severity !== undefined) {
    if (typeof r.severity === 'string' && (SEVERITIES as string[]).includes(r.severity)) s.severity = r.severity as SeveritySetting;
    else problems.push(`cudaBankLens.severity: unknown value ${JSON.stringify(r.severity)}; using ${s.severity}`);
  }
  if (typeof r.showBroadcastHints === 'boolean') s.showBroadcastHints = r.showBroadcastHints;
  if (typeof r.showUnknown === 'boolean') s.showUnknown = r.showUnknown;
  if (r.analysisBudgetMs !== undefined) {
    const n = Number(r.analysisBudgetMs);
    if (Number.isFinite(n) && n > 0) s.analysisBudgetMs = Math.min(Math.round(n), 60_000);
    else problems.push(`cudaBankLens.analysisBudgetMs: ${JSON.stringify(r.analysisBudgetMs)} is not a positive number`);
  }
  if (r.defines !== undefined) {
    const list = Array.isArray(r.defines) ? r.defines : null;
    const ok = list?.filter((d): d is string => typeof d === 'string' && parseDefine(d) !== null) ?? [];
    s.defines = ok;
    if (!list || ok.length !== list.length) problems.push(`cudaBankLens.defines: every entry must be a string NAME=VALUE (or NAME); ${JSON.stringify(r.defines)} has others, left out`);
  }
  if (typeof r.readHeaders === 'boolean') s.readHeaders = r.readHeaders;
  if (r.includePaths !== undefined) {
    const list = Array.isArray(r.includePaths) ? r.includePaths : null;
    const ok = list?.filter((d): d is string => typeof d === 'string' && d.trim() !== '') ?? [];
    s.includePaths = ok;
    if (!list || ok.length !== list.length) problems.push(`cudaBankLens.includePaths: every entry must be a folder's path; ${JSON.stringify(r.includePaths)} has others, left out`);
  }
  return { settings: s, problems };
}

export function analyzeOptions(s: Settings): AnalyzeOptions {
  const options: AnalyzeOptions = { arch: s.architecture, budgetMs: s.analysisBudgetMs };
  const block = s.defaultBlock ? parseBlock(s.defaultBlock) : undefined;
  if (block) options.block = block;
  if (s.defines.length) options.defines = Object.fromEntries(s.defines.map((d) => parseDefine(d)!));
  return options;
}

/** A key that changes when the analysis-relevant settings change (display-only settings excluded). */
export function analysisKey(s: Settings): string {
  return JSON.stringify([s.architecture, s.defaultBlock, s.analysisBudgetMs, s.defines, s.readHeaders, s.includePaths]);
}
