/**
 * YAML-like indentation on Enter inside an adapter's Markdown front matter (test/client/frontMatterIndent.test.ts). VS Code
 * 1.100 indents by Markdown's rules there (none after `key:`); the client binds Enter, in adapter
 * Markdown files only, to a command that asks this function. Pure (lines in, indentation out): unit-tested.
 */

/** The lines of the front matter: from the line after the opening `---` to the one before the closing `---` or `...`. */
function frontMatter(lines: readonly string[]): { from: number; to: number } | undefined {
  if (lines[0]?.replace(/^\uFEFF/, '').trimEnd() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)\s*$/.test(lines[i]!)) return { from: 1, to: i - 1 };
  return { from: 1, to: lines.length - 1 };
}

/** A line's text without a trailing ` # comment` (outside quotes), trailing blanks trimmed. */
function withoutComment(text: string): string {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

/**
 * The indentation of the new line when Enter is pressed at (line, column) — undefined outside the
 * front matter (Markdown's own Enter then applies). The line's indentation; a list item's content
 * column (`- key: x` continues at `key`); two more after a key that opens a block (`key:`, `key: |`,
 * `key: >-`) or a bare `-`.
 */
export function frontMatterIndent(lines: readonly string[], line: number, column: number): string | undefined {
  const fm = frontMatter(lines);
  if (!fm || line < fm.from || line > fm.to) return undefined;
  const before = (lines[line] ?? '').slice(0, column);
  const code = withoutComment(before);
  const item = /^(\s*)((?:-\s+)*)/.exec(code)!;
  let indent = item[1]!.length + item[2]!.length;
  if (!code.trim()) return ' '.repeat(Math.min(indent, before.length));
  if (/:$|:\s+[|>][-+0-9]*$/.test(code) || /^\s*-$/.test(code)) indent += 2;
  return ' '.repeat(indent);
}
