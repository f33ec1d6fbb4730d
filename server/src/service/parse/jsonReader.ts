/**
 * The service's one JSON reader (RFC 8259): text → events with offsets. Iterative (an explicit stack,
 * bounded by `maxDepth`), linear in the text, no regular expression. It reads `[from, to)` of a text,
 * so a line of a JSON Lines file is read in place. Two modes:
 * - strict (verify's records, the fast index scan of JSON adapters, a JSON adapter's Document in
 *   parse/jsonDocument.ts): the first mistake ends the read,
 *   returned as a `JsonFault`; values go to a `JsonSink`.
 * - lenient (a JSON adapter's `json.syntax`, parse/jsonSyntax.ts): a mistake a reader can step over —
 *   a comment, a trailing comma, a single-quoted or unquoted string, a word or number JSON does not
 *   have, a bad escape or control character inside a string, text after the value — goes to
 *   `onProblem` and the read goes on; anything else is the fault.
 * The callers word the messages; this module only says what and where.
 */

import type { JsonFault, JsonFaultKind, JsonProblem, JsonReadOptions, JsonSink } from './jsonEvents';

export type { JsonFault, JsonFaultKind, JsonProblem, JsonReadOptions, JsonSink } from './jsonEvents';

class Fault {
  constructor(readonly fault: JsonFault) {}
}

const VALUE = 0,
  KEY = 1,
  AFTER = 2;

/** The decoded character of a one-character escape, by the escaped character's code. */
const ESCAPES: (string | undefined)[] = [];
for (const [c, v] of Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }))
  ESCAPES[c.charCodeAt(0)] = v;

