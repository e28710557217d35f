// Reading the headers a file includes (`#include "..."`), for the engine's AnalyzeOptions.includes: the engine reads
// no file itself. Shared by the command line and the language server.
import * as fs from 'fs';
import * as path from 'path';
import { INCLUDE, type IncludeReader } from '../engine';

/** A header larger than this is not read (a generated table, not a configuration). */
const MAX_HEADER_BYTES = 2_000_000;

/** Texts read, by path, with the file's size and time of change when read: read again only when either changes. */
export type HeaderCache = Map<string, { mtimeMs: number; size: number; text: string | null }>;

/**
 * A file's text: the editor's (`open`) where it has it, else the disk's, read again only when its size or time of
 * change moved; null for one that cannot be read, holds a NUL byte, or is over 2 MB.
 */
export function readText(p: string, cache: HeaderCache, open?: (p: string) => string | undefined): string | null {
  const given = open?.(p);
  if (given !== undefined) return given;
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return null;
  }
  if (!st.isFile() || st.size > MAX_HEADER_BYTES) return null;
  const hit = cache.get(p);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.text;
  let text: string | null;
  try {
    text = fs.readFileSync(p, 'utf8');
    if (text.includes('\0')) text = null;
  } catch {
    text = null;
  }
  cache.set(p, { mtimeMs: st.mtimeMs, size: st.size, text });
  return text;
}

/**
 * Where `#include "spec"` in the file `from` is looked for, in order: `from`'s folder, then each of `dirs`; `#include
 * <spec>` (angle) in `dirs` alone (the compiler's system folders come after them, and are never read).
 */
function searchPath(spec: string, from: string, dirs: readonly string[], angle = false): string[] {
  return path.isAbsolute(spec) ? [path.normalize(spec)] : [...(angle ? [] : [path.dirname(from)]), ...dirs].map((dir) => path.resolve(dir, spec));
}

/**
 * A reader that looks for `#include "spec"` as compilers do: in the directory of the file that includes it (the
 * document's own directory for the document), then in each of `dirs` (`-I`) in order. `open(path)` gives the text of
 * an editor's open document, which wins over the disk's. A file that holds a NUL byte, or is over 2 MB, is not read.
 */
export function includeReader(docPath: string, dirs: readonly string[] = [], cache: HeaderCache = new Map(), open?: (p: string) => string | undefined): IncludeReader {
  const read = (p: string) => readText(p, cache, open);
  return (spec, from, angle) => {
    const candidates = searchPath(spec, from ?? docPath, dirs, angle);
    let unread: { path: string; unread: string } | null = null;
    for (const p of candidates) {
      const text = read(p);
      if (text !== null) return { path: p, text };
      unread ??= whyUnread(p);
    }
    return unread;
  };
}

/** Why a file readText gave nothing for is not read, as a clause (`it is a folder`); null where it is not there. */
function whyUnread(p: string): { path: string; unread: string } | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? { path: p, unread: 'its path goes through symbolic links in a loop' } : null;
  }
  if (st.isDirectory()) return { path: p, unread: 'it is a folder, not a file' };
  if (!st.isFile()) return { path: p, unread: 'it is not a regular file' };
  if (st.size > MAX_HEADER_BYTES) return { path: p, unread: `it is over 2 MB (${st.size.toLocaleString('en-US')} bytes)` };
  return { path: p, unread: 'it holds binary data (a NUL byte) or cannot be read' };
}

const isFile = (p: string): boolean => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

/** How far includers are followed: through this many headers, and this many includers at most per file. */
const INCLUDER_DEPTH = 4;
const MAX_INCLUDERS = 8;

/**
 * The pieces of a text that setFile reads: the lines of its `#include`s, what follows each `__global__` and precedes
 * each `<<<`, and its launch API calls. Found with indexOf, which costs a keystroke in a large file little.
 */
/** Every include line of a text (the engine's pattern). */
const INCLUDE_LINES = new RegExp(INCLUDE.source, 'gm');

function signature(text: string): string[] {
  const parts: string[] = [];
  for (const [word, from, to] of [['include', -40, 200], ['__global__', 0, 400], ['<<<', -160, 3], ['LaunchKernel', 0, 200]] as const) {
    for (let i = text.indexOf(word); i !== -1; i = text.indexOf(word, i + word.length)) parts.push(text.slice(Math.max(0, i + from), i + to));
  }
  return parts;
}

/**
 * The kernels a text defines or declares: the name before the parameter list after each `__global__`, past
 * `__launch_bounds__(...)`, `__cluster_dims__(...)`, `__maxnreg__(...)` and macros in capitals with arguments.
 */
