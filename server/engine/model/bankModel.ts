// The bank model of ../shared/bank-model.md as code: one warp request in (a byte address per lane, or null for an
// inactive lane, and the access width), the CM-306 figures out. Profiles for cc 5.x+ (default), 1.x, 2.x, 3.x.
import { BankColumn, RequestFigures } from '../types';

export interface BankProfile {
  /** the name printed in output, e.g. `sm_50+`. */
  name: string;
  banks: number;
  /** one-line description for hover text and assumptions. */
  describe: string;
  /** lanes per phase for an access of `width` bytes. */
  phaseLanes(width: number): number;
  /** ideal wavefronts for a full request of `width` bytes. */
  /** the bank units a lane's access touches: one entry per bank it needs (its bank and the key that must be distinct). */
  units(addr: number, width: number): { bank: number; key: number }[];
  /** the same as units(), written into two arrays (no allocation); returns how many. */
  unitsInto(addr: number, width: number, banks: Int32Array, keys: Float64Array): number;
  /** notes that must accompany any figure from this profile (inferred rules). */
  notes(width: number): string[];
}

function fromUnits(us: { bank: number; key: number }[], banks: Int32Array, keys: Float64Array): number {
  us.forEach((u, i) => {
    banks[i] = u.bank;
    keys[i] = u.key;
  });
  return us.length;
}

const words = (addr: number, width: number) => {
  const out: number[] = [];
  const first = Math.floor(addr / 4);
  const last = Math.floor((addr + Math.max(width, 1) - 1) / 4);
  for (let w = first; w <= last; w++) out.push(w);
  return out;
};

/** cc 5.x and newer (the Programming Guide: 6.x up to 12.x behave the same way). */
const sm50: BankProfile = {
  name: 'sm_50+',
  banks: 32,
  describe: 'cc 5.x and newer: 32 banks of 4 bytes; lanes on the same 32-bit word never conflict',
  phaseLanes: (w) => (w <= 4 ? 32 : w <= 8 ? 16 : 8),
  units: (addr, width) => words(addr, width).map((w) => ({ bank: ((w % 32) + 32) % 32, key: w })),
  unitsInto: (addr, width, banks, keys) => {
    const first = Math.floor(addr / 4);
    const last = Math.floor((addr + Math.max(width, 1) - 1) / 4);
    for (let w = first; w <= last; w++) {
      banks[w - first] = ((w % 32) + 32) % 32;
      keys[w - first] = w;
    }
    return last - first + 1;
  },
  notes: (w) =>
    w > 4
      ? [`${w}-byte accesses are served in phases of ${w <= 8 ? 16 : 8} lanes (inferred for cc 5.x and newer, not documented)`]
      : [],
};

/** cc 2.x: 32 banks; 64-bit conflicts only within a half-warp; 128-bit in quarter-warps. */
const sm20: BankProfile = {
  ...sm50,
  name: 'sm_2x',
  describe: 'cc 2.x: 32 banks of 4 bytes; 64-bit accesses conflict only within a half-warp, 128-bit within a quarter-warp',
  notes: () => [],
};

/** cc 1.x: 16 banks; each half-warp is its own request; bytes of one word conflict; 64-bit split in two 32-bit. */
const sm1x: BankProfile = {
  name: 'sm_1x',
  banks: 16,
  describe: 'cc 1.x: 16 banks of 4 bytes; each half-warp is served on its own; different bytes of one word conflict',
  phaseLanes: () => 16,
  // distinct byte addresses in a bank conflict on cc 1.x; a wide access is split into 32-bit accesses (see request())
  units: (addr) => [{ bank: ((Math.floor(addr / 4) % 16) + 16) % 16, key: addr }],
  unitsInto: (addr, _w, banks, keys) => {
    banks[0] = ((Math.floor(addr / 4) % 16) + 16) % 16;
    keys[0] = addr;
    return 1;
  },
  notes: () => [],
};

