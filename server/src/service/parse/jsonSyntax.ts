/**
 * Strict JSON (RFC 8259) over a JSON adapter's text, with offsets. The model still comes from the
 * YAML parse (JSON is YAML, and YAML reads what JSON forbids: trailing commas, comments, single
 * quotes, unquoted keys and values, several documents); this reports what a JSON loader would reject,
 * where it stands, in the words of `json.syntax`. The reading is parse/jsonReader.ts's, lenient:
 * mistakes a reader can step over (a trailing comma, a comment, a single-quoted or unquoted string)
 * are reported and the read goes on; anything else ends it.
 */
import type { ParseProblem } from '../model/model';
import { JsonReader, type JsonFault, type JsonProblem } from './jsonReader';

export const JSON_SYNTAX = 'JSON_SYNTAX';

/** Beyond this nesting the text is not checked further (the YAML parse still reads it). */
const MAX_DEPTH = 1000;

const NEVER_CLOSED = 'This string is never closed: a JSON string ends with " on the same line.';
const COMMENT = 'JSON has no comments: remove it (a description key can carry the note).';
const YAML_WORD = /^(?:True|False|TRUE|FALSE|yes|no|Yes|No|on|off|Null|NULL|None|undefined|NaN|Infinity)$/;

export function jsonSyntaxErrors(text: string, start = 0, end = text.length): ParseProblem[] {
  const errors: ParseProblem[] = [];
  const report = (s: number, e: number, message: string) =>
    void errors.push({ start: s, end: Math.max(e, s), message, yamlCode: JSON_SYNTAX });
  const onProblem = (kind: JsonProblem, s: number, e: number) => report(s, e, problemMessage(text, kind, s, e));
  const reader = new JsonReader(text, start, end, { lenient: true, maxDepth: MAX_DEPTH, onProblem });
  if (text.charCodeAt(start) === 0xfeff) reader.pos++;
  reader.skip();
  const i = reader.pos;
  if (i >= end)
    return [{ start, end: start, message: 'A JSON adapter is one object ({ … }), and this file is empty.', yamlCode: JSON_SYNTAX }];
  // A list root is judged as a scalar root is (test/service/roots.test.ts): an adapter is one object.
  if (text[i] !== '{') {
    let e = i;
    while (e < end && text[e] !== '\n' && text[e] !== '\r') e++;
    report(
      i,
      e,
      text[i] === '['
        ? 'Write the adapter as one object ({ "name": …, "error_codes": … }): this file is a list.'
        : 'A JSON adapter is one object: the text must start with {. (Is this YAML? Then name the file .adapter.yaml.)',
    );
    return errors;
  }
  const fault = reader.read();
  if (fault && fault.kind !== 'deep') {
    const [s, e, message] = faultReport(text, end, fault);
    errors.push({ start: s, end: Math.max(e, s), message, yamlCode: JSON_SYNTAX, rejectsFrom: rejectedFrom(text, i, end, fault) });
  }
  return errors;
}

/**
 * Where the text stops being what a JSON loader reads: at the fault, or, for a bracket never closed (the
 * read ran to the end), where the close is missing — the first key indented less than the keys of the
 * object it lands in (the rest of the file was read one object too deep). Without that clue (the last
 * brace missing, one-line JSON), nothing says the YAML parse misplaced a key: no region.
 */
function rejectedFrom(text: string, start: number, end: number, f: JsonFault): number | undefined {
  return f.eof ? outdentedKey(text, start, end) : f.at;
}

/**
 * The first key that starts a line at a column left of the first line-starting key of the object that
 * holds it, or undefined. A light scan: strings (double- or single-quoted, ending at a line end when not
 * closed), comments and brackets; enough to follow the nesting of text the lenient read went through.
 */
