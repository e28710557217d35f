// The value of an `#if` / `#elif` condition, as far as one file can know it. Values are ranges of integers: a
// literal is one number; `__CUDA_ARCH__` is the range the chosen bank model covers (sm_80 -> 800; the default,
// compute capability 5.x and newer -> 500 and up); a name the file does not define (it may come from a header or a
// -D flag) is any value. A condition is decided only when its range excludes 0 (true) or is exactly 0 (false).

export interface Range {
  lo: number;
  hi: number;
}

export interface ConditionEnv {
  /** object-like macros defined so far in the file (name -> body); a function-like one maps to null. */
  defined: Map<string, string | null>;
  /** names `#undef`ined so far in the file: known not to be defined. */
  undefined: Set<string>;
  /** the range of `__CUDA_ARCH__` */
  arch: Range;
}

const ANY: Range = { lo: -Infinity, hi: Infinity };
const BOOL: Range = { lo: 0, hi: 1 };
const point = (v: number): Range => ({ lo: v, hi: v });
const truth = (yes: boolean): Range => point(yes ? 1 : 0);
const isPoint = (r: Range) => r.lo === r.hi && Number.isFinite(r.lo);

/** Names every CUDA device compilation defines (the tool analyses device code). */
export const ALWAYS_DEFINED = new Set(['__CUDACC__', '__NVCC__', '__CUDA_ARCH__', '__cplusplus']);
/**
 * Names no nvcc compilation defines: HIP's marks of a compilation for AMD GPUs (HIP's headers refuse
 * `__HIP_PLATFORM_AMD__` with `__NVCC__`), whose shared memory the bank model does not describe. Unless the file or
 * a -D defines one, a branch on one is decided as nvcc decides it (`#ifdef __HIP_PLATFORM_AMD__` / `#define WARP 64`
 * / `#else` / `#define WARP 32` is 32; the last definition was read). Nor does any compiler define `__INTELLISENSE__`
 * (Visual Studio's editor parser: `#ifndef __INTELLISENSE__` / `#define KERNEL_ARGS2(g, b) <<<g, b>>>` / `#else` / an
 * empty one), nor has nvcc defined `__DEVICE_EMULATION__` since CUDA 3.0 dropped device emulation (the SDK's
 * `#ifdef __DEVICE_EMULATION__` / `#define TEMP(i) CUT_BANK_CHECKER(temp, i)` / `#else` / `#define TEMP(i) temp[i]`).
 * `__HIPCC__` is not one: HIP's headers define it for nvcc too.
 */
export const NEVER_DEFINED = new Set(['__HIP_PLATFORM_AMD__', '__HIP_PLATFORM_HCC__', '__HIP_PLATFORM_SPIRV__', '__HCC__', '__HIP__', '__HIP_DEVICE_COMPILE__', '__HCC_ACCELERATOR__', '__INTELLISENSE__', '__DEVICE_EMULATION__']);

/** true, false, or null when the condition cannot be decided from this file. */
export function decide(expr: string, env: ConditionEnv): boolean | null {
  let r: Range;
  try {
    r = new CondParser(expr, env, 0).run();
  } catch {
    return null;
  }
  if (r.lo === 0 && r.hi === 0) return false;
  if (r.lo > 0 || r.hi < 0) return true;
  return null;
}

class CondParser {
  private toks: string[];
  private i = 0;

