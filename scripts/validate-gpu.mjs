#!/usr/bin/env node
// Checks the bank model against a real GPU: the engine's predicted wavefronts per request for each kernel of the
// corpus in test/gpu/, against Nsight Compute's measured shared-memory wavefronts / requests.
//
//   node scripts/validate-gpu.mjs               (npm run validate:gpu) on a GPU machine with node, nvcc, ncu,
//                                               cuobjdump and nvidia-smi: collect, compare, write docs/validation.md
//   node scripts/validate-gpu.mjs --dry-run     no GPU: nvcc -ptx every corpus file, get the engine's predictions and
//                                               print them; exit 1 if a file fails to compile, a kernel has no
//                                               prediction, or a kernel breaks the corpus rules (--write also writes
//                                               docs/validation.md, predictions only)
//   node scripts/validate-gpu.mjs --emit-collect FILE
//                                               write the collecting half as a bash script, for a GPU machine without
//                                               node; there, from the repository root: bash FILE RAW_DIR [RAW.tgz]
//   node scripts/validate-gpu.mjs --from RAW_DIR|RAW.tgz
//                                               compare data collected that way, here (writes docs/validation.md)
//
// Other options: --corpus DIR (default test/gpu), --out FILE (default docs/validation.md), --raw DIR (where the default
// mode keeps its raw data; default .cache/validate-gpu), and corpus .cu files as arguments to check only those.
//
// Corpus rules (see the header of each test/gpu/*.cu): one block per launch, every kernel launched once, one shared
// instruction of interest per kernel (a load, or a store where the kernel's comment says `// measure: store`), in a loop
// of ITERS trips; any other shared instruction of the kernel is of the other kind. So the measured kind's
// wavefronts / requests is that one access's figure, and the trip count cancels in the ratio. The collecting half runs
// one ncu per corpus binary (not per kernel) and stops profiling after VALIDATE_GPU_DEADLINE seconds (default 420).

import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const METRICS = [
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
  'smsp__sass_inst_executed_op_shared_ld.sum',
  'smsp__sass_inst_executed_op_shared_st.sum',
  'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
  'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
];
const KIND_SUFFIX = { load: 'ld', store: 'st' };
/** |measured - predicted| within this share of the prediction (plus a hundredth) counts as a match. */
const TOLERANCE = 0.02;

// ---------------------------------------------------------------------------------------------------------------
// command line

function parseArgs(argv) {
  const o = { mode: 'gpu', write: false, corpus: 'test/gpu', out: 'docs/validation.md', raw: '.cache/validate-gpu', files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--dry-run') o.mode = 'dry';
    else if (a === '--write') o.write = true;
    else if (a === '--from') (o.mode = 'from'), (o.from = value());
    else if (a === '--emit-collect') (o.mode = 'emit'), (o.emit = value());
    else if (a === '--corpus') o.corpus = value();
    else if (a === '--out') o.out = value();
    else if (a === '--raw') o.raw = value();
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else o.files.push(a);
  }
  return o;
}

function usage(error) {
  const lines = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
  const out = lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n');
  if (error) {
    process.stderr.write(`validate-gpu: ${error}\n\n${out}\n`);
    process.exit(2);
  }
  process.stdout.write(out + '\n');
  process.exit(0);
}

function corpusFiles(o) {
  const files = o.files.length
    ? o.files
    : fs
        .readdirSync(path.resolve(ROOT, o.corpus))
        .filter((f) => f.endsWith('.cu'))
        .sort()
        .map((f) => path.join(o.corpus, f));
  return files.map((f) => path.relative(ROOT, path.resolve(ROOT, f)).split(path.sep).join('/'));
}

// ---------------------------------------------------------------------------------------------------------------
// small helpers

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, ...opts }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, error, stdout, stderr });
    });
  });
}