/** cc 3.x in 4-byte bank mode: 32 banks, each 64 bits wide: words i and i+32 of one 64-word segment do not conflict. */
const sm3x: BankProfile = {
  name: 'sm_3x',
  banks: 32,
  describe: 'cc 3.x, 4-byte bank mode: 32 banks; words i and i+32 of one 64-word segment do not conflict',
  phaseLanes: (w) => (w <= 8 ? 32 : 16),
  units: (addr, width) => words(addr, width).map((w) => ({ bank: ((w % 32) + 32) % 32, key: Math.floor(w / 64) })),
  unitsInto: (addr, width, banks, keys) => fromUnits(sm3x.units(addr, width), banks, keys),
  notes: () => [],
};

/** cc 3.x in 8-byte bank mode: successive 64-bit words in successive banks. */
const sm3x8: BankProfile = {
  name: 'sm_3x-8B',
  banks: 32,
  describe: 'cc 3.x, 8-byte bank mode: successive 64-bit words in successive banks; one 64-bit word never conflicts',
  phaseLanes: (w) => (w <= 8 ? 32 : 16),
  units: (addr, width) => {
    const out: { bank: number; key: number }[] = [];
    const first = Math.floor(addr / 8);
    const last = Math.floor((addr + Math.max(width, 1) - 1) / 8);
    for (let d = first; d <= last; d++) out.push({ bank: ((d % 32) + 32) % 32, key: d });
    return out;
  },
  unitsInto: (addr, width, banks, keys) => fromUnits(sm3x8.units(addr, width), banks, keys),
  notes: () => [],
};

export const PROFILES: Record<string, BankProfile> = {
  'sm_50+': sm50,
  sm_2x: sm20,
  sm_1x: sm1x,
  sm_3x: sm3x,
  'sm_3x-8B': sm3x8,
};

/** sm_80, sm_8x, sm_90a, sm_100, compute_75, sm_35:8B, sm_50+: major, minor (a digit or x), a feature letter, `+`. */
const ARCH_SPELLING = /^(?:sm|compute)_?(\d+?)(\d|x)([a-z]?)(\+?)(?:[:-](4|8)b(?:yte)?)?$/;

/**
 * The values `__CUDA_ARCH__` takes under an `--arch` spelling: sm_80 -> 800; sm_8x -> 800-899; sm_50+ (the default,
 * and no arch) -> 500 and up; sm_1x -> 100-199. Null if the spelling is unknown.
 */
export function archRange(arch: string | undefined): { lo: number; hi: number } | null {
  const m = ARCH_SPELLING.exec((arch ?? 'sm_50+').trim().toLowerCase());
  if (!m) return null;
  const major = Number(m[1]);
  if (m[2] === 'x') return { lo: major * 100, hi: major * 100 + 99 };
  const v = major * 100 + Number(m[2]) * 10;
  return { lo: v, hi: m[4] ? Infinity : v };
}

/** Maps `--arch` spellings to a profile: sm_XX, compute_XX, sm_1x, sm_35:8B, sm_3x-8B, sm_50+. Null if unknown. */
export function profileFor(arch: string | undefined): BankProfile | null {
  if (!arch) return sm50;
  const a = arch.trim().toLowerCase();
  if (PROFILES[arch]) return PROFILES[arch];
  const m = ARCH_SPELLING.exec(a);
  if (!m) return null;
  const major = Number(m[1]);
  if (major === 1) return sm1x;
  if (major === 2) return sm20;
  if (major === 3) return m[5] === '8' ? sm3x8 : sm3x;
  if (major >= 5 || major === 0) return sm50;
  return null;
}

