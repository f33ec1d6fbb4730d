/**
 * Block YAML → light tree, for the fast index scan: block mappings and sequences (compact ones in
 * sequence items too), plain and quoted one-line scalars, one-line flow collections, comments, a
 * leading `---`. Anything else (anchors, aliases, tags, merge keys, block or multi-line scalars,
 * directives, several documents, odd indentation, whatever the `yaml` package would report as an
 * error) throws UNSUPPORTED, so the caller builds the full model instead. Linear in the text.
 */
import {
  bail,
  readSingle,
  resolvePlain,
  type LightMap,
  type LightNode,
  type LightPair,
  type LightScalar,
  type LightSeq,
} from './lightTree';
import { readJsonString } from './jsonReader';
import { SHALLOW } from '../util/nesting';

/** Characters a plain scalar may not start with (indicators; `-`, `?`, `:` only when followed by a space, here never). */
/** Deeper nesting than this: the model decides (the scan's recursion stays far from the stack's limit, and the text far from MAX_NESTING). */
const MAX_DEPTH = SHALLOW;

const NOT_PLAIN_START = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map(c => c.charCodeAt(0)));

/** The document's root node (null when it has no content). Region `[from, to)` of `text`. */
export function scanYaml(text: string, from: number, to: number): LightNode | null {
  const starts: number[] = [],
    ends: number[] = [],
    inds: number[] = [];
  for (let p = from; p < to;) {
    let e = text.indexOf('\n', p);
    if (e < 0 || e > to) e = to;
    let ce = e;
    if (ce > p && text.charCodeAt(ce - 1) === 13) ce--;
    let i = p;
    while (i < ce && text.charCodeAt(i) === 32) i++;
    if (i < ce && text.charCodeAt(i) !== 35) {
      starts.push(p);
      ends.push(ce);
      inds.push(i - p);
    }
    p = e + 1;
  }
  const N = starts.length;
  let li = 0,
    pos = 0,
    end = 0,
    /** Nesting of the node being read (the recursion's depth). */
    depth = 0;
  const isMarker = (l: number) => {
    if (inds[l] !== 0) return false;
    const s = starts[l]!,
      t = text.slice(s, s + 3);
    return (t === '---' || t === '...') && (s + 3 === ends[l] || text.charCodeAt(s + 3) === 32);
  };
  if (N && isMarker(0)) {
    if (text.slice(starts[0]!, ends[0]).trimEnd() !== '---') bail();
    li = 1;
  }
  for (let l = li; l < N; l++) if (isMarker(l)) bail();
  if (li >= N) return null;
  if (inds[li] !== 0) bail();

  const enter = (l: number) => {
    li = l;
    if (li < N) {
      pos = starts[li]! + inds[li]!;
      end = ends[li]!;
    }
  };
  const spaces = () => {
    while (pos < end && text.charCodeAt(pos) === 32) pos++;
  };
  /** After a value: only spaces, then the end of the line or a comment (after a space). */
  const lineDone = () => {
    const at = pos;
    spaces();
    if (pos < end && !(text.charCodeAt(pos) === 35 && pos > at)) bail();
    enter(li + 1);
  };
  const restEmpty = () => pos >= end || text.charCodeAt(pos) === 35;
  const isSeqStart = (p: number) => text.charCodeAt(p) === 45 && (p + 1 >= end || text.charCodeAt(p + 1) === 32);
  const col = () => pos - starts[li]!;

  /** A key at `pos` followed by `:` and a space or the line's end; moves past the colon, else leaves `pos`. */
  const tryKey = (): LightScalar | undefined => {
    const c = text.charCodeAt(pos);
    let key: LightScalar, after: number;
    if (c === 34 || c === 39) {
      const q = c === 34 ? (readJsonString(text, pos, end) ?? bail()) : readSingle(text, pos, end);
      key = { k: 'scalar', start: pos, end: q.end, style: c === 34 ? 'double' : 'single', value: q.value };
      after = q.end;
      while (after < end && text.charCodeAt(after) === 32) after++;
      if (text.charCodeAt(after) !== 58 || (after + 1 < end && text.charCodeAt(after + 1) !== 32)) return undefined;
    } else {
      if (NOT_PLAIN_START.has(c)) return undefined;
      // The first ':' followed by a space or the line's end, unless a comment (' #') starts before it.
      let i = pos;
      for (; i < end; i++) {
        const ch = text.charCodeAt(i);
        if (ch === 58 && (i + 1 >= end || text.charCodeAt(i + 1) === 32)) break;
        if (ch === 35 && text.charCodeAt(i - 1) === 32) return undefined;
      }
      if (i >= end) return undefined;
      let e = i;
      while (e > pos && text.charCodeAt(e - 1) === 32) e--;
      const raw = text.slice(pos, e);
      if (raw === '<<') bail();
      key = { k: 'scalar', start: pos, end: e, style: 'plain', value: resolvePlain(raw) };
      after = i;
    }
    if (key.end - key.start > 1024) bail();
    pos = after + 1;
    return key;
  };

  /** A scalar or flow collection on this line, then the end of the line. */
  const inline = (): LightNode => {
    const v = inlineValue(false);
    lineDone();
    return v;
  };
  const inlineValue = (flow: boolean): LightNode => {
    const c = text.charCodeAt(pos);
    if (c === 34 || c === 39) {
      const q = c === 34 ? (readJsonString(text, pos, end) ?? bail()) : readSingle(text, pos, end);
      const s: LightScalar = { k: 'scalar', start: pos, end: q.end, style: c === 34 ? 'double' : 'single', value: q.value };
      pos = q.end;
      return s;
    }
    if (c === 91 || c === 123) return flowCollection(c === 91);
    if (NOT_PLAIN_START.has(c)) bail();
    const start = pos;
    let e = pos;
    for (; e < end; e++) {
      const ch = text.charCodeAt(e);
      if (ch === 58) {
        const spaced = e + 1 >= end || text.charCodeAt(e + 1) === 32;
        if (flow && spaced) break;
        if (flow || spaced) bail();
      } else if (ch === 35) {
        if (text.charCodeAt(e - 1) === 32) break;
        if (flow) bail();
      } else if (flow && (ch === 44 || ch === 93 || ch === 125 || ch === 91 || ch === 123)) break;
    }
    while (e > start && text.charCodeAt(e - 1) === 32) e--;
    if (e === start) bail();
    pos = e;
    return { k: 'scalar', start, end: e, style: 'plain', value: resolvePlain(text.slice(start, e)) };
  };
  const flowCollection = (isSeq: boolean): LightNode => {
    if (++depth > MAX_DEPTH) bail();
    const v = flowIn(isSeq);
    depth--;
    return v;
  };
  const flowIn = (isSeq: boolean): LightNode => {
    const close = isSeq ? 93 : 125;
    pos++;
    spaces();
    const items: LightNode[] = [],
      pairs: LightPair[] = [];
    if (text.charCodeAt(pos) === close) {
      pos++;
      return isSeq ? { k: 'seq', items } : { k: 'map', pairs };
    }
    for (;;) {
      if (pos >= end) bail();
      if (isSeq) items.push(inlineValue(true));
      else {
        const key = inlineValue(true);
        if (key.k !== 'scalar') bail();
        spaces();
        if (text.charCodeAt(pos) !== 58 || text.charCodeAt(pos + 1) !== 32) bail();
        pos += 2;
        spaces();
        pairs.push({ key: key as LightScalar, value: inlineValue(true) });
      }
      spaces();
      const c = text.charCodeAt(pos);
      if (pos < end && c === close) {
        pos++;
        return isSeq ? { k: 'seq', items } : { k: 'map', pairs };
      }
      if (pos >= end || c !== 44) bail();
      pos++;
      spaces();
      if (pos >= end || text.charCodeAt(pos) === close) bail();
    }
  };

  /** The node starting at `pos`, its first line at column `n`; returns at the first line indented less than `n`. */
  const block = (n: number): LightNode => {
    if (++depth > MAX_DEPTH) bail();
    const v = blockIn(n);
    depth--;
    return v;
  };
  const blockIn = (n: number): LightNode => {
    if (isSeqStart(pos)) return seq(n);
    const k = tryKey();
    if (k) return map(n, k);
    const v = inline();
    if (li < N && inds[li]! >= n) bail();
    return v;
  };

  /** The value after a key's colon or a sequence dash, the node being at indent `n`. */
  const valueAfter = (n: number, sameIndentSeq: boolean): LightNode => {
    spaces();
    if (!restEmpty()) return undefined as unknown as LightNode;
    const at = pos;
    enter(li + 1);
    if (li < N && inds[li]! > n) return block(inds[li]!);
    if (sameIndentSeq && li < N && inds[li] === n && isSeqStart(pos)) return deeperSeq(n);
    return { k: 'scalar', start: at, end: at, style: 'plain', value: null };
  };

  /** A collection that `block` does not open (a sequence at its key's indentation, one on a dash's line): counted as `block` counts. */
  const deeperSeq = (n: number): LightSeq => {
    if (++depth > MAX_DEPTH) bail();
    const v = seq(n);
    depth--;
    return v;
  };
  const deeperMap = (n: number, first: LightScalar): LightMap => {
    if (++depth > MAX_DEPTH) bail();
    const v = map(n, first);
    depth--;
    return v;
  };

  const map = (n: number, first: LightScalar): LightMap => {
    const pairs: LightPair[] = [];
    let key = first;
    for (;;) {
      let value = valueAfter(n, true);
      if (!value) {
        value = inline();
        if (li < N && inds[li]! > n) bail();
      }
      pairs.push({ key, value });
      if (li >= N || inds[li]! < n) return { k: 'map', pairs };
      if (inds[li]! > n) bail();
      const k = tryKey();
      if (!k) bail();
      key = k!;
    }
  };

  const seq = (n: number): LightSeq => {
    const items: LightNode[] = [];
    for (;;) {
      pos++;
      let item = valueAfter(n, false);
      if (!item) {
        const c = col();
        // A collection on the dash's line (`- - x`, `- k: v`) is one level deeper.
        if (isSeqStart(pos)) item = deeperSeq(c);
        else {
          const k = tryKey();
          if (k) item = deeperMap(c, k);
          else {
            item = inline();
            if (li < N && inds[li]! > n) bail();
          }
        }
      }
      items.push(item);
      if (li >= N || inds[li]! < n) return { k: 'seq', items };
      if (inds[li]! > n) bail();
      if (!isSeqStart(pos)) return { k: 'seq', items };
    }
  };

  enter(li);
  const root = block(0);
  if (li < N) bail();
  return root;
}
