// From evaluated sites to findings: the worst case of each access over every context, the cases where they
// differ, the assumptions, and the message in the bank model's words (a degree is a wavefront count, not a time).
import { AccessCase, AccessFinding, AccessKind, AccessStatus, Range, RequestFigures } from '../types';

/** One access site evaluated in one context (kernel instance x block x loop iteration), all warps reduced. */
export interface SiteResult {
  site: string;
  kind: AccessKind;
  name: string;
  range: Range;
  exprRange: Range;
  declRange: Range;
  arrayId: string;
  arrayName: string;
  elementBytes: number;
  kernel: string;
  block: [number, number, number];
  context: Record<string, number | string>;
  /** the worst warp's wavefronts and active lanes; null when the addresses are unknown. */
  summary: { degree: number; wavefronts: number; activeLanes: number } | null;
  /** the worst warp's full figures (computed on first use); null when the addresses are unknown. */
  readonly figures: RequestFigures | null;
  warp: number;
  /** wavefronts summed over every warp of the block (the padding search minimises this). */
  totalWavefronts: number;
  idealTotal: number;
  /** one past the highest byte any active lane touches (-1 when unknown): the padding of a leading constant must fit. */
  maxByte: number;
  /** bytes of dynamic shared memory the instance's launch gives; null when not known. */
  dynamicShared: number | null;
  reason?: string;
  /** the number of contexts an unknown result stands for (past the visit cap); 1 when absent. */
  more?: number;
  assumptions: string[];
  /** `bytes`: past the dynamic shared memory the launch gives (`index` a byte offset, `extent` the bytes given). */
  oob?: { lane: number; warp: number; index: number; extent: number; bytes?: true };
  flat: string | null;
  /** a cp.async write: counted as a store, its figure uncertain (the message says so). */
  asyncCopy?: boolean;
  /**
   * no thread reaches the access in this context (a site of a called __device__ function no thread of this kernel
   * reaches, see analyze.ts unreachedUnknowns; a visit with no lane active): no request, not an unknown one.
   */
  unreached?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function statusOf(f: RequestFigures): AccessStatus {
  if (f.broadcast) return 'broadcast';
  return f.degree >= 2 ? 'conflict' : 'conflict-free';
}

function better(a: SiteResult, b: SiteResult): boolean {
  // is a worse than b (the one to report)? degree, then wavefronts; on a tie the context with more active lanes
  // (a guard `tid < d` that lets one lane through first is not the request worth showing); then the first
  const fa = a.summary!, fb = b.summary!;
  return fa.degree > fb.degree || (fa.degree === fb.degree && (fa.wavefronts > fb.wavefronts || (fa.wavefronts === fb.wavefronts && fa.activeLanes > fb.activeLanes)));
}

/** `s = 4, blockSize = 256`: a context or an instance's template bindings, as messages write them. */
export function contextText(c: Record<string, number | string>): string {
  return Object.entries(c).map(([k, v]) => `${k} = ${v}`).join(', ');
}

/** Said where several lanes of an atomic update one word. */
export const SAME_WORD_ATOMICS = 'several lanes update the same word with an atomic: the bank model counts the words a request touches, but updates to one address are applied one after another, a cost it does not count';

export function message(name: string, kind: AccessKind, f: RequestFigures, worstContext: string | null, asyncCopy = false): string {
  const text = plainMessage(name, kind, f, worstContext);
  if (kind === 'atomic') return `${text} (uncertain for atomics: treated as a store)`;
  return asyncCopy ? `${text} (uncertain for cp.async writes: treated as a store)` : text;
}

function plainMessage(name: string, kind: AccessKind, f: RequestFigures, worstContext: string | null): string {
  const wf = `served in ${plural(f.wavefronts, 'wavefront')} (ideal ${f.idealWavefronts})`;
  const where = worstContext ? ` (worst case: ${worstContext})` : '';
  const status = statusOf(f);
  if (status === 'conflict') {
    const col = f.worstPhase.banks.find((b) => b.bank === f.worstBank);
    const lanes = new Set<number>();
    for (const w of col?.words ?? []) for (const l of w.lanes) lanes.add(l);
    return `${name}: ${f.degree}-way bank conflict: ${lanes.size} lanes need ${f.degree} distinct words from bank ${f.worstBank}; ${wf}${where}`;
  }
  if (status === 'broadcast') {
    const verb = kind === 'load' ? 'read' : kind === 'store' ? 'write' : 'update';
    return `${name}: broadcast: ${f.activeLanes} lanes ${verb} 1 ${f.distinctWords === 1 ? 'word' : `${f.requestedBytes}-byte location`} (${f.requestedBytes} bytes requested, ${f.resultBytes} bytes of results); ${wf}`;
  }
  return `${name}: conflict-free: ${plural(f.activeLanes, 'lane')} ${f.activeLanes === 1 ? 'needs' : 'need'} ${plural(f.distinctWords, 'distinct word')} from ${plural(f.banksUsed, 'bank')}; ${wf}${where}`;
}

/**
 * 1 or 2 where, in a request's worst phase, every lane reads the same words as lane n^1 (or n^2): the shape of an
 * LDS.128 that cc 7.x may serve in half the wavefronts (bank-model.md, "Older and special cases"); else 0.
 */
function sharedPairs(f: RequestFigures): number {
  const words = new Map<number, number[]>();
  for (const b of f.worstPhase.banks) for (const w of b.words) for (const l of w.lanes) {
    const ws = words.get(l);
    if (ws) ws.push(w.word);
    else words.set(l, [w.word]);
  }
  const key = (l: number) => words.get(l)?.sort((x, y) => x - y).join(',');
  for (const d of [1, 2]) if (f.worstPhase.lanes.length > 1 && f.worstPhase.lanes.every((l) => key(l) === key(l ^ d))) return d;
  return 0;
}

/** Groups site results by (site, kind) and builds one finding each, in source order. */
export function buildFindings(results: SiteResult[], modelNote: string): AccessFinding[] {
  const groups = new Map<string, SiteResult[]>();
  for (const r of results) {
    const list = groups.get(r.site);
    if (list) list.push(r);
    else groups.set(r.site, [r]);
  }
  const out: AccessFinding[] = [];
  for (const list of groups.values()) out.push(finding(list, modelNote));
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || kindOrder(a.kind) - kindOrder(b.kind));
  return out;
}

