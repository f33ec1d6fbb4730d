/**
 * Tabs in indentation (YAML forbids them). Left to the parser, one tab-indented line ends its mapping
 * and every later line cascades into errors at column 0 (test/service/brokenEntries.test.ts). Instead: one error on the tab
 * itself, and the text is parsed as if the line were indented like its neighbours (the previous line's
 * indentation, or two more when that line opens a block). Node ranges are mapped back to the real text.
 */
import type { Node, Pair } from 'yaml';
import { isMap, isPair, isSeq } from './yamlNodes';

export interface TabError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly code: string;
}

interface TabRepair {
  /** The text to parse instead (tab-indented lines re-indented with spaces). */
  readonly text: string;
  /** One error per tab-indented line, on its tabs (offsets in the original text). */
  readonly errors: readonly TabError[];
  /** Offset in `text` → offset in the original. */
  readonly toOriginal: (offset: number) => number;
}

/** A line whose indentation holds a tab. */
export const TAB_INDENT = /^ *\t/m;

interface Edit {
  readonly at: number;
  readonly oldLen: number;
  readonly newLen: number;
  readonly newAt: number;
}

export function repairTabs(t: string): TabRepair | undefined {
  if (!TAB_INDENT.test(t)) return undefined;
  const edits: Edit[] = [];
  const errors: TabError[] = [];
  let out = '';
  let prevIndent = 0,
    prevOpens = false;
  /** Inside a quoted scalar that spans lines: its quote and the indentation of the line that opened it. */
  let quote: { q: string; indent: number } | undefined;
  /** Inside a block scalar: the indentation of its header's line, and of its first content line once seen. */
  let block: { parent: number; content?: number } | undefined;
  let pos = 0;
  const tabError = (ws: string, at: number, message: string) => {
    const first = at + ws.indexOf('\t'),
      last = at + ws.lastIndexOf('\t') + 1;
    errors.push({ start: first, end: last, code: 'TAB_AS_INDENT', message });
  };
  const replace = (at: number, ws: string, by: number, content: string) => {
    edits.push({ at, oldLen: ws.length, newLen: by, newAt: out.length });
    out += ' '.repeat(by) + content;
  };
  while (pos < t.length) {
    const nl = t.indexOf('\n', pos);
    const end = nl < 0 ? t.length : nl + 1;
    let i = pos;
    while (i < end && (t[i] === ' ' || t[i] === '\t')) i++;
    const ws = t.slice(pos, i);
    const content = t.slice(i, end);
    const spaces = ws.indexOf('\t') < 0 ? ws.length : ws.indexOf('\t');
    const empty = /^\r?\n?$/.test(content);
    if (block && !empty && spaces <= block.parent) block = undefined;
    if (quote || block) {
      // A continuation line of a quoted scalar, or a line of a block scalar: a tab after enough spaces is
      // content (yaml-test-suite DK95 02, 08); one before them stands where indentation must be (DK95 01,
      // and a tab on a blank line of a block scalar): one error on it, and the line read as indented enough.
      const need = quote ? quote.indent + 1 : (block!.content ?? block!.parent + 1);
      if (ws.includes('\t') && spaces < need) {
        const by = empty ? 0 : quote ? need + 1 : need;
        tabError(
          ws,
          pos,
          `Tabs are not allowed as indentation; indent with spaces (read here as ${by ? `${by} spaces` : 'an empty line'}).`,
        );
        replace(pos, ws, by, content);
      } else out += t.slice(pos, end);
      if (block && !empty) block.content ??= spaces;
      if (quote) quote = openQuote(content, quote.q, quote.indent);
      pos = end;
      continue;
    }
    const blank = /^(?:#.*)?\r?\n?$/.test(content);
    if (!blank && ws.includes('\t')) {
      const indent = prevOpens ? prevIndent + 2 : prevIndent;
      tabError(
        ws,
        pos,
        `Tabs are not allowed as indentation; indent with spaces (read here as ${indent} spaces, like the lines around it).`,
      );
      replace(pos, ws, indent, content);
      prevIndent = indent;
    } else {
      out += t.slice(pos, end);
      if (!blank) prevIndent = ws.length;
    }
    if (!blank) {
      // A line ending in `:`, a lone `-`, or inside an open flow collection: the next line is its child.
      prevOpens = /[:{[,][ \t]*(?:#.*)?\r?\n?$/.test(content) || /^-[ \t]*\r?\n?$/.test(content);
      quote = openQuote(content, undefined, prevIndent);
      if (!quote && BLOCK_HEADER.test(content)) block = { parent: prevIndent };
    }
    pos = end;
  }
  const toOriginal = (x: number): number => {
    let delta = 0;
    for (const e of edits) {
      if (x < e.newAt) break;
      if (x < e.newAt + e.newLen) return e.at + Math.min(x - e.newAt, e.oldLen);
      delta = e.at + e.oldLen - (e.newAt + e.newLen);
    }
    return x + delta;
  };
  return { text: out, errors, toOriginal };
}

/** A line whose value is a block scalar: `key: |`, `- >-`, `key: |2 # note`. */
const BLOCK_HEADER = /(?:^|[ \t]|:)[|>][1-9+-]{0,2}[ \t]*(?:#.*)?\r?\n?$/;

/**
 * Whether a quoted scalar is still open at the end of `line`: `q` the quote already open at its start
 * (a continuation line), or undefined (then a quote opens where a scalar starts: at the start of the
 * line, or after `- `, `? `, `: `, `[`, `{` or `,`). Returns the open quote, with `indent` kept.
 */
export function openQuote(line: string, q: string | undefined, indent: number): { q: string; indent: number } | undefined {
  let atStart = true;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (q === '"' && c === '\\') i++;
      else if (c === q && q === "'" && line[i + 1] === "'") i++;
      else if (c === q) {
        q = undefined;
        atStart = false;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      continue;
    }
    if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) return undefined;
    if ((c === '"' || c === "'") && atStart) {
      q = c;
      continue;
    }
    const next = line[i + 1];
    const sep = next === undefined || next === ' ' || next === '\t' || next === '\r' || next === '\n';
    atStart = c === '[' || c === '{' || c === ',' || ((c === '-' || c === '?' || c === ':') && sep);
  }
  return q ? { q, indent } : undefined;
}

/** Map every node range under `pairs` / `node` through `f`, in place (each node once). */
export function remapRanges(items: readonly (Pair | Node | null | undefined)[], f: (x: number) => number): void {
  const seen = new Set<object>();
  const node = (n: Node | null | undefined): void => {
    if (!n || seen.has(n)) return;
    seen.add(n);
    const r = n.range;
    if (r) {
      r[0] = f(r[0]);
      r[1] = f(r[1]);
      r[2] = f(r[2]);
    }
    if (isMap(n) || isSeq(n)) for (const it of n.items) visit(it as Pair | Node | null);
  };
  const visit = (x: Pair | Node | null | undefined): void => {
    if (isPair(x)) {
      node(x.key as Node | null);
      node(x.value as Node | null);
    } else node(x);
  };
  for (const x of items) visit(x);
}
