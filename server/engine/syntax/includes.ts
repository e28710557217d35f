// The macros of the headers a file includes with `#include "..."` (and `#include <...>` where the include paths hold
// the header): read through a reader the host gives (the engine itself reads no file), in the order a compiler reads
// them, each header's own `#if`s decided as the file's are.
import { blankInactive } from './preprocess';
import type { Range } from './conditionals';
import type { IncludeReader } from '../types';

export interface HeaderMacros {
  /** object-like `NAME -> body` and function-like `NAME(a,b) -> body`, as `-D` gives them (parseDefine's keys). */
  defines: Record<string, string>;
  /** every header read, in the order it was first read. */
  read: string[];
  /** their texts, in the same order. */
  texts: string[];
  /** where each key of `defines` was defined: the header's path and the 0-based line. */
  sources: Record<string, { path: string; line: number }>;
  /**
   * With `target`: the macros in force where `target` is first included (directly or through other headers), as
   * defines() gives them, with where each was defined (the file's own: `selfPath`); null where it is not included.
   */
  at?: { defines: Record<string, string>; sources: Record<string, { path: string; line: number }> } | null;
  /**
   * headers found and not read (the reader's `unread`), each at the 0-based line of the file's own `#include` that
   * led to it; `via` names the header that includes it, where that is not the file.
   */
  unread: { line: number; path: string; via?: string; why: string }[];
}

/** How far the reading goes: headers including headers, how many, how much text in all. */
const CAPS = { depth: 8, headers: 64, chars: 4_000_000 };

/** An `#include "path"` (group 1) or `#include <path>` (group 2) line; the host's include graph reads the same. */
export const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)/;
const DIRECTIVE = /^[ \t]*#/;

/**
 * The lines of a text that a decision on its `#if`s needs: its directive lines (and their continuations), every other
 * line empty, so that line numbers hold and blankInactive has only the directives to read.
 */
function directivesOnly(text: string): string[] {
  const lines = text.split('\n');
  const out = new Array<string>(lines.length).fill('');
  for (let i = 0; i < lines.length; i++) {
    if (!DIRECTIVE.test(lines[i])) continue;
    out[i] = lines[i];
    while (/\\\s*$/.test(lines[i]) && i + 1 < lines.length) out[i + 1] = lines[++i];
  }
  return out;
}

/**
 * The directives of `text` that hold where `given` macros are defined: blankInactive decides its `#if`s (a decided
 * branch's directive lines go, a branch decided false goes whole; an undecided chain keeps its directive lines).
 * Each kept line: an include, a definition or an undefinition, with whether it stands in an undecided branch.
 */
function activeDirectives(text: string, arch: Range, given: Record<string, string>): { kind: 'include' | 'define' | 'undef'; line: number; arg: string; unsure: boolean; angle?: true }[] {
  const kept = blankInactive(directivesOnly(text).join('\n'), arch, undefined, given).split('\n');
  const out: { kind: 'include' | 'define' | 'undef'; line: number; arg: string; unsure: boolean; angle?: true }[] = [];
  let open = 0; // undecided `#if` chains around the line (their directive lines are the ones left)
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i];
    if (!DIRECTIVE.test(line)) continue;
    let full = line;
    const first = i;
    while (/\\\s*$/.test(kept[i]) && i + 1 < kept.length) full = full.replace(/\\\s*$/, ' ') + kept[++i];
    const m = /^[ \t]*#[ \t]*(\w+)(.*)$/s.exec(full);
    if (!m) continue;
    if (m[1] === 'if' || m[1] === 'ifdef' || m[1] === 'ifndef') open++;
    else if (m[1] === 'endif') open = Math.max(0, open - 1);
    else if (m[1] === 'include') {
      const inc = INCLUDE.exec(full);
      if (inc) out.push({ kind: 'include', line: first, arg: inc[1] ?? inc[2], unsure: open > 0, ...(inc[2] ? { angle: true as const } : {}) });
    } else if (m[1] === 'define' || m[1] === 'undef') {
      out.push({ kind: m[1], line: first, arg: m[2].replace(/\/\*.*?\*\/|\/\/.*$/gs, ' ').trim(), unsure: open > 0 });
    }
  }
  return out;
}

