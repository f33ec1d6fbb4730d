/**
 * How deep YAML (or JSON) text nests, found by one linear scan before the `yaml` parse: the parser
 * and the composer recurse once per level, and on Node 20's default stack they overflow near 800
 * levels of flow collections (930 of block ones), which surfaces as a false `yaml.syntax` "Maximum
 * call stack size exceeded" or aborts the process. Text nested deeper than MAX_NESTING is not parsed.
 *
 * The scan counts block collections by indentation (a line that starts a key or a `-` / `?` / `:`
 * indicator opens a level; a `-` entry sits half a column deeper than its parent key, so a sequence
 * at its key's indentation still counts), and flow collections by `[` `{` outside quoted scalars and
 * comments; block scalar bodies are skipped. It never counts fewer levels than the parser builds; on
 * odd text (plain multi-line scalars with indicators) it may count a few more.
 */

/** The deepest nesting parsed; far below the ~800 levels that overflow the parser, far above real adapters. */
export const MAX_NESTING = 256;

/**
 * The deepest nesting the fast index scan reads (parse/scanYaml.ts, parse/scanJson.ts; deeper text goes to
 * the model). A text read within SHALLOW levels is far below MAX_NESTING however it is counted (the scan
 * below counts at most a few levels more than the parser builds, and only on multi-line plain scalars,
 * which the index scan does not read), so the index pass skips this scan for it.
 */
export const SHALLOW = 64;

export interface TooDeep {
  /** Offset of the first collection past the limit (its bracket, indicator or key). */
  readonly offset: number;
  readonly limit: number;
}

import type { CST } from 'yaml';

const SPACE = 32,
  TAB = 9,
  LF = 10,
  CR = 13;