/** Builds one warp request's figures. `addrs[l]` is lane l's byte address, or null when the lane is inactive. */
export function request(addrs: (number | null)[], width: number, profile: BankProfile): RequestFigures {
  // cc 1.x serves a wide access as separate 32-bit accesses, each per half-warp
  const split = profile === sm1x && width > 4 ? width / 4 : 1;
  const partWidth = width / split;
  const per = profile.phaseLanes(width);
  const nPhases = Math.ceil(32 / per);
  // a lane's units in a phase: at most one per 4-byte word it touches (Kepler's 8-byte mode needs fewer)
  const cap = per * (Math.ceil(Math.max(partWidth, 1) / 4) + 1);
  const { counts, keys, units, unitKeys, banksSeen } = requestScratch(profile.banks, cap);
  banksSeen.fill(0);
  let wavefronts = 0;
  let ideal = 0;
  let degree = 0;
  // the worst phase (the first of the highest count) and its bank: its bank map is built once, at the end
  let worstAt = -1, worstPart = 0, worstBank = 0;
  let banksUsed = 0;
  const allWords = new Set<number>();
  const addrSet = new Set<number>();
  let active = 0;
  for (const a of addrs) {
    if (a === null) continue;
    active++;
    addrSet.add(a);
    const last = Math.floor((a + Math.max(width, 1) - 1) / 4);
    for (let w = Math.floor(a / 4); w <= last; w++) allWords.add(w);
  }
  for (let part = 0; part < split; part++) {
    for (let p = 0; p < nPhases; p++) {
      counts.fill(0);
      let any = false;
      let phaseWf = 0, phaseBank = 0;
      for (let l = p * per; l < Math.min(32, (p + 1) * per); l++) {
        const a = addrs[l];
        if (a === null || a === undefined) continue;
        any = true;
        const n = profile.unitsInto(a + part * partWidth, partWidth, units, unitKeys);
        for (let u = 0; u < n; u++) {
          const b = units[u], k = unitKeys[u];
          if (!banksSeen[b]) {
            banksSeen[b] = 1;
            banksUsed++;
          }
          const c = counts[b];
          let seen = false;
          for (let j = 0; j < c; j++) if (keys[b * cap + j] === k) { seen = true; break; }
          if (seen) continue;
          keys[b * cap + c] = k;
          counts[b] = c + 1;
          if (c + 1 > phaseWf || (c + 1 === phaseWf && b < phaseBank)) {
            phaseWf = c + 1;
            phaseBank = b;
          }
        }
      }
      if (!any) continue;
      ideal++;
      wavefronts += phaseWf;
      if (phaseWf > degree || worstAt < 0) {
        degree = Math.max(degree, phaseWf);
        worstAt = p;
        worstPart = part;
        worstBank = phaseBank;
      }
    }
  }
  // broadcast: every active lane addresses the same word (the Terms of bank-model.md): bytes or halves of one word
  // on different lanes too (`flags[t & 3]`), and for a wider access one location. On cc 1.x different bytes of one
  // word conflict, so there only one address is a broadcast
  let oneWord = addrSet.size === 1;
  if (!oneWord && width <= 4 && profile !== sm1x) {
    const word = Math.floor([...addrSet][0] / 4);
    oneWord = [...addrSet].every((a) => Math.floor(a / 4) === word && Math.floor((a + Math.max(width, 1) - 1) / 4) === word);
  }
  const broadcast = active >= 2 && oneWord;
  return {
    activeLanes: active,
    distinctWords: allWords.size,
    requestedBytes: allWords.size * 4,
    resultBytes: active * width,
    banksUsed,
    wavefronts,
    idealWavefronts: Math.max(ideal, 1),
    degree: Math.max(degree, active ? 1 : 0),
    broadcast,
    phases: nPhases * split,
    lanesPerPhase: per,
    worstPhase: worstAt < 0 ? { index: 0, lanes: [], banks: [] } : phaseMap(addrs, worstAt, worstPart, per, partWidth, nPhases, profile),
    worstBank,
  };
}