const isDigit = (c: number) => c >= 48 && c <= 57;
/** What lenient mode reads as one word: `[A-Za-z0-9_$.+-]`. */
const isWordChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === 36 || c === 46 || c === 43 || c === 45;
const hexValue = (c: number) => (isDigit(c) ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

export class JsonReader {
  /** Where the read stands; set it before `read` to start elsewhere than `from`. */
  pos: number;
  private readonly lenient: boolean;
  private readonly sink: JsonSink | undefined;
  /** Open containers: bracket offset × 2, + 1 for an array. */
  private readonly stack: number[] = [];
  private value = '';

  constructor(
    readonly text: string,
    from: number,
    readonly to: number,
    private readonly options: JsonReadOptions,
  ) {
    this.pos = from;
    this.lenient = options.lenient === true;
    this.sink = this.lenient ? undefined : options.sink;
  }

  /** One value from `pos`, then whitespace to `to`; undefined when the text is read to its end. */
  read(): JsonFault | undefined {
    try {
      this.run();
      return undefined;
    } catch (e) {
      if (e instanceof Fault) return e.fault;
      throw e;
    }
  }

  /** Strict: the string at `pos` (its opening quote), decoded, and its end; undefined for a fault. */
  stringAt(): { value: string; end: number } | undefined {
    try {
      this.string();
      return { value: this.value, end: this.pos };
    } catch (e) {
      if (e instanceof Fault) return undefined;
      throw e;
    }
  }

  /** Whitespace (space, tab, LF, CR) and, lenient, comments (`//`, `#`, `/* … *\/`: each a problem). */
  skip(): void {
    const t = this.text,
      to = this.to;
    for (;;) {
      let i = this.pos;
      // Bounds first: a read at `to` (the text's end) would be out of bounds, which deoptimizes this hot loop.
      for (; i < to; i++) {
        const c = t.charCodeAt(i);
        if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      }
      this.pos = i;
      if (!this.lenient || i >= to) return;
      const c = t.charCodeAt(i),
        d = i + 1 < to ? t.charCodeAt(i + 1) : -1;
      if ((c === 47 && d === 47) || c === 35) {
        while (i < to && t.charCodeAt(i) !== 10 && t.charCodeAt(i) !== 13) i++;
      } else if (c === 47 && d === 42) {
        const close = t.indexOf('*/', i + 2);
        i = close < 0 || close + 2 > to ? to : close + 2;
      } else return;
      this.problem('comment', this.pos, i);
      this.pos = i;
    }
  }

  private run(): void {
    const t = this.text,
      to = this.to,
      stack = this.stack,
      lenient = this.lenient,
      sink = this.sink,
      max = this.options.maxDepth;
    let state = VALUE;
    for (;;) {
      if (state === VALUE) {
        if (lenient && stack.length > max) this.fail('deep', this.pos);
        this.skip();
        const at = this.pos,
          c = at < to ? t.charCodeAt(at) : -1;
        if (c === 123 || c === 91) {
          if (!lenient && stack.length >= max) this.fail('deep', at);
          stack.push(at * 2 + (c === 91 ? 1 : 0));
          sink?.open(c === 91, at);
          this.pos = at + 1;
          this.skip();
          if (this.pos < to && t.charCodeAt(this.pos) === c + 2) {
            this.close();
            state = AFTER;
          } else state = c === 91 ? VALUE : KEY;
          continue;
        }
        this.scalar(c);
        state = AFTER;
      } else if (state === KEY) {
        this.skip();
        const at = this.pos,
          c = at < to ? t.charCodeAt(at) : -1;
        if (c === 34) {
          this.string();
          sink?.key(at, this.pos, this.value);
        } else if (lenient && c === 39) this.singleQuoted();
        else if (lenient && isWordChar(c)) this.problem('unquoted-key', at, this.word());
        else this.fail('key', at);
        this.skip();
        if (this.pos >= to || t.charCodeAt(this.pos) !== 58) this.fail('colon', this.pos);
        this.pos++;
        state = VALUE;
      } else {
        this.skip();
        const at = this.pos;
        if (!stack.length) {
          if (at >= to) return;
          if (!lenient) this.fail('trailing-text', at);
          this.problem('trailing-text', at, Math.min(to, at + 3));
          return;
        }
        const closer = stack[stack.length - 1]! & 1 ? 93 : 125,
          c = at < to ? t.charCodeAt(at) : -1;
        if (c === closer) {
          this.close();
          continue;
        }
        if (c !== 44) this.fail('comma', at);
        this.pos++;
        this.skip();
        if (this.pos < to && t.charCodeAt(this.pos) === closer) {
          if (!lenient) this.fail('trailing-comma', at);
          this.problem(closer === 93 ? 'comma-before-]' : 'comma-before-}', at, at + 1);
          this.close();
          continue;
        }
        state = closer === 93 ? VALUE : KEY;
      }
    }
  }

  private close(): void {
    this.stack.pop();
    this.pos++;
    this.sink?.close(this.pos);
  }

  /** A value that is not a container, at `pos` (its first character `c`, -1 at the end). */
  private scalar(c: number): void {
    const t = this.text,
      at = this.pos;
    if (c === 34) {
      this.string();
      this.sink?.string(at, this.pos, this.value);
      return;
    }
    if (this.lenient) {
      if (c === 39) this.singleQuoted();
      else if (c === 45 || c === 43 || c === 46 || isDigit(c)) {
        const end = this.word();
        if (this.numberEnd(at) !== end) this.problem('number', at, end);
      } else if (at >= this.to) this.fail('value', at);
      else if (isWordChar(c)) {
        const w = t.slice(at, this.word());
        if (w !== 'true' && w !== 'false' && w !== 'null') this.problem('word', at, this.pos);
      } else this.fail('value', at);
      return;
    }
    const word = c === 116 ? 'true' : c === 102 ? 'false' : c === 110 ? 'null' : undefined;
    if (word !== undefined) {
      if (at + word.length > this.to || !t.startsWith(word, at)) this.fail('value', at);
      this.pos = at + word.length;
      this.sink?.literal(at, this.pos, c === 116 ? true : c === 102 ? false : null);
      return;
    }
    const end = this.numberEnd(at);
    if (end < 0) this.fail('value', at);
    this.pos = end;
    this.sink?.number(at, end);
  }

  /** The end of the JSON number at `i` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`), or -1. */
  private numberEnd(i: number): number {
    const t = this.text,
      to = this.to;
    if (i < to && t.charCodeAt(i) === 45) i++;
    const first = i < to ? t.charCodeAt(i) : -1;
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) while (++i < to && isDigit(t.charCodeAt(i)));
    else return -1;
    if (i + 1 < to && t.charCodeAt(i) === 46 && isDigit(t.charCodeAt(i + 1))) for (i += 2; i < to && isDigit(t.charCodeAt(i)); i++);
    const e = i < to ? t.charCodeAt(i) : -1;
    if (e === 101 || e === 69) {
      let k = i + 1;
      if (k < to && (t.charCodeAt(k) === 43 || t.charCodeAt(k) === 45)) k++;
      if (k < to && isDigit(t.charCodeAt(k))) for (i = k + 1; i < to && isDigit(t.charCodeAt(i)); i++);
    }
    return i;
  }

  /** Lenient: a run of word characters from `pos`; returns (and moves `pos` to) its end. */
  private word(): number {
    const t = this.text,
      to = this.to;
    let i = this.pos;
    while (i < to && isWordChar(t.charCodeAt(i))) i++;
    return (this.pos = i);
  }

  /** The double-quoted string at `pos`: `pos` past it, `value` decoded when there is a sink. */
  private string(): void {
    const t = this.text,
      to = this.to,
      s = this.pos,
      decode = this.sink !== undefined;
    let i = s + 1,
      seg = i,
      value = '';
    for (;;) {
      let c = -1;
      while (i < to && (c = t.charCodeAt(i)) !== 34 && c !== 92 && c >= 0x20) i++;
      if (i >= to) this.fail('unclosed-string', s, to);
      if (c === 34) break;
      if (c === 92) {
        if (decode) value += t.slice(seg, i);
        const e = i + 1 < to ? t.charCodeAt(i + 1) : -1;
        if (e === 117) {
          let code = 0;
          for (let k = i + 2; k < i + 6 && code >= 0; k++)
            code = k < to && hexValue(t.charCodeAt(k)) >= 0 ? code * 16 + hexValue(t.charCodeAt(k)) : -1;
          if (code < 0) {
            if (!this.lenient) this.fail('unicode-escape', i);
            this.problem('unicode-escape', i, Math.min(i + 6, to));
          } else if (decode) value += String.fromCharCode(code);
          i += 6;
        } else {
          const m = e >= 0 ? ESCAPES[e] : undefined;
          if (m === undefined) {
            if (!this.lenient) this.fail('escape', i, Math.min(i + 2, to));
            this.problem('escape', i, Math.min(i + 2, to));
          } else if (decode) value += m;
          i += 2;
        }
        seg = i;
        continue;
      }
      // A control character.
      if (!this.lenient) this.fail('control', i);
      if (c === 10 || c === 13) this.fail('unclosed-string', s, i);
      this.problem('control', i, i + 1);
      i++;
    }
    this.value = decode ? value + t.slice(seg, i) : '';
    this.pos = i + 1;
  }

  /** Lenient: `'…'` on one line, a problem (or, unclosed, the fault). */
  private singleQuoted(): void {
    const t = this.text,
      to = this.to,
      s = this.pos;
    let i = s + 1;
    for (let c = t.charCodeAt(i); i < to && c !== 39 && c !== 10; c = t.charCodeAt(i)) i += c === 92 ? 2 : 1;
    if (i >= to || t.charCodeAt(i) !== 39) this.fail('unclosed-single', s, Math.min(i, to));
    this.pos = i + 1;
    this.problem('single-quoted', s, i + 1);
  }

  private problem(kind: JsonProblem, start: number, end: number): void {
    this.options.onProblem?.(kind, start, end);
  }

  private fail(kind: JsonFaultKind, at: number, end = at): never {
    const top = this.stack.length ? this.stack[this.stack.length - 1]! : -1;
    throw new Fault({ kind, at, end, eof: at >= this.to, open: top >= 0 ? Math.floor(top / 2) : -1, array: top % 2 === 1 });
  }
}

const DECODE: JsonSink = { open() {}, close() {}, key() {}, string() {}, number() {}, literal() {} };

/**
 * The JSON string whose opening quote is at `start`, read strictly within `[start, to)` (a YAML
 * double-quoted scalar on one line too, when it uses only JSON's escapes): its value and where it
 * ends, or undefined for a mistake or a missing closing quote.
 */
export function readJsonString(text: string, start: number, to: number): { value: string; end: number } | undefined {
  return new JsonReader(text, start, to, { maxDepth: 0, sink: DECODE }).stringAt();
}

/** The offset of each UTF-16 unit of the value of a valid string whose opening quote is at `start` (an escape's backslash for what it writes). */
export function stringUnitOffsets(text: string, start: number): number[] {
  const out: number[] = [];
  for (let i = start + 1, c = text.charCodeAt(i); c !== 34 && i < text.length; c = text.charCodeAt(i)) {
    out.push(i);
    i += c !== 92 ? 1 : text.charCodeAt(i + 1) === 117 ? 6 : 2;
  }
  return out;
}