async function pool(items, size, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

function has(tool) {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

const fmt = (x, digits = 2) => (x == null || Number.isNaN(x) ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(digits));
const md = (s) => String(s ?? '').replace(/\|/g, '\\|');

// ---------------------------------------------------------------------------------------------------------------
// the corpus source: kernels, their template parameters, comments, launches

function parseCorpus(file) {
  const text = fs.readFileSync(path.resolve(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const iters = Number(/^\s*#define\s+ITERS\s+(\d+)/m.exec(text)?.[1] ?? NaN);
  const kernels = [];
  const re = /(?:template\s*<([^>]*)>\s*)?__global__\s+void\s+(\w+)\s*\(/g;
  for (let m; (m = re.exec(text)); ) {
    const line = text.slice(0, m.index).split('\n').length - 1;
    const comment = [];
    for (let l = line - 1; l >= 0 && /^\s*\/\//.test(lines[l]); l--) comment.unshift(lines[l].replace(/^\s*\/\/\s?/, ''));
    let textbook = '';
    let measure = 'load';
    let inTextbook = false;
    for (const c of comment) {
      const mm = /^measure:\s*(load|store)\b/.exec(c);
      if (mm) (measure = mm[1]), (inTextbook = false);
      else if (/^textbook:/.test(c)) (textbook = c.replace(/^textbook:\s*/, '')), (inTextbook = true);
      else if (inTextbook) textbook += ' ' + c.trim();
    }
    const params = m[1]
      ? m[1].split(',').map((p) => /(\w+)\s*(?:=.*)?$/.exec(p.trim())?.[1] ?? p.trim())
      : [];
    kernels.push({ name: m[2], params, textbook, measure, line: line + 1 });
  }
  const launches = [];
  const lre = /\b(\w+)\s*(?:<([^<>]*)>)?\s*<<</g;
  for (let m; (m = lre.exec(text)); ) launches.push({ name: m[1], args: m[2] ? parseTemplateArgs(m[2]) : [] });
  // one instance per kernel and distinct template arguments, in launch order
  const instances = [];
  for (const l of launches) {
    const k = kernels.find((k) => k.name === l.name);
    if (!k) continue;
    const key = instanceKey(l.name, l.args);
    if (!instances.some((i) => i.key === key)) instances.push({ key, kernel: k, args: l.args, file });
  }
  for (const k of kernels)
    if (!instances.some((i) => i.kernel === k)) instances.push({ key: k.name, kernel: k, args: [], file, unlaunched: true });
  return { file, iters, kernels, instances };
}

function parseTemplateArgs(s) {
  return s.split(',').map((a) => {
    const t = a.trim().replace(/^\(\s*[\w\s]+\)\s*/, '').replace(/(?<=\d)(?:u|l|ul|lu|ll|ull)$/i, '');
    return /^-?\d+$/.test(t) ? Number(t) : t;
  });
}

const instanceKey = (name, args) => (args.length ? `${name}<${args.join(', ')}>` : name);

/** Name and integer template arguments of a kernel from a mangled (`_Z11strideFloatILi4EEvPf`), demangled
 *  (`void strideFloat<4>(float *)`) or plain (`strideFloat`) name. */
function parseKernelName(raw) {
  const s = raw.trim();
  const mz = /^_Z(\d+)/.exec(s);
  if (mz) {
    const len = Number(mz[1]);
    const start = mz[0].length;
    const name = s.slice(start, start + len);
    let rest = s.slice(start + len);
    const args = [];
    if (rest.startsWith('I')) {
      rest = rest.slice(1);
      for (let a; (a = /^L[a-z](n?)(\d+)E/.exec(rest)); rest = rest.slice(a[0].length)) args.push(Number((a[1] ? '-' : '') + a[2]));
    }
    return { name, args };
  }
  const md2 = /^(?:[\w:\s*&]+\s+)?(\w+)\s*(?:<(.*)>)?\s*(?:\(|$)/.exec(s);
  if (md2) return { name: md2[1], args: md2[2] ? parseTemplateArgs(md2[2]) : [] };
  return { name: s, args: [] };
}

// ---------------------------------------------------------------------------------------------------------------
// the engine's predictions

async function enginePredictions(files) {
  try {
    ensureBuilt(ROOT, 'cli.js', { stdio: 'pipe' });
  } catch (e) {
    const out = `${e.stderr ?? ''}${e.stdout ?? ''}`.trim();
    return { error: out ? `npm run build failed: ${out.split('\n').slice(-3).join(' ')}` : e.message };
  }
  const r = await run(process.execPath, ['bin/cuda-bank-lens.js', '--format', 'json', ...files]);
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    const said = (r.stderr || r.stdout).split('\n').map((l) => l.trim()).filter(Boolean);
    const why = said.find((l) => /error|cannot|not found/i.test(l)) ?? said[0] ?? 'no output';
    return { error: `the engine gave no JSON (bin/cuda-bank-lens.js exit ${r.code}): ${why}` };
  }
  const byFile = new Map();
  for (const f of json.files ?? []) byFile.set(path.resolve(ROOT, f.path), f.accesses ?? []);
  return { json, byFile, stderr: r.stderr };
}

/** The engine's prediction for one kernel instance and kind: wavefronts per request, degree, element bytes. */
function predict(inst, accessesOfFile) {
  const kind = inst.kernel.measure;
  const params = inst.kernel.params;
  const sites = (accessesOfFile ?? []).filter((a) => {
    if (a.kind !== kind) return false;
    const k = parseKernelName(String(a.kernel ?? ''));
    if (k.name !== inst.kernel.name) return false;
    // an engine that reports template instances as separate kernels (`strideFloat<4>`)
    return !k.args.length || k.args.join(',') === inst.args.join(',');
  });
  if (!sites.length) return { missing: `the engine reports no ${kind} in ${inst.kernel.name}` };
  const per = [];
  for (const a of sites) {
    const where = `line ${a.line ?? '?'}`;
    if (a.status === 'unknown' || a.wavefronts == null) return { missing: `${where}: status unknown${a.reason ? ` (${a.reason})` : ''}` };
    let cases = Array.isArray(a.cases) ? a.cases : [];
    if (params.length && inst.args.length) {
      const keyed = cases.filter((c) => c.context && params.some((p) => p in c.context));
      if (keyed.length) {
        cases = keyed.filter((c) => params.every((p, i) => !(p in c.context) || String(c.context[p]) === String(inst.args[i])));
        if (!cases.length) return { missing: `${where}: no case for ${params.map((p, i) => `${p}=${inst.args[i]}`).join(', ')}` };
      }
    }
    const wfs = cases.map((c) => c.wavefronts).filter((x) => typeof x === 'number');
    const degs = cases.map((c) => c.degree).filter((x) => typeof x === 'number');
    per.push({
      line: a.line,
      status: wfs.length && Math.max(...degs, 1) === 1 && a.status === 'conflict' ? 'conflict-free' : a.status,
      wavefronts: wfs.length ? Math.max(...wfs) : a.wavefronts,
      degree: degs.length ? Math.max(...degs) : a.degree,
      varies: new Set(wfs).size > 1,
      ideal: a.idealWavefronts,
      elementBytes: a.elementBytes,
      block: Array.isArray(a.block) ? a.block : null,
    });
  }
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    sites: per,
    wavefronts: mean(per.map((p) => p.wavefronts)),
    degree: Math.max(...per.map((p) => p.degree ?? 1)),
    ideal: per[0].ideal,
    elementBytes: [...new Set(per.map((p) => p.elementBytes))].join('/'),
    status: per.length === 1 ? per[0].status : per.map((p) => p.status).join('+'),
    varies: per.some((p) => p.varies),
    lines: per.map((p) => p.line),
    block: per[0].block,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PTX (dry run) and SASS (GPU run): the shared instructions of each kernel

function ptxSharedCounts(ptx) {
  const out = new Map();
  let cur = null;
  for (const line of ptx.split('\n')) {
    const e = /\.entry\s+([\w$]+)/.exec(line);
    if (e) out.set((cur = e[1]), { load: 0, store: 0, ops: [] });
    else if (cur) {
      const m = /^\s*(?:@!?%\w+\s+)?((ld|st|atom|red|ldmatrix|stmatrix)(?:\.\w+)*?\.shared(?:::\w+)?(?:\.\w+)*)/.exec(line);
      if (m) {
        const c = out.get(cur);
        c.ops.push(m[1]);
        if (m[2] === 'ld' || m[2] === 'ldmatrix') c.load++;
        else if (m[2] === 'st' || m[2] === 'stmatrix') c.store++;
      }
    }
  }
  return out;
}

/** SASS width in bytes of LDS/STS from its suffix: .U8/.S8 1, .U16/.S16 2, none 4, .64 8, .128 16. */
function sassWidth(op) {
  const m = /\.(?:U|S)?(8|16|32|64|128)(?![0-9])/.exec(op);
  return m ? Number(m[1]) / 8 : 4;
}

function sassSharedOps(sass) {
  const out = new Map();
  let cur = null;
  for (const line of sass.split('\n')) {
    const f = /Function\s*:\s*(\S+)/.exec(line);
    if (f) out.set((cur = f[1]), { load: [], store: [], other: [] });
    else if (cur) {
      const m = /\/\*[0-9a-f]+\*\/\s+(?:@!?U?P\w+\s+)?((LDS|STS|LDSM|STSM|ATOMS|LDGSTS)(?:\.[\w.]+)?)\s/.exec(line);
      if (m) {
        const c = out.get(cur);
        if (m[2] === 'LDS' || m[2] === 'LDSM') c.load.push(m[1]);
        else if (m[2] === 'STS' || m[2] === 'STSM') c.store.push(m[1]);
        else c.other.push(m[1]);
      }
    }
  }
  // key by name + template arguments
  const byKey = new Map();
  for (const [mangled, ops] of out) {
    const k = parseKernelName(mangled);
    byKey.set(instanceKey(k.name, k.args), { ...ops, mangled });
  }
  return byKey;
}

// ---------------------------------------------------------------------------------------------------------------
// Nsight Compute CSV

function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += ch;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

const num = (s) => {
  const t = String(s ?? '').replace(/,/g, '').trim();
  return t === '' || Number.isNaN(Number(t)) ? null : Number(t);
};

/** Kernel launches in profiling order: { id, rawName, name, args, block, metrics: {name: value} }. Handles ncu's
 *  `--page raw` (one row per kernel, a column per metric) and `--page details` (one row per metric). */
function parseNcuCsv(text) {
  // ncu and the program print other lines too; CSV lines start with a quote
  const rows = parseCsv(text.split('\n').filter((l) => l.startsWith('"')).join('\n'));
  const h = rows.findIndex((r) => r.includes('Kernel Name'));
  if (h < 0) return [];
  const head = rows[h];
  const col = (n) => head.indexOf(n);
  const [cId, cName, cBlock] = [col('ID'), col('Kernel Name'), col('Block Size')];
  const byId = new Map();
  const get = (r) => {
    const id = r[cId];
    if (!/^\d+$/.test(id ?? '')) return null;
    if (!byId.has(id)) {
      const k = parseKernelName(r[cName]);
      byId.set(id, { id: Number(id), rawName: r[cName], name: k.name, args: k.args, block: cBlock >= 0 ? r[cBlock] : '', metrics: {} });
    }
    return byId.get(id);
  };
  const [cMetric, cValue] = [col('Metric Name'), col('Metric Value')];
  for (const r of rows.slice(h + 1)) {
    const k = get(r);
    if (!k) continue;
    if (cMetric >= 0) k.metrics[r[cMetric]] = num(r[cValue]);
    else for (const m of METRICS) if (col(m) >= 0) k.metrics[m] = num(r[col(m)]);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------------------------------------------------------
// collecting on the GPU machine: a bash script, so that a machine without node can run it

function collectScript(files) {
  return `#!/usr/bin/env bash
# Written by scripts/validate-gpu.mjs --emit-collect: collects the raw data of the GPU validation.
# Needs nvcc, ncu, cuobjdump and nvidia-smi (no node). Run from the repository root:
#   bash THIS_SCRIPT RAW_DIR [RAW.tgz]
# then, where node is: node scripts/validate-gpu.mjs --from RAW_DIR (or RAW.tgz)
set -u
RAW=\${1:?usage: $0 RAW_DIR [RAW.tgz]}
TGZ=\${2:-}
FILES=(${files.map((f) => `'${f}'`).join(' ')})
METRICS=${METRICS.join(',')}
DEADLINE=\${VALIDATE_GPU_DEADLINE:-420}
mkdir -p "$RAW"
{ date -u +%Y-%m-%dT%H:%M:%SZ; } > "$RAW/date.txt"
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader > "$RAW/gpu.txt" 2>&1
nvcc --version > "$RAW/nvcc.txt" 2>&1
ncu --version > "$RAW/ncu-version.txt" 2>&1
ARCH=native
if ! PROBE=$(nvcc -arch=native -o "$RAW/.probe" "\${FILES[0]}" 2>&1) || printf '%s' "$PROBE" | grep -qi 'cannot find valid gpu'; then
  ARCH=sm_90
fi
rm -f "$RAW/.probe"
echo "$ARCH" > "$RAW/arch.txt"
echo "validate-gpu: building \${#FILES[@]} corpus files with -arch=$ARCH"
for f in "\${FILES[@]}"; do
  b=$(basename "$f" .cu)
  ( nvcc -lineinfo -arch=$ARCH -o "$RAW/$b.bin" "$f" > "$RAW/$b.nvcc.log" 2>&1 \\
    && cuobjdump --dump-sass "$RAW/$b.bin" > "$RAW/$b.sass" 2>> "$RAW/$b.nvcc.log" ) &
done
wait
for f in "\${FILES[@]}"; do
  b=$(basename "$f" .cu)
  if [ ! -x "$RAW/$b.bin" ]; then echo "validate-gpu: $f did not build (see $b.nvcc.log)"; continue; fi
  if [ "$SECONDS" -ge "$DEADLINE" ]; then echo "validate-gpu: past \${DEADLINE}s, $f not profiled" | tee "$RAW/$b.ncu.log"; continue; fi
  echo "validate-gpu: profiling $f (\${SECONDS}s so far)"
  timeout 240 ncu --clock-control none --metrics "$METRICS" -f -o "$RAW/$b" "$RAW/$b.bin" > "$RAW/$b.ncu.log" 2>&1
  echo "exit $?" >> "$RAW/$b.ncu.log"
  if [ -f "$RAW/$b.ncu-rep" ]; then
    ncu --import "$RAW/$b.ncu-rep" --csv --page raw --print-units base --print-kernel-base mangled > "$RAW/$b.csv" 2>> "$RAW/$b.ncu.log" \\
      || ncu --import "$RAW/$b.ncu-rep" --csv --page raw > "$RAW/$b.csv" 2>> "$RAW/$b.ncu.log"
  fi
done
rm -f "$RAW"/*.bin
echo "validate-gpu: collected in \${SECONDS}s"
if [ -n "$TGZ" ]; then tar czf "$TGZ" -C "$RAW" . && echo "validate-gpu: wrote $TGZ"; fi
`;
}

function readRaw(dir, name) {
  try {
    return fs.readFileSync(path.join(dir, name), 'utf8');
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// comparing

function compare(corpora, engine, rawDir, dry = false) {
  const rows = [];
  for (const c of corpora) {
    const base = path.basename(c.file, '.cu');
    const csv = readRaw(rawDir, `${base}.csv`);
    const launches = csv ? parseNcuCsv(csv) : [];
    const sass = sassSharedOps(readRaw(rawDir, `${base}.sass`) ?? '');
    const accesses = engine.byFile?.get(path.resolve(ROOT, c.file));
    const used = new Set();
    c.instances.forEach((inst, order) => {
      const kind = inst.kernel.measure;
      const sfx = KIND_SUFFIX[kind];
      const pred = engine.error ? { missing: 'no engine output' } : predict(inst, accesses);
      // by name and template arguments; where ncu gives no arguments, by launch order (each kernel runs once)
      let k = launches.find((l) => !used.has(l) && l.name === inst.kernel.name && l.args.join(',') === inst.args.join(','));
      if (!k) k = launches.find((l) => !used.has(l) && l.name === inst.kernel.name && !l.args.length);
      if (!k && launches.length === c.instances.length && launches[order]?.name === inst.kernel.name) k = launches[order];
      if (k) used.add(k);
      const wf = k?.metrics[`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${sfx}.sum`] ?? null;
      const req = k?.metrics[`smsp__sass_inst_executed_op_shared_${sfx}.sum`] ?? null;
      const conflicts = k?.metrics[`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_${sfx}.sum`] ?? null;
      const measured = wf != null && req ? wf / req : null;
      const ops = sass.get(inst.key);
      const mine = ops ? ops[kind] : null;
      const notes = [];
      if (inst.unlaunched) notes.push('no launch in the file');
      if (mine && mine.length !== 1) notes.push(`SASS has ${mine.length} ${kind} instructions of this kind; the ratio mixes them`);
      if (pred.sites?.length > 1) notes.push(`the engine reports ${pred.sites.length} ${kind}s (lines ${pred.lines.join(', ')}); predicted is their mean`);
      if (pred.varies) notes.push('the engine\'s degree varies across contexts; predicted is the worst');
      const width = mine?.length ? [...new Set(mine.map(sassWidth))].join('/') : null;
      if (width && pred.elementBytes && String(width) !== String(pred.elementBytes))
        notes.push(`SASS width ${width} B but the engine assumed ${pred.elementBytes} B`);
      if (req != null && c.iters > 0) {
        const dims = (k?.block.match(/\d+/g) ?? []).map(Number);
        const blockThreads = (dims.length ? dims : pred.block ?? []).reduce((a, b) => a * b, 1);
        const warps = Math.ceil(blockThreads / 32);
        const perTrip = req / c.iters;
        if (Math.abs(perTrip - warps) > 0.01 && blockThreads > 1)
          notes.push(`${fmt(perTrip)} requests per trip for ${warps} warps`);
      }
      if (!k && csv) notes.push('no profiled launch found');
      if (!csv && !dry) notes.push('not measured');
      if (pred.missing) notes.push(`no prediction: ${pred.missing}`);
      let verdict = '—';
      if (pred.missing) verdict = 'no prediction';
      else if (measured == null) verdict = 'not measured';
      else verdict = Math.abs(measured - pred.wavefronts) <= TOLERANCE * pred.wavefronts + 0.01 ? 'match' : 'MISMATCH';
      rows.push({
        file: c.file, key: inst.key, kind, textbook: inst.kernel.textbook, pred, measured, wf, req, conflicts,
        sass: mine ? mine.join(', ') || 'none' : null, width, verdict, notes,
      });
    });
  }
  return rows;
}

function header(rawDir) {
  const gpu = (readRaw(rawDir, 'gpu.txt') ?? '').trim().split('\n')[0].split(',').map((s) => s.trim());
  const nvcc = /release ([\d.]+), (V[\d.]+)/.exec(readRaw(rawDir, 'nvcc.txt') ?? '');
  const ncu = /Version\s+([\w.\s()-]+)/i.exec(readRaw(rawDir, 'ncu-version.txt') ?? '');
  return {
    date: (readRaw(rawDir, 'date.txt') ?? '').trim(),
    gpu: gpu[0] || 'unknown',
    cc: gpu[1] || '?',
    driver: gpu[2] || 'unknown',
    cuda: nvcc ? `${nvcc[1]} (${nvcc[2]})` : 'unknown',
    ncu: ncu ? ncu[1].trim() : 'unknown',
    arch: (readRaw(rawDir, 'arch.txt') ?? '').trim() || '?',
  };
}

function renderDoc(rows, h, engine, dry) {
  const out = [];
  const version = engine.json ? `${engine.json.tool ?? 'cuda-bank-lens'} ${engine.json.version ?? ''}, model ${engine.json.model ?? '?'}` : `unavailable (${engine.error})`;
  out.push('# Bank model vs. hardware', '');
  out.push(dry
    ? 'Predictions only: written by `node scripts/validate-gpu.mjs --dry-run --write`, with no GPU. Run `npm run validate:gpu` on a GPU machine for the measured columns.'
    : `Written by \`npm run validate:gpu\` (scripts/validate-gpu.mjs)${h.date ? ` on ${h.date}` : ''}. Do not edit by hand.`);
  out.push('', '| | |', '| --- | --- |');
  if (!dry) {
    out.push(`| GPU | ${md(h.gpu)}, compute capability ${md(h.cc)} |`);
    out.push(`| driver | ${md(h.driver)} |`, `| CUDA (nvcc) | ${md(h.cuda)} |`, `| Nsight Compute | ${md(h.ncu)} |`);
    out.push(`| build | \`nvcc -lineinfo -arch=${md(h.arch)}\`; \`ncu --clock-control none\` |`);
  }
  out.push(`| engine | ${md(version)} |`);
  const count = (v) => rows.filter((r) => r.verdict === v).length;
  out.push('', dry
    ? `**${rows.length} kernels, ${rows.length - count('no prediction')} with a prediction**; none measured yet.`
    : `**${count('match')} of ${rows.length} kernels match**; ${count('MISMATCH')} mismatch, ${count('no prediction')} without a prediction, ${count('not measured')} not measured.`, '');
  out.push(
    'How to read it. *predicted* is the engine\'s `wavefronts` for the kernel\'s one access of interest (`cuda-bank-lens --format json`),',
    'with its conflict degree. *measured* is `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum` divided by',
    '`smsp__sass_inst_executed_op_shared_{ld,st}.sum` (requests), for the kind the kernel measures; the loop\'s trip count',
    'cancels. The measured ratio counts every shared instruction of that kind in the kernel, so the corpus has exactly one',
    '(the *SASS* column lists them). *conflicts* is the raw bank-conflict counter, which can be noisy. A mismatch is a',
    'finding about the model (or the corpus), not something to tune away. *textbook* is the bank model\'s expectation from the',
    'corpus comment, for people.',
    '',
  );
  const files = [...new Set(rows.map((r) => r.file))];
  for (const f of files) {
    out.push(`## ${f}`, '');
    out.push('| kernel | kind | textbook | predicted wf/req (degree) | measured wf/req | result | SASS | element bytes (engine / SASS) | requests | wavefronts | conflicts | notes |');
    out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows.filter((r) => r.file === f)) {
      const p = r.pred.missing ? '—' : `${fmt(r.pred.wavefronts)} (${r.pred.degree == null ? '?' : r.pred.degree === 1 ? (r.pred.status === 'broadcast' ? 'broadcast' : 'conflict-free') : `${r.pred.degree}-way`})`;
      out.push(`| \`${md(r.key)}\` | ${r.kind} | ${md(r.textbook)} | ${p} | ${fmt(r.measured)} | ${r.verdict} | ${md(r.sass ?? '—')} | ${md(r.pred.elementBytes || '—')} / ${md(r.width ?? '—')} | ${fmt(r.req)} | ${fmt(r.wf)} | ${fmt(r.conflicts)} | ${md(r.notes.join('; '))} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

function printTable(rows, extra) {
  const head = ['file', 'kernel', 'kind', 'predicted wf/req', 'ideal', 'degree', 'status', ...extra.map((e) => e[0])];
  const body = rows.map((r) => [
    r.file.replace(/^.*\//, ''), r.key, r.kind,
    r.pred.missing ? '—' : fmt(r.pred.wavefronts), fmt(r.pred.ideal), r.pred.missing ? '—' : fmt(r.pred.degree),
    r.pred.missing ? 'NO PREDICTION' : r.pred.status,
    ...extra.map((e) => e[1](r)),
  ]);
  const w = head.map((hd, i) => Math.max(hd.length, ...body.map((b) => String(b[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(w[i])).join('  ').trimEnd();
  console.log(line(head));
  console.log(line(w.map((n) => '-'.repeat(n))));
  for (const b of body) console.log(line(b));
}

// ---------------------------------------------------------------------------------------------------------------
// modes

async function dryRun(o, files) {
  const problems = [];
  if (!has('nvcc')) problems.push('nvcc is not on PATH');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'validate-gpu-'));
  const corpora = files.map(parseCorpus);
  const ptx = new Map();
  if (!problems.length)
    await pool(files, 2, async (f) => {
      const out = path.join(tmp, path.basename(f, '.cu') + '.ptx');
      const r = await run('nvcc', ['-ptx', '-lineinfo', '-arch=sm_90', '-o', out, f]);
      if (r.code !== 0) problems.push(`${f}: nvcc -ptx failed:\n${(r.stderr || r.stdout).trim()}`);
      else ptx.set(f, ptxSharedCounts(fs.readFileSync(out, 'utf8')));
    });
  fs.rmSync(tmp, { recursive: true, force: true });
  const engine = await enginePredictions(files);
  if (engine.error) problems.push(engine.error);
  const rows = compare(corpora, engine, path.join(tmp, 'none'), true);
  // corpus rules, checked on the PTX: one shared instruction of the measured kind per kernel
  for (const r of rows) {
    const counts = ptx.get(r.file);
    if (!counts) continue;
    let c = null;
    for (const [mangled, v] of counts) {
      const k = parseKernelName(mangled);
      if (instanceKey(k.name, k.args) === r.key) c = v;
    }
    r.ptx = c ? c[r.kind] : null;
    if (!c) problems.push(`${r.file}: ${r.key}: no PTX entry`);
    else if (c[r.kind] !== 1) problems.push(`${r.file}: ${r.key}: ${c[r.kind]} shared ${r.kind}s in the PTX; the corpus needs exactly 1`);
    if (r.pred.missing && !engine.error) problems.push(`${r.file}: ${r.key}: ${r.pred.missing}`);
  }
  for (const c of corpora) {
    if (!(c.iters > 0)) problems.push(`${c.file}: no #define ITERS`);
    for (const i of c.instances) if (i.unlaunched) problems.push(`${c.file}: ${i.key} is never launched`);
  }
  printTable(rows, [['ptx ' + 'ops', (r) => fmt(r.ptx)]]);
  if (o.write) {
    fs.mkdirSync(path.dirname(path.resolve(ROOT, o.out)), { recursive: true });
    fs.writeFileSync(path.resolve(ROOT, o.out), renderDoc(rows, {}, engine, true) + '\n');
    console.log(`\nwrote ${o.out}`);
  }
  const kernels = rows.length;
  const predicted = rows.filter((r) => !r.pred.missing).length;
  console.log(`\n${files.length} corpus files, ${kernels} kernels, ${predicted} with a prediction, ${problems.length} problems`);
  if (problems.length) {
    const shown = problems.slice(0, 40);
    console.error(shown.map((p) => `validate-gpu: ${p}`).join('\n') + (problems.length > shown.length ? `\nvalidate-gpu: ... and ${problems.length - shown.length} more` : ''));
    process.exit(1);
  }
}

async function report(o, files, rawDir) {
  const corpora = files.map(parseCorpus);
  const engine = await enginePredictions(files);
  if (engine.error) console.error(`validate-gpu: ${engine.error}`);
  const rows = compare(corpora, engine, rawDir);
  const h = header(rawDir);
  printTable(rows, [
    ['measured', (r) => fmt(r.measured)],
    ['result', (r) => r.verdict],
    ['SASS', (r) => r.sass ?? '—'],
  ]);
  fs.mkdirSync(path.dirname(path.resolve(ROOT, o.out)), { recursive: true });
  fs.writeFileSync(path.resolve(ROOT, o.out), renderDoc(rows, h, engine, false) + '\n');
  const bad = rows.filter((r) => r.verdict !== 'match').length;
  console.log(`\n${h.gpu} (cc ${h.cc}): ${rows.length - bad} of ${rows.length} kernels match; wrote ${o.out}`);
  process.exit(bad ? 1 : 0);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  process.chdir(ROOT);
  const files = corpusFiles(o);
  if (!files.length) usage(`no .cu files in ${o.corpus}`);
  if (o.mode === 'dry') return dryRun(o, files);
  if (o.mode === 'emit') {
    fs.mkdirSync(path.dirname(path.resolve(o.emit)), { recursive: true });
    fs.writeFileSync(path.resolve(o.emit), collectScript(files), { mode: 0o755 });
    console.log(`wrote ${o.emit}; on the GPU machine, from the repository root: bash ${o.emit} /tmp/validate-gpu "$OUT/validate-gpu-raw.tgz"`);
    console.log(`then here: node scripts/validate-gpu.mjs --from <that .tgz>`);
    return;
  }
  if (o.mode === 'from') {
    let dir = path.resolve(o.from);
    if (/\.(tgz|tar\.gz)$/.test(dir)) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'validate-gpu-raw-'));
      const r = spawnSync('tar', ['xzf', dir, '-C', tmp], { stdio: 'inherit' });
      if (r.status !== 0) usage(`cannot unpack ${o.from}`);
      dir = tmp;
    }
    return report(o, files, dir);
  }
  const missing = ['nvcc', 'ncu', 'cuobjdump', 'nvidia-smi'].filter((t) => !has(t));
  if (missing.length) {
    console.error(`validate-gpu: ${missing.join(', ')} not on PATH: this mode needs a GPU machine with Nsight Compute.`);
    console.error('validate-gpu: use --dry-run here, or --emit-collect FILE there and --from here.');
    process.exit(2);
  }
  const rawDir = path.resolve(ROOT, o.raw);
  fs.mkdirSync(rawDir, { recursive: true });
  const script = path.join(rawDir, 'collect.sh');
  fs.writeFileSync(script, collectScript(files), { mode: 0o755 });
  const r = spawnSync('bash', [script, rawDir], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) console.error(`validate-gpu: the collect script exited ${r.status}`);
  return report(o, files, rawDir);
}

main().catch((e) => {
  console.error(`validate-gpu: ${e?.stack ?? e}`);
  process.exit(2);
});
