// Orchestrates the stages for one document: syntax -> facts -> eval -> model -> findings -> fix.
// Keeps the tree between edits (incremental reparse) and reuses each kernel's results while neither its text nor
// anything outside the kernels changed.
import { AccessFinding, AnalyzeOptions, ArrayFinding, FileAnalysis, IncludeReader, Notice, PaddingFix, Range, RequestFigures } from './types';
import { parse, Tree, Node, Edit } from './syntax/parser';
import { blankInactive, definedMacro, type Macro, type UndecidedChain } from './syntax/preprocess';
import { headerMacros, HeaderMacros } from './syntax/includes';
import { headerDeclarations, HeaderDecls } from './syntax/header-decls';
import { recover, closingCandidates, Blanked, Closed } from './syntax/recover';
import { expandFileScopeKernelMacros, type FileMacroExpansion, type ExpansionSegment } from './syntax/file-macros';
import { collectFacts, FileFacts, FunctionFact, isSharedDecl, named, kids, operatorOf, declaratorName, readTopLevelFunction } from './facts/collect';
import { typeName, sizeOf } from './facts/ctypes';
import { runBlock, blockAddrs, BudgetExceeded, DEFAULT_CAPS, Visit, ATOMICS, Interp, LongLoop } from './eval/interpreter';
import { instancesOf, directiveOf, Instance, evalConstant } from './eval/contexts';
import { andList, type Value } from './eval/values';
import { BankProfile, profileFor, archRange, blockSummary, shiftGrain, warpLanes, request, BlockSummary } from './model/bankModel';
import { buildFindings, contextText, SiteResult } from './findings/findings';
import { paddingFix, rowConstantFix, ArrayInfo, RowConstant, type SearchState } from './fix/padding';

/** A path's last part: `include/config.h` -> `config.h`. */
const baseName = (p: string): string => p.split(/[\\/]/).pop()!;

export const DEFAULT_BUDGET_MS = 500;
/** The files that include a file read with it (see AnalyzeOptions.includedBy): the first 8, 1 MB of text in all. */
function pickIncluders(includers: { path: string; text: string }[]): { path: string; text: string }[] {
  const parts: { path: string; text: string }[] = [];
  let chars = 0;
  for (const p of includers.slice(0, MAX_INCLUDERS)) {
    if (chars + p.text.length > MAX_INCLUDER_CHARS) continue;
    chars += p.text.length;
    parts.push(p);
  }
  return parts;
}

/**
 * The names of the `__device__` functions a text defines or declares with a pointer or reference parameter, through
 * which shared memory can come (a header's `putStrided(float *buf, ...)`): the includers' kernels that call them run
 * them in the header's analysis (asAppended).
 */
function deviceHelpers(text: string): string[] {
  if (!text.includes('__device__')) return [];
  const out = new Set<string>();
  for (const m of text.matchAll(/\b__device__\b[^;{}()]*?\b([A-Za-z_]\w*)\s*\(([^()]*)\)/g)) if (/[*&]/.test(m[2]) && !/^__\w+__$/.test(m[1])) out.add(m[1]);
  return [...out];
}

const HEADER_EXT = /\.(cuh|h|hh|hpp|hxx|inc|inl)$/i;

/**
 * The macros in force where the file's includers include it (a runner's `#define STAGE_W 16` before `#include
 * "stage.cuh"`, and those of the headers it read before), which a compiler reads the file with. The includers that
 * are compiled on their own (not headers, where there are such) must agree on each macro the file names: those that
 * do not agree with the first by path are left out, each with a notice, since one reading of the file cannot be both.
 */
