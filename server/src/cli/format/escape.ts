/**
 * Control characters made visible in human-readable output (docs/robustness.md): C0 and C1 controls, DEL (so no
 * escape sequence reaches the terminal or the CI log, and no string can start a new line), and the
 * bidirectional overrides and isolates and line separators (so no text reorders or splits what is around it),
 * and lone surrogates (a file name's byte that is not UTF-8, U+DC80–U+DCFF, shows as `\xff`).
 */
const LONE = '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const CONTROL = new RegExp('[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]' + LONE, 'g');
const CONTROL_BUT_EOL = new RegExp(
  '[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]' + LONE,
  'g',
);
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const show = (c: string): string => {
  const n = c.charCodeAt(0);
  // A byte of a file name that is not UTF-8 (node/bytePaths.ts) is shown as that byte.
  if (n >= 0xdc80 && n <= 0xdcff) return `\\x${(n - 0xdc00).toString(16)}`;
  return NAMED[c] ?? (n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`);
};

/** `\x1b`, `\n`, `\u202e`… in place of the characters themselves. */
export function escapeControls(s: string, opts: { keepLineBreaks?: boolean } = {}): string {
  return s.replace(opts.keepLineBreaks ? CONTROL_BUT_EOL : CONTROL, show);
}

/**
 * A relative path as printed at the start of a line: controls escaped, and `./` before a name that
 * would otherwise start the line with `::` (a GitHub workflow command; docs/robustness.md).
 */
export function shownPath(rel: string): string {
  const s = escapeControls(rel);
  return /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*::/.test(s) ? `./${s}` : s;
}
