/**
 * Strict JSON (RFC 8259) over a JSON adapter's text, with offsets. The model still comes from the
 * YAML parse (JSON is YAML, and YAML reads what JSON forbids: trailing commas, comments, single
 * quotes, unquoted keys and values, several documents); this scanner reports what a JSON loader
 * would reject, where it stands. Mistakes a reader can step over (a trailing comma, a comment, a
 * single-quoted or unquoted string) are reported and the scan goes on; anything else ends it.
 * Linear; no regular expression runs over the whole text.
 */
import type { ParseProblem } from '../model/model';

export const JSON_SYNTAX = 'JSON_SYNTAX';

/** Beyond this nesting the text is not checked further (the YAML parse still reads it). */
const MAX_DEPTH = 1000;

class Stop extends Error {}

export function jsonSyntaxErrors(text: string, start = 0, end = text.length): ParseProblem[] {
  const errors: ParseProblem[] = [];
  let i = start;
  const report = (s: number, e: number, message: string) =>
    void errors.push({ start: s, end: Math.max(e, s), message, yamlCode: JSON_SYNTAX });
  const fail = (s: number, e: number, message: string): never => {
    report(s, e, message);
    throw new Stop();
  };
  const isWs = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$.+\-]/.test(c);

  /** Whitespace and (reported) comments. */
  const skip = () => {
    for (;;) {
      while (i < end && isWs(text[i])) i++;
      const c = text[i],
        d = text[i + 1];
      if ((c === '/' && d === '/') || c === '#') {
        const s = i;
        while (i < end && text[i] !== '\n' && text[i] !== '\r') i++;
        report(s, i, 'JSON has no comments: remove it (a description key can carry the note).');
      } else if (c === '/' && d === '*') {
        const s = i;
        const close = text.indexOf('*/', i + 2);
        i = close < 0 || close + 2 > end ? end : close + 2;
        report(s, i, 'JSON has no comments: remove it (a description key can carry the note).');
      } else return;
    }
  };

  const word = (): number => {
    const s = i;
    while (i < end && isWord(text[i])) i++;
    return s;
  };

  const string = () => {
    const s = i++;
    for (;;) {
      if (i >= end) fail(s, end, 'This string is never closed: a JSON string ends with " on the same line.');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x0a || c === 0x0d) fail(s, i, 'This string is never closed: a JSON string ends with " on the same line.');
      if (c < 0x20) {
        report(i, i + 1, 'A control character inside a JSON string must be written as an escape (\\t, \\u0000).');
        i++;
        continue;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) report(i, Math.min(i + 6, end), 'A \\u escape needs four hex digits.');
          i += 6;
        } else {
          if (e === undefined || !'"\\/bfnrt'.includes(e))
            report(i, i + 2, `'\\${e ?? ''}' is not a JSON escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX).`);
          i += 2;
        }
        continue;
      }
      i++;
    }
  };

  /** `'…'` read as a string, reported. */
  const singleQuoted = () => {
    const s = i++;
    while (i < end && text[i] !== "'" && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    if (text[i] !== "'") fail(s, i, 'JSON strings use double quotes, and this one is never closed.');
    i++;
    report(s, i, 'JSON strings use double quotes: write "…" instead of \'…\'.');
  };

  const number = () => {
    const s = i;
    const w = word();
    const lit = text.slice(w, i);
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(lit))
      report(s, i, `'${lit}' is not a JSON number (no leading zeros, '+', hex, or bare '.').`);
  };

  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Stop();
    skip();
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === "'") return singleQuoted();
    if (c === '-' || c === '+' || c === '.' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (i >= end) fail(end, end, 'A value is expected here, and the text ends.');
    if (isWord(c)) {
      const s = word();
      const w = text.slice(s, i);
      if (w === 'true' || w === 'false' || w === 'null') return;
      report(
        s,
        i,
        /^(?:True|False|TRUE|FALSE|yes|no|Yes|No|on|off|Null|NULL|None|undefined|NaN|Infinity)$/.test(w)
          ? `'${w}' is not a JSON value: JSON has true, false and null (lower case), and strings in double quotes.`
          : `Unquoted text: a JSON string is written in double quotes ("${w}").`,
      );
      return;
    }
    fail(i, i + 1, `'${c}' cannot start a JSON value.`);
  };

  const object = (depth: number) => {
    const open = i++;
    skip();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      skip();
      const c = text[i];
      if (c === '"') string();
      else if (c === "'") singleQuoted();
      else if (isWord(c)) {
        const s = word();
        report(s, i, `JSON property names are double-quoted: write "${text.slice(s, i)}".`);
      } else if (i >= end) fail(open, open + 1, "This '{' is never closed.");
      else fail(i, i + 1, `A property name in double quotes is expected here, not '${c}'.`);
      skip();
      if (text[i] !== ':') fail(i, Math.min(i + 1, end), "':' is expected after a property name.");
      i++;
      value(depth + 1);
      skip();
      if (text[i] === '}') {
        i++;
        return;
      }
      if (text[i] !== ',') {
        if (i >= end) fail(open, open + 1, "This '{' is never closed.");
        fail(i, i + 1, text[i] === '"' ? "A ',' is missing before this property." : `',' or '}' is expected here, not '${text[i]}'.`);
      }
      const comma = i++;
      skip();
      if (text[i] === '}') {
        report(comma, comma + 1, "JSON allows no comma before '}': remove it.");
        i++;
        return;
      }
    }
  };

  const array = (depth: number) => {
    const open = i++;
    skip();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value(depth + 1);
      skip();
      if (text[i] === ']') {
        i++;
        return;
      }
      if (text[i] !== ',') {
        if (i >= end) fail(open, open + 1, "This '[' is never closed.");
        fail(i, i + 1, `',' or ']' is expected here, not '${text[i]}'.`);
      }
      const comma = i++;
      skip();
      if (text[i] === ']') {
        report(comma, comma + 1, "JSON allows no comma before ']': remove it.");
        i++;
        return;
      }
    }
  };

  try {
    if (text.charCodeAt(i) === 0xfeff) i++;
    skip();
    if (i >= end)
      return [{ start, end: start, message: 'A JSON adapter is one object ({ … }), and this file is empty.', yamlCode: JSON_SYNTAX }];
    // A list root is judged as a scalar root is (issue 22 item 8): an adapter is one object.
    if (text[i] !== '{') {
      let e = i;
      while (e < end && text[e] !== '\n' && text[e] !== '\r') e++;
      fail(
        i,
        e,
        text[i] === '['
          ? 'Write the adapter as one object ({ "name": …, "error_codes": … }): this file is a list.'
          : 'A JSON adapter is one object: the text must start with {. (Is this YAML? Then name the file .adapter.yaml.)',
      );
    }
    value(0);
    skip();
    if (i < end)
      report(i, Math.min(end, i + 3), 'Only one JSON value is allowed: remove what follows it (YAML documents do not exist in JSON).');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return errors;
}
