/**
 * A light tree of one YAML document (or JSON text): what the fast index scan (parse/indexScan.ts)
 * reads instead of the `yaml` package's nodes. Offsets are file offsets; scalar values are resolved
 * as the `yaml` core schema resolves them, or OTHER where the scanners do not resolve them (a float,
 * a signed or hexadecimal number: the extraction falls back to the full model where such a value matters).
 */

export const OTHER: unique symbol = Symbol('other');
export type LightValue = string | number | boolean | null | typeof OTHER;

export interface LightScalar {
  readonly k: 'scalar';
  readonly start: number;
  readonly end: number;
  readonly style: 'plain' | 'single' | 'double';
  readonly value: LightValue;
}
export interface LightPair {
  readonly key: LightScalar;
  readonly value: LightNode;
}
export interface LightMap {
  readonly k: 'map';
  readonly pairs: LightPair[];
}
export interface LightSeq {
  readonly k: 'seq';
  readonly items: LightNode[];
}
export type LightNode = LightScalar | LightMap | LightSeq;

/** Thrown by a scanner on anything it does not read exactly as the `yaml` package would: the caller builds the full model. */
export const UNSUPPORTED = { unsupported: true } as const;
export const bail = (): never => {
  throw UNSUPPORTED;
};

/** Characters a scanner never reads itself (tabs, control characters, other line breaks, byte order marks, lone CR). */
export const UNSUPPORTED_CHARS = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]|\r(?!\n)/;

/** Integers of up to 15 digits are exact; anything else numeric-looking is OTHER. */
const INT = /^[0-9]{1,15}$/;
const NUMBERISH =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** A plain scalar's value under the `yaml` core schema (null, bool, int, float, else a string). */
export function resolvePlain(s: string): LightValue {
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  const c = s.charCodeAt(0);
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (INT.test(s)) return Number(s);
    if (NUMBERISH.test(s)) return OTHER;
  }
  return s;
}

/** A single-quoted scalar (`''` is a quote) on one line. */
export function readSingle(text: string, start: number, lineEnd: number): { value: string; end: number } {
  let i = start + 1,
    value = '',
    seg = i;
  for (;;) {
    if (i >= lineEnd) bail();
    if (text.charCodeAt(i) === 39) {
      if (text.charCodeAt(i + 1) === 39 && i + 1 < lineEnd) {
        value += text.slice(seg, i + 1);
        i += 2;
        seg = i;
        continue;
      }
      break;
    }
    i++;
  }
  return { value: value + text.slice(seg, i), end: i + 1 };
}
