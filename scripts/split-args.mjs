#!/usr/bin/env node
/**
 * Splits the GitHub Action's `paths` and `args` inputs into arguments the way a POSIX shell splits
 * words, without any expansion: whitespace separates; '…' keeps everything literally; "…" keeps
 * everything but lets \" \\ \$ \` escape; a backslash outside quotes keeps the next character. `$`,
 * backquotes, globs, `;`, `|` and the like stay plain characters: nothing is ever run or expanded
 * (the checker expands globs itself). Prints each argument followed by a NUL byte (for bash `mapfile
 * -d ''`); an unclosed quote is one line on stderr and exit 2.
 *
 *   node scripts/split-args.mjs "$MCP_AQL_PATHS" "$MCP_AQL_ARGS"
 */
import { pathToFileURL } from 'node:url';

/** The words of one input. */
export function splitArgs(text) {
  const out = [];
  let word = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word !== null) out.push(word);
      word = null;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word = word ?? '';
      for (i++; ; i++) {
        if (i >= text.length) throw new Error(`unclosed " in: ${text}`);
        const d = text[i];
        if (d === '"') break;
        if (d === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
        else word += d;
      }
    } else if (c === '\\' && i + 1 < text.length) {
      const next = text[++i];
      if (next !== '\n') word = (word ?? '') + next;
    } else word = (word ?? '') + c;
  }
  if (word !== null) out.push(word);
  return out;
}

const isMain = !!process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  try {
    const words = process.argv.slice(2).flatMap(splitArgs);
    process.stdout.write(words.map(w => w + '\0').join(''));
  } catch (e) {
    process.stderr.write(`mcp-aql-errors action: ${e.message}\n`);
    process.exit(2);
  }
}