/** `#define F(a, b) body` -> [`F(a,b)`, `body`]; `#define N 4` -> [`N`, `4`]; `#define X` -> [`X`, ``]. */
function definition(arg: string): [string, string] | null {
  const m = /^([A-Za-z_]\w*)(\([^)]*\))?\s*([\s\S]*)$/.exec(arg);
  if (!m) return null;
  return [m[1] + (m[2] ? m[2].replace(/\s+/g, '') : ''), m[3].trim()];
}

/**
 * The macros the headers of `text` define, read as a compiler reads them: each `#include "..."` the file's `#if`s
 * leave in (decided with the macros `given` from outside, then with those read so far), its header's own `#if`s
 * decided the same way, its includes read where they stand, once per header (an include guard or `#pragma once` would
 * leave a second reading empty; `seen` holds those read already, which it adds to). A header that cannot be read adds
 * nothing. A name that two undecided branches define
 * differently (`#if X` / `#define W 64` / `#else` / `#define W 32`, with `X` not known) is left out: which holds is not
 * known. `given` wins over a header's definition of the same name; the file's own `#define`s win over both (see
 * analyze.ts's withDefines).
 */
export function headerMacros(text: string, reader: IncludeReader, arch: Range, given: Record<string, string> = {}, seen = new Set<string>(), target?: { path: string; selfPath: string }): HeaderMacros {
  const defines: Record<string, string> = {};
  const sources: Record<string, { path: string; line: number }> = {};
  const byName = new Map<string, string>(); // macro name -> its key in `defines` (function-like keys hold parameters)
  const ambiguous = new Set<string>();
  const read: string[] = [];
  const texts: string[] = [];
  const local: Record<string, string> = {}; // the file's own definitions so far: they decide a header's `#if`s too
  const localLines: Record<string, number> = {};
  let at: HeaderMacros['at'] = target ? null : undefined;
  const givenNames = new Set(Object.keys(given).map((k) => k.replace(/\(.*$/, '')));
  let chars = 0;
  const unread: HeaderMacros['unread'] = [];
  let top = 0; // the line of the file's own include being read
  const env = (): Record<string, string> => ({ ...defines, ...local, ...given });
  const visit = (src: string, from: string | null, depth: number): void => {
    for (const d of activeDirectives(src, arch, env())) {
      if (d.kind === 'include') {
        if (from === null) top = d.line;
        if (depth >= CAPS.depth || read.length >= CAPS.headers) continue;
        let h: ReturnType<IncludeReader> = null;
        try {
          h = reader(d.arg, from, d.angle);
        } catch {
          h = null;
        }
        if (target && at === null && h?.path === target.path) {
          const src: Record<string, { path: string; line: number }> = { ...sources };
          for (const k of Object.keys(local)) src[k] = { path: target.selfPath, line: localLines[k] };
          at = { defines: env(), sources: src };
        }
        if (h && 'unread' in h) {
          if (!seen.has(h.path)) unread.push({ line: top, path: h.path, ...(from === null ? {} : { via: from }), why: h.unread });
          seen.add(h.path);
          continue;
        }
        if (!h || seen.has(h.path) || chars + h.text.length > CAPS.chars) continue;
        seen.add(h.path);
        read.push(h.path);
        texts.push(h.text);
        chars += h.text.length;
        visit(h.text, h.path, depth + 1);
        continue;
      }
      const def = definition(d.arg);
      if (!def) continue;
      const name = def[0].replace(/\(.*$/, '');
      if (from === null) {
        // the file's own definitions are the file's (facts read them from its tree); they only decide what follows
        for (const k of Object.keys(local)) if (k.replace(/\(.*$/, '') === name) delete local[k];
        if (d.kind === 'define' && !d.unsure) {
          local[def[0]] = def[1];
          localLines[def[0]] = d.line;
        }
        continue;
      }
      const before = byName.get(name);
      if (before !== undefined) {
        delete defines[before];
        delete sources[before];
      }
      byName.delete(name);
      if (d.kind === 'undef' || ambiguous.has(name)) continue;
      if (d.unsure && before !== undefined) {
        ambiguous.add(name);
        continue;
      }
      defines[def[0]] = def[1];
      sources[def[0]] = { path: from, line: d.line };
      byName.set(name, def[0]);
    }
  };
  visit(text, null, 0);
  for (const [name, key] of byName) {
    if (!givenNames.has(name)) continue;
    delete defines[key];
    delete sources[key];
  }
  return { defines, read, texts, sources, unread, ...(at === undefined ? {} : { at }) };
}
