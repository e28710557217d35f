// C/CUDA type layouts: sizes and alignments of built-in, CUDA vector, struct and alias types.

export type CType =
  | { kind: 'int'; bytes: number; signed: boolean; name: string }
  | { kind: 'float'; bytes: number; name: string }
  | { kind: 'vector'; name: string; comp: CType; count: number; bytes: number; align: number }
  | { kind: 'struct'; name: string; bytes: number; align: number; fields: Field[] }
  | { kind: 'pointer'; to: CType }
  | { kind: 'array'; elem: CType; dims: number[] }
  | { kind: 'void' }
  // `fields`: the members whose offsets are known although the layout is not (a union's, all at 0, beside a member of
  // unknown size; a struct's before its first member of unknown size)
  | { kind: 'unknown'; name: string; fields?: Field[] };

export interface Field {
  name: string;
  offset: number;
  type: CType;
  /** a bit-field's width in bits: `offset` is then the start of the aligned unit of its type that holds its bits. */
  bits?: number;
}

export const INT: CType = { kind: 'int', bytes: 4, signed: true, name: 'int' };
export const UINT: CType = { kind: 'int', bytes: 4, signed: false, name: 'unsigned int' };
export const LONG: CType = { kind: 'int', bytes: 8, signed: true, name: 'long long' };
export const ULONG: CType = { kind: 'int', bytes: 8, signed: false, name: 'unsigned long long' };
export const BOOL: CType = { kind: 'int', bytes: 1, signed: false, name: 'bool' };
export const FLOAT: CType = { kind: 'float', bytes: 4, name: 'float' };
export const DOUBLE: CType = { kind: 'float', bytes: 8, name: 'double' };

const int = (bytes: number, signed: boolean, name: string): CType => ({ kind: 'int', bytes, signed, name });
const flt = (bytes: number, name: string): CType => ({ kind: 'float', bytes, name });

export const BUILTINS: Record<string, CType> = {
  char: int(1, true, 'char'),
  'signed char': int(1, true, 'signed char'),
  'unsigned char': int(1, false, 'unsigned char'),
  bool: BOOL,
  short: int(2, true, 'short'),
  'short int': int(2, true, 'short'),
  'unsigned short': int(2, false, 'unsigned short'),
  'unsigned short int': int(2, false, 'unsigned short'),
  int: INT,
  'signed int': INT,
  signed: INT,
  unsigned: UINT,
  'unsigned int': UINT,
  long: LONG,
  'long int': LONG,
  'unsigned long': ULONG,
  'unsigned long int': ULONG,
  'long long': LONG,
  'long long int': LONG,
  'unsigned long long': ULONG,
  'unsigned long long int': ULONG,
  float: FLOAT,
  double: DOUBLE,
  'long double': DOUBLE,
  size_t: ULONG,
  ptrdiff_t: LONG,
  // glibc's <sys/types.h>, which nvcc's own headers include: every .cu file may use them without an #include
  uint: UINT,
  ushort: int(2, false, 'unsigned short'),
  ulong: ULONG,
  int8_t: int(1, true, 'int8_t'),
  uint8_t: int(1, false, 'uint8_t'),
  int16_t: int(2, true, 'int16_t'),
  uint16_t: int(2, false, 'uint16_t'),
  int32_t: INT,
  uint32_t: UINT,
  int64_t: LONG,
  uint64_t: ULONG,
  half: flt(2, 'half'),
  __half: flt(2, '__half'),
  __nv_bfloat16: flt(2, '__nv_bfloat16'),
  nv_bfloat16: flt(2, 'nv_bfloat16'),
  __nv_fp8_e4m3: int(1, false, '__nv_fp8_e4m3'),
  __nv_fp8_e5m2: int(1, false, '__nv_fp8_e5m2'),
  __nv_fp8_e8m0: int(1, false, '__nv_fp8_e8m0'),
  __nv_fp6_e2m3: int(1, false, '__nv_fp6_e2m3'),
  __nv_fp6_e3m2: int(1, false, '__nv_fp6_e3m2'),
  __nv_fp4_e2m1: int(1, false, '__nv_fp4_e2m1'),
  // the packed low-precision types of cuda_fp8.h, cuda_fp6.h and cuda_fp4.h: each a struct of one storage integer,
  // `__CUDA_ALIGN__` its size (two fp4 values share a byte)
  __nv_fp8x2_e4m3: int(2, false, '__nv_fp8x2_e4m3'),
  __nv_fp8x2_e5m2: int(2, false, '__nv_fp8x2_e5m2'),
  __nv_fp8x2_e8m0: int(2, false, '__nv_fp8x2_e8m0'),
  __nv_fp8x4_e4m3: int(4, false, '__nv_fp8x4_e4m3'),
  __nv_fp8x4_e5m2: int(4, false, '__nv_fp8x4_e5m2'),
  __nv_fp8x4_e8m0: int(4, false, '__nv_fp8x4_e8m0'),
  __nv_fp6x2_e2m3: int(2, false, '__nv_fp6x2_e2m3'),
  __nv_fp6x2_e3m2: int(2, false, '__nv_fp6x2_e3m2'),
  __nv_fp6x4_e2m3: int(4, false, '__nv_fp6x4_e2m3'),
  __nv_fp6x4_e3m2: int(4, false, '__nv_fp6x4_e3m2'),
  __nv_fp4x2_e2m1: int(1, false, '__nv_fp4x2_e2m1'),
  __nv_fp4x4_e2m1: int(2, false, '__nv_fp4x4_e2m1'),
  __nv_fp8_storage_t: int(1, false, '__nv_fp8_storage_t'),
  __nv_fp8x2_storage_t: int(2, false, '__nv_fp8x2_storage_t'),
  __nv_fp8x4_storage_t: int(4, false, '__nv_fp8x4_storage_t'),
  __nv_fp6_storage_t: int(1, false, '__nv_fp6_storage_t'),
  __nv_fp6x2_storage_t: int(2, false, '__nv_fp6x2_storage_t'),
  __nv_fp6x4_storage_t: int(4, false, '__nv_fp6x4_storage_t'),
  __nv_fp4_storage_t: int(1, false, '__nv_fp4_storage_t'),
  __nv_fp4x2_storage_t: int(1, false, '__nv_fp4x2_storage_t'),
  __nv_fp4x4_storage_t: int(2, false, '__nv_fp4x4_storage_t'),
  half2: { kind: 'vector', name: 'half2', comp: flt(2, 'half'), count: 2, bytes: 4, align: 4 },
  __half2: { kind: 'vector', name: '__half2', comp: flt(2, '__half'), count: 2, bytes: 4, align: 4 },
  __nv_bfloat162: { kind: 'vector', name: '__nv_bfloat162', comp: flt(2, '__nv_bfloat16'), count: 2, bytes: 4, align: 4 },
  nv_bfloat162: { kind: 'vector', name: 'nv_bfloat162', comp: flt(2, '__nv_bfloat16'), count: 2, bytes: 4, align: 4 },
  // cuda_fp16.h's and cuda_bf16.h's raw forms: `unsigned short x` (and `y`), aligned as the types they hold
  __half_raw: { kind: 'vector', name: '__half_raw', comp: int(2, false, 'unsigned short'), count: 1, bytes: 2, align: 2 },
  __half2_raw: { kind: 'vector', name: '__half2_raw', comp: int(2, false, 'unsigned short'), count: 2, bytes: 4, align: 4 },
  __nv_bfloat16_raw: { kind: 'vector', name: '__nv_bfloat16_raw', comp: int(2, false, 'unsigned short'), count: 1, bytes: 2, align: 2 },
  __nv_bfloat162_raw: { kind: 'vector', name: '__nv_bfloat162_raw', comp: int(2, false, 'unsigned short'), count: 2, bytes: 4, align: 4 },
};