function kernelNames(text: string): Set<string> {
  const out = new Set<string>();
  for (let i = text.indexOf('__global__'); i !== -1; i = text.indexOf('__global__', i + 10)) {
    const head = text.slice(i + 10, i + 400).split(/[;{]/)[0].replace(/\b(?:__launch_bounds__|__cluster_dims__|__maxnreg__|[A-Z][A-Z0-9_]*)\s*\([^()]*\)/g, ' ');
    const m = /\b([A-Za-z_]\w*)\s*\(/.exec(head);
    if (m) out.add(m[1]);
  }
  return out;
}
/** `cudaLaunchKernel((void *)name`, `hipLaunchKernelGGL(name` (also `HIP_KERNEL_NAME(name<T>)`): a kernel a file launches. */
const API_LAUNCHED_NAME = /\b(?:cuda|hip)LaunchKernel\w*\s*\(\s*(?:\(\s*(?:const\s+)?void\s*\*\s*\)\s*)?&?\s*(?:HIP_KERNEL_NAME\s*\()?\s*([A-Za-z_]\w*)/g;

/**
 * The kernels a text launches: the name before each `<<<` (`name<<<`, `name<T, 4> <<<`), found from the `<<<`s (a
 * keystroke's update of the graph must not cost a pass of a regular expression at every word of a large file), and
 * the kernel of each launch API call.
 */
function launchedNames(text: string): Set<string> {
  const out = new Set<string>();
  for (let i = text.indexOf('<<<'); i !== -1; i = text.indexOf('<<<', i + 3)) {
    const m = /([A-Za-z_]\w*)\s*(?:<[^<>;{}]*>\s*)?$/.exec(text.slice(Math.max(0, i - 160), i));
    if (m) out.add(m[1]);
  }
  if (text.includes('LaunchKernel')) for (const m of text.matchAll(API_LAUNCHED_NAME)) out.add(m[1]);
  return out;
}

/**
 * Which file includes which with `#include "..."` (resolved as includeReader resolves it: the including file's
 * folder, then `dirs`), kept up to date file by file: a header's kernels are launched in the files that include it
 * (see the engine's AnalyzeOptions.includedBy).
 */
export class IncludeGraph {
  private readonly targets = new Map<string, string[]>();
  private readonly by = new Map<string, Set<string>>();
  /** the kernels each file defines, and the files that launch a kernel of each name (`k<<<`, `cudaLaunchKernel(k`) */
  private readonly kernels = new Map<string, Set<string>>();
  private readonly launchedBy = new Map<string, Set<string>>();

  constructor(private readonly dirs: readonly string[] = [], private readonly exists: (p: string) => boolean = isFile) {}

  /** what the last setFile of each file read of its text (see signature): the same, and nothing changes */
  private readonly seenText = new Map<string, string[]>();

  /** A file's text, read or changed: its includes replace those it had. */
  setFile(file: string, text: string): void {
    const sig = signature(text);
    const before = this.seenText.get(file);
    if (before && before.length === sig.length && before.every((p, i) => p === sig[i])) return;
    this.removeFile(file);
    this.seenText.set(file, sig);
    const found: string[] = [];
    if (text.includes('#include')) {
      for (const m of text.matchAll(INCLUDE_LINES)) {
        const target = searchPath(m[1] ?? m[2], file, this.dirs, !m[1]).find((c) => this.targets.has(c) || this.exists(c));
        if (target && target !== file && !found.includes(target)) found.push(target);
      }
    }
    this.targets.set(file, found);
    for (const t of found) {
      let set = this.by.get(t);
      if (!set) this.by.set(t, (set = new Set()));
      set.add(file);
    }
    this.kernels.set(file, text.includes('__global__') ? kernelNames(text) : new Set());
    if (text.includes('<<<') || text.includes('LaunchKernel')) {
      for (const name of launchedNames(text)) {
        let set = this.launchedBy.get(name);
        if (!set) this.launchedBy.set(name, (set = new Set()));
        set.add(file);
      }
    }
  }

  /** The include folders changed: the next setFile of each file resolves its includes again. */
  foldersChanged(): void {
    this.seenText.clear();
  }

  removeFile(file: string): void {
    this.seenText.delete(file);
    for (const t of this.targets.get(file) ?? []) this.by.get(t)?.delete(file);
    this.targets.delete(file);
    this.kernels.delete(file);
    for (const set of this.launchedBy.values()) set.delete(file);
  }

  /**
   * The files that launch a kernel `file` defines without including it, through a header they share (`kernels.cu`
   * defines `k`, `main.cu` launches it, both include `kernels.h`, which declares it): their launches are its. Not a
   * file that defines a kernel of that name itself. At most 8.
   */
  launchersOf(file: string): string[] {
    const mine = this.kernels.get(file);
    if (!mine?.size) return [];
    const shared = this.headersOf(file);
    const found: string[] = [];
    for (const name of mine) {
      for (const g of this.launchedBy.get(name) ?? []) {
        if (g === file || found.includes(g) || found.length >= MAX_INCLUDERS || this.kernels.get(g)?.has(name)) continue;
        const theirs = this.headersOf(g);
        if ([...theirs].some((h) => shared.has(h))) found.push(g);
      }
    }
    return found;
  }

  /** The headers a file includes, directly or through others, 4 levels deep. */
  private headersOf(file: string): Set<string> {
    const out = new Set<string>();
    let level = [file];
    for (let depth = 0; depth < INCLUDER_DEPTH && level.length; depth++) {
      const next: string[] = [];
      for (const f of level) for (const t of this.targets.get(f) ?? []) if (!out.has(t)) {
        out.add(t);
        next.push(t);
      }
      level = next;
    }
    return out;
  }

  get size(): number {
    return this.targets.size;
  }

  /** The files that include `file`, directly or through other headers: nearest first, at most 8, 4 levels deep. */
  includersOf(file: string): string[] {
    const found: string[] = [];
    let level = [file];
    for (let depth = 0; depth < INCLUDER_DEPTH && level.length && found.length < MAX_INCLUDERS; depth++) {
      const next: string[] = [];
      for (const f of level) {
        for (const by of this.by.get(f) ?? []) {
          if (by === file || found.includes(by) || found.length >= MAX_INCLUDERS) continue;
          found.push(by);
          next.push(by);
        }
      }
      level = next;
    }
    return found;
  }
}
