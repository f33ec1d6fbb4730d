/**
 * Strict JSON → light tree, for the fast index scan of JSON adapters (whose model the `yaml` package
 * reads as a flow collection). Objects, arrays, strings with JSON escapes, numbers, true, false, null;
 * anything else (comments, trailing commas, a space before a colon, non-integer numbers where a value
 * matters) throws UNSUPPORTED or gives OTHER, so the caller builds the full model. Linear in the text.
 */
import { bail, OTHER, readDouble, type LightNode, type LightPair, type LightScalar } from './lightTree';

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const INT = /^[0-9]{1,15}$/;

/** The root node of the JSON text in `[from, to)` (an object), or throws UNSUPPORTED. */
export function scanJson(text: string, from: number, to: number): LightNode {
  let pos = from;
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 10 || c === 13) pos++;
      else return;
    }
  };
  const lineEnd = (p: number) => {
    const e = text.indexOf('\n', p);
    return e < 0 || e > to ? to : e;
  };
  const str = (): LightScalar => {
    const q = readDouble(text, pos, lineEnd(pos));
    const s: LightScalar = { k: 'scalar', start: pos, end: q.end, style: 'double', value: q.value };
    pos = q.end;
    return s;
  };
  const value = (depth: number): LightNode => {
    if (depth > 200) bail();
    ws();
    const c = text.charCodeAt(pos);
    if (c === 34) return str();
    if (c === 123) {
      pos++;
      ws();
      const pairs: LightPair[] = [];
      if (text.charCodeAt(pos) === 125) {
        pos++;
        return { k: 'map', pairs };
      }
      for (;;) {
        if (text.charCodeAt(pos) !== 34) bail();
        const key = str();
        if (key.end - key.start > 1024 || text.charCodeAt(pos) !== 58) bail();
        pos++;
        pairs.push({ key, value: value(depth + 1) });
        ws();
        const d = text.charCodeAt(pos++);
        if (d === 125) return { k: 'map', pairs };
        if (d !== 44) bail();
        ws();
      }
    }
    if (c === 91) {
      pos++;
      ws();
      const items: LightNode[] = [];
      if (text.charCodeAt(pos) === 93) {
        pos++;
        return { k: 'seq', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        const d = text.charCodeAt(pos++);
        if (d === 93) return { k: 'seq', items };
        if (d !== 44) bail();
      }
    }
    for (const [word, v] of WORDS)
      if (text.startsWith(word, pos)) {
        const start = pos;
        pos += word.length;
        return { k: 'scalar', start, end: pos, style: 'plain', value: v };
      }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) bail();
    const start = pos;
    pos += m![0].length;
    return { k: 'scalar', start, end: pos, style: 'plain', value: INT.test(m![0]) ? Number(m![0]) : OTHER };
  };
  const root = value(0);
  ws();
  if (pos < to || root.k !== 'map') bail();
  return root;
}

const WORDS: readonly [string, boolean | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
