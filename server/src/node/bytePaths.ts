/**
 * File names that are not valid UTF-8 (docs/robustness.md, "CLI output that a checkout cannot forge or
 * hide"). POSIX names are bytes; Node's string paths are UTF-8, so a stray byte would decode to U+FFFD and
 * the name would no longer reach the file (a whole folder below it vanished). A name is held as a string in
 * which each byte that is not part of valid UTF-8 is U+DC80–U+DCFF (byte + 0xDC00, Python's
 * "surrogateescape"): no valid UTF-8 name holds a lone surrogate, so the string reads back to exactly the
 * same bytes (`fsPath`), and its file: URI percent-encodes those bytes (`%FF`). Human-readable output shows
 * them as `\xff` (cli/format/escape.ts).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

const ESCAPED = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const strict = new TextDecoder('utf-8', { fatal: true });

/** The length of the valid UTF-8 sequence at `i` (Unicode's well-formed table), or 0. */
function seqLength(b: Uint8Array, i: number): number {
  const x = b[i]!;
  if (x < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => b[j] !== undefined && b[j]! >= lo && b[j]! <= hi;
  if (x >= 0xc2 && x <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    const [lo, hi] = x === 0xe0 ? [0xa0, 0xbf] : x === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const [lo, hi] = x === 0xf0 ? [0x90, 0xbf] : x === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/** A name (or path) from its bytes: valid UTF-8 decoded, every other byte as U+DC00 + byte. */
export function nameFromBytes(b: Uint8Array): string {
  try {
    return strict.decode(b);
  } catch {
    let out = '';
    for (let i = 0; i < b.length;) {
      const n = seqLength(b, i);
      if (n) {
        out += Buffer.from(b.subarray(i, i + n)).toString('utf8');
        i += n;
      } else out += String.fromCharCode(0xdc00 + b[i++]!);
    }
    return out;
  }
}

/** The bytes of a name held with escapes. */
function toBytes(p: string): Buffer {
  const parts: Buffer[] = [];
  let run = '';
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    const lone = c >= 0xdc80 && c <= 0xdcff && !(i > 0 && p.charCodeAt(i - 1) >= 0xd800 && p.charCodeAt(i - 1) <= 0xdbff);
    if (!lone) run += p[i];
    else {
      parts.push(Buffer.from(run, 'utf8'), Buffer.from([c - 0xdc00]));
      run = '';
    }
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** What to hand to `node:fs`: the string itself, or its bytes when it holds escaped bytes. */
export function fsPath(p: string): string | Buffer {
  return ESCAPED.test(p) ? toBytes(p) : p;
}

const UNRESERVED = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** A path's file: URI (`pathToFileURL`'s, except that escaped bytes are percent-encoded as themselves). */
export function fileUri(p: string): string {
  if (!ESCAPED.test(p)) return pathToFileURL(p).href;
  let out = 'file://';
  for (const byte of toBytes(p)) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The path of a file: URI (`fileURLToPath`'s, except that percent-encoded bytes that are not UTF-8 come back escaped). */
export function pathFromUri(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch (e) {
    const url = new URL(uri);
    if (url.protocol !== 'file:' || url.host) throw e;
    const raw = url.pathname.replace(/%([0-9A-Fa-f]{2})|[^%]+/g, (m, hex: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : Buffer.from(m, 'utf8').toString('latin1'),
    );
    return nameFromBytes(Buffer.from(raw, 'latin1'));
  }
}

/** `encodeURIComponent` of one path segment, escaped bytes percent-encoded as themselves (it throws on them). */
export function encodeSegment(seg: string): string {
  if (!ESCAPED.test(seg)) return encodeURIComponent(seg);
  let out = '';
  for (const byte of toBytes(seg)) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && /[A-Za-z0-9\-_.!~*'()]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
