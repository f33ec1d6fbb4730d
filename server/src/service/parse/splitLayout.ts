/**
 * The line-based split of the chunked parse (parse/chunkedParse.ts): top-level keys, and the
 * error_codes / error_mapping blocks further into one piece per entry (an entry starts at its key).
 * Undefined when the text does not look like a block mapping at its root.
 */
import type { Piece } from './reuseLayout';

const SPLIT_BLOCK = /^(?:error_codes|error_mapping)[ \t]*:[ \t]*(?:#[^\n]*)?\r?$/;

/**
 * Split into top-level key chunks; error_codes / error_mapping further into entries. Every piece is made with its
 * `chunk` field (undefined until the parse gives it one): that first assignment makes the field writable in V8's
 * eyes at the open, so the keystroke that later gives an entry its new chunk (patchEntry.ts) does not deoptimise
 * the move of every later entry, compiled by then.
 */
export function splitTop<C>(text: string): Piece<C>[] | undefined {
  const pieces: Piece<C>[] = [];
  let cur: Piece<C> | undefined;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    const c = text[pos]!;
    // A tab-indented line continues the current key (the chunk's parse reports the tab).
    if (c !== ' ' && c !== '#' && c !== '\n' && c !== '\r' && c !== '\t') {
      if (c === '-' || c === '{' || c === '[' || c === '?') return undefined;
      if (cur) cur.end = pos;
      cur = { start: cur ? pos : 0, end: lineEnd, chunk: undefined };
      pieces.push(cur);
    }
    if (cur) cur.end = lineEnd;
    pos = lineEnd;
  }
  if (!pieces.length) return undefined;
  pieces[pieces.length - 1]!.end = text.length;
  for (const p of pieces) {
    const firstNl = text.indexOf('\n', p.start);
    const headEnd = firstNl < 0 || firstNl >= p.end ? p.end : firstNl + 1;
    if (SPLIT_BLOCK.test(text.slice(p.start, headEnd).replace(/\n$/, ''))) splitBlock(text, p, headEnd);
  }
  return pieces;
}

function splitBlock<C>(text: string, p: Piece<C>, headEnd: number): void {
  const sub: Piece<C>[] = [];
  let indent = -1;
  let pos = headEnd;
  let headerEnd = headEnd;
  while (pos < p.end) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 || nl >= p.end ? p.end : nl + 1;
    let i = pos;
    while (i < lineEnd && text[i] === ' ') i++;
    const c = text[i];
    const blank = i >= lineEnd || c === '\n' || c === '\r' || c === '#';
    if (!blank) {
      const ind = i - pos;
      if (indent < 0) indent = ind;
      if (c === '\t') {
        if (!sub.length) return;
      } else if (ind < indent) return;
      else if (ind === indent) {
        if (c === '-' || c === '?' || c === '{' || c === '[') return;
        // An entry starts at its key, not at its line: the indentation before the key belongs to the
        // previous chunk, where a whole parse also places an empty value that ends there.
        if (sub.length) sub[sub.length - 1]!.end = i;
        else headerEnd = i;
        sub.push({ start: i, end: lineEnd, chunk: undefined });
        pos = lineEnd;
        continue;
      } else if (!sub.length) return;
    }
    if (sub.length) sub[sub.length - 1]!.end = lineEnd;
    else headerEnd = lineEnd;
    pos = lineEnd;
  }
  if (!sub.length) return;
  p.header = { start: p.start, end: headerEnd, chunk: undefined };
  p.sub = sub;
}
