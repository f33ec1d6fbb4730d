/** Spans of quoted scalars: a JSON key `"CODE"` is renamed, referenced and highlighted as CODE. */
import type { Span } from '../model/model';

/** A key's or scalar's span without its quotes, when the text under it is quoted. */
export function unquotedSpan(text: string, span: Span): Span {
  const q = text[span.start];
  return span.end - span.start >= 2 && (q === '"' || q === "'") && text[span.end - 1] === q
    ? { start: span.start + 1, end: span.end - 1 }
    : span;
}
