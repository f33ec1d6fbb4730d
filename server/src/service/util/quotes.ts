/** Spans of quoted scalars: a JSON key `"CODE"` is renamed, referenced and highlighted as CODE. */
import type { Span } from '../model/model';
import type { TextSource } from '../model/textSource';

/** A key's or scalar's span without its quotes, when the text under it is quoted. */
export function unquotedSpan(text: TextSource, span: Span): Span {
  const q = text.charCodeAt(span.start);
  return span.end - span.start >= 2 && (q === 34 || q === 39) && text.charCodeAt(span.end - 1) === q
    ? { start: span.start + 1, end: span.end - 1 }
    : span;
}
