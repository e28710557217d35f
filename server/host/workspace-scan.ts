// The language server's scan of the workspace for `#include "..."` lines (IncludeGraph), in slices that yield to the
// event loop, so that editing never waits for it.
import * as fs from 'fs';
import * as path from 'path';
import type { IncludeGraph } from './headers';

/** The files whose includes are read: CUDA and C++ sources and headers. */
export const SOURCE_EXTENSIONS = ['.cu', '.cuh', '.h', '.hh', '.hpp', '.hxx', '.inc', '.inl', '.cpp', '.cc', '.cxx'];
/** Folders never entered: dependencies, builds, version control. */
const SKIPPED = new Set(['node_modules', 'build', 'dist', 'out', '__pycache__', 'CMakeFiles']);
const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 2_000_000;
const SLICE = 64;

export const isSource = (p: string): boolean => SOURCE_EXTENSIONS.includes(path.extname(p).toLowerCase());

/**
 * Reads every source file under `roots` (at most 20,000, each at most 2 MB) into `graph`, `SLICE` files per turn of
 * the event loop; `progress(done, total)` after each slice. `cancelled()` stops it between slices. Resolves with the
 * number of files read.
 */
export async function scanWorkspace(roots: readonly string[], graph: IncludeGraph, progress: (done: number, total: number) => void = () => undefined, cancelled: () => boolean = () => false): Promise<number> {
  const files: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 32 || files.length >= MAX_FILES || cancelled()) return;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (files.length >= MAX_FILES) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && !SKIPPED.has(e.name)) await walk(p, depth + 1);
      } else if (e.isFile() && isSource(e.name)) files.push(path.normalize(p));
    }
  };
  for (const r of roots) await walk(r, 0);
  let done = 0;
  for (let i = 0; i < files.length && !cancelled(); i += SLICE) {
    await Promise.all(files.slice(i, i + SLICE).map(async (f) => {
      try {
        const st = await fs.promises.stat(f);
        if (st.size > MAX_FILE_BYTES) return;
        const text = await fs.promises.readFile(f, 'utf8');
        if (!text.includes('\0')) graph.setFile(f, text);
      } catch {
        /* gone or unreadable: not in the graph */
      }
    }));
    done = Math.min(files.length, i + SLICE);
    progress(done, files.length);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return done;
}
