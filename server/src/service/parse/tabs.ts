/**
 * Tabs in indentation (YAML forbids them). Left to the parser, one tab-indented line ends its mapping
 * and every later line cascades into errors at column 0 (issue 11). Instead: one error on the tab
 * itself, and the text is parsed as if the line were indented like its neighbours (the previous line's
 * indentation, or two more when that line opens a block). Node ranges are mapped back to the real text.
 */
import { isMap, isPair, isSeq, type Node, type Pair } from 'yaml';

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
  let pos = 0;
  while (pos < t.length) {
    const nl = t.indexOf('\n', pos);
    const end = nl < 0 ? t.length : nl + 1;
    let i = pos;
    while (i < end && (t[i] === ' ' || t[i] === '\t')) i++;
    const ws = t.slice(pos, i);
    const content = t.slice(i, end);
    const blank = /^(?:#.*)?\r?\n?$/.test(content);
    if (!blank && ws.includes('\t')) {
      const indent = prevOpens ? prevIndent + 2 : prevIndent;
      const first = pos + ws.indexOf('\t'),
        last = pos + ws.lastIndexOf('\t') + 1;
      errors.push({
        start: first,
        end: last,
        code: 'TAB_AS_INDENT',
        message: `Tabs are not allowed as indentation; indent with spaces (read here as ${indent} spaces, like the lines around it).`,
      });
      edits.push({ at: pos, oldLen: ws.length, newLen: indent, newAt: out.length });
      out += ' '.repeat(indent) + content;
      prevIndent = indent;
    } else {
      out += t.slice(pos, end);
      if (!blank) prevIndent = ws.length;
    }
    // A line ending in `:`, a lone `-`, or inside an open flow collection: the next line is its child.
    if (!blank) prevOpens = /[:{[,][ \t]*(?:#.*)?\r?\n?$/.test(content) || /^-[ \t]*\r?\n?$/.test(content);
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