/** One phase's lanes and bank map: per bank (in bank order), its distinct units in lane order, each with its lanes. */
function phaseMap(addrs: (number | null)[], p: number, part: number, per: number, partWidth: number, nPhases: number, profile: BankProfile): RequestFigures['worstPhase'] {
  const columns: (BankColumn | undefined)[] = new Array(profile.banks);
  const lanes: number[] = [];
  const { units, unitKeys } = reqScratch;
  for (let l = p * per; l < Math.min(32, (p + 1) * per); l++) {
    const a = addrs[l];
    if (a === null || a === undefined) continue;
    lanes.push(l);
    const n = profile.unitsInto(a + part * partWidth, partWidth, units, unitKeys);
    for (let u = 0; u < n; u++) {
      const b = units[u], k = unitKeys[u];
      const col = (columns[b] ??= { bank: b, words: [] });
      const word = col.words.find((w) => w.word === k);
      if (!word) col.words.push({ word: k, lanes: [l] });
      else if (word.lanes[word.lanes.length - 1] !== l) word.lanes.push(l);
    }
  }
  const banks: BankColumn[] = [];
  for (const c of columns) if (c) banks.push(c);
  return { index: p + part * nPhases, lanes, banks };
}

// request()'s scratch space (it never re-enters itself), grown when a wider access needs more
let reqScratch = { banks: 0, cap: 0, counts: new Int32Array(0), keys: new Float64Array(0), units: new Int32Array(64), unitKeys: new Float64Array(64), banksSeen: new Uint8Array(0) };
function requestScratch(banks: number, cap: number): typeof reqScratch {
  if (reqScratch.banks !== banks || reqScratch.cap < cap) {
    const units = Math.max(64, cap);
    reqScratch = { banks, cap, counts: new Int32Array(banks), keys: new Float64Array(banks * cap), units: new Int32Array(units), unitKeys: new Float64Array(units), banksSeen: new Uint8Array(banks) };
  }
  return reqScratch;
}

// scratch space of warpSummaries (it never re-enters itself): allocating it per call cost more than the work
const COUNTS32 = new Int32Array(32);
const KEYS = new Float64Array(32 * 160);
const scratchBanks = new Int32Array(64);
const scratchKeys = new Float64Array(64);

/**
 * The shift, in bytes, that never changes a request's wavefronts: every unit moves to the next bank alike, so each
 * bank's count of distinct units is rotated, not changed (Kepler's 4-byte mode pairs words i and i+32 of a 64-word
 * segment, so there only whole segments may shift).
 */
export function shiftGrain(profile: BankProfile): number {
  return profile === sm3x ? 256 : profile === sm3x8 ? 8 : 4;
}

/** A whole block's wavefronts for one access: the worst warp (first of equals), and the sums over every warp. */
export interface BlockSummary {
  warp: number;
  degree: number;
  wavefronts: number;
  totalWavefronts: number;
  idealTotal: number;
}

/**
 * Wavefronts of every warp of a block (per-thread addresses, NaN = inactive), reduced to the worst warp and the
 * sums, without building bank maps: the hot path of evaluation. `request()` gives the full figures of the one warp
 * worth showing. Null when no lane of the block is active.
 */