function includedAs(text: string, options: AnalyzeOptions, includers: { path: string; text: string }[]): { includers: { path: string; text: string }[]; at?: NonNullable<HeaderMacros['at']>; notices: Notice[] } {
  const reader = options.includes;
  if (!reader || !options.path || !includers.length) return { includers, notices: [] };
  const arch = archRange(options.arch) ?? archRange(undefined)!;
  const self = options.path;
  const named = new Set(text.match(/[A-Za-z_]\w*/g) ?? []);
  // in the order of their paths, so that the command line and the editor (whose workspace scan has no order) agree
  const units = (includers.some((p) => !HEADER_EXT.test(p.path)) ? includers.filter((p) => !HEADER_EXT.test(p.path)) : [...includers])
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const seen: { path: string; at: NonNullable<HeaderMacros['at']>; used: Map<string, string>; key: string }[] = [];
  for (const p of units) {
    const h = headerMacros(p.text, (spec, from, angle) => reader(spec, from ?? p.path, angle), arch, options.defines ?? {}, new Set([p.path]), { path: self, selfPath: p.path });
    if (!h.at) continue;
    const used = Object.entries(h.at.defines).filter(([k]) => named.has(k.replace(/\(.*$/, ''))).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    seen.push({ path: p.path, at: h.at, used: new Map(used), key: JSON.stringify(used) });
  }
  if (!seen.length) return { includers, notices: [] };
  const first = seen[0];
  const out = seen.filter((u) => u.key !== first.key);
  const said = (v: string | undefined) => (v === undefined ? 'not defined' : v.length <= 40 ? `${v}` : 'defined otherwise');
  const at0 = { line: 0, character: 0 };
  const notices: Notice[] = out.map((u) => {
    const name = [...new Set([...u.used.keys(), ...first.used.keys()])].find((k) => u.used.get(k) !== first.used.get(k))!;
    return {
      range: { start: at0, end: at0 },
      severity: 'information',
      message: `the launches in ${baseName(u.path)} are not read: where it includes this file, \`${name.replace(/\(.*$/, '')}\` is ${said(u.used.get(name))}, and ${said(first.used.get(name))} where ${baseName(first.path)} includes it (the file is analysed as ${baseName(first.path)} includes it)`,
    };
  });
  return { includers: includers.filter((p) => !out.some((u) => u.path === p.path)), at: first.at, notices };
}

/** At most this many files that include a file are read with it (see AnalyzeOptions.includedBy). */
const MAX_INCLUDERS = 8;
/** ... and this much of their text in all (each keystroke in the file parses it again, incrementally). */
const MAX_INCLUDER_CHARS = 1_000_000;

/** The node's range (kept on the node: a loop's visits ask for the same ones; ranges are never written). */
export function rangeOf(n: Node): Range {
  const memo = n as unknown as { __range?: Range };
  return (memo.__range ??= {
    start: { line: n.startPosition.row, character: n.startPosition.column },
    end: { line: n.endPosition.row, character: n.endPosition.column },
  });
}

interface KernelRun {
  results: SiteResult[];
  /** built on first use: the run's results by site, and the finding each site would have from this run alone. */
  bySite?: Map<string, { results: SiteResult[]; finding: AccessFinding }>;
  capped: { line: number; message: string }[];
  arrays: ArrayInfo[];
  notes: string[];
  /** one entry per instance: re-runs it with other extents (only valid during the analyze call that made it). */
  instances: Instance[];
  /**
   * A number no other run has: a run is reused only under its key (kernel text, position, options, the file's
   * signature), so the ids of the runs an array's fix came from stand for their keys (short, for the fix cache).
   */
  id: number;
}
let runIds = 0;

/**
 * What an assumed block shape with one row hides from a kernel that reads `threadIdx.y` or `.z` (TVM's and Ansor's
 * kernels, whose only shape is `__launch_bounds__(256)`): those are 0 on every thread of it, and a launch with more
 * rows, as such a kernel usually has, puts other threads in each warp.
 */
function assumedFlatBlockNote(inst: Instance, read: Set<string>): string | null {
  if (!inst.assumedBlock) return null;
  const axes = [...read].filter((a) => inst.block[a.endsWith('.y') ? 1 : 2] === 1).sort();
  if (!axes.length) return null;
  const list = axes.map((a) => `\`${a}\``);
  const names = andList(list);
  const dims = [...new Set(axes.map((a) => a.slice(-1)))].join(' and ');
  return `the kernel reads ${names}, but the assumed block ${inst.block.join('x')} has one thread along ${dims}; ` +
    `launched with more threads along ${dims}, as a kernel that reads ${axes.length > 1 ? 'them' : 'it'} usually is, other threads share each warp and the figures differ: ` +
    `give the shape with a \`// bank-lens: block=XxYxZ\` comment or \`--block\``;
}

/** Evaluates one kernel in one instance, applies the bank model to every visit, and reduces the warps. */
function runInstance(
  kernel: FunctionFact, inst: Instance, facts: FileFacts, profile: BankProfile, deadline: number, warp: boolean,
  dimOverrides?: Map<string, number>, constOverrides?: Map<number, number>,
): { results: SiteResult[]; arrays: ArrayInfo[]; notes: string[]; capped: { line: number; message: string }[]; unreached: Unreached } {
  const { it, common } = interpOf(kernel, inst, facts, deadline, warp, dimOverrides, constOverrides);
  const memo: SummaryMemo = new Map();
  const lists: AssumptionCache = new Map();
  const results = it.visits.map((v) => siteResult(v, kernel, inst, profile, common, memo, lists));
  const arrays: ArrayInfo[] = it.arrays().map((b) => ({
    id: b.id,
    name: b.name,
    declRange: rangeOf(b.nameNode),
    typeText: `${typeName(b.elem)}${b.external ? '[]' : ''}${b.dims.map((d, i) => `[${i === 0 && b.outerUnknown ? b.dimNodes[0].text : d}]`).join('')}`,
    external: b.external,
    dims: b.dims,
    elementBytes: typeName(b.elem) ? (b.elem.kind === 'int' || b.elem.kind === 'float' || b.elem.kind === 'vector' || b.elem.kind === 'struct' ? b.elem.bytes : 0) : 0,
    dimTexts: b.macro ? [] : b.dimNodes.map((d) => ({ range: rangeOf(d), text: d.text, isNumber: d.type === 'number_literal', plusLiteral: plusLiteral(d) })),
    ...(b.macro ? { macro: b.macro } : {}),
    ...(b.elem.kind === 'array' ? { arrayElement: typeName(b.elem) } : {}),
  }));
  const why = [...it.unreachedWhy].map(([id, reason]) => ({ node: it.unreached.get(id)!, reason, ...(it.notKnown.has(id) ? { open: true } : {}) }));
  return { results, arrays, notes: [...it.notes], capped: it.capped, unreached: { nodes: [...it.unreached.values()], why, pointers: it.sharedPointers } };
}

/** One run of an instance, and the assumptions every visit of it shares. */
function interpOf(
  kernel: FunctionFact, inst: Instance, facts: FileFacts, deadline: number, warp: boolean,
  dimOverrides?: Map<string, number>, constOverrides?: Map<number, number>,
): { it: Interp; common: string[] } {
  const run = (args: Map<string, Value>, longLoop?: number) =>
    runBlock({ facts, block: inst.block, grid: inst.grid, values: inst.values, types: inst.types, args, deadline, caps: DEFAULT_CAPS, dimOverrides, constOverrides, warp, longLoop, dynamicShared: inst.dynamicShared }, kernel);
  let given = givenArgs.get(inst);
  let it: Interp | null = null;
  if (!given) {
    const r = argsNeeded(inst, run);
    givenArgs.set(inst, (given = r.given));
    it = r.it;
  }
  it ??= run(given.args);
  const common = [inst.blockSource, ...given.sources, ...it.notes, ...[...it.headerMacros].map(headerMacroNote)];
  if (inst.unbound) common.push(inst.unbound);
  const flat = assumedFlatBlockNote(inst, it.readAxes);
  if (flat) common.push(flat);
  return { it, common };
}

/** The visits of some arrays in one run of an instance, kept for the padding search to move (see movedVisit). */
interface HeldRun { kernel: FunctionFact; inst: Instance; common: string[]; visits: Visit[] }

/**
 * The padding search's shortcut: one run of each instance, its visits of those of the arrays `ids` that can be moved
 * exactly kept (`movable`). Not an array with a visit of pointer arithmetic over the flat layout, an index past an
 * extent, a subscript that is not one per extent (but `*(float4 *)&s[i][j]` of an in-row `&s[i][j]`, Ptr.rowAt), or
 * no element size known.
 */
function heldRuns(involved: { kernel: FunctionFact; run: KernelRun }[], ids: string[], facts: FileFacts, deadline: number, warp: boolean): { runs: HeldRun[]; movable: Set<string> } {
  const runs: HeldRun[] = [];
  const movable = new Set(ids);
  for (const { kernel, run } of involved)
    for (const inst of run.instances) {
      const { it, common } = interpOf(kernel, inst, facts, deadline, warp);
      const visits = it.visits.filter((v) => ids.includes(v.base.id));
      for (const v of visits) {
        const es = sizeOf(v.base.elem);
        const inner = v.base.dims[v.base.dims.length - 1];
        if (v.addrs && (v.flat || v.oob || !v.inRow || v.base.external || v.base.dims.length < 2 || !es || !(inner > 0))) movable.delete(v.base.id);
      }
      runs.push({ kernel, inst, common, visits });
    }
  for (const r of runs) r.visits = r.visits.filter((v) => movable.has(v.base.id));
  return { runs, movable };
}

/**
 * A visit with `pad` more elements in each row of its array: a byte address `(row * E + col) * size + member` (col < E,
 * every visit in bounds, see heldRuns) becomes that plus `row * pad * size`. A vector the padding misaligns is no
 * figure (below); null for a width that is not a power of two up to 16 the padding moves off its multiple: the kernels
 * run again.
 */
function movedVisit(v: Visit, pad: number): Visit | null {
  if (!v.addrs) return v;
  const es = sizeOf(v.base.elem)!;
  const shifts = v.width > es && (pad * es) % v.width !== 0;
  // a vector wider than the element whose rows the padding moves by a number of bytes it does not divide: where a
  // lane's place is then not a multiple of its width the access faults, and is no figure (the search rejects the
  // padding); any other width runs the kernels again
  if (shifts && !(v.width <= 16 && (v.width & (v.width - 1)) === 0)) return null;
  const rowBytes = v.base.dims[v.base.dims.length - 1] * es;
  const addrs = v.spread ? blockAddrs(v)! : v.addrs;
  const out = new Float64Array(addrs.length);
  for (let i = 0; i < addrs.length; i++) {
    const a = addrs[i];
    out[i] = a !== a ? NaN : a + Math.floor(a / rowBytes) * pad * es;
    if (shifts && out[i] === out[i] && out[i] % v.width !== 0)
      return { ...v, addrs: null, spread: undefined, shift: undefined, reason: `misaligned: a padding of ${pad} moves a ${v.width}-byte access of \`${v.base.name}\` off a multiple of ${v.width}` };
  }
  return { ...v, addrs: out, spread: undefined, shift: undefined };
}

/** The results of held runs with `pad` more elements per row of the arrays they hold; null where one cannot be moved. */
function movedResults(held: HeldRun[], pad: number, profile: BankProfile): SiteResult[] | null {
  const out: SiteResult[] = [];
  for (const h of held) {
    const memo: SummaryMemo = new Map();
    const lists: AssumptionCache = new Map();
    for (const v of h.visits) {
      const m = movedVisit(v, pad);
      if (!m) return null;
      out.push(siteResult(m, h.kernel, h.inst, profile, h.common, memo, lists));
    }
  }
  return out;
}

/**
 * A header's name declared differently in the branches of an `#if` the file cannot decide (HeaderDecls.undecided): the
 * last declaration is read, said at the file's `#include` of that header (its first line where another header
 * includes it), as the file's own such `#define`s are.
 */
function undecidedDeclarations(text: string, decls: { path: string; decls: HeaderDecls }[]): Notice[] {
  const out: Notice[] = [];
  const lines = text.split('\n');
  for (const { path, decls: d } of decls) {
    if (!d.undecided?.length) continue;
    const file = baseName(path);
    const at = Math.max(0, lines.findIndex((l) => /^\s*#\s*include\b/.test(l) && l.includes(file)));
    for (const u of d.undecided) {
      // only a name that matters here: the file's text or another of the header's declarations names it
      if (!u.read && !new RegExp(`\\b${u.name}\\b`).test(text)) continue;
      out.push({
        range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } },
        severity: 'information',
        message: `\`${u.name}\` is declared differently in the branches of the \`#if\` at line ${u.line + 1} of ${file}, which is not decided here: the last, \`${u.last}\`, is the one analysed (give the macros its condition reads with -D, or the defines setting, to analyse another)`,
      });
    }
  }
  return out;
}

/** What an assumption says of a macro read from a header the file includes. */
function headerMacroNote(m: Macro): string {
  const file = baseName(m.from!);
  return m.params === null && m.body.length <= 40 ? `\`${m.name}\` = ${m.body} (defined in ${file}, line ${m.line + 1})` : `\`${m.name}\` as ${file} defines it (line ${m.line + 1})`;
}

/** The launch's arguments each instance is run with, decided once (the padding search runs it again). */
const givenArgs = new WeakMap<Instance, { args: Map<string, Value>; sources: string[] }>();

/**
 * The arguments a launch binds (`pitch` = 16, `n` = 4096) the kernel is run with, and the run. All of them, unless a
 * loop of warp-uniform condition then runs LONG_LOOP iterations or more (`k < K`, K = 4096: hundreds of passes over a
 * main loop): then the kernel is run without them, and given only those that what it could not evaluate names other
 * than as a loop's bound (an unknown stride, a guard); such a loop runs as one of unknown trip count, in one pass.
 */
function argsNeeded(inst: Instance, run: (args: Map<string, Value>, longLoop?: number) => Interp): { given: { args: Map<string, Value>; sources: string[] }; it: Interp } {
  const all = { args: inst.args, sources: inst.argSources };
  if (!inst.args.size) return { given: all, it: run(all.args) };
  let nest = false;
  try {
    return { given: all, it: run(all.args, LONG_LOOP) };
  } catch (e) {
    if (!(e instanceof LongLoop)) throw e;
    nest = e.nest;
  }
  const first = run(new Map());
  const texts: string[] = [...first.notes, ...first.capped.map((c) => c.message)];
  const seen = new Set<string[]>();
  for (const v of first.visits) {
    if (v.reason) texts.push(v.reason);
    if (!seen.has(v.assumptions)) {
      seen.add(v.assumptions);
      texts.push(...v.assumptions);
    }
  }
  const keep = [...inst.args.keys()].filter((name) => {
    const re = new RegExp(`(^|[^\\w])${name}($|[^\\w])`);
    return texts.some((t) => re.test(t) && !/^the loop at line \d+ has a trip count that cannot be computed/.test(t));
  });
  const long = nest ? `the body of a loop nest runs ${(LONG_LOOP * LONG_LOOP).toLocaleString('en-US')} times or more` : `a loop runs ${LONG_LOOP} iterations or more`;
  const sourcesOf = (keep: string[]) => inst.argSources.map((s) => (keep.some((n) => s.startsWith(`\`${n}\` = `)) ? s
    : `${s} is not given: with it ${long}; without it, a loop it bounds is taken in one pass, as one of unknown trip count`));
  if (!keep.length) return { given: { args: new Map(), sources: sourcesOf([]) }, it: first };
  const args = new Map(keep.map((n) => [n, inst.args.get(n)!]));
  if (!nest) return { given: { args, sources: sourcesOf(keep) }, it: run(args) };
  // a nest made long again by the arguments given back (`N` in a guard the block index decides anyway, and a bound
  // of the outer loop): the run without any. All of them given back is the run that was long
  if (keep.length === inst.args.size) return { given: { args: new Map(), sources: sourcesOf([]) }, it: first };
  try {
    return { given: { args, sources: sourcesOf(keep) }, it: run(args, LONG_LOOP) };
  } catch (e) {
    if (!(e instanceof LongLoop)) throw e;
    return { given: { args: new Map(), sources: sourcesOf([]) }, it: first };
  }
}

/** Iterations of a loop bounded by a launch's argument past which that argument is not given (see argsNeeded). */
const LONG_LOOP = 64;

/** `X + 1` -> { left: 'X', value: 1 } (so padding again edits the literal rather than adding `+ 1 + 1`). */
function plusLiteral(d: Node): { left: string; value: number } | null {
  if (d.type !== 'binary_expression') return null;
  const op = operatorOf(d);
  const right = d.childForFieldName('right');
  const left = d.childForFieldName('left');
  if (op !== '+' || !right || !left || right.type !== 'number_literal' || !/^\d+$/.test(right.text)) return null;
  return { left: left.text, value: Number(right.text) };
}

/** The bank model, "shared atomics, cp.async writes": no public rule; treated as a store, and said to be uncertain. */
export const ATOMIC_NOTE = 'a shared-memory atomic is treated as a store: no public rule says how atomics to different addresses conflict, so this figure is uncertain';
/** The same for a cp.async write (`__pipeline_memcpy_async`, `cuda::memcpy_async`, inline `cp.async`). */
export const ASYNC_COPY_NOTE = 'a cp.async write (`__pipeline_memcpy_async`, `cuda::memcpy_async`, inline `cp.async`) is treated as a store of its size: no public rule says how its writes conflict, so this figure is uncertain';

/** The last block summary of each site in one run: a loop's next visit often has the same addresses, or a shift. */
type SummaryMemo = Map<string, { addrs: Float64Array; shifts: Float64Array | null; width: number; sum: BlockSummary | null; top: number }>;

const sameShifts = (a: Float64Array | null, b: Float64Array | null) => {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * The block summary of one visit, and one past its highest byte. A visit whose addresses are the previous visit's
 * (the same array: values are never mutated), or the previous visit's shifted by a whole number of grains on every
 * lane, with the same lanes active, has the same wavefronts in every warp: it is not counted again. A warp-mode
 * visit (Visit.spread) whose warps differ from warp 0 by whole grains only is counted from warp 0 alone.
 */
function summaryOf(v: Visit, profile: BankProfile, memo: SummaryMemo): { sum: BlockSummary | null; top: number } {
  const addrs = v.addrs!, width = v.width, site = v.site;
  const shifts = v.spread ? v.spread.shifts : null;
  const grain = shiftGrain(profile);
  const prev = memo.get(site);
  if (prev && prev.width === width && prev.addrs.length === addrs.length && sameShifts(prev.shifts, shifts)) {
    if (prev.addrs === addrs) return prev;
    const p = prev.addrs;
    let shift = NaN;
    let same = true;
    for (let i = 0; i < addrs.length; i++) {
      const a = addrs[i], b = p[i];
      if (a !== a || b !== b) {
        if (a === a || b === b) { same = false; break; }
        continue;
      }
      if (shift !== shift) shift = a - b;
      else if (a - b !== shift) { same = false; break; }
    }
    if (same && (shift !== shift || shift % grain === 0)) {
      const hit = { addrs, shifts, width, sum: prev.sum, top: shift === shift ? prev.top + shift : prev.top };
      memo.set(site, hit);
      return hit;
    }
  }
  let sum: BlockSummary | null;
  let top = -1;
  for (let i = 0; i < addrs.length; i++) if (addrs[i] + width > top) top = addrs[i] + width;
  if (v.spread) {
    const warps = v.spread.warps;
    let whole = true;
    let most = 0;
    if (shifts)
      for (let w = 0; w < warps; w++) {
        if (shifts[w] % grain !== 0) whole = false;
        if (shifts[w] > most) most = shifts[w];
      }
    if (top >= 0) top += most;
    if (whole) {
      const one = blockSummary(addrs, width, profile);
      sum = one && { ...one, totalWavefronts: one.totalWavefronts * warps, idealTotal: one.idealTotal * warps };
    } else sum = blockSummary(blockAddrs(v)!, width, profile);
  } else sum = blockSummary(addrs, width, profile);
  const entry = { addrs, shifts, width, sum, top };
  memo.set(site, entry);
  return entry;
}

/** Assumption lists of one run, by what makes them differ: visits share them (they are never modified). */
type AssumptionCache = Map<string, string[]>;

function siteResult(v: Visit, kernel: FunctionFact, inst: Instance, profile: BankProfile, common: string[], memo: SummaryMemo, lists: AssumptionCache): SiteResult {
  const key = `${v.width}:${v.kind === 'atomic' ? 1 : v.asyncCopy ? 2 : 0}:${v.assumptions.join('\u0001')}`;
  let assumptions = lists.get(key);
  if (!assumptions) {
    const uncertain = v.kind === 'atomic' ? [ATOMIC_NOTE] : v.asyncCopy ? [ASYNC_COPY_NOTE] : [];
    lists.set(key, (assumptions = [...v.assumptions, ...common, ...profile.notes(v.width), ...uncertain]));
  }
  let labelled = false;
  for (const _ in inst.label) labelled = true;
  const base = {
    site: v.site,
    kind: v.kind,
    name: v.name,
    range: rangeOf(v.nameNode),
    exprRange: rangeOf(v.exprNode),
    declRange: rangeOf(v.base.nameNode),
    arrayId: v.base.id,
    arrayName: v.base.name,
    elementBytes: v.width,
    kernel: kernel.name,
    block: inst.block,
    // a visit's context is its own copy: shared unless a template label joins it
    context: labelled ? { ...inst.label, ...v.context } : v.context,
    dynamicShared: inst.dynamicShared,
    assumptions,
    flat: v.flat,
    asyncCopy: !!v.asyncCopy,
  };
  const unknown = (reason: string): SiteResult => ({ ...base, summary: null, figures: null, warp: 0, totalWavefronts: 0, idealTotal: 0, maxByte: -1, reason });
  if (!v.addrs) return v.more ? { ...unknown(v.reason ?? 'the address could not be evaluated'), more: v.more } : unknown(v.reason ?? 'the address could not be evaluated');
  const { sum, top } = summaryOf(v, profile, memo);
  if (!sum) return { ...unknown(unreachedReason([inst])), unreached: true };
  const lanes = warpLanes(v.spread && sum.warp > 0 ? blockAddrs(v)! : v.addrs, sum.warp);
  let activeLanes = 0;
  for (const l of lanes) if (l !== null) activeLanes++;
  return new Evaluated(base, { degree: sum.degree, wavefronts: sum.wavefronts, activeLanes }, sum, top, lanes, v.width, profile,
    v.oob && !inst.assumedBlock ? { lane: v.oob.thread % 32, warp: Math.floor(v.oob.thread / 32), index: v.oob.index, extent: v.oob.extent, ...(v.oob.bytes ? { bytes: true as const } : {}) } : undefined);
}

/**
 * The result of a visit whose addresses are known. A class, so that every such result has one shape: its full
 * figures (a bank map) are built when something reads them (a hover, the worst case), not for every visit.
 */
class Evaluated implements SiteResult {
  site: string; kind: SiteResult['kind']; name: string; range: Range; exprRange: Range; declRange: Range; arrayId: string;
  arrayName: string; elementBytes: number; kernel: string; block: [number, number, number]; context: Record<string, number | string>;
  dynamicShared: number | null; assumptions: string[]; flat: string | null; asyncCopy: boolean;
  warp: number; totalWavefronts: number; idealTotal: number; maxByte: number;
  oob?: SiteResult['oob'];
  private full: RequestFigures | null = null;
  constructor(
    base: Omit<SiteResult, 'summary' | 'figures' | 'warp' | 'totalWavefronts' | 'idealTotal' | 'maxByte'>,
    readonly summary: { degree: number; wavefronts: number; activeLanes: number },
    sum: BlockSummary, top: number, private readonly lanes: (number | null)[], private readonly width: number, private readonly profile: BankProfile,
    oob: SiteResult['oob'],
  ) {
    this.site = base.site; this.kind = base.kind; this.name = base.name; this.range = base.range; this.exprRange = base.exprRange;
    this.declRange = base.declRange; this.arrayId = base.arrayId; this.arrayName = base.arrayName; this.elementBytes = base.elementBytes;
    this.kernel = base.kernel; this.block = base.block; this.context = base.context; this.dynamicShared = base.dynamicShared;
    this.assumptions = base.assumptions; this.flat = base.flat; this.asyncCopy = base.asyncCopy ?? false;
    this.warp = sum.warp; this.totalWavefronts = sum.totalWavefronts; this.idealTotal = sum.idealTotal; this.maxByte = top;
    if (oob) this.oob = oob;
  }
  get figures(): RequestFigures {
    return (this.full ??= request(this.lanes, this.width, this.profile));
  }
}

/** A subscript of a `__shared__` array found by syntax alone, with the kinds of access it makes. */
interface SyntacticSite {
  /** the outermost subscript (`s[i][j]`). */
  expr: Node;
  /** the array's name at the access. */
  name: Node;
  /** the declaration's name. */
  decl: Node;
  kinds: ('load' | 'store' | 'atomic')[];
  /** the subscript selects one whole element (not a row of a 2-D array, not a member of a struct element). */
  element: boolean;
}

/**
 * The accesses of `__shared__` arrays written in a kernel's body, found by syntax alone: `s[i]` read, written,
 * both (`s[i] += x`, `++s[i]`), updated by an atomic (`atomicAdd(&s[i], 1)`) or written by a cp.async
 * (`__pipeline_memcpy_async(&s[i], ...)`). An address taken for anything
 * else (`float *p = &s[i]`), a row of a 2-D array used as a pointer and `sizeof(s[0])` are not accesses.
 */
function sharedSubscripts(kernel: FunctionFact, facts: FileFacts, pointers?: Map<string, Node>): SyntacticSite[] {
  // one walk down, remembering each node's parent (a tree-sitter `parent` walks down from the root: deep code made
  // a walk up per subscript quadratic) and each array's number of extents
  const shared = new Map<string, { name: Node; dims: number }>();
  // a pointer into shared memory (a parameter given one, a local set to one): one subscript is an access; its
  // element is not the array's (`uint *k1 = (uint *)keys2`), so no element size is claimed (dims 0)
  for (const [name, decl] of pointers ?? []) shared.set(name, { name: decl, dims: 0 });
  const declare = (d: Node) => {
    for (const x of d.childrenForFieldName('declarator')) {
      let dims = 0;
      let cur: Node | null = x && x.type === 'init_declarator' ? x.childForFieldName('declarator') : x;
      for (; cur && cur.type === 'array_declarator'; cur = cur.childForFieldName('declarator')) dims++;
      const name = declaratorName(x);
      if (name && cur?.type !== 'pointer_declarator') shared.set(name.text, { name, dims }); // a pointer is not an array
    }
  };
  for (const d of facts.fileShared) declare(d);
  const parentOf = new Map<number, Node>();
  const stack: Node[] = [kernel.body];
  const subs: Node[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'declaration' && isSharedDecl(n)) declare(n);
    if (n.type === 'subscript_expression') subs.push(n);
    if (n.type === 'sizeof_expression') continue;
    for (const c of named(n)) {
      parentOf.set(c.id, n);
      stack.push(c);
    }
  }
  const up = (n: Node | undefined | null) => (n ? parentOf.get(n.id) : undefined);
  const out: SyntacticSite[] = [];
  for (const sub of subs) {
    const above = up(sub);
    if (above?.type === 'subscript_expression' && above.childForFieldName('argument')?.id === sub.id) continue; // inner part of a[i][j]
    let base: Node | null = sub;
    let depth = 0;
    while (base && base.type === 'subscript_expression') {
      base = base.childForFieldName('argument');
      depth++;
    }
    const decl = base && base.type === 'identifier' ? shared.get(base.text) : undefined;
    if (!base || !decl) continue;
    if (depth < decl.dims) continue; // a row: decays to a pointer
    if (decl.dims === 0 && depth > 1) continue; // a pointer's element subscripted again: not followed
    // the place's context: through `.member` and parentheses to what uses it
    let at: Node = sub;
    let member = false;
    for (let p = up(at); p && ((p.type === 'field_expression' && !kids(p).some((c) => c.type === '->')) || p.type === 'parenthesized_expression'); p = up(at)) {
      member ||= p.type === 'field_expression';
      at = p;
    }
    const parent = up(at);
    let kinds: SyntacticSite['kinds'];
    if (parent?.type === 'pointer_expression' && kids(parent)[0]?.text === '&') {
      const list = up(parent);
      const call = list?.type === 'argument_list' ? up(list) : undefined;
      const fn = call?.type === 'call_expression' ? call.childForFieldName('function')?.text.replace(/^.*::/, '') ?? '' : '';
      const copy = fn === '__pipeline_memcpy_async';
      if ((!ATOMICS.test(fn) && !copy) || named(list)[0]?.id !== parent.id) continue; // an address, not an access
      kinds = copy ? ['store'] : ['atomic'];
    } else if (parent?.type === 'assignment_expression' && parent.childForFieldName('left')?.id === at.id) {
      kinds = (parent.childForFieldName('operator')?.text ?? '=') === '=' ? ['store'] : ['load', 'store'];
    } else if (parent?.type === 'update_expression') kinds = ['load', 'store'];
    else kinds = ['load'];
    out.push({ expr: sub, name: base, decl: decl.name, kinds, element: !member && depth === decl.dims });
  }
  return out;
}

/** The `unknown` results of syntactic sites: one per kind, with the reason and the assumptions given. */
function unknownResults(
  sites: SyntacticSite[], kernel: FunctionFact, reason: string, assumptions: string[], block: [number, number, number],
  elementBytes: (arrayId: string) => number = () => 0,
): SiteResult[] {
  const out: SiteResult[] = [];
  for (const { expr, name, decl, kinds, element } of sites) {
    const arrayId = `${decl.startPosition.row}:${decl.startPosition.column}`;
    for (const kind of kinds)
      out.push({
        site: `${name.startPosition.row}:${name.startPosition.column}:${kind}`, kind, name: name.text, range: rangeOf(name), exprRange: rangeOf(expr), declRange: rangeOf(decl),
        arrayId, arrayName: decl.text, elementBytes: element ? elementBytes(arrayId) : 0, kernel: kernel.name, block, context: {},
        summary: null, figures: null, warp: 0, totalWavefronts: 0, idealTotal: 0, maxByte: -1, dynamicShared: null, reason,
        assumptions, flat: null,
      });
  }
  return out;
}

/**
 * A kernel the budget did not reach: its shared accesses, found by syntax alone, become `unknown` (reason: the
 * budget), so the user sees that they were not checked rather than nothing.
 */
function budgetUnknowns(kernel: FunctionFact, facts: FileFacts, profile: BankProfile): SiteResult[] {
  return unknownResults(sharedSubscripts(kernel, facts), kernel, 'analysis budget exceeded', [`bank model ${profile.name}`], [32, 1, 1]);
}

/** One instance's code that no thread ran, and why, where a condition the same for every thread decided it. */
interface Unreached {
  nodes: Node[];
  /** `open`: the code may run, but what it does is not known (which specialization a call runs): `reason` says why. */
  why: { node: Node; reason: string; open?: boolean }[];
  /** pointers into shared memory by name (to the array's declared name), per function body node id. */
  pointers: Map<number, Map<string, Node>>;
}

/** `block 256x1x1 (blockSize = 256; from the launch at line 10)`: an instance's shape, bindings and their source. */
function instanceText(i: Instance): { shape: string; detail: string } {
  const label = contextText(i.label);
  const shape = `block ${i.block.join('x')}`;
  const why = i.blockSource.startsWith(`${shape} `) ? i.blockSource.slice(shape.length + 1) : i.blockSource;
  return { shape, detail: `(${label ? `${label}; ` : ''}${why})` };
}

/** Why no lane reaches an access: the block shape of each instance, and where it comes from (or that it is assumed). */
export function unreachedReason(instances: Instance[]): string {
  if (instances.length === 1) {
    const { shape, detail } = instanceText(instances[0]);
    return `no lane of ${shape} reaches this access ${detail}`;
  }
  // instances of one block shape said once, with the instances it is said of (`T = int, T = float: ...`)
  const bySource = new Map<string, string[]>();
  for (const i of instances) {
    const labels = bySource.get(i.blockSource) ?? [];
    const label = contextText(i.label);
    if (label && !labels.includes(label)) labels.push(label);
    bySource.set(i.blockSource, labels);
  }
  const parts = [...bySource].map(([source, labels]) => (labels.length ? `${labels.join(labels.some((l) => l.includes(', ')) ? ' | ' : ', ')}: ` : '') + source);
  return `no lane reaches this access in any of the ${instances.length} instances evaluated (${parts.join('; ')})`;
}

/**
 * The accesses of a kernel's body that no instance ran, because no thread of the block reached them (a guard no
 * lane passes, code after every thread returned): `unknown`, saying so, rather than no entry at all. An access left
 * out for any other reason (a statement the interpreter does not evaluate) stays without one.
 */
function unreachedUnknowns(kernel: FunctionFact, facts: FileFacts, run: KernelRun, unreachedRuns: Unreached[], modelNote: string): SiteResult[] {
  const unreached = unreachedRuns.map((u) => u.nodes);
  if (!run.instances.length) return [];
  const visited = new Set<string>();
  for (const r of run.results) visited.add(r.site.slice(0, r.site.lastIndexOf(':')));
  // each instance's unreached code as sorted disjoint spans: a site is unreached when one of them holds it
  const spans = unreached.map((list) => {
    const sorted = list.map((n) => [n.startIndex, n.endIndex]).sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged: number[][] = [];
    for (const r of sorted) {
      const last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([...r]);
    }
    return merged;
  });
  const inside = (n: Node, list: number[][]) => {
    let lo = 0, hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid][0] > n.startIndex) hi = mid - 1;
      else if (list[mid][1] < n.endIndex) lo = mid + 1;
      else return true;
    }
    return false;
  };
  if (spans.some((list) => !list.length)) return [];
  const unvisited = (x: SyntacticSite) => !visited.has(`${x.name.startPosition.row}:${x.name.startPosition.column}`) && spans.every((list) => inside(x.expr, list));
  // the pointers into shared memory each function was seen to hold, in any instance
  const pointersOf = (fn: FunctionFact) => {
    const out = new Map<string, Node>();
    for (const u of unreachedRuns) for (const [name, decl] of u.pointers.get(fn.body.id) ?? []) if (!out.has(name)) out.set(name, decl);
    return out;
  };
  const sites = sharedSubscripts(kernel, facts, pointersOf(kernel)).filter(unvisited);
  // the same in the __device__ functions the kernel calls (`if (threadIdx.y > 0) tmp[threadIdx.y - 1][...] = v;` in
  // a helper every kernel inlines): marked, so that another kernel that reaches the site keeps its figures alone
  const inCallees = calledDeviceFunctions(kernel, facts).flatMap((f) => sharedSubscripts(f, facts, pointersOf(f)).filter(unvisited));
  if (!sites.length && !inCallees.length) return [];
  const sizes = new Map(run.arrays.map((a) => [a.id, a.elementBytes]));
  const assumptions = [...new Set(run.instances.map((i) => i.blockSource)), modelNote];
  // where, in every instance, a condition the same for every thread skips the site, that condition is the reason
  const decided = (site: SyntacticSite): string | null => {
    const parts: string[] = [];
    const open = new Set<string>();
    for (let k = 0; k < run.instances.length; k++) {
      const hit = unreachedRuns[k].why.find((w) => w.node.startIndex <= site.expr.startIndex && site.expr.endIndex <= w.node.endIndex);
      if (!hit) return null;
      const { shape, detail } = instanceText(run.instances[k]);
      if (hit.open) open.add(hit.reason);
      else parts.push(`${hit.reason} of ${shape} ${detail}`);
    }
    return [...open, ...(parts.length ? [`no thread runs this access: ${[...new Set(parts)].join('; ')}`] : [])].join('; ');
  };
  const general = unreachedReason(run.instances);
  const results = (list: SyntacticSite[]) => list.flatMap((site) => unknownResults([site], kernel, decided(site) ?? general, assumptions, run.instances[0].block, (id) => sizes.get(id) ?? 0));
  return [...results(sites), ...results(inCallees).map((r) => ({ ...r, unreached: true }))];
}

