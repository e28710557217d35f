// Reading the headers a file includes (`#include "..."`), for the engine's AnalyzeOptions.includes: the engine reads
// no file itself. Shared by the command line and the language server.
import * as fs from 'fs';
import * as path from 'path';
import type { IncludeReader } from '../engine';

/** A header larger than this is not read (a generated table, not a configuration). */
const MAX_HEADER_BYTES = 2_000_000;

/** Texts read, by path, with the file's size and time of change when read: read again only when either changes. */
export type HeaderCache = Map<string, { mtimeMs: number; size: number; text: string | null }>;

/**
 * A reader that looks for `#include "spec"` as compilers do: in the directory of the file that includes it (the
 * document's own directory for the document), then in each of `dirs` (`-I`) in order. `open(path)` gives the text of
 * an editor's open document, which wins over the disk's. A file that holds a NUL byte, or is over 2 MB, is not read.
 */
export function includeReader(docPath: string, dirs: readonly string[] = [], cache: HeaderCache = new Map(), open?: (p: string) => string | undefined): IncludeReader {
  const read = (p: string): string | null => {
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
  };
  return (spec, from) => {
    if (path.isAbsolute(spec)) {
      const text = read(spec);
      return text === null ? null : { path: path.normalize(spec), text };
    }
    for (const dir of [path.dirname(from ?? docPath), ...dirs]) {
      const p = path.resolve(dir, spec);
      const text = read(p);
      if (text !== null) return { path: p, text };
    }
    return null;
  };
}
