// The command line (../shared/cli-contract.md): reads the named files, asks the engine, prints text, JSON or SARIF.
// Thin: every figure comes from the engine's findings; this file only finds files, formats and applies edits.
import * as v8 from 'v8';
v8.setFlagsFromString('--liftoff-only'); // one-shot runs: the baseline wasm compiler starts 2.4x sooner

import * as fs from 'fs';
import * as path from 'path';
import { initEngine, analyzeText, FileAnalysis, AccessFinding, TextEdit } from '../engine';
import { profileFor } from '../engine/model/bankModel';
import { parseBlock, parseDefine } from '../engine/syntax/preprocess';
import { renderText, renderJson, renderSarif, FileReport } from './render';
import { applyEdits } from './edits';
import { includeReader, IncludeGraph, HeaderCache } from '../host/headers';

const VERSION = '0.1.0';
const USAGE = `usage: cuda-bank-lens [check] [options] <file-or-folder>...

  --format text|json|sarif  output format (default text)
  --arch sm_XX              bank model: sm_50+ (default), sm_1x, sm_2x, sm_3x, sm_3x-8B, or any sm_XX
  --block X[xY[xZ]]         block shape for kernels whose shape is not found in the source
  --fix                     apply the preferred padding fix of every array that has one, in place
  --verbose                 text output: add the bank map of each conflict and the assumptions
  --all-sources             also search folders for .h, .hpp and .cpp files
  --budget-ms N             analysis time budget per file (default 10000)
  -D NAME=VALUE, --define NAME=VALUE
                            a macro the file takes from a header (WARP_SIZE=32, or a function-like one:
                            'FETCH_FLOAT4(p)=(reinterpret_cast<float4 *>(&(p))[0])'); repeatable; the file's own wins
  -I DIR, --include-dir DIR where headers named by \`#include "..."\` are looked for after the including file's own
                            directory, and those named by \`#include <...>\`; repeatable
  --no-headers              do not read the macros of the headers a file includes
  --version, --help

exit status: 0 no conflict, 1 at least one conflict, 2 bad usage or an unreadable file`;

interface Options {
  format: 'text' | 'json' | 'sarif';
  arch?: string;
  block?: [number, number, number];
  fix: boolean;
  verbose: boolean;
  allSources: boolean;
  budgetMs: number;
  defines: Record<string, string>;
  includeDirs: string[];
  headers: boolean;
  paths: string[];
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options | 'help' | 'version' {
  const o: Options = { format: 'text', fix: false, verbose: false, allSources: false, budgetMs: 10000, defines: {}, includeDirs: [], headers: true, paths: [] };
  const args = [...argv];
  if (args[0] === 'check') args.shift();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    // `-DNAME=VALUE` is `-D` with its value attached, as compilers take it
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : /^-[DI]./.test(a) ? a.slice(0, 2) : a;
    const value = () => {
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      if ((flag === '-D' || flag === '-I') && a.length > 2) return a.slice(2);
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return 'help';
      case '--version':
        return 'version';
      case '--format': {
        const f = value();
        if (f !== 'text' && f !== 'json' && f !== 'sarif') throw new UsageError(`unknown format \`${f}\` (text, json or sarif)`);
        o.format = f;
        break;
      }
      case '--arch': {
        const v = value();
        if (!profileFor(v)) throw new UsageError(`unknown architecture \`${v}\` (sm_50+, sm_1x, sm_2x, sm_3x, sm_3x-8B or sm_XX)`);
        o.arch = v;
        break;
      }
      case '--block': {
        const v = value();
        const b = parseBlock(v);
        if (!b) throw new UsageError(`bad block shape \`${v}\` (X[xY[xZ]], at most 1024 threads)`);
        o.block = b;
        break;
      }
      case '--budget-ms': {
        const v = Number(value());
        if (!Number.isFinite(v) || v <= 0) throw new UsageError('--budget-ms needs a positive number');
        o.budgetMs = v;
        break;
      }
      case '-D':
      case '--define': {
        const v = value();
        const d = parseDefine(v);
        if (!d) throw new UsageError(`bad definition \`${v}\` (NAME=VALUE, or NAME for 1)`);
        o.defines[d[0]] = d[1];
        break;
      }
      case '-I':
      case '--include-dir':
        o.includeDirs.push(value());
        break;
      case '--no-headers':
        o.headers = false;
        break;
      case '--fix':
        o.fix = true;
        break;
      case '--verbose':
      case '-v':
        o.verbose = true;
        break;
      case '--all-sources':
        o.allSources = true;
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option \`${a}\``);
        o.paths.push(a);
    }
  }
  if (o.paths.length === 0) throw new UsageError('no file or folder given');
  return o;
}

/** Up to this much source the CLI compiles the grammar with the baseline wasm compiler only (see initParser). */
const BASELINE_WASM_BYTES = 1_500_000;