// CUDA vector types: <base><n> with the alignments of vector_types.h
const VECTOR_BASES: [string, CType][] = [
  ['char', int(1, true, 'char')],
  ['uchar', int(1, false, 'unsigned char')],
  ['short', int(2, true, 'short')],
  ['ushort', int(2, false, 'unsigned short')],
  ['int', INT],
  ['uint', UINT],
  ['long', LONG],
  ['ulong', ULONG],
  ['longlong', LONG],
  ['ulonglong', ULONG],
  ['float', FLOAT],
  ['double', DOUBLE],
];
for (const [base, comp] of VECTOR_BASES) {
  const c = comp as { bytes: number };
  for (const n of [1, 2, 3, 4]) {
    const bytes = c.bytes * n;
    // 3-component vectors align as their component; 2 and 4 align to their size, capped at 16 bytes
    const align = n === 3 ? c.bytes : Math.min(bytes, 16);
    const name = `${base}${n}`;
    BUILTINS[name] = { kind: 'vector', name, comp, count: n, bytes, align };
  }
}

/**
 * Types of headers every such file includes, by name, where the file does not declare them: the complex types of
 * cuComplex.h (`cuFloatComplex` is `float2`, `cuDoubleComplex` `double2`) and cufft.h, in which FFT kernels keep
 * their data; MAGMA's types (magma_types.h: `magmaFloatComplex` is `cuFloatComplex`, `magmaDoubleComplex`
 * `cuDoubleComplex` and `magmaHalf` `__half`, in every CUDA build of MAGMA; `magmaHalf` is a 2-byte `short` where
 * `__half` is not there), in which its BLAS and factorization kernels keep their tiles;
 * PyTorch's reduced-precision scalar types (c10/util/Half.h, BFloat16.h), named in `at::` (or `c10::`);
 * OpenCV's byte types (opencv2/core/hal/interface.h: `uchar`, `schar`), which its CUDA modules instantiate with.
 */