  constructor(text: string, private env: ConditionEnv, private depth: number) {
    if (depth > 16) throw new Error('too deep');
    const src = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ' ');
    this.toks = src.match(/0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>!~&|^?:(),]|\S/g) ?? [];
  }

  run(): Range {
    const r = this.ternary();
    if (this.i !== this.toks.length) throw new Error('trailing tokens');
    return r;
  }

  private peek(): string | undefined {
    return this.toks[this.i];
  }

  private eat(t: string): void {
    if (this.toks[this.i] !== t) throw new Error(`expected ${t}`);
    this.i++;
  }

  private ternary(): Range {
    const c = this.binary(0);
    if (this.peek() !== '?') return c;
    this.i++;
    const a = this.ternary();
    this.eat(':');
    const b = this.ternary();
    if (c.lo > 0 || c.hi < 0) return a;
    if (c.lo === 0 && c.hi === 0) return b;
    return { lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) };
  }

  private static readonly LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

  private binary(level: number): Range {
    if (level >= CondParser.LEVELS.length) return this.unary();
    let a = this.binary(level + 1);
    for (let op = this.peek(); op !== undefined && CondParser.LEVELS[level].includes(op); op = this.peek()) {
      this.i++;
      const b = this.binary(level + 1);
      a = apply(op, a, b);
    }
    return a;
  }

  private unary(): Range {
    const t = this.peek();
    if (t === '!' || t === '-' || t === '+' || t === '~') {
      this.i++;
      const v = this.unary();
      if (t === '+') return v;
      if (t === '-') return { lo: -v.hi, hi: -v.lo };
      if (t === '~') return isPoint(v) ? point(~v.lo) : ANY;
      return v.lo > 0 || v.hi < 0 ? truth(false) : v.lo === 0 && v.hi === 0 ? truth(true) : BOOL;
    }
    return this.primary();
  }

  private primary(): Range {
    const t = this.toks[this.i++];
    if (t === undefined) throw new Error('end of condition');
    if (t === '(') {
      const v = this.ternary();
      this.eat(')');
      return v;
    }
    if (/^\d/.test(t)) {
      const digits = t.replace(/[uUlL]+$/, '');
      return point(/^0\d/.test(digits) ? parseInt(digits, 8) : Number(digits));
    }
    if (t === 'defined') {
      const paren = this.peek() === '(';
      if (paren) this.i++;
      const name = this.toks[this.i++];
      if (!name || !/^[A-Za-z_]\w*$/.test(name)) throw new Error('defined without a name');
      if (paren) this.eat(')');
      if (this.env.defined.has(name) || ALWAYS_DEFINED.has(name)) return truth(true);
      if (this.env.undefined.has(name) || NEVER_DEFINED.has(name)) return truth(false);
      return BOOL;
    }
    if (/^[A-Za-z_]/.test(t)) {
      if (this.peek() === '(') throw new Error('function-like macro in a condition');
      if (t === 'true') return truth(true);
      if (t === 'false') return truth(false);
      if (t === '__CUDA_ARCH__') return this.env.arch;
      const body = this.env.defined.get(t);
      if (body) return new CondParser(body, this.env, this.depth + 1).run();
      if (!this.env.defined.has(t) && NEVER_DEFINED.has(t)) return point(0);
      return ANY;
    }
    throw new Error(`unexpected ${t}`);
  }
}

function apply(op: string, a: Range, b: Range): Range {
  switch (op) {
    case '||':
      if (a.lo > 0 || a.hi < 0 || b.lo > 0 || b.hi < 0) return truth(true);
      if (a.lo === 0 && a.hi === 0 && b.lo === 0 && b.hi === 0) return truth(false);
      return BOOL;
    case '&&':
      if ((a.lo === 0 && a.hi === 0) || (b.lo === 0 && b.hi === 0)) return truth(false);
      if ((a.lo > 0 || a.hi < 0) && (b.lo > 0 || b.hi < 0)) return truth(true);
      return BOOL;
    case '<': return compare(a.hi < b.lo, a.lo >= b.hi);
    case '<=': return compare(a.hi <= b.lo, a.lo > b.hi);
    case '>': return compare(a.lo > b.hi, a.hi <= b.lo);
    case '>=': return compare(a.lo >= b.hi, a.hi < b.lo);
    case '==': return compare(isPoint(a) && isPoint(b) && a.lo === b.lo, a.hi < b.lo || b.hi < a.lo);
    case '!=': return compare(a.hi < b.lo || b.hi < a.lo, isPoint(a) && isPoint(b) && a.lo === b.lo);
    case '+': return { lo: a.lo + b.lo, hi: a.hi + b.hi };
    case '-': return { lo: a.lo - b.hi, hi: a.hi - b.lo };
  }
  if (!isPoint(a) || !isPoint(b)) return ANY;
  const x = a.lo, y = b.lo;
  switch (op) {
    case '*': return point(x * y);
    case '/': if (y === 0) throw new Error('division by zero'); return point(Math.trunc(x / y));
    case '%': if (y === 0) throw new Error('division by zero'); return point(x % y);
    case '<<': return point(x * 2 ** y);
    case '>>': return point(Math.floor(x / 2 ** y));
    case '&': return point(Number(BigInt(x) & BigInt(y)));
    case '|': return point(Number(BigInt(x) | BigInt(y)));
    case '^': return point(Number(BigInt(x) ^ BigInt(y)));
  }
  throw new Error(`operator ${op}`);
}

function compare(always: boolean, never: boolean): Range {
  return always ? truth(true) : never ? truth(false) : BOOL;
}