/** Expands folders (recursively, sorted) into source files; unreadable paths become errors. */
function collectFiles(paths: string[], allSources: boolean, errors: { path: string; message: string }[]): string[] {
  const exts = allSources ? ['.cu', '.cuh', '.h', '.hpp', '.cpp'] : ['.cu', '.cuh'];
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 64) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      errors.push({ path: dir, message: (e as Error).message });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        walk(p, depth + 1);
      } else if (e.isFile() && exts.includes(path.extname(e.name).toLowerCase())) out.push(p);
    }
  };
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch (e) {
      errors.push({ path: p, message: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message });
      continue;
    }
    if (st.isDirectory()) walk(p, 0);
    else out.push(p);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  let opts: Options | 'help' | 'version';
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`cuda-bank-lens: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (opts === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (opts === 'version') {
    process.stdout.write(VERSION + '\n');
    return 0;
  }
  const errors: { path: string; message: string }[] = [];
  const files = collectFiles(opts.paths, opts.allSources, errors);
  // a run over a few files is over before the grammar's optimising wasm compile would pay off (see initParser);
  // past about 1.5 MB of source (some 45,000 lines) it pays
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += fs.statSync(f).size;
    } catch {
      /* reported when read */
    }
  }
  await initEngine({ baselineWasm: bytes < BASELINE_WASM_BYTES });
  const reports: FileReport[] = [];
  const fixes: string[] = [];
  const engineOpts = { arch: opts.arch, block: opts.block, budgetMs: opts.budgetMs, ...(Object.keys(opts.defines).length ? { defines: opts.defines } : {}) };
  const headerCache: HeaderCache = new Map();
  const includeDirs = opts.includeDirs.map((d) => path.resolve(d));
  // every file first: a header's kernels are launched in the files of the run that include it
  const texts = new Map<string, string>();
  for (const file of files) {
    try {
      texts.set(path.resolve(file), fs.readFileSync(file, 'utf8'));
    } catch (e) {
      errors.push({ path: file, message: (e as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a directory' : (e as Error).message });
    }
  }
  const graph = new IncludeGraph(includeDirs);
  if (opts.headers) for (const [file, text] of texts) graph.setFile(file, text);
  for (const file of files) {
    const abs = path.resolve(file);
    const read = texts.get(abs);
    if (read === undefined) continue;
    let text = read;
    const by = graph.includersOf(abs).concat(graph.launchersOf(abs)).map((p) => ({ path: p, text: texts.get(p)! }));
    const fileOpts = opts.headers ? { ...engineOpts, path: abs, includes: includeReader(abs, includeDirs, headerCache), ...(by.length ? { includedBy: by } : {}) } : engineOpts;
    let analysis: FileAnalysis;
    try {
      analysis = analyzeText(text, fileOpts);
      if (opts.fix) {
        const edits: TextEdit[] = [];
        for (const a of analysis.arrays) {
          if (!a.fix?.preferred) continue;
          edits.push(...a.fix.edits);
          fixes.push(`${file}:${a.declRange.start.line + 1}:${a.declRange.start.character + 1}: ${a.fix.title}`);
        }
        if (edits.length) {
          text = applyEdits(text, edits);
          fs.writeFileSync(file, text);
          analysis = analyzeText(text, fileOpts);
        }
      }
    } catch (e) {
      errors.push({ path: file, message: `internal error: ${(e as Error).message.split('\n')[0]}` });
      continue;
    }
    reports.push({ path: file, analysis });
  }
  const model = profileFor(opts.arch)!.name;
  if (opts.format === 'json') process.stdout.write(renderJson(reports, errors, model, VERSION) + '\n');
  else if (opts.format === 'sarif') process.stdout.write(renderSarif(reports, errors, VERSION) + '\n');
  else process.stdout.write(renderText(reports, fixes, opts.verbose));
  for (const e of errors) process.stderr.write(`cuda-bank-lens: ${e.path}: ${e.message}\n`);
  if (errors.length) return 2;
  const conflict = reports.some((r) => r.analysis.accesses.some((a: AccessFinding) => a.status === 'conflict'));
  return conflict ? 1 : 0;
}

/**
 * The exit status, also said on file descriptor 3 to bin/cuda-bank-lens.js (which started this process with
 * CUDA_BANK_LENS_CHILD=1) once standard output and error are written: it exits with it even where Node then hangs at
 * exit (nodejs/node#54918).
 */
function finish(code: number): void {
  process.exitCode = code;
  if (process.env.CUDA_BANK_LENS_CHILD !== '1') return;
  process.stdout.write('', () =>
    process.stderr.write('', () => {
      try {
        fs.writeSync(3, `${code}\n`);
      } catch {
        /* no launcher listening: the exit status alone says it */
      }
    }),
  );
}

main(process.argv.slice(2)).then(finish, (e) => {
  process.stderr.write(`cuda-bank-lens: internal error: ${(e as Error).message.split('\n')[0]}\n`);
  finish(2);
});
