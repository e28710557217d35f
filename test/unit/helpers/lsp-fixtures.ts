// Tiny hand-made FileAnalysis values for testing the LSP renderers without the engine.
import type { AccessCase, AccessFinding, ArrayFinding, FileAnalysis, Range, RequestFigures } from '../../../server/engine';

export const r = (line: number, character: number, length: number): Range => ({
  start: { line, character },
  end: { line, character: character + length },
});

/** Figures of a one-phase, 4-byte request where lane i reads word `wordOf(i)` (null: inactive). */
export function figures(wordOf: (lane: number) => number | null): RequestFigures {
  const banks = new Map<number, Map<number, number[]>>();
  const lanes: number[] = [];
  for (let lane = 0; lane < 32; lane++) {
    const w = wordOf(lane);
    if (w === null) continue;
    lanes.push(lane);
    const bank = w % 32;
    const words = banks.get(bank) ?? new Map<number, number[]>();
    words.set(w, [...(words.get(w) ?? []), lane]);
    banks.set(bank, words);
  }
  const columns = [...banks.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([bank, words]) => ({ bank, words: [...words.entries()].map(([word, l]) => ({ word, lanes: l })) }));
  const degree = Math.max(1, ...columns.map((c) => c.words.length));
  const worstBank = columns.reduce((best, c) => (c.words.length > (columns.find((x) => x.bank === best)?.words.length ?? 0) ? c.bank : best), columns[0]?.bank ?? 0);
  const distinct = new Set(lanes.map((l) => wordOf(l))).size;
  return {
    activeLanes: lanes.length,
    distinctWords: distinct,
    requestedBytes: distinct * 4,
    resultBytes: lanes.length * 4,
    banksUsed: columns.length,
    wavefronts: degree,
    idealWavefronts: 1,
    degree,
    broadcast: distinct === 1 && lanes.length > 1,
    phases: 1,
    lanesPerPhase: 32,
    worstPhase: { index: 0, lanes, banks: columns },
    worstBank,
  };
}

function access(p: Partial<AccessFinding> & Pick<AccessFinding, 'array' | 'range' | 'status' | 'message'>): AccessFinding {
  const worst = p.worst ?? null;
  const c: AccessCase[] = worst ? [{ context: {}, block: [32, 8, 1], warp: 0, degree: worst.degree, wavefronts: worst.wavefronts, figures: worst }] : [];
  return {
    sharedArray: p.array,
    exprRange: p.range,
    declRange: r(2, 19, 4),
    kind: 'load',
    elementBytes: 4,
    degree: worst?.degree ?? null,
    wavefronts: worst?.wavefronts ?? null,
    idealWavefronts: worst?.idealWavefronts ?? null,
    kernel: 'k',
    block: [32, 8, 1],
    cases: c,
    assumptions: [],
    ...p,
    worst,
  };
}

/**
 * A file with:
 *   0 tile column read (32-way), 1 tile row write (conflict-free), 2 w[0] broadcast, 3 w[idx[t]] unknown,
 *   4 w[t + 40] out of bounds (conflict-free), 5 s[index] in a loop whose degree differs per iteration.
 */
export function fakeAnalysis(): FileAnalysis {
  const column = figures((lane) => lane * 32);
  const row = figures((lane) => lane);
  const bcast = figures(() => 0);
  // Harris "interleaved addressing": index = 2*s*tid, active while index < 256 (bank model: 2,4,8,8,8,4,2,1)
  const reductionCases: AccessCase[] = [1, 2, 4, 8, 16, 32, 64, 128].map((s) => {
    const f = figures((lane) => (2 * s * lane < 256 ? 2 * s * lane : null));
    return { context: { s }, block: [256, 1, 1], warp: 0, degree: f.degree, wavefronts: f.wavefronts, figures: f };
  });
  const accesses: AccessFinding[] = [
    access({
      array: 'tile',
      range: r(10, 4, 4),
      exprRange: r(10, 4, 34),
      status: 'conflict',
      worst: column,
      message: 'tile: 32-way bank conflict: 32 lanes need 32 distinct words from bank 0; served in 32 wavefronts (ideal 1)',
      assumptions: ['block 32x8x1 from the launch in main()'],
      cases: [0, 8, 16, 24].map((j) => ({ context: { j }, block: [32, 8, 1], warp: 0, degree: 32, wavefronts: 32, figures: column })),
    }),
    access({ array: 'tile', range: r(8, 4, 4), kind: 'store', status: 'conflict-free', worst: row, message: 'tile: conflict-free: 32 lanes, 32 distinct words in 32 banks; served in 1 wavefront' }),
    access({
      array: 'w',
      sharedArray: 'w',
      range: r(12, 14, 1),
      declRange: r(3, 19, 1),
      status: 'broadcast',
      worst: bcast,
      message: 'w: broadcast: 32 lanes read 1 word (4 bytes requested, 128 bytes of results); served in 1 wavefront',
    }),
    access({ array: 'w', range: r(13, 14, 1), declRange: r(3, 19, 1), status: 'unknown', message: 'w: unknown: the index depends on idx[t]', reason: 'the index depends on idx[t]' }),
    access({
      array: 'w',
      range: r(14, 14, 1),
      exprRange: r(14, 14, 10),
      declRange: r(3, 19, 1),
      status: 'conflict-free',
      worst: row,
      message: 'w: conflict-free: 32 lanes, 32 distinct words in 32 banks; served in 1 wavefront',
      outOfBounds: { lane: 24, warp: 0, index: 64, extent: 64, message: 'w: lane 24 of warp 0 indexes w[64], past the extent 64' },
    }),
    access({
      array: 's',
      range: r(20, 6, 1),
      exprRange: r(20, 6, 8),
      declRange: r(18, 19, 1),
      status: 'conflict',
      worst: reductionCases[2].figures,
      message: 's: 8-way bank conflict: 8 lanes need 8 distinct words from bank 0; served in 8 wavefronts (ideal 1)',
      cases: reductionCases,
      block: [256, 1, 1],
    }),
  ];
  const arrays: ArrayFinding[] = [
    {
      name: 'tile',
      declRange: r(2, 19, 4),
      typeText: 'float[32][32]',
      external: false,
      accesses: [0, 1],
      worstDegree: 32,
      fix: {
        title: 'Pad tile to [TILE_DIM][TILE_DIM + 1] (conflict-free)',
        preferred: true,
        edits: [{ range: r(2, 34, 8), newText: 'TILE_DIM + 1' }],
        newShape: '[TILE_DIM][TILE_DIM + 1]',
        padding: 1,
        totalWavefrontsBefore: 33,
        totalWavefrontsAfter: 2,
        conflictingBefore: 1,
        conflictingAfter: 0,
        accessesChecked: 2,
      },
    },
    { name: 'w', declRange: r(3, 19, 1), typeText: 'float[64]', external: false, accesses: [2, 3, 4], worstDegree: 1 },
    { name: 's', declRange: r(18, 19, 1), typeText: 'int[256]', external: false, accesses: [5], worstDegree: 8, noFixReason: 'padding does not help a stride that grows with s' },
  ];
  return {
    model: 'sm_50+',
    accesses,
    arrays,
    notices: [{ range: r(30, 0, 10), message: 'kernel big: skipped, the analysis budget of 500 ms ran out', severity: 'information' }],
  };
}