function outdentedKey(text: string, start: number, end: number): number | undefined {
  // Per open bracket: the column of its first line-starting key (-1: none yet), or -2 for an array.
  const cols: number[] = [];
  let lineStart = start;
  let lineBlank = true;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      lineStart = i + 1;
      lineBlank = true;
      continue;
    }
    if (c === 32 || c === 9) continue;
    const first: boolean = lineBlank;
    lineBlank = false;
    if (c === 123 /* { */ || c === 91 /* [ */) cols.push(c === 91 ? -2 : -1);
    else if (c === 125 || c === 93) cols.pop();
    else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i + 1 < end && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
      lineBlank = first;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 || close >= end ? end : close + 1;
    } else if (c === 34 || c === 39) {
      const top = cols.length - 1;
      if (first && top >= 0 && cols[top]! !== -2) {
        const col = i - lineStart;
        if (cols[top] === -1) cols[top] = col;
        else if (col < cols[top]!) return i;
      }
      let j = i + 1;
      while (j < end) {
        const d = text.charCodeAt(j);
        if (d === c || d === 10 || d === 13) break;
        j += d === 92 /* \ */ ? 2 : 1;
      }
      i = text.charCodeAt(j) === c ? j : j - 1;
    }
  }
  return undefined;
}

function problemMessage(text: string, kind: JsonProblem, s: number, e: number): string {
  switch (kind) {
    case 'comment':
      return COMMENT;
    case 'control':
      return 'A control character inside a JSON string must be written as an escape (\\t, \\u0000).';
    case 'unicode-escape':
      return 'A \\u escape needs four hex digits.';
    case 'escape':
      return `'\\${text[s + 1] ?? ''}' is not a JSON escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX).`;
    case 'single-quoted':
      return 'JSON strings use double quotes: write "…" instead of \'…\'.';
    case 'number':
      return `'${text.slice(s, e)}' is not a JSON number (no leading zeros, '+', hex, or bare '.').`;
    case 'word': {
      const w = text.slice(s, e);
      return YAML_WORD.test(w)
        ? `'${w}' is not a JSON value: JSON has true, false and null (lower case), and strings in double quotes.`
        : `Unquoted text: a JSON string is written in double quotes ("${w}").`;
    }
    case 'unquoted-key':
      return `JSON property names are double-quoted: write "${text.slice(s, e)}".`;
    case 'comma-before-}':
      return "JSON allows no comma before '}': remove it.";
    case 'comma-before-]':
      return "JSON allows no comma before ']': remove it.";
    case 'trailing-text':
      return 'Only one JSON value is allowed: remove what follows it (YAML documents do not exist in JSON).';
  }
}

/** The fault's range and message. */
function faultReport(text: string, end: number, f: JsonFault): [number, number, string] {
  const c = text[f.at];
  const neverClosed = (): [number, number, string] => [f.open, f.open + 1, `This '${f.array ? '[' : '{'}' is never closed.`];
  switch (f.kind) {
    case 'unclosed-string':
      return [f.at, f.end, NEVER_CLOSED];
    case 'unclosed-single':
      return [f.at, f.end, 'JSON strings use double quotes, and this one is never closed.'];
    case 'value':
      return f.eof ? [end, end, 'A value is expected here, and the text ends.'] : [f.at, f.at + 1, `'${c}' cannot start a JSON value.`];
    case 'key':
      return f.eof ? neverClosed() : [f.at, f.at + 1, `A property name in double quotes is expected here, not '${c}'.`];
    case 'colon':
      return [f.at, Math.min(f.at + 1, end), "':' is expected after a property name."];
    case 'comma':
      if (f.eof) return neverClosed();
      if (f.array) return [f.at, f.at + 1, `',' or ']' is expected here, not '${c}'.`];
      return [f.at, f.at + 1, c === '"' ? "A ',' is missing before this property." : `',' or '}' is expected here, not '${c}'.`];
    default:
      // Strict-only kinds: a lenient read does not end with them.
      return [f.at, f.at + 1, `'${c}' cannot start a JSON value.`];
  }
}