export function blockSummary(addrs: Float64Array, width: number, profile: BankProfile): BlockSummary | null {
  const split = profile.name === 'sm_1x' && width > 4 ? width / 4 : 1;
  const partWidth = width / split;
  const per = profile.phaseLanes(width);
  const banks = profile.banks;
  const cap = 160;
  const counts = banks === 32 ? COUNTS32 : new Int32Array(banks);
  const keys = banks * cap <= KEYS.length ? KEYS : new Float64Array(banks * cap);
  // warps whose addresses differ only by a whole number of grains have the same wavefronts: remember a few
  // recent patterns
  const grain = shiftGrain(profile);
  const recent: { pattern: Float64Array; degree: number; wavefronts: number; ideal: number }[] = [];
  const simple = (profile === sm50 || profile === sm20) && width <= 4;
  const pattern = new Float64Array(32);
  let out: BlockSummary | null = null;
  // the worst warp: degree, then wavefronts, then the most active lanes (as findings/ picks among contexts: not a
  // first warp that a guard lets few lanes through), the first on a full tie
  let outLanes = 0;
  const add = (w: number, degree: number, wavefronts: number, ideal: number, lanes: number) => {
    if (!out) {
      out = { warp: w, degree, wavefronts, totalWavefronts: 0, idealTotal: 0 };
      outLanes = lanes;
    } else if (degree > out.degree || (degree === out.degree && (wavefronts > out.wavefronts || (wavefronts === out.wavefronts && lanes > outLanes)))) {
      out.warp = w;
      out.degree = degree;
      out.wavefronts = wavefronts;
      outLanes = lanes;
    }
    out.totalWavefronts += wavefronts;
    out.idealTotal += ideal;
  };
  for (let w = 0; w * 32 < addrs.length; w++) {
    let first = NaN;
    let lanes = 0;
    for (let l = 0; l < 32; l++) {
      const t = w * 32 + l;
      const a = t < addrs.length ? addrs[t] : NaN;
      if (a === a) lanes++;
      if (first !== first && a === a) first = Math.floor(a / grain) * grain;
      pattern[l] = a - first;
    }
    if (first !== first) continue;
    let hit: (typeof recent)[number] | null = null;
    for (let r = recent.length - 1; r >= 0 && !hit; r--) {
      const q = recent[r].pattern;
      let same = true;
      for (let l = 0; l < 32; l++) {
        const x = q[l], y = pattern[l];
        if (x !== y && (x === x || y === y)) {
          same = false;
          break;
        }
      }
      if (same) hit = recent[r];
    }
    if (hit) {
      add(w, hit.degree, hit.wavefronts, hit.ideal, lanes);
      continue;
    }
    let degree = 0, wavefronts = 0, ideal = 0;
    for (let part = 0; part < split; part++) {
      for (let p = 0; p * per < 32; p++) {
        counts.fill(0);
        let any = false;
        let phaseWf = 0;
        for (let l = p * per; l < (p + 1) * per; l++) {
          const t = w * 32 + l;
          if (t >= addrs.length) break;
          const a = addrs[t];
          if (Number.isNaN(a)) continue;
          any = true;
          let n = 1;
          if (simple) {
            // cc >= 5.x, one word per lane: bank = word mod 32, without the profile's call
            scratchKeys[0] = Math.floor(a / 4);
            scratchBanks[0] = scratchKeys[0] & 31;
          } else n = profile.unitsInto(a + part * partWidth, partWidth, scratchBanks, scratchKeys);
          for (let u = 0; u < n; u++) {
            const b = scratchBanks[u], k = scratchKeys[u];
            const c = counts[b];
            let seen = false;
            for (let j = 0; j < c; j++) if (keys[b * cap + j] === k) { seen = true; break; }
            if (!seen && c < cap) {
              keys[b * cap + c] = k;
              counts[b] = c + 1;
              if (c + 1 > phaseWf) phaseWf = c + 1;
            }
          }
        }
        if (!any) continue;
        ideal++;
        wavefronts += phaseWf;
        if (phaseWf > degree) degree = phaseWf;
      }
    }
    if (!ideal) continue;
    add(w, degree, wavefronts, ideal, lanes);
    if (recent.length >= 4) recent.shift();
    recent.push({ pattern: pattern.slice(), degree, wavefronts, ideal });
  }
  return out;
}

/** The lanes of one warp as request() takes them. */
export function warpLanes(addrs: Float64Array, warp: number): (number | null)[] {
  const lanes: (number | null)[] = new Array(32);
  for (let l = 0; l < 32; l++) {
    const t = warp * 32 + l;
    const a = t < addrs.length ? addrs[t] : NaN;
    lanes[l] = Number.isNaN(a) ? null : a;
  }
  return lanes;
}
