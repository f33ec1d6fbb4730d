/**
 * GitHub workflow commands that no text of ours may forge (docs/robustness.md, "CLI output that a checkout cannot forge or hide"). The runner takes a line
 * for a command when, after .NET's TrimStart, it starts with `::` (`::error …::`, `::stop-commands::`,
 * `::add-mask::`), and — the legacy form — when it holds `##[` anywhere. Only our own `github`
 * annotations (an exact shape, every property escaped) may look like one; in every other line a
 * leading `::` loses its first colon and `##[` its second `#`, escaped in the syntax of the output:
 * `\x3a`/`\x23` in text (as escapeControls shows characters), `\u0023` inside JSON strings, `&#35;` in XML.
 */

/** .NET's Char.IsWhiteSpace: what the runner's TrimStart removes before looking for `::`. */
const LEAD = /^([\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*):/;
const LEGACY = /##\[/g;
/** The only command lines we write: `github` annotations of check, verify and diff (their properties escape `:` `,` `%` CR LF). */
const OWN = /^::(?:error|warning|notice)(?: [A-Za-z]+=[^\r\n:,]*(?:,[A-Za-z]+=[^\r\n:,]*)*)?::[^\r\n]*$/;

export type OutputSyntax = 'text' | 'json' | 'xml';
const HASH: Record<OutputSyntax, string> = { text: '#\\x23[', json: '#\\u0023[', xml: '#&#35;[' };

/** Whether a line would be read as a workflow command. */
export const isCommandLine = (line: string): boolean =>
  /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*::/.test(line) || line.includes('##[');

/** A line as the runner must not read it; `own` lets our exact annotation shape through. */
function neutralLine(line: string, syntax: OutputSyntax, own: boolean): string {
  if (own && OWN.test(line)) return line;
  let s = line.includes('##[') ? line.replace(LEGACY, HASH[syntax]) : line;
  if (isCommandLine(s)) s = s.replace(LEAD, '$1\\x3a');
  return s;
}

/**
 * Every line of `text` (split at CR LF, CR and LF, the runner's line ends) made harmless. `atLineStart`
 * false: the text continues a line already written, so its first piece cannot start a command.
 */
export function neutralizeCommands(
  text: string,
  syntax: OutputSyntax = 'text',
  opts: { own?: boolean; atLineStart?: boolean } = {},
): string {
  if (!text.includes('::') && !text.includes('##[')) return text;
  const parts = text.split(/(\r\n|\r|\n)/);
  for (let i = 0; i < parts.length; i += 2) {
    const p = parts[i]!;
    if (i === 0 && opts.atLineStart === false) parts[i] = p.replace(LEGACY, HASH[syntax]);
    else parts[i] = neutralLine(p, syntax, !!opts.own);
  }
  return parts.join('');
}

/** A value as indented JSON text with a final newline, `##[` escaped inside its strings. */
export const jsonText = (value: unknown): string => neutralizeCommands(JSON.stringify(value, null, 2) + '\n', 'json');
