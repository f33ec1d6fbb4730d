/**
 * Maps an offset inside a scalar's parsed value to its offset in the document, through the raw
 * source: quotes, escapes (`\"`, `\x41`, `\u00e9`), doubled single quotes and folded line breaks.
 */
import type { StringValue } from '../model/model';

const ESCAPE_LEN: Record<string, number> = { x: 4, u: 6, U: 10 };

export function valueOffsets(v: StringValue): (i: number) => number {
  const { raw, value, style } = v;
  const base = v.span.start;
  const map: number[] = new Array(value.length + 1);
  let j = style === 'single' || style === 'double' ? 1 : 0;
  if (style === 'literal' || style === 'folded') j = raw.indexOf('\n') + 1;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    // Skip indentation and folding in the raw text until it lines up with the value.
    if (style === 'double' && raw[j] === '\\') {
      map[i] = j;
      const n = raw[j + 1] ?? '';
      if (n === '\n' || n === '\r') {
        j += 2;
        while (raw[j] === ' ' || raw[j] === '\t' || raw[j] === '\n') j++;
        i--;
        continue;
      }
      j += ESCAPE_LEN[n] ?? 2;
      continue;
    }
    if (style === 'single' && c === "'" && raw[j] === "'" && raw[j + 1] === "'") {
      map[i] = j;
      j += 2;
      continue;
    }
    if (raw[j] === c) {
      map[i] = j;
      j++;
      continue;
    }
    // A folded line break (value ' ' or '\n') stands for a newline plus indentation in the source.
    const start = j;
    while (j < raw.length && (raw[j] === '\n' || raw[j] === '\r' || raw[j] === ' ' || raw[j] === '\t') && raw[j] !== c) j++;
    if (raw[j] === c) {
      map[i] = j;
      j++;
    } else {
      map[i] = start;
      j = start + 1;
    }
  }
  map[value.length] = Math.min(j, raw.length);
  return i => base + (map[Math.max(0, Math.min(i, value.length))] ?? raw.length);
}
