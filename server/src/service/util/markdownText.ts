/**
 * Adapter text inside generated markdown (the diff report, the error reference): control and bidi
 * characters made visible, markdown and HTML punctuation backslash-escaped, `@` kept from mentioning,
 * code spans fenced longer than any backtick run inside. A contract cannot put HTML, links, mentions,
 * line breaks or table cells into the page.
 *
 * Hover and completion markdown uses util/markdown.ts instead: its escapes must be undone exactly for
 * plain-text clients (`markdownToPlain`), so they are backslashes only; that file says why the two differ.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
export const visibleControls = (s: string): string => s.replace(CONTROL, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Inline code that cannot be closed early, nor carry a line break or a table cell border. */
export function mdCode(s: string): string {
  const clean = visibleControls(s).replace(/\|/g, '\\|');
  const ticks = Math.max(0, ...[...clean.matchAll(/`+/g)].map(m => m[0].length)) + 1;
  const fence = '`'.repeat(ticks);
  return `${fence}${clean.startsWith('`') || clean.endsWith('`') ? ` ${clean} ` : clean}${fence}`;
}

/** Plain text (a table cell, a paragraph). */
export const mdText = (s: string): string =>
  visibleControls(s)
    .replace(/[\\`*_{}[\]()#+!|<>~&]/g, m => `\\${m}`)
    .replace(/@/g, '@\u200b');