const isBreak = (c: number) => c === LF || c === CR;
const isBlank = (c: number) => c === SPACE || c === TAB;
/** After an indicator: a space, a tab, a line break or the end. */
const endsToken = (c: number) => Number.isNaN(c) || isBlank(c) || isBreak(c);
const BLOCK_SCALAR_HEADER = /[|>][-+0-9]*[ \t]*(?:#[^\r\n]*)?(?=[\r\n]|$)/y;

/** The first place `text[start, end)` nests deeper than `limit`, or undefined when it does not. */
export function nestingOverflow(text: string, start = 0, end = text.length, limit = MAX_NESTING): TooDeep | undefined {
  const block: number[] = []; // positions (column, or column + 0.5 for an indicator's collection)
  /** Open flow collections: `[`, `{`, and `m` for the single-pair mapping a `key: value` entry of a `[` makes. */
  const flowStack: number[] = [];
  let flow = 0;
  let i = start;
  let blockScalarIndent = -1; // >= 0 while inside a block scalar's body: lines indented deeper belong to it
  let colonSeen = false; // in a `{`: the current entry's `:` was read
  // No closures over this state (a closure would keep `flow` and `colonSeen` in a heap context): a flow collection
  // opens by `flowStack.push(kind); flow++; colonSeen = false` and closes by the reverse, written out where they happen.
  while (i < end) {
    // ---- A line starts at i (outside flow collections and quoted scalars).
    let p = i;
    while (p < end && (text.charCodeAt(p) === SPACE || text.charCodeAt(p) === TAB)) p++;
    const indent = p - i;
    const c0 = text.charCodeAt(p);
    // Lines read no further: blank, a comment, a block scalar's body, a directive (one `skipLine` for all of them:
    // each call is compiled in again, and this function is among the largest TurboFan compiles of a check).
    let skip = p >= end || isBreak(c0) || c0 === 35; /* # */
    if (!skip && blockScalarIndent >= 0) {
      if (indent > blockScalarIndent) skip = true;
      else blockScalarIndent = -1;
    }
    if (skip || (indent === 0 && c0 === 37) /* % directive */) {
      i = skipLine(text, p, end);
      continue;
    }
    if (indent === 0 && docMarkerAt(text, p)) {
      block.length = 0; // a new document
      p += 3;
    }
    // Leading indicators: each `- `, `? ` or `: ` opens a collection half a column deeper than where it stands.
    for (;;) {
      const c = text.charCodeAt(p);
      if ((c === 45 /* - */ || c === 63 /* ? */ || c === 58) /* : */ && endsToken(text.charCodeAt(p + 1))) {
        if (openBlock(block, p - i + 0.5) > limit) return { offset: p, limit };
        p++;
        while (p < end && isBlank(text.charCodeAt(p))) p++;
      } else break;
    }
    const contentCol = p - i;
    // A block scalar's body is indented deeper than the node that owns it: the key, or the last indicator.
    const ownerCol = p > i + indent ? lastIndicatorCol(text, i + indent, p) - i : indent;
    // ---- The rest of the line, and any flow collection or quoted scalar it opens (which may span lines).
    let valueStart = true; // a scalar, a quote or a flow collection may start here
    let keyed = false;
    let afterQuoted = false; // a quoted scalar just ended: a bracket after it opens a collection (an error, read on)
    let preKey = 0; // the deepest flow collection on this line before its key's `:`
    while (p < end) {
      const c = text.charCodeAt(p);
      if (isBreak(c)) {
        if (flow === 0) break;
        p++;
        // A document marker inside a flow collection: the parser recovers, maybe with one more level.
        if (docMarkerAt(text, p)) {
          flowStack.push(IMPLICIT);
          flow++;
          colonSeen = false;
          if (block.length + flow > limit) return { offset: p, limit };
        }
        continue;
      }
      if (isBlank(c)) {
        p++;
        continue;
      }
      if (c === 35 /* # */ && (p === start || isBlank(text.charCodeAt(p - 1)) || isBreak(text.charCodeAt(p - 1)))) {
        while (p < end && !isBreak(text.charCodeAt(p))) p++;
        continue;
      }
      if (valueStart && (c === 34 /* " */ || c === 39) /* ' */) {
        p = skipQuoted(text, p, end, c);
        valueStart = false;
        afterQuoted = true;
        continue;
      }
      const quotedBefore = afterQuoted;
      afterQuoted = false;
      if ((c === 91 /* [ */ || c === 123) /* { */ && (flow > 0 || valueStart || quotedBefore)) {
        // A collection right after a scalar of the same entry (`a[`, `*x{`) is that scalar's value: a pair, one more level.
        if (!valueStart) {
          flowStack.push(IMPLICIT);
          flow++;
          if (block.length + flow > limit) return { offset: p, limit };
        }
        flowStack.push(c);
        flow++;
        colonSeen = false;
        if (block.length + flow > limit) return { offset: p, limit };
        if (!keyed && flow > preKey) preKey = flow;
        p++;
        valueStart = true;
        continue;
      }
      if (c === 93 /* ] */ || c === 125 /* } */) {
        // Outside a flow collection, a stray closing bracket where a value starts is an error token, not a scalar.
        if (flow > 0) {
          let top = flow - 1;
          while (top > 0 && flowStack[top] === IMPLICIT) top--;
          // A closer of the other kind (`[}`) closes nothing: the parser reads on inside the collection.
          if (flowStack[top] === c - 2)
            while (flow > top) {
              flowStack.pop();
              flow--;
              colonSeen = false;
            }
          valueStart = false;
        }
        p++;
        continue;
      }
      if (flow > 0 && c === 44 /* , */) {
        while (flowStack[flow - 1] === IMPLICIT) {
          flowStack.pop();
          flow--;
        }
        colonSeen = false;
        p++;
        valueStart = true;
        continue;
      }
      // In a flow collection `:` is an indicator before a space or a flow indicator, or right after a
      // quoted key or a collection (`"a":1`); elsewhere (`a:b`, `{:x: 1}`) it belongs to a plain scalar.
      if (
        flow > 0 &&
        c === 58 &&
        !(
          endsToken(text.charCodeAt(p + 1)) ||
          isFlowIndicator(text.charCodeAt(p + 1)) ||
          quotedBefore ||
          text.charCodeAt(p - 1) === 93 ||
          text.charCodeAt(p - 1) === 125
        )
      ) {
        valueStart = false;
        p++;
        continue;
      }
      if (flow > 0 && c === 58 /* : */ && flowStack[flow - 1] === 123 /* { */ && !colonSeen) {
        colonSeen = true; // the entry's own key: value separator
        p++;
        valueStart = true;
        continue;
      }
      if (
        flow > 0 &&
        (c === 58 ||
          (valueStart && (c === 124 || c === 62)) ||
          ((c === 63 || c === 45) && (endsToken(text.charCodeAt(p + 1)) || isFlowIndicator(text.charCodeAt(p + 1)))))
      ) {
        // In a sequence, a `key: value` (or `? key`) entry is a mapping of its own; a block indicator
        // (`- `, `? `, `|`, `>`) or a second `:` the parser recovers from may open a collection: one
        // more level each, until the entry ends.
        flowStack.push(IMPLICIT);
        flow++;
        colonSeen = false;
        if (block.length + flow > limit) return { offset: p, limit };
        p++;
        valueStart = true;
        continue;
      }
      if (flow === 0 && valueStart && (c === 45 || c === 63 || c === 58) && endsToken(text.charCodeAt(p + 1))) {
        // An indicator after an error token (`} - x`): a collection all the same.
        if (openBlock(block, p - i + 0.5) > limit) return { offset: p, limit };
        p++;
        continue;
      }
      if (flow === 0 && c === 58 /* : */ && endsToken(text.charCodeAt(p + 1))) {
        // A key: the line's content is a mapping entry, one level at its column (a flow collection before
        // the `:` is its key, one level deeper than it was counted). A second `key: key: value` on the
        // line is an error the parser reads as a mapping in the value: one more level, at the colon.
        const depth = openBlock(block, keyed ? p - i : contentCol);
        if (depth > limit || (!keyed && depth + preKey > limit)) return { offset: keyed ? p : i + contentCol, limit };
        keyed = true;
        p++;
        valueStart = true;
        continue;
      }
      if (flow === 0 && valueStart && (c === 124 /* | */ || c === 62) /* > */) {
        BLOCK_SCALAR_HEADER.lastIndex = p;
        if (BLOCK_SCALAR_HEADER.test(text)) {
          blockScalarIndent = keyed ? contentCol : ownerCol;
          p = BLOCK_SCALAR_HEADER.lastIndex;
          break;
        }
      }
      if (valueStart && (c === 38 /* & */ || c === 33) /* ! */) {
        // An anchor or a tag: the value still starts after it.
        while (p < end && !endsToken(text.charCodeAt(p)) && (flow === 0 || !isFlowIndicator(text.charCodeAt(p)))) p++;
        continue;
      }
      // A plain scalar character (or an alias). Outside flow collections only a `: `, a ` #` or the line's
      // end can matter before the next line: jump there.
      valueStart = false;
      p++;
      if (flow === 0 && p < end) {
        PLAIN_STOP.lastIndex = p;
        p = PLAIN_STOP.test(text) ? PLAIN_STOP.lastIndex - 1 : end;
      }
    }
    i = p < end ? skipLine(text, p, end) : end;
  }
  return undefined;
}

/** A document marker, `---` or `...`, at `p`, followed by a space, a tab, a line break or the end. */
function docMarkerAt(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  return (c === 45 || c === 46) && text.charCodeAt(p + 1) === c && text.charCodeAt(p + 2) === c && endsToken(text.charCodeAt(p + 3));
}

/** A block collection opens at column `pos` (closing those at it or right of it): the block depth after. */
function openBlock(block: number[], pos: number): number {
  while (block.length && block[block.length - 1]! >= pos) block.pop();
  block.push(pos);
  return block.length;
}

/** The offset of the last `-` / `?` / `:` indicator among the leading ones between `from` and `to`. */
function lastIndicatorCol(text: string, from: number, to: number): number {
  let last = from;
  for (let p = from; p < to; p++) if (!isBlank(text.charCodeAt(p))) last = p;
  return last;
}

const IMPLICIT = 109; // 'm'
/** What can end a plain scalar's run outside flow collections. */
const PLAIN_STOP = /[:#\r\n]/g;
const isFlowIndicator = (c: number) => c === 44 || c === 91 || c === 93 || c === 123 || c === 125;

/** Past the line break that ends the line holding `p`. */
function skipLine(text: string, p: number, end: number): number {
  while (p < end && !isBreak(text.charCodeAt(p))) p++;
  if (p < end && text.charCodeAt(p) === CR && text.charCodeAt(p + 1) === LF) return p + 2;
  return p + 1;
}

/** Past the closing quote of the quoted scalar opening at `p` (or the end, when it never closes). */
function skipQuoted(text: string, p: number, end: number, q: number): number {
  for (p++; p < end; p++) {
    const c = text.charCodeAt(p);
    if (q === 34 && c === 92 /* \ */) p++;
    else if (c === q) {
      if (q === 39 && text.charCodeAt(p + 1) === 39) p++;
      else return p + 1;
    }
  }
  return end;
}

/**
 * The backstop after the scan: the parser's concrete syntax tree (built without recursion) before the
 * composer recurses over it. The offset of the first collection deeper than `limit`, or undefined.
 * The scan counts every level of valid text; on broken text the parser's recovery can nest in ways
 * the scan does not foresee, and this catches them exactly.
 */
export function cstOverflow(tokens: readonly CST.Token[], limit = MAX_NESTING): number | undefined {
  const stack: [CST.Token, number][] = [];
  for (const t of tokens) stack.push([t, 0]);
  while (stack.length) {
    const [t, depth] = stack.pop()!;
    if (t.type === 'document') {
      if (t.value) stack.push([t.value, depth]);
    } else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      if (depth + 1 > limit) return t.offset;
      for (const it of t.items as { key?: CST.Token | null; value?: CST.Token }[]) {
        if (it.key) stack.push([it.key, depth + 1]);
        if (it.value) stack.push([it.value, depth + 1]);
      }
    }
  }
  return undefined;
}