export const LIBRARY_TYPES: Record<string, CType> = {
  uchar: int(1, false, 'unsigned char'),
  schar: int(1, true, 'signed char'),
  'at::Half': flt(2, 'at::Half'),
  'at::BFloat16': flt(2, 'at::BFloat16'),
  cuFloatComplex: BUILTINS.float2,
  cuComplex: BUILTINS.float2,
  cuDoubleComplex: BUILTINS.double2,
  magmaFloatComplex: BUILTINS.float2,
  magmaDoubleComplex: BUILTINS.double2,
  magmaHalf: BUILTINS.__half,
  cufftComplex: BUILTINS.float2,
  cufftDoubleComplex: BUILTINS.double2,
  cufftReal: FLOAT,
  cufftDoubleReal: DOUBLE,
};

export function sizeOf(t: CType): number | null {
  switch (t.kind) {
    case 'int':
    case 'float':
    case 'vector':
    case 'struct':
      return t.bytes;
    case 'pointer':
      return 8;
    case 'array': {
      const e = sizeOf(t.elem);
      return e === null ? null : t.dims.reduce((a, d) => a * d, e);
    }
    default:
      return null;
  }
}

export function alignOf(t: CType): number {
  switch (t.kind) {
    case 'int':
    case 'float':
      return t.bytes;
    case 'vector':
    case 'struct':
      return t.align;
    case 'pointer':
      return 8;
    case 'array':
      return alignOf(t.elem);
    default:
      return 1;
  }
}

/**
 * C layout of a struct: each field at the next multiple of its alignment (its type's, or the `alignas(n)` written on
 * it, the larger); size rounded to the struct's alignment, which is its widest field's or the `alignas(n)` /
 * `__align__(n)` written on the struct, the larger. Bit-fields (`unsigned lo : 4;`) as the System V ABI lays them out,
 * which nvcc follows on the device: each at the next bit that leaves it inside one aligned unit of its type; a
 * zero-width one moves to the next such unit; an unnamed one does not raise the struct's alignment.
 */
export function layoutStruct(name: string, members: { name: string; type: CType; align?: number; bits?: number }[], minAlign = 1, pack = Infinity): CType {
  let bit = 0;
  let align = minAlign;
  const fields: Field[] = [];
  for (const m of members) {
    // a member's own `alignas(n)` raises its alignment, never lowers it; packing (`__attribute__((packed))`,
    // `#pragma pack(n)`) lowers its type's to at most n
    const a = Math.max(Math.min(alignOf(m.type), pack), m.align ?? 1);
    const s = sizeOf(m.type);
    // the members before one of unknown size keep their offsets; its own offset depends on its unknown alignment
    if (s === null) return { kind: 'unknown', name, fields };
    if (m.bits !== undefined) {
      // packed bit-fields (pack < the type's size) are not laid out here
      if (m.type.kind !== 'int' || pack < s) return { kind: 'unknown', name: `${name} (its bit-field \`${m.name || 'unnamed'}\` is not laid out)`, fields };
      const unit = s * 8;
      if (m.bits === 0) {
        bit = Math.ceil(bit / unit) * unit;
        continue;
      }
      if (Math.floor(bit / unit) !== Math.floor((bit + m.bits - 1) / unit)) bit = Math.ceil(bit / unit) * unit;
      if (m.name) {
        fields.push({ name: m.name, offset: Math.floor(bit / unit) * s, type: m.type, bits: m.bits });
        align = Math.max(align, a);
      }
      bit += m.bits;
      continue;
    }
    let off = Math.ceil(bit / 8);
    off = Math.ceil(off / a) * a;
    fields.push({ name: m.name, offset: off, type: m.type });
    bit = (off + s) * 8;
    align = Math.max(align, a);
  }
  const off = Math.ceil(bit / 8);
  return { kind: 'struct', name, bytes: Math.ceil(off / align) * align || 0, align, fields };
}

export function typeName(t: CType): string {
  switch (t.kind) {
    case 'int':
    case 'float':
    case 'vector':
    case 'struct':
    case 'unknown':
      return t.name;
    case 'pointer':
      return `${typeName(t.to)}*`;
    case 'array':
      return `${typeName(t.elem)}${t.dims.map((d) => `[${d}]`).join('')}`;
    case 'void':
      return 'void';
  }
}

/** Member of a struct or component of a vector type (`.x`, `.y`, `.z`, `.w`). */
export function member(t: CType, name: string): Field | null {
  if (t.kind === 'struct' || t.kind === 'unknown') return t.fields?.find((f) => f.name === name) ?? null;
  if (t.kind === 'vector') {
    const i = ['x', 'y', 'z', 'w'].indexOf(name);
    const cs = sizeOf(t.comp)!;
    if (i >= 0 && i < t.count) return { name, offset: i * cs, type: t.comp };
  }
  return null;
}
