/**
 * Text from an adapter file (a stranger's checkout) inside hover and completion markdown: shown as
 * text, never as a picture, a link or HTML.
 *
 * Why not util/markdownText.ts, which escapes adapter text for the diff report and the error reference:
 * the two rules differ because their readers do. Here the reader is the editor's hover (VS Code's
 * markdown renderer, one paragraph) or, for a plain-text client, `markdownToPlain` below, which must undo
 * every escape exactly — so each escape is a backslash (no `@`+zero-width space, no `\uXXXX` for
 * controls, which would show in the plain text), line breaks become spaces (a hover line is a
 * paragraph), and a code span swaps its backticks for `'` (a single-backtick span that
 * `markdownToPlain` strips). markdownText.ts writes pages that GitHub and other renderers show and that
 * are read as files: it makes controls visible (a pull-request comment must not hide a bidi override),
 * keeps `@` from mentioning, keeps `|` from splitting a table cell and fences code spans long enough to
 * keep every backtick; none of that needs to be undone.
 */

/**
 * The characters that start markdown syntax (CommonMark and GFM) in running text, each backslash-escaped:
 * `\` `` ` `` `*` `~` `|` `#` `!` `[` `]` `<` `>` `&` `@` (code, emphasis, strike-through, tables,
 * headings, links and pictures, HTML and autolinks, entities, e-mail autolinks); `_` unless it stands
 * between letters or digits (where it cannot emphasize); `:` before `/` and `.` after `www` (URL
 * autolinks).
 */
const SYNTAX = /[\\`*~|#![\]<>&@]|_(?![A-Za-z0-9])|(?<![A-Za-z0-9])_|:(?=\/)|(?<=\bwww)\./gi;
/** At the start: a list item, a thematic break or a setext underline. */
const LEADING = /^(\s*)([-+=]|\d+[.)])/;

/**
 * `text` as literal markdown text, one paragraph (line breaks become spaces): no emphasis, link,
 * picture, HTML, entity, autolink, list, heading or table syntax survives.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' ')
    .replace(SYNTAX, '\\$&')
    .replace(LEADING, (_, space: string, mark: string) => `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}`);
}

/**
 * `text` as an inline code span: rendered verbatim by markdown. Backticks become `'` (they would close
 * the span) and line breaks spaces (a blank line would end it and let the rest render as markdown).
 */
export function codeSpan(text: string): string {
  return '`' + text.replace(/`/g, "'").replace(/\r\n?|\n|\u2028|\u2029/g, ' ') + '`';
}

/** The plain text of markdown made here: bold and code markers dropped, backslash escapes undone. */
export function markdownToPlain(md: string): string {
  return md.replace(/\\([!-/:-@[-`{-~])|\*\*|`/g, (_, p: string | undefined) => p ?? '');
}