/** The __device__ functions a kernel calls by name, and those they call (a few levels down), each once. */
function calledDeviceFunctions(kernel: FunctionFact, facts: FileFacts, depth = 4): FunctionFact[] {
  const out: FunctionFact[] = [];
  const seen = new Set<FunctionFact>([kernel]);
  let frontier: FunctionFact[] = [kernel];
  for (let level = 0; level < depth && frontier.length; level++) {
    const next: FunctionFact[] = [];
    for (const fn of frontier) {
      const stack: Node[] = [fn.body];
      while (stack.length) {
        const n = stack.pop()!;
        for (const c of named(n)) stack.push(c);
        if (n.type !== 'call_expression') continue;
        let f = n.childForFieldName('function');
        if (f?.type === 'template_function') f = f.childForFieldName('name');
        if (f?.type === 'qualified_identifier') f = f.childForFieldName('name');
        if (f?.type !== 'identifier') continue;
        for (const callee of facts.functions.get(f.text) ?? []) {
          if (callee.isKernel || seen.has(callee)) continue;
          seen.add(callee);
          out.push(callee);
          next.push(callee);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The kernel-local `const`/`constexpr` integer that every access of an `extern __shared__` array mentions (its row
 * length, as in `s[row * LD + col]`): the one thing a padding fix may change for such an array.
 */
function findRowConstant(results: SiteResult[], kernels: FunctionFact[], facts: FileFacts, text: string, deadline: number): { c: RowConstant; key: number } | null {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const slice = (r: Range) => text.slice(starts[r.start.line] + r.start.character, starts[r.end.line] + r.end.character);
  const exprs = [...new Set(results.map((r) => slice(r.exprRange)))];
  if (!exprs.length) return null;
  for (const k of kernels) {
    const stack: Node[] = [k.body];
    while (stack.length) {
      const n = stack.pop()!;
      for (const c of named(n)) stack.push(c);
      if (n.type !== 'declaration' || isSharedDecl(n) || !/^\s*(?:static\s+)?(?:const|constexpr)\b/.test(n.text)) continue;
      for (const d of n.childrenForFieldName('declarator')) {
        if (!d || d.type !== 'init_declarator') continue;
        const name = declaratorName(d)?.text;
        const init = d.childForFieldName('value');
        if (!name || !init) continue;
        const word = new RegExp(`\\b${name}\\b`);
        if (!exprs.every((e) => word.test(e))) continue;
        const value = evalConstant(facts, init, deadline);
        if (value === null || !Number.isInteger(value) || value <= 0) continue;
        return { c: { name, value, range: rangeOf(init), text: init.text, isNumber: init.type === 'number_literal' && /^\d+$/.test(init.text) }, key: d.startIndex };
      }
    }
  }
  return null;
}

const kindOrder = (k: string) => (k === 'load' ? 0 : k === 'store' ? 1 : 2);
function byPosition(a: AccessFinding, b: AccessFinding): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || kindOrder(a.kind) - kindOrder(b.kind);
}

function groupSites(results: SiteResult[], modelNote: string): Map<string, { results: SiteResult[]; finding: AccessFinding }> {
  const groups = new Map<string, SiteResult[]>();
  for (const r of results) {
    const list = groups.get(r.site);
    if (list) list.push(r);
    else groups.set(r.site, [r]);
  }
  const out = new Map<string, { results: SiteResult[]; finding: AccessFinding }>();
  const built = [...groups].map(([site, list]) => ({ site, results: list, finding: buildFindings(list, modelNote)[0] }));
  built.sort((a, b) => byPosition(a.finding, b.finding));
  for (const g of built) out.set(g.site, { results: g.results, finding: g.finding });
  return out;
}

const definesKey = (d: Record<string, string> | undefined): string => (d ? Object.keys(d).sort().map((k) => `${k}=${d[k]}`).join('\u0001') : '');

/**
 * The file's facts with macros given from outside (`--define`), where the file does not define them; one per set. A
 * name the file `#undef`s is not given: where it holds is a matter of lines, which the evaluator does not follow.
 */
const withDefinesMemo = new WeakMap<FileFacts, { key: string; facts: FileFacts }>();
function withDefines(facts: FileFacts, defines: Record<string, string> | undefined, text: string, sources?: HeaderMacros['sources'], ownEnd = Infinity): FileFacts {
  if (!defines || !Object.keys(defines).length) return facts;
  const key = definesKey(defines) + (sources ? Object.values(sources).map((s) => `${s.path}:${s.line}`).join('\u0001') : '') + (ownEnd === Infinity ? '' : `@${ownEnd}`);
  if (!key) return facts;
  const hit = withDefinesMemo.get(facts);
  if (hit && hit.key === key) return hit.facts;
  const macros = new Map(facts.macros);
  const undone = new Set([...text.matchAll(/^[ \t]*#[ \t]*undef[ \t]+(\w+)/gm)].map((m) => m[1]));
  let own: number | undefined;
  const ownLines = () => (own ??= ownEnd === Infinity ? Infinity : countLines(text.slice(0, ownEnd)));
  for (const [given, body] of Object.entries(defines!)) {
    const mac = definedMacro(given, body);
    const src = sources?.[given];
    if (src) Object.assign(mac, { from: src.path, line: src.line });
    const had = macros.get(mac.name);
    if (!had && !undone.has(mac.name)) macros.set(mac.name, mac);
    // the same definition, in the text of a file that includes this one (asAppended), before its `#include`: named there
    else if (had && src && !had.from && had.line > ownLines() && had.body === mac.body && String(had.params) === String(mac.params)) macros.set(mac.name, { ...had, from: src.path, line: src.line });
  }
  const out = { ...facts, macros };
  withDefinesMemo.set(facts, { key, facts: out });
  return out;
}

/** A short fingerprint of a long text (FNV-1a in two 32-bit halves, plus the length). */
function digest(text: string): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return `${text.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}

function hashKey(parts: string[]): string {
  return parts.join('\u0001');
}

/** A document the engine keeps between edits: its text, its tree, and per-kernel results for reuse. */
export class EngineDocument {
  private tree: Tree | null = null;
  private parsedText: string | null = null;
  private cache = new Map<string, KernelRun>();
  /**
   * Kernels (by name) that were running when the budget ran out: the next analysis runs them after the others, so
   * one kernel slower than the whole budget does not keep every kernel after it from being analysed.
   */
  private slow = new Set<string>();
  private blanked: Blanked[] = [];
  private closed: Closed | null = null;
  /** the facts of the last analysis, the trees their nodes live in, and the edit since. */
  private facts: FileFacts | null = null;
  private kept: Tree[] = [];
  private lastEdit: { start: number; endOld: number; endNew: number; simple: boolean; none?: boolean } | null = null;
  private fixCache = new Map<string, { fix?: PaddingFix; reason?: string }>();
  /** padding searches the budget stopped, by the fixCache key: the next analysis goes on with them. */
  private fixSearches = new Map<string, SearchState>();
  /** lines of `#if` / `#elif` conditions on `__CUDA_ARCH__` the architecture does not decide (0-based). */
  private archUndecided: number[] = [];
  /** uses of a macro that opens or closes a block whose expansion does not fit in place (see blankInactive). */
  private braceUnfit: { at: number; name: string }[] = [];
  /** `#if` chains no macro of the file decides, each of whose branches is read (see blankInactive). */
  private undecided: UndecidedChain[] = [];
  /** where the macros read from the headers the file includes were defined (see withHeaders). */
  private headerSources: HeaderMacros['sources'] | undefined;
  /** the document that analyses the file followed by its headers' declarations and its includers (see asAppended). */
  private host: EngineDocument | null = null;
  /** in that document: where the file's own text ends. */
  private ownEnd = Infinity;
  /** the document that analyses a definition cut short in the middle of the file as if it were closed (see repaired). */
  private repair: EngineDocument | null = null;

  /**
   * a repair document analyses the kernels that start on these lines (0-based, `to` excluded) and no others; the
   * second document of asAppended also those whose text matches `calls` (they call the file's `__device__` functions).
   */
  private only: { from: number; to: number; calls?: RegExp } | null = null;

  /** `nested`: a repair document, which does not repair in turn. */
  constructor(public text: string, private readonly nested = false) {}

  /** Replaces the text; the next analyze() reparses incrementally from the old tree. */
  update(text: string): void {
    this.text = text;
  }

  private reparse(arch: { lo: number; hi: number }, defines?: Record<string, string>): Tree {
    this.archUndecided = [];
    this.braceUnfit = [];
    this.undecided = [];
    const src = blankInactive(this.text, arch, this.archUndecided, defines, this.braceUnfit, this.undecided);
    if (this.tree && this.parsedText !== null && this.parsedText !== src) {
      const old = this.parsedText;
      // one edit spanning the changed middle: common prefix and suffix are kept
      const { start, endOld, endNew } = changedSpan(old, src);
      // edit a copy: the old tree stays as it was, so facts read from it stay true to their own positions
      const copy = this.tree.copy();
      copy.edit(new Edit({
        startIndex: start, oldEndIndex: endOld, newEndIndex: endNew,
        startPosition: pointAt(old, start), oldEndPosition: pointAt(old, endOld), newEndPosition: pointAt(src, endNew),
      }));
      const next = parse(src, copy);
      copy.delete();
      const before = old.slice(start, endOld), after = src.slice(start, endNew);
      this.lastEdit = {
        start, endOld, endNew,
        simple: countLines(before) === countLines(after) && !/[#<>]|__global__|__shared__/.test(before + after),
      };
      this.kept.push(this.tree);
      this.tree = next;
    } else if (!this.tree || this.parsedText !== src) {
      this.tree?.delete();
      this.tree = parse(src);
      this.lastEdit = null;
    } else this.lastEdit = { start: 0, endOld: 0, endNew: 0, simple: true, none: true };
    this.parsedText = src;
    this.blanked = [];
    this.closed = null;
    if (this.tree.rootNode.hasError) {
      const r = recover(src, this.tree);
      if (r.tree !== this.tree) {
        this.tree.delete();
        this.tree = r.tree;
        this.parsedText = r.text;
        this.blanked = r.blanked;
        this.closed = r.closed ?? null;
        this.lastEdit = null;
      }
    }
    return this.tree;
  }

  /**
   * An edit inside one kernel's body that adds no line and touches no preprocessor line, launch or __shared__
   * keeps every other fact: only that kernel is read again (a keystroke must not cost a walk of the whole file).
   */
  private reuseFacts(tree: Tree): FileFacts | null {
    const e = this.lastEdit;
    const old = this.facts;
    if (!e || !old || !e.simple) return null;
    if (e.none) return old;
    if (this.kept.length > 64) return null;
    const k = old.kernels.find((x) => x.body.startIndex < e.start && e.endOld < x.body.endIndex);
    if (!k || old.launches.some((l) => l.caller === k)) return null;
    let n: Node | null = tree.rootNode.descendantForIndex(e.start);
    while (n && !(n.startIndex === k.outer.startIndex && n.type === k.outer.type)) n = n.parent;
    if (!n || n.hasError || n.endIndex !== k.outer.endIndex + (e.endNew - e.endOld)) return null;
    const fresh = readTopLevelFunction(n);
    if (!fresh || fresh.name !== k.name || !fresh.isKernel) return null;
    const functions = new Map(old.functions);
    functions.set(k.name, (old.functions.get(k.name) ?? []).map((f) => (f === k ? fresh : f)));
    return { ...old, kernels: old.kernels.map((f) => (f === k ? fresh : f)), functions };
  }

  analyze(options: AnalyzeOptions = {}): FileAnalysis {
    // kernels a macro defines at file scope: the file with their expansions appended, in a second document
    if (!this.nested && !this.only && !this.expands) {
      const arch = archRange(options.arch);
      const x = arch ? expandFileScopeKernelMacros(this.text, arch, options.defines) : null;
      if (x) return this.withExpansions(x, options);
      this.expansion?.dispose();
      this.expansion = null;
    }
    const r = this.analyzeFile(options);
    const first = !this.nested && !this.only;
    const unread = first ? this.headerUnread : [];
    const dropped = first ? this.includersDropped : [];
    if (!unread.length && !dropped.length) return r;
    // a header found and not read: said at the include that led to it, and named among the headers, so that a host
    // analyses the file again when it changes
    const notices: Notice[] = unread.map((u) => ({
      range: { start: { line: u.line, character: 0 }, end: { line: u.line, character: 0 } },
      severity: 'information',
      message: `\`${baseName(u.path)}\`${u.via ? `, included by \`${baseName(u.via)}\`,` : ''} is not read: ${u.why}; the macros, types and constants it defines are not known here`,
    }));
    // a file that includes this one and is too long to read with it: its launches do not count, said so
    for (const p of dropped) {
      notices.push({
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'information',
        message: `\`${baseName(p.path)}\` includes this file and is not read with it: the files read with it are at most ${MAX_INCLUDER_CHARS.toLocaleString('en-US')} characters in all, and it has ${p.text.length.toLocaleString('en-US')}; its launches of this file's kernels do not count here`,
      });
    }
    const headers = [...(r.headers ?? []), ...unread.map((u) => u.path).filter((p) => !r.headers?.includes(p))];
    return { ...r, notices: [...r.notices, ...notices], ...(headers.length ? { headers } : {}) };
  }

  /** the document of the file with the kernels its file-scope macros define written out (see withExpansions). */
  private expansion: EngineDocument | null = null;
  /** in that document: it expands nothing again. */
  private expands = false;

  /**
   * The file's analysis where macros used at file scope define kernels (`DEFINE_COPY(float)`, an X-macro list
   * `TYPES(DEFINE_COPY)`) or instantiate them: the file with those uses blanked and each expansion written after it,
   * line for line as the macro's definition (syntax/file-macros.ts), is analysed in a second document; what lies in an
   * expansion is reported at the definition's line (its column, where that line has it), with an assumption naming the
   * use, and an array declared there gets no padding fix (it would edit the macro).
   */
  private withExpansions(x: FileMacroExpansion, options: AnalyzeOptions): FileAnalysis {
    if (this.expansion) this.expansion.update(x.text);
    else {
      this.expansion = new EngineDocument(x.text);
      this.expansion.expands = true;
    }
    const r = this.expansion.analyze(options);
    const lines = this.text.split('\n');
    const segOf = (n: number) => (n < x.ownLines ? null : x.segments.find((s) => n >= s.from && n < s.to) ?? null);
    const lineOf = (n: number): number | null => {
      if (n < x.ownLines) return n;
      const seg = segOf(n);
      return seg ? seg.defLine + (n - seg.from) : null;
    };
    const point = (p: Range['start']): Range['start'] | null => {
      const l = lineOf(p.line);
      return l === null ? null : { line: l, character: Math.min(p.character, lines[l]?.length ?? 0) };
    };
    const range = (g: Range): Range | null => {
      const a = point(g.start), b = point(g.end);
      return a && b ? { start: a, end: b.line === a.line && b.character >= a.character ? b : a } : null;
    };
    const shift = (t: string) => t.replace(/\b(lines? )(\d+)(?:-(\d+))?/g, (m, w: string, a: string, b?: string) => {
      const y = lineOf(Number(a) - 1);
      if (y === null || Number(a) - 1 < x.ownLines) return m;
      const z = b === undefined ? null : lineOf(Number(b) - 1);
      return `${w}${y + 1}${z !== null && z > y ? `-${z + 1}` : ''}`;
    });
    const said = (seg: ExpansionSegment) => `in the expansion of the macro \`${seg.macro}\` (line ${seg.defLine + 1}) used at line ${seg.useLine + 1}${seg.via ? ` through \`${seg.via}\`` : ''}`;
    const index = new Map<number, number>();
    const accesses: AccessFinding[] = [];
    r.accesses.forEach((a, i) => {
      const at = range(a.range), expr = range(a.exprRange), decl = range(a.declRange);
      if (!at || !expr || !decl) return;
      const seg = segOf(a.range.start.line);
      index.set(i, accesses.length);
      const told = retold(a, shift);
      accesses.push({ ...told, range: at, exprRange: expr, declRange: decl, assumptions: [...(seg ? [`kernel \`${a.kernel}\` ${said(seg)}`] : []), ...told.assumptions] });
    });
    // in the file's order: an expansion's accesses among the file's own
    const order = accesses.map((a, i) => ({ a, i })).sort((p, q) => byPosition(p.a, q.a) || p.i - q.i);
    const moved = new Map(order.map((o, k) => [o.i, k]));
    for (const [i, k] of index) index.set(i, moved.get(k)!);
    accesses.splice(0, accesses.length, ...order.map((o) => o.a));
    const arrays: ArrayFinding[] = [];
    for (const a of r.arrays) {
      const decl = range(a.declRange);
      if (!decl) continue;
      const seg = segOf(a.declRange.start.line);
      const { fix, noFixReason, ...rest } = a;
      const why = seg && (fix || noFixReason) ? { noFixReason: `\`${a.name}\` is declared ${said(seg)}: no padding fix edits a macro` } : fix ? { fix } : noFixReason ? { noFixReason } : {};
      arrays.push({ ...rest, declRange: decl, accesses: a.accesses.map((i) => index.get(i)).filter((i): i is number => i !== undefined), ...why });
    }
    const notices: Notice[] = [];
    for (const n of r.notices) {
      const at = range(n.range);
      if (at) notices.push({ ...n, range: at, message: shift(n.message) });
    }
    arrays.sort((a, b) => a.declRange.start.line - b.declRange.start.line || a.declRange.start.character - b.declRange.start.character);
    return { ...r, accesses, arrays, notices };
  }

  /** files that include this one, given and not read with it for their length (pickIncluders). */
  private includersDropped: { path: string; text: string }[] = [];

  /** headers the file's own includes led to that were found and not read (withHeaders). */
  private headerUnread: HeaderMacros['unread'] = [];

  private analyzeFile(options: AnalyzeOptions): FileAnalysis {
    // a file's own kernels (not a repair's, nor the second document's of asAppended, whose options come made)
    const first = !this.nested && !this.only;
    const wants = first && (/\b__global__\b/.test(this.text) || deviceHelpers(this.text).length > 0);
    let includers = wants ? pickIncluders(options.includedBy ?? []) : [];
    if (first) this.includersDropped = wants ? (options.includedBy ?? []).slice(0, MAX_INCLUDERS).filter((p) => !includers.includes(p)) : [];
    let headers: string[] | undefined;
    let files: { path: string; text: string }[] = [];
    let leftOut: Notice[] = [];
    if (first) {
      this.headerSources = undefined;
      this.headerUnread = [];
      const before = includedAs(this.text, options, includers);
      includers = before.includers;
      leftOut = before.notices;
      ({ options, headers, files } = this.withHeaders(options, includers, before.at));
    }
    if (first && /\b__(?:global|device)__\b/.test(this.text)) {
      const arch = archRange(options.arch) ?? archRange(undefined)!;
      const decls = files.map((f) => ({ path: f.path, decls: headerDeclarations(f.path, f.text, arch, options.defines ?? {}) })).filter((d) => d.decls.text);
      if (includers.length || decls.length) {
        const r = this.asAppended(options, decls, includers, headers ?? []);
        const said = [...leftOut, ...undecidedDeclarations(this.text, decls)];
        return said.length ? { ...r, notices: [...said, ...r.notices] } : r;
      }
    }
    this.host?.dispose();
    this.host = null;
    const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
    const own = this.analyzeOwn(options);
    if (headers?.length) own.headers = headers;
    const region = this.nested ? undefined : this.blanked[0];
    const left = deadline - Date.now();
    if (!region || own.incomplete) {
      this.repair?.dispose();
      this.repair = null;
      return own;
    }
    // the repair shares the budget: what the file's own analysis left of it
    return left > 0 ? this.repaired(own, region, { ...options, budgetMs: left }, options) : this.unrepaired(own, region, options);
  }

  /**
   * The options with the macros of the headers the file includes (`#include "..."`, read through `includes`), and of
   * those its includers include, joined to `defines`, which win over them; the headers read and their texts.
   */
  private withHeaders(options: AnalyzeOptions, includers: { path: string; text: string }[], at?: NonNullable<HeaderMacros['at']>): { options: AnalyzeOptions; headers?: string[]; files: { path: string; text: string }[] } {
    const { includes, includedBy: _, ...rest } = options;
    if (!includes) return { options: rest, files: [] };
    const arch = archRange(options.arch) ?? archRange(undefined)!;
    // the macros in force where the includers include the file decide its `#if`s and win over its headers'
    let defines: Record<string, string> = { ...options.defines, ...at?.defines };
    const sources: HeaderMacros['sources'] = { ...at?.sources };
    const files: { path: string; text: string }[] = [];
    // the file itself and the headers read so far are not read again (their include guards, or `#pragma once`)
    const seen = new Set<string>([...(options.path ? [options.path] : []), ...includers.map((p) => p.path)]);
    // the file's headers, then each includer's, looked for from the includer's own folder: the first definition wins
    for (const [text, reader] of [[this.text, includes], ...includers.map((p) => [p.text, (spec: string, from: string | null, angle?: boolean) => includes(spec, from ?? p.path, angle)])] as [string, IncludeReader][]) {
      if (!/^[ \t]*#[ \t]*include[ \t]*["<]/m.test(text)) continue;
      const h = headerMacros(text, reader, arch, defines, seen);
      if (text === this.text) this.headerUnread = h.unread;
      defines = { ...h.defines, ...defines };
      Object.assign(sources, h.sources);
      h.read.forEach((path, i) => files.push({ path, text: h.texts[i] }));
    }
    if (!files.length && !at) return { options: rest, files };
    this.headerSources = sources;
    if (!files.length) return { options: { ...rest, defines }, files };
    return { options: { ...rest, defines }, headers: files.map((f) => f.path), files };
  }

  /**
   * The file's analysis with texts read after its own, in a second document that keeps their tree between edits: the
   * declarations of the headers it includes (types and constants: header-decls.ts) and the files that include it
   * (their launches of its kernels: AnalyzeOptions.includedBy). Only the file's kernels run, a name the file defines
   * keeps its definition (collectFacts' `ownEnd`), only what lies in its own lines is kept, and a line of theirs that
   * a text names is named with its file.
   */
  private asAppended(options: AnalyzeOptions, decls: { path: string; decls: HeaderDecls }[], includers: { path: string; text: string }[], headers: string[]): FileAnalysis {
    const ownLines = countLines(this.text) + 1;
    let combined = this.text;
    // each appended text: its first line in the combined text (1-based), its line count, its file, and the line of its
    // file a line of it stands for (0-based in, 0-based out)
    const segments: { from: number; to: number; file: string; line: (k: number) => number }[] = [];
    let line = ownLines;
    const append = (text: string, path: string, at: (k: number) => number) => {
      const n = countLines(text) + 1;
      segments.push({ from: line + 1, to: line + 1 + n, file: baseName(path), line: at });
      combined += '\n' + text;
      line += n;
    };
    for (const d of decls) {
      const pieces = d.decls.lines;
      append(d.decls.text, d.path, (k) => {
        let p = pieces[0];
        for (const q of pieces) if (q.at <= k) p = q;
        return p.line + (k - p.at);
      });
    }
    for (const p of includers) append(p.text, p.path, (k) => k);
    if (this.host) this.host.update(combined);
    else this.host = new EngineDocument(combined);
    this.host.headerSources = this.headerSources;
    // the includers' own kernels are not this file's, but those that call its `__device__` helpers run them
    const fns = deviceHelpers(this.text);
    this.host.only = { from: 0, to: ownLines, ...(includers.length && fns.length ? { calls: new RegExp(`\\b(?:${fns.join('|')})\\s*[(<]`) } : {}) };
    this.host.ownEnd = this.text.length;
    const r = this.host.analyze({ ...options, includes: undefined, includedBy: undefined });
    const mine = (x: Range) => x.start.line < ownLines;
    const at = (n: number) => {
      const seg = segments.find((s) => n >= s.from && n < s.to);
      return seg ? { file: seg.file, line: seg.line(n - seg.from) + 1 } : null;
    };
    const shift = (t: string) => t.replace(/\b(lines? )(\d+)(?:-(\d+))?/g, (m, w: string, a: string, b?: string) => {
      const x = at(Number(a));
      if (!x) return m;
      const y = b === undefined ? null : at(Number(b));
      return `${w}${x.line}${y && y.file === x.file ? `-${y.line}` : ''} of ${x.file}`;
    });
    const index = new Map<number, number>();
    const accesses: AccessFinding[] = [];
    r.accesses.forEach((a, i) => {
      if (!mine(a.range)) return;
      index.set(i, accesses.length);
      accesses.push(retold(a, shift));
    });
    const arrays = r.arrays.filter((a) => mine(a.declRange)).map((a) => ({ ...a, accesses: a.accesses.map((i) => index.get(i)).filter((i): i is number => i !== undefined) }));
    const notices = r.notices.filter((n) => mine(n.range)).map((n) => ({ ...n, message: shift(n.message) }));
    const read = [...headers, ...includers.map((p) => p.path).filter((p) => !headers.includes(p))];
    return { ...r, accesses, arrays, notices, ...(read.length ? { headers: read } : {}) };
  }

  /** The budget ran out before a cut-short definition was repaired: the result is incomplete, and says so. */
  private unrepaired(own: FileAnalysis, region: Blanked, options: AnalyzeOptions): FileAnalysis {
    const at = { line: region.line, character: 0 };
    return {
      ...own,
      incomplete: true,
      notices: [...own.notices, {
        range: { start: at, end: at },
        severity: 'information',
        message: `analysis budget of ${options.budgetMs ?? DEFAULT_BUDGET_MS} ms exceeded: the definition from line ${region.line + 1}, which is not closed, is not analysed yet`,
      }],
    };
  }

  /**
   * A definition cut short in the middle of the file (an `if (...) {` typed above code, its `}` not yet) has been
   * blanked so that the definitions after it keep their results. Its own accesses come from a second document: the
   * same text with its open braces closed where it ends, as closingCandidates() writes it (if its last line or two
   * are half-typed, they are left out). Only findings inside the definition are taken from it: their positions are
   * the user's (the text changes only after them).
   */
  private repaired(own: FileAnalysis, region: Blanked, options: AnalyzeOptions, budget: AnalyzeOptions): FileAnalysis {
    const endLine = pointAt(this.text, region.end).row; // the next definition's line (0-based)
    const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
    for (const cand of closingCandidates(this.text, region)) {
      const time = deadline - Date.now();
      if (time <= 0) return this.unrepaired(own, region, budget);
      if (this.repair) this.repair.update(cand.text);
      else this.repair = new EngineDocument(cand.text, true);
      this.repair.only = { from: region.line, to: endLine };
      const r = this.repair.analyze({ ...options, budgetMs: time });
      if (r.incomplete) return this.unrepaired(own, region, budget);
      if (this.repair.blanked.some((b) => b.start <= region.start && region.start < b.end)) continue;
      const inside = (line: number) => line >= region.line && line < endLine;
      const accesses = [...own.accesses];
      const index = new Map<AccessFinding, number>();
      // a range after the definition (a file-scope array declared below it) is one line lower in the repair's text
      const back = (x: Range): Range => (x.start.line <= endLine ? x : { start: { ...x.start, line: x.start.line - 1 }, end: { ...x.end, line: x.end.line - 1 } });
      // so is a line the repair's texts name after it (`block 64x1x1 from the launch at line 31` in `main` below)
      const shift = (s: string) => s.replace(/\b(lines? )(\d+)(?:-(\d+))?/g, (_m, w: string, a: string, b?: string) => {
        const fix = (n: string) => (Number(n) > endLine + 1 ? String(Number(n) - 1) : n);
        return `${w}${fix(a)}${b === undefined ? '' : `-${fix(b)}`}`;
      });
      // an expression the grammar spans into the braces added at the region's end ends where the region does
      const regionEnd = pointAt(this.text, this.text.slice(0, region.end).trimEnd().length);
      const lines = (a: AccessFinding): AccessFinding => ({
        ...a, range: clampRange(a.range, regionEnd), exprRange: clampRange(a.exprRange, regionEnd), declRange: back(a.declRange), assumptions: a.assumptions.map(shift), message: shift(a.message),
        ...(a.reason === undefined ? {} : { reason: shift(a.reason) }),
        cases: a.cases.map((c) => ({ ...c, context: Object.fromEntries(Object.entries(c.context).map(([k, v]) => [shift(k), v])) })),
      });
      const copyOf = new Map<AccessFinding, AccessFinding>();
      for (const a of r.accesses) if (inside(a.range.start.line)) copyOf.set(a, lines(a));
      accesses.push(...copyOf.values());
      accesses.sort(byPosition);
      accesses.forEach((a, i) => index.set(a, i));
      for (const [a, c] of copyOf) index.set(a, index.get(c)!);
      const arrays = [
        ...own.arrays.map((a) => ({ ...a, accesses: a.accesses.map((i) => index.get(own.accesses[i])!) })),
        ...r.arrays.filter((a) => inside(a.declRange.start.line)).map((a) => ({ ...a, accesses: a.accesses.map((i) => index.get(r.accesses[i])).filter((i): i is number => i !== undefined) })),
      ];
      arrays.sort((a, b) => a.declRange.start.line - b.declRange.start.line || a.declRange.start.character - b.declRange.start.character);
      const braces = (cand.text.length - this.text.length - 1);
      const left = cand.blankedFrom === null ? null : pointAt(this.text, cand.blankedFrom).row;
      const lastText = pointAt(this.text, this.text.slice(0, region.end).trimEnd().length).row; // the last line left out
      const message = `the definition from line ${region.line + 1} is not closed before line ${endLine + 1}: it is analysed as if ${braces === 1 ? 'its open brace were' : `its ${braces} open braces were`} closed there` +
        (left === null ? '' : left === lastText ? `; line ${left + 1} is not analysed until it parses` : `; lines ${left + 1}-${lastText + 1} are not analysed until they parse`);
      const notices = own.notices.map((n) => (n.range.start.line === region.line && n.message.startsWith('a syntax error from line') ? { ...n, message } : n));
      notices.push(...r.notices.filter((n) => inside(n.range.start.line) && !n.message.startsWith('a syntax error')));
      return { ...own, accesses, arrays, notices };
    }
    return own;
  }

  private analyzeOwn(options: AnalyzeOptions): FileAnalysis {
    const profile = profileFor(options.arch);
    if (!profile) throw new Error(`unknown architecture \`${options.arch}\``);
    const budget = options.budgetMs ?? DEFAULT_BUDGET_MS;
    const deadline = Date.now() + budget;
    // binary data with a .cu name: parsing it would only cost time
    const nul = this.text.indexOf('\0');
    if (nul !== -1 && nul < 65536) {
      this.blanked = [];
      this.closed = null;
      const at = pointAt(this.text, nul);
      return {
        model: profile.name, accesses: [], arrays: [],
        notices: [{ range: { start: { line: at.row, character: at.column }, end: { line: at.row, character: at.column } }, severity: 'information', message: 'this file holds binary data (a NUL byte): it is not analysed as CUDA source' }],
      };
    }
    const tree = this.reparse(archRange(options.arch)!, options.defines); // every spelling profileFor takes has a range
    const text = this.parsedText!;
    let facts = this.reuseFacts(tree);
    if (!facts) {
      facts = collectFacts(tree.rootNode, text, this.ownEnd);
      for (const t of this.kept) t.delete();
      // the copy with launch macros expanded goes with these facts (their launches' nodes are in it)
      this.kept = facts.expanded ? [facts.expanded] : [];
    }
    this.facts = facts;
    facts = withDefines(facts, options.defines, text, this.headerSources, this.ownEnd);
    const notices: Notice[] = this.blanked.map((b) => ({
      range: { start: { line: b.line, character: 0 }, end: { line: b.line, character: 0 } },
      severity: 'information' as const,
      message: `a syntax error from line ${b.line + 1} reaches into the next definition: lines ${b.line + 1}-${pointAt(text, b.end).row} are not analysed until they parse`,
    }));
    for (const line of this.archUndecided) {
      const at = { line, character: 0 };
      notices.push({
        range: { start: at, end: at },
        severity: 'information',
        message: `this condition on \`__CUDA_ARCH__\` is true for some of the architectures ${options.arch ?? profile.name} covers and false for others: every branch it does not rule out is analysed (choose one architecture, such as sm_80, to analyse only its branch)`,
      });
    }
    if (this.closed) {
      const end = pointAt(this.text, this.text.length);
      const from = this.closed.blankedFrom === null ? null : pointAt(this.text, this.closed.blankedFrom).row;
      notices.push({
        range: { start: { line: end.row, character: end.column }, end: { line: end.row, character: end.column } },
        severity: 'information',
        message: `the definition from line ${this.closed.line + 1} is not closed: it is analysed as if ${this.closed.braces === 1 ? 'its open brace were' : `its ${this.closed.braces} open braces were`} closed at the end of the file` +
          (from === null ? '' : from === end.row
            ? `; line ${end.row + 1} is not analysed until it parses`
            : `; lines ${from + 1}-${end.row + 1} are not analysed until they parse`),
      });
    }
    notices.push(...sharedInFileScopeMacros(facts, text));
    for (const u of this.braceUnfit) {
      const p = pointAt(this.text, u.at);
      notices.push({
        range: { start: { line: p.row, character: p.column }, end: { line: p.row, character: p.column + u.name.length } },
        severity: 'information',
        message: `the macro \`${u.name}\` opens or closes a block, and its expansion is longer than its use here, so the file's block macros are not expanded: the statements around it are not analysed as the macro makes them, and accesses there may be missing or unknown`,
      });
    }
    const modelNote = `bank model ${profile.name}: ${profile.describe}`;
    const optKey = JSON.stringify([profile.name, options.block ?? null, !!options.wholeBlock, definesKey(options.defines)]);
    const nextCache = new Map<string, KernelRun>();
    const runs: { kernel: FunctionFact; run: KernelRun; key: string }[] = [];
    const skipped: FunctionFact[] = [];
    const signature = digest(facts.signature);
    // the kernels that ran out of budget last time go last; `runs` and `skipped` are put back in file order below
    const order = this.slow.size ? [...facts.kernels.filter((k) => !this.slow.has(k.name)), ...facts.kernels.filter((k) => this.slow.has(k.name))] : facts.kernels;
    const place = new Map(facts.kernels.map((k, i) => [k, i]));
    const slow = new Set<string>();
    for (const kernel of order) {
      const row = kernel.outer.startPosition.row;
      // a repair document: its region alone; asAppended's: the file's kernels, and the includers' that call its functions
      if (this.only && (row < this.only.from || row >= this.only.to) && !this.only.calls?.test(kernel.outer.text)) continue;
      // the `bank-lens: block` comment above the kernel is outside its text: part of the key too
      const directive = directiveOf(kernel, facts);
      const key = hashKey([optKey, `${row}:${kernel.outer.startPosition.column}`, kernel.outer.text, signature, directive ? JSON.stringify(directive.blocks) : '']);
      const cached = this.cache.get(key);
      if (cached) {
        nextCache.set(key, cached);
        runs.push({ kernel, run: cached, key });
        continue;
      }
      if (Date.now() > deadline) {
        skipped.push(kernel); // the clock is checked every 64 steps inside a kernel; a small kernel might never look
        if (this.slow.has(kernel.name)) slow.add(kernel.name); // not tried this time: still last next time
        continue;
      }
      try {
        const { instances, notes } = instancesOf(kernel, facts, options.block, deadline);
        const run: KernelRun = { results: [], capped: [], arrays: [], notes: [...notes], instances, id: ++runIds };
        const unreached: Unreached[] = [];
        for (const inst of instances) {
          const r = runInstance(kernel, inst, facts, profile, deadline, !options.wholeBlock);
          unreached.push(r.unreached);
          for (const x of r.results) run.results.push(x); // a spread of 100,000 results overflows the stack
          for (const c of r.capped) if (!run.capped.some((x) => x.line === c.line)) run.capped.push(c);
          for (const a of r.arrays) if (!run.arrays.some((x) => x.id === a.id)) run.arrays.push(a);
        }
        run.results.push(...unreachedUnknowns(kernel, facts, run, unreached, modelNote));
        nextCache.set(key, run);
        runs.push({ kernel, run, key });
      } catch (e) {
        if (!(e instanceof BudgetExceeded)) throw e;
        skipped.push(kernel);
        slow.add(kernel.name);
      }
    }
    this.cache = nextCache;
    this.slow = slow;
    if (order !== facts.kernels) {
      const byPlace = (a: FunctionFact, b: FunctionFact) => place.get(a)! - place.get(b)!;
      runs.sort((a, b) => byPlace(a.kernel, b.kernel));
      skipped.sort(byPlace);
    }
    if (skipped.length) {
      notices.push({
        range: rangeOf(skipped[0].node.childForFieldName('declarator') ?? skipped[0].node),
        severity: 'information',
        message: `analysis budget of ${budget} ms exceeded: ${skipped.length} of ${facts.kernels.length} kernels were not analysed (${skipped.slice(0, 5).map((k) => k.name).join(', ')}${skipped.length > 5 ? ', ...' : ''})`,
      });
    }
    for (const r of runs)
      for (const c of r.run.capped)
        notices.push({ range: { start: { line: c.line, character: 0 }, end: { line: c.line, character: 0 } }, severity: 'information', message: c.message });
    // findings: a site reached from one kernel only reuses that kernel's cached finding; a site several kernels
    // reach (a __device__ function) is merged from all of them
    const siteCount = new Map<string, number>();
    for (const r of runs) {
      r.run.bySite ??= groupSites(r.run.results, modelNote);
      for (const site of r.run.bySite.keys()) siteCount.set(site, (siteCount.get(site) ?? 0) + 1);
    }
    const accesses: AccessFinding[] = [];
    const arrayOf = new Map<AccessFinding, string>();
    const merged = new Map<string, SiteResult[]>();
    for (const r of runs)
      for (const [site, g] of r.run.bySite!) {
        if (siteCount.get(site) === 1) {
          accesses.push(g.finding);
          arrayOf.set(g.finding, g.results[0].arrayId);
        } else {
          const list = merged.get(site);
          if (list) for (const x of g.results) list.push(x);
          else merged.set(site, [...g.results]);
        }
      }
    // a site of a __device__ function that one kernel never reaches and another does: the other kernel's results alone
    for (const [site, list] of merged) if (list.some((r) => r.unreached) && list.some((r) => !r.unreached)) merged.set(site, list.filter((r) => !r.unreached));
    const extra = [...[...merged.values()].flat(), ...skipped.flatMap((k) => budgetUnknowns(k, facts, profile))];
    for (const g of groupSites(extra, modelNote).values()) {
      accesses.push(g.finding);
      arrayOf.set(g.finding, g.results[0].arrayId);
    }
    // runs come in document order with their findings sorted; only merged sites can be out of place
    for (let i = 1; i < accesses.length; i++)
      if (byPosition(accesses[i - 1], accesses[i]) > 0) {
        accesses.sort(byPosition);
        break;
      }
    /** the results of one array, from the runs that saw it (a keystroke must not sort every result of the file). */
    const resultsOf = (id: string) => (runsOfArray.get(id) ?? []).flatMap((r) => r.run.results.filter((x) => x.arrayId === id));
    // arrays: every __shared__ declaration seen by any run, with its accesses and its fix
    const arrayInfos = new Map<string, ArrayInfo>();
    const runsOfArray = new Map<string, typeof runs>();
    for (const r of runs)
      for (const a of r.run.arrays) {
        const list = runsOfArray.get(a.id);
        if (list) list.push(r);
        else runsOfArray.set(a.id, [r]);
      }
    for (const r of runs) for (const a of r.run.arrays) if (!arrayInfos.has(a.id)) arrayInfos.set(a.id, a);
    const accessesOfArray = new Map<string, number[]>();
    accesses.forEach((a, i) => {
      const id = arrayOf.get(a);
      if (id === undefined) return;
      const list = accessesOfArray.get(id);
      if (list) list.push(i);
      else accessesOfArray.set(id, [i]);
    });
    const arrays: ArrayFinding[] = [];
    const nextFixes = new Map<string, { fix?: PaddingFix; reason?: string }>();
    const nextSearches = new Map<string, SearchState>();
    // the padding search runs the kernels again per candidate padding. Arrays whose accesses come from the same runs
    // are searched together: one run per candidate pads all of them, each array scored on its own accesses (an
    // array's addresses do not depend on another's extents). Not where a kernel reads a size (`sizeof(tile)`), which
    // could make one array's extent change what runs
    const runsKey = (id: string) => (runsOfArray.get(id) ?? []).map((r) => r.run.id).join(' ');
    const searched = (info: ArrayInfo) => !info.external && !info.macro && info.dims.length >= 2 &&
      (accessesOfArray.get(info.id) ?? []).some((i) => accesses[i].status === 'conflict');
    const together = new Map<string, { ids: string[]; byPad: Map<number, SiteResult[]>; held?: { runs: HeldRun[]; movable: Set<string> }; moved: Map<number, SiteResult[] | null> }>();
    for (const info of arrayInfos.values()) {
      if (options.fixes === false || !searched(info)) continue;
      const involved = runsOfArray.get(info.id) ?? [];
      if (involved.some((r) => /\bsizeof\b/.test(r.kernel.node.text))) continue;
      const key = runsKey(info.id);
      const group = together.get(key);
      if (group) group.ids.push(info.id);
      else together.set(key, { ids: [info.id], byPad: new Map(), moved: new Map() });
    }
    for (const info of arrayInfos.values()) {
      const idx = accessesOfArray.get(info.id) ?? [];
      const known = idx.map((i) => accesses[i]).filter((a) => a.degree !== null);
      const worstDegree = known.length ? Math.max(...known.map((a) => a.degree!)) : null;
      const af: ArrayFinding = { name: info.name, declRange: info.declRange, typeText: info.typeText, external: info.external, accesses: idx, worstDegree };
      if (options.fixes !== false && known.some((a) => a.status === 'conflict')) {
        const involved = runsOfArray.get(info.id) ?? [];
        const fixKey = hashKey([info.name, JSON.stringify(info.declRange), ...involved.map((r) => String(r.run.id))]);
        const cachedFix = this.fixCache.get(fixKey);
        let fixDeadline = Math.max(deadline, Date.now() + 200); // a fix search may overrun the budget by 200 ms at most
        let fix: { fix?: PaddingFix; reason?: string };
        const resumed = this.fixSearches.get(fixKey);
        const state = resumed ?? { next: 1, best: null };
        try {
          // a search the budget stopped before goes on with at least one padding (the whole budget for it), so the
          // idle passes that finish it always get further
          let first = !!resumed;
          // the first run of a resumed search has the whole budget
          const budgeted = <T>(work: () => T): T => {
            if (first) fixDeadline = Math.max(fixDeadline, Date.now() + budget);
            const out = work();
            if (first) fixDeadline = Math.max(deadline, Date.now() + 200);
            first = false;
            return out;
          };
          const runAll = (dims?: Map<string, number>, consts?: Map<number, number>) => budgeted(() => {
            const out: SiteResult[] = [];
            for (const { kernel, run } of involved)
              for (const inst of run.instances) for (const x of runInstance(kernel, inst, facts!, profile, fixDeadline, !options.wholeBlock, dims, consts).results) out.push(x);
            return out;
          });
          const rerun = (dims?: Map<string, number>, consts?: Map<number, number>) => runAll(dims, consts).filter((x) => x.arrayId === info.id);
          const group = together.get(runsKey(info.id));
          const padded = (pad: number): SiteResult[] => {
            if (!group || !group.ids.includes(info.id)) return rerun(new Map([[info.id, pad]]));
            // one run, its addresses moved per padding (where that is exact), rather than a run per padding
            if (!options.rerunPadding) {
              group.held ??= budgeted(() => heldRuns(involved, group.ids, facts!, fixDeadline, !options.wholeBlock));
              if (group.held.movable.has(info.id)) {
                let moved = group.moved.get(pad);
                if (moved === undefined) group.moved.set(pad, (moved = movedResults(group.held.runs, pad, profile)));
                if (moved) return moved.filter((x) => x.arrayId === info.id);
              }
            }
            let all = group.byPad.get(pad);
            if (!all) group.byPad.set(pad, (all = runAll(new Map(group.ids.map((id) => [id, pad])))));
            return all.filter((x) => x.arrayId === info.id);
          };
          const mine = cachedFix ? [] : resultsOf(info.id);
          const rowConst = info.external && !cachedFix ? findRowConstant(mine, involved.map((r) => r.kernel), facts, text, fixDeadline) : null;
          fix = cachedFix ??
            (rowConst
              ? rowConstantFix(info, rowConst.c, mine, (pad) => rerun(undefined, new Map([[rowConst.key, rowConst.c.value + pad]])), state)
              : paddingFix(info, mine, padded, state));
        } catch (e) {
          if (!(e instanceof BudgetExceeded)) throw e;
          fix = { reason: 'the padding search was stopped by the analysis budget' };
          nextSearches.set(fixKey, state); // the paddings tried so far are not tried again
          notices.push({
            range: info.declRange,
            severity: 'information',
            message: `analysis budget of ${budget} ms exceeded: the padding search for \`${info.name}\` stopped after ${state.next - 1} of the paddings it tries; the next analysis goes on with it`,
          });
        }
        if (!cachedFix && !fix.reason?.includes('budget')) nextFixes.set(fixKey, fix);
        else if (cachedFix) nextFixes.set(fixKey, cachedFix);
        if (fix.fix) af.fix = fix.fix;
        else af.noFixReason = fix.reason;
      }
      arrays.push(af);
    }
    this.fixCache = nextFixes;
    this.fixSearches = nextSearches;
    arrays.sort((a, b) => a.declRange.start.line - b.declRange.start.line || a.declRange.start.character - b.declRange.start.character);
    // an `#if` no macro the file defines decides (`#if USE_FAST_PATH`): each branch that holds an access is analysed, said once per chain
    // and where its branches define a macro used elsewhere (`#if defined(USE_PAD)` / `#define LD (TILE + 1)` / `#else` /
    // `#define LD TILE`): the last definition is the one read, said so
    let textLines: string[] | undefined;
    for (const u of this.undecided) {
      const at = { line: u.line, character: 0 };
      const names = u.names.map((n) => `\`${n}\``);
      const what = u.arch ? `this condition on \`__CUDA_ARCH__\` is not decided for ${options.arch ?? profile.name}`
        : names.length === 0 ? 'this condition is not decided here'
        : `${andList(names)} ${names.length === 1 ? 'is' : 'are'} neither defined in this file nor given (\`-D\`), so this condition is not decided`;
      const choose = u.arch ? 'choose one architecture, such as sm_80' : `give ${names.length === 1 ? 'the macro' : 'the macros'} with \`-D\`, or the \`defines\` setting`;
      if (!u.arch && accesses.some((a) => a.range.start.line > u.line && a.range.start.line < u.end))
        notices.push({ range: { start: at, end: at }, severity: 'information', message: `${what}: every branch it does not rule out is analysed (${choose}, to analyse only the branch it takes)` });
      const lines = u.defines.length ? (textLines ??= text.split('\n')) : [];
      const used = u.defines.filter((d) => lines.some((l, k) => (k < u.line || k > u.end) && !/^[ \t]*#[ \t]*(?:define|undef|ifn?def)\b/.test(l) && new RegExp(`\\b${d.name}\\b`).test(l)));
      if (used.length) {
        const defs = used.map((d) => `\`${d.name}\` (line ${d.line + 1})`);
        // a chain of definitions alone: "every branch is analysed" is not what happens to it; this says what does
        if (u.arch && !accesses.some((a) => a.range.start.line > u.line && a.range.start.line < u.end)) {
          const k = notices.findIndex((n) => n.range.start.line === u.line && n.message.startsWith('this condition on `__CUDA_ARCH__` is true for some'));
          if (k >= 0) notices.splice(k, 1);
        }
        notices.push({
          range: { start: at, end: at },
          severity: 'information',
          message: `${what}: ${andList(defs)} ${used.length === 1 ? 'is' : 'are'} defined in its branches, and the last definition is the one analysed (${choose}, to analyse the one it takes)`,
        });
      }
    }
    // a definition closed at the end of the file: a node that reaches into the braces added after the text (an ERROR
    // the grammar spans to them) ends at the end of the text
    if (this.closed) {
      const end = pointAt(this.text, this.text.length);
      const clamp = (r: Range) => clampRange(r, end);
      accesses.forEach((a, i) => (accesses[i] = { ...a, range: clamp(a.range), exprRange: clamp(a.exprRange), declRange: clamp(a.declRange) }));
      arrays.forEach((a, i) => (arrays[i] = { ...a, declRange: clamp(a.declRange), ...(a.fix ? { fix: { ...a.fix, edits: a.fix.edits.map((e) => ({ ...e, range: clamp(e.range) })) } } : {}) }));
      for (let i = 0; i < notices.length; i++) notices[i] = { ...notices[i], range: clamp(notices[i].range) };
    }
    // a padding search stopped by the budget makes the result incomplete too: the server's idle passes finish it
    return { model: profile.name, accesses, arrays, notices, ...(skipped.length || nextSearches.size ? { incomplete: true } : {}) };
  }

  dispose(): void {
    this.expansion?.dispose();
    this.expansion = null;
    this.repair?.dispose();
    this.repair = null;
    this.host?.dispose();
    this.host = null;
    this.tree?.delete();
    this.tree = null;
    for (const t of this.kept) t.delete();
    this.kept = [];
    this.facts = null;
    this.cache.clear();
    this.fixCache.clear();
    this.fixSearches.clear();
  }
}

/** `r` ended at `end` where it reaches past it (into braces a repair added after the user's text). */
function clampRange(r: Range, end: { row: number; column: number }): Range {
  const past = (p: Range['start']) => p.line > end.row || (p.line === end.row && p.character > end.column);
  if (!past(r.end)) return r;
  const e = { line: end.row, character: end.column };
  return { start: past(r.start) ? e : r.start, end: e };
}

/** Characters compared at once while looking for the changed span: whole slices are compared natively. */
const SPAN_CHUNK = 1024;

/**
 * The span an edit changed: `old` and `src` agree before `start`, and from `endOld` in `old` / `endNew` in `src` to
 * their ends (the longest common prefix, then the longest common suffix after it). Compared a chunk at a time, then
 * character by character inside the first chunk that differs: a keystroke in a 150 KB file must not cost a loop
 * over every character.
 */
export function changedSpan(old: string, src: string): { start: number; endOld: number; endNew: number } {
  const max = Math.min(old.length, src.length);
  let start = 0;
  while (start + SPAN_CHUNK <= max && old.slice(start, start + SPAN_CHUNK) === src.slice(start, start + SPAN_CHUNK)) start += SPAN_CHUNK;
  while (start < max && old.charCodeAt(start) === src.charCodeAt(start)) start++;
  let endOld = old.length;
  let endNew = src.length;
  while (endOld - SPAN_CHUNK >= start && endNew - SPAN_CHUNK >= start &&
    old.slice(endOld - SPAN_CHUNK, endOld) === src.slice(endNew - SPAN_CHUNK, endNew)) {
    endOld -= SPAN_CHUNK;
    endNew -= SPAN_CHUNK;
  }
  while (endOld > start && endNew > start && old.charCodeAt(endOld - 1) === src.charCodeAt(endNew - 1)) {
    endOld--;
    endNew--;
  }
  return { start, endOld, endNew };
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * A macro whose expansion declares `__shared__` memory, used outside every function (ArrayFire's
 * `#define SPECIALIZE(T) template <> struct SharedMemory<T> { __device__ T *getPointer() { extern __shared__ T
 * ptr_##T##_[]; ... } };` then `SPECIALIZE(float)`): the definitions it makes are not in the parsed text, so the
 * shared memory they hand out is not followed and its accesses are not reported. Said at each such use, not left silent.
 */
function sharedInFileScopeMacros(facts: FileFacts, text: string): Notice[] {
  const out: Notice[] = [];
  const spans: [number, number][] = [];
  for (const list of facts.functions.values()) for (const f of list) spans.push([f.outer.startIndex, f.outer.endIndex]);
  for (const m of facts.macros.values()) {
    if (!/\b__shared__\b/.test(m.body)) continue;
    const use = new RegExp(`^[ \\t]*${m.name}\\b(?![ \\t]*##)`, 'gm');
    for (let hit = use.exec(text); hit; hit = use.exec(text)) {
      const at = hit.index + hit[0].length - m.name.length;
      if (spans.some(([from, to]) => at >= from && at < to)) continue;
      const p = pointAt(text, at);
      if (p.row === m.line) continue;
      out.push({
        range: { start: { line: p.row, character: p.column }, end: { line: p.row, character: p.column + m.name.length } },
        severity: 'information',
        message: `the macro \`${m.name}\` (line ${m.line + 1}) declares \`__shared__\` memory in what it defines here, outside any function: that code is not analysed, so the shared memory it declares is not followed and accesses through it are not reported`,
      });
    }
  }
  return out;
}

/**
 * A finding of a second document (withExpansions, asAppended) with the line numbers its texts name (assumptions,
 * message, reason, the cases' contexts) rewritten by `shift` into the file's.
 */
function retold(a: AccessFinding, shift: (t: string) => string): AccessFinding {
  return {
    ...a, assumptions: a.assumptions.map(shift), message: shift(a.message),
    ...(a.reason === undefined ? {} : { reason: shift(a.reason) }),
    cases: a.cases.map((c) => ({ ...c, context: Object.fromEntries(Object.entries(c.context).map(([k, v]) => [shift(k), typeof v === 'string' ? shift(v) : v])) })),
  };
}

function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

export function analyzeText(text: string, options: AnalyzeOptions = {}): FileAnalysis {
  const doc = new EngineDocument(text);
  try {
    return doc.analyze(options);
  } finally {
    doc.dispose();
  }
}
