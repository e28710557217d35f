// Small things every test file needs: the repository root, the .cu files under a folder, a seeded generator.
import * as fs from 'fs';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Every .cu file under `dir` (relative to the root, recursively), sorted. */
export function cuFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...cuFiles(rel));
    else if (e.isFile() && e.name.endsWith('.cu')) out.push(rel);
  }
  return out.sort();
}

/** Deterministic PRNG (mulberry32): the same seed makes the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
