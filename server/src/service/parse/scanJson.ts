/**
 * Strict JSON → light tree, for the fast index scan of JSON adapters (whose model the `yaml` package
 * reads as a flow collection). The reading is parse/jsonReader.ts's, strict; this builds the tree and
 * throws UNSUPPORTED (so the caller builds the full model) on anything the reader rejects and on what
 * the `yaml` package might read otherwise: a space before a colon, a key over 1,024 characters, more
 * than 200 levels, a root that is not an object. Numbers other than short integers are OTHER. Linear.
 */
import { JsonReader, type JsonSink } from './jsonReader';
import { bail, OTHER, type LightMap, type LightNode, type LightSeq, type LightScalar } from './lightTree';
import { SHALLOW } from '../util/nesting';

const INT = /^[0-9]{1,15}$/;
/** Deeper nesting than this: the model decides (see util/nesting.ts SHALLOW). */
const MAX_LEVELS = SHALLOW;

/** The root node of the JSON text in `[from, to)` (an object), or throws UNSUPPORTED. */
export function scanJson(text: string, from: number, to: number): LightNode {
  const open: (LightMap | LightSeq)[] = [];
  /** The key each open container is the value of. */
  const keys: (LightScalar | undefined)[] = [];
  let key: LightScalar | undefined;
  let root: LightNode | undefined;
  const add = (n: LightNode) => {
    const top = open[open.length - 1];
    if (!top) root = n;
    else if (top.k === 'seq') top.items.push(n);
    else {
      top.pairs.push({ key: key!, value: n });
      key = undefined;
    }
  };
  const sink: JsonSink = {
    open(array) {
      if (open.length > MAX_LEVELS) bail();
      open.push(array ? { k: 'seq', items: [] } : { k: 'map', pairs: [] });
      keys.push(key);
      key = undefined;
    },
    close() {
      key = keys.pop();
      add(open.pop()!);
    },
    key(start, end, value) {
      if (end - start > 1024 || text.charCodeAt(end) !== 58) bail();
      key = { k: 'scalar', start, end, style: 'double', value };
    },
    string(start, end, value) {
      if (open.length > MAX_LEVELS) bail();
      add({ k: 'scalar', start, end, style: 'double', value });
    },
    number(start, end) {
      if (open.length > MAX_LEVELS) bail();
      const lexeme = text.slice(start, end);
      add({ k: 'scalar', start, end, style: 'plain', value: INT.test(lexeme) ? Number(lexeme) : OTHER });
    },
    literal(start, end, value) {
      if (open.length > MAX_LEVELS) bail();
      add({ k: 'scalar', start, end, style: 'plain', value });
    },
  };
  if (new JsonReader(text, from, to, { maxDepth: MAX_LEVELS + 1, sink }).read() || root?.k !== 'map') bail();
  return root!;
}