const kindOrder = (k: AccessKind) => (k === 'load' ? 0 : k === 'store' ? 1 : 2);

/** A context's bindings as a key (`\u0001s=4\u0001j=8`); the visits of one statement share one context object: read once. */
const contextKeys = new WeakMap<Record<string, number | string>, string>();
function contextKey(context: Record<string, number | string>): string {
  let key = contextKeys.get(context);
  if (key === undefined) {
    key = '';
    for (const k in context) key += `\u0001${k}=${context[k]}`;
    contextKeys.set(context, key);
  }
  return key;
}

function finding(list: SiteResult[], modelNote: string): AccessFinding {
  const first = list[0];
  const known = list.filter((r) => r.summary);
  const unknown = list.filter((r) => !r.summary);
  const assumptions: string[] = [];
  const said = new Set<string>(); // a site reached in thousands of contexts: a search of the list per add was quadratic
  const addA = (a: string) => {
    if (said.has(a)) return;
    said.add(a);
    assumptions.push(a);
  };
  const base = {
    array: first.name,
    sharedArray: first.arrayName,
    range: first.range,
    exprRange: first.exprRange,
    declRange: first.declRange,
    kind: first.kind,
    elementBytes: first.elementBytes,
  };
  const oobHit = list.find((r) => r.oob);
  const o = oobHit?.oob;
  const outOfBounds = o
    ? {
        lane: o.lane, warp: o.warp, index: o.index, extent: o.extent,
        message: (o.bytes
          ? `${first.name}: byte ${o.index} is past the ${o.extent} bytes of dynamic shared memory the launch gives, for lane ${o.lane} of warp ${o.warp}`
          : `${first.name}: index ${o.index} is outside the extent ${o.extent} for lane ${o.lane} of warp ${o.warp}`) +
          (Object.keys(oobHit!.context).length ? ` (${contextText(oobHit!.context)})` : '') + ` in block ${oobHit!.block.join('x')}`,
      }
    : undefined;
  // unknown for `reason`, with every context's assumptions (and `extra` after them)
  const unknownFinding = (reason: string, extra?: string): AccessFinding => {
    for (const r of list) for (const a of r.assumptions) addA(a);
    if (extra) addA(extra);
    return {
      ...base, status: 'unknown', degree: null, wavefronts: null, idealWavefronts: null, worst: null,
      kernel: first.kernel, block: first.block, cases: [], assumptions, message: `${first.name}: unknown: ${reason}`, reason,
      ...(outOfBounds ? { outOfBounds } : {}),
    };
  };
  if (known.length === 0) return unknownFinding(first.reason ?? 'the address could not be evaluated');
  let worst = known[0];
  for (const r of known) if (better(r, worst)) worst = r;
  // a request not known in some context where it is made (and not merely past the cap on contexts): where the known
  // ones need no more wavefronts than ideal, that says nothing of the others; a conflict found is one all the same
  const open = unknown.filter((r) => !r.unreached && !r.more);
  if (open.length && worst.summary!.degree <= 1) {
    let contexts = 0;
    for (const r of unknown) contexts += r.more ?? 1;
    const f = worst.figures!;
    return unknownFinding(open[0].reason ?? 'the address could not be evaluated',
      `in ${plural(known.length, 'context')} it is evaluated: ${statusOf(f)}, ${plural(f.wavefronts, 'wavefront')} (ideal ${f.idealWavefronts}); in ${plural(contexts, 'other context')} it is not`);
  }
  // cases: one per context (worst warp), listed only when the degree differs between them
  const byCtx = new Map<string, SiteResult>();
  for (const r of known) {
    const key = `${r.kernel}\u0001${r.block[0]}x${r.block[1]}x${r.block[2]}${contextKey(r.context)}`;
    const cur = byCtx.get(key);
    if (!cur || better(r, cur)) byCtx.set(key, r);
  }
  const degrees = new Set([...byCtx.values()].map((r) => r.summary!.degree));
  const blocks = new Set(known.map((r) => r.block.join('x')));
  const kernels = new Set(known.map((r) => r.kernel));
  const cases: AccessCase[] = degrees.size > 1
    ? [...byCtx.values()].map((r) => {
        const c = {
          context: { ...(kernels.size > 1 ? { kernel: r.kernel } : {}), ...(blocks.size > 1 ? { block: r.block.join('x') } : {}), ...r.context },
          block: r.block, warp: r.warp, degree: r.summary!.degree, wavefronts: r.summary!.wavefronts,
        } as AccessCase;
        // a case's full figures (its bank map) are built when something reads them: a hover, not a CLI run
        Object.defineProperty(c, 'figures', { get: () => r.figures!, enumerable: true });
        return c;
      })
    : [];
  for (const a of worst.assumptions) addA(a);
  // `atomicAdd(&hist[0], 1)` from many lanes: one word, one wavefront in the bank model, but not one update
  if (first.kind === 'atomic' && worst.figures!.activeLanes > worst.figures!.distinctWords) addA(SAME_WORD_ATOMICS);
  addA(modelNote);
  const pair = first.kind === 'load' && worst.elementBytes === 16 && modelNote.startsWith('bank model sm_50+') ? sharedPairs(worst.figures!) : 0;
  if (pair) addA(`lanes n and n^${pair} read the same 16 bytes: such a 16-byte load has been measured at 2 wavefronts, not ${worst.figures!.idealWavefronts}, on cc 7.x (uncertain: NVIDIA forum measurements, not documented)`);
  if (byCtx.size > 1) addA(`${byCtx.size} contexts evaluated (${kernels.size > 1 ? 'kernels, ' : ''}${blocks.size > 1 ? 'block shapes, ' : ''}loop iterations, instances, calls and pieces of a copy); the figures are those of the worst`);
  let others = 0;
  for (const r of unknown) others += r.more ?? 1;
  if (unknown.length) addA(`in ${plural(others, 'other context')} the access could not be evaluated: ${unknown[0].reason}`);
  const f = worst.figures!;
  const worstCtx = degrees.size > 1 ? contextText({ ...(kernels.size > 1 ? { kernel: worst.kernel } : {}), ...(blocks.size > 1 ? { block: worst.block.join('x') } : {}), ...worst.context }) || null : null;
  return {
    ...base,
    elementBytes: worst.elementBytes, // the figures' (instances may differ: `T` = float, double)
    status: statusOf(f),
    degree: f.degree,
    wavefronts: f.wavefronts,
    idealWavefronts: f.idealWavefronts,
    worst: f,
    kernel: worst.kernel,
    block: worst.block,
    cases,
    assumptions,
    message: message(first.name, first.kind, f, worstCtx, first.asyncCopy),
    ...(outOfBounds ? { outOfBounds } : {}),
  };
}
