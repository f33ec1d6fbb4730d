/**
 * A hand-written lexer and recursive-descent parser for conditions (design s2), with exact error
 * offsets. Bounded: 4,096 characters, nesting 64. No regular expression from input, nothing evaluated.
 */
import type { CompareOp, ConditionError, Expr, Literal, Loc, Operand } from './ast';

const MAX_LENGTH = 4096;
export const MAX_DEPTH = 64;

type Tok =
  | { t: 'ident'; v: string; s: number; e: number }
  | { t: 'num'; v: number; s: number; e: number }
  | { t: 'str'; v: string; s: number; e: number }
  | { t: 'op'; v: string; s: number; e: number }
  | { t: 'eof'; v: ''; s: number; e: number };

const WORD_OPS = new Set(['contains', 'startswith', 'endswith', 'in']);
const COMPARE = new Set(['==', '!=', '>', '>=', '<', '<=', 'contains', 'startswith', 'endswith', 'in']);

class Fail extends Error {
  constructor(readonly err: ConditionError) {
    super(err.message);
  }
}

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const s = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_-]/.test(src[i]!)) i++;
      out.push({ t: 'ident', v: src.slice(s, i), s, e: i });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(src[i + 1] ?? ''))) {
      i++;
      while (i < src.length && /[0-9]/.test(src[i]!)) i++;
      if (src[i] === '.' && /[0-9]/.test(src[i + 1] ?? '')) {
        i++;
        while (i < src.length && /[0-9]/.test(src[i]!)) i++;
      }
      out.push({ t: 'num', v: Number(src.slice(s, i)), s, e: i });
    } else if (c === "'" || c === '"') {
      i++;
      let v = '';
      for (;;) {
        if (i >= src.length) throw new Fail({ message: `string is not closed: add ${c}`, start: s, end: src.length });
        const d = src[i]!;
        if (d === '\\' && i + 1 < src.length) {
          v += src[i + 1];
          i += 2;
          continue;
        }
        if (d === c) {
          if (src[i + 1] === c) {
            v += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += d;
        i++;
      }
      out.push({ t: 'str', v, s, e: i });
    } else {
      const two = src.slice(i, i + 2);
      const meant = MEANT[src.slice(i, i + 3)] ?? MEANT[two];
      if (meant) throw new Fail({ message: meant.message, start: s, end: s + meant.length });
      if (['==', '!=', '>=', '<='].includes(two)) {
        out.push({ t: 'op', v: two, s, e: i + 2 });
        i += 2;
        continue;
      }
      if ('<>()[],.'.includes(c)) {
        out.push({ t: 'op', v: c, s, e: i + 1 });
        i++;
        continue;
      }
      if (c === '=') throw new Fail({ message: "write '==' to compare ('=' is not an operator)", start: s, end: s + 1 });
      if (c === '!')
        throw new Fail({ message: "write 'not' to negate, or '!=' to compare ('!' is not an operator)", start: s, end: s + 1 });
      throw new Fail({ message: `unexpected character '${c}'`, start: s, end: s + 1 });
    }
  }
  out.push({ t: 'eof', v: '', s: src.length, e: src.length });
  return out;
}

interface ParseResult {
  readonly expr?: Expr;
  readonly error?: ConditionError;
}

/** Operators of other languages, with what to write instead (test/service/conditionMessages.test.ts); longest first. */
const MEANT: Readonly<Record<string, { message: string; length: number }>> = {
  '===': { message: "write '==' ('===' is not an operator: values compare without coercion)", length: 3 },
  '!==': { message: "write '!=' ('!==' is not an operator)", length: 3 },
  '=~': { message: "write contains, startswith or endswith ('=~' is not an operator: there are no regular expressions)", length: 2 },
  '&&': { message: "write 'and' ('&&' is not an operator)", length: 2 },
  '||': { message: "write 'or' ('||' is not an operator)", length: 2 },
};

export function parseCondition(src: string): ParseResult {
  if (src.length > MAX_LENGTH)
    return { error: { message: `condition longer than ${MAX_LENGTH} characters`, start: MAX_LENGTH, end: src.length } };
  if (src.trim() === '') return { error: { message: 'empty condition', start: 0, end: src.length } };
  try {
    const toks = lex(src);
    let k = 0;
    let depth = 0;
    const peek = () => toks[k]!;
    const isOp = (v: string) => {
      const t = peek();
      return (t.t === 'op' && t.v === v) || (t.t === 'ident' && t.v === v);
    };
    const expect = (v: string, what: string) => {
      const t = peek();
      if (!isOp(v))
        throw new Fail({
          message: `expected ${what}${t.t === 'eof' ? ' before the end' : `, found '${src.slice(t.s, t.e)}'`}`,
          start: t.s,
          end: Math.max(t.e, t.s + (t.t === 'eof' ? 0 : 1)),
        });
      return toks[k++]!;
    };
    const loc = (s: number, e: number): Loc => ({ start: s, end: e });
    const enter = (at: Tok) => {
      if (++depth > MAX_DEPTH) throw new Fail({ message: `nested deeper than ${MAX_DEPTH}`, start: at.s, end: at.e });
    };

    const parseOr = (): Expr => {
      let left = parseAnd();
      while (isOp('or')) {
        k++;
        const right = parseAnd();
        left = { kind: 'or', left, right, loc: loc(left.loc.start, right.loc.end) };
      }
      return left;
    };
    const parseAnd = (): Expr => {
      let left = parseNot();
      while (isOp('and')) {
        k++;
        const right = parseNot();
        left = { kind: 'and', left, right, loc: loc(left.loc.start, right.loc.end) };
      }
      return left;
    };
    const parseNot = (): Expr => {
      const t = peek();
      if (isOp('not')) {
        k++;
        enter(t);
        const operand = parseNot();
        depth--;
        return { kind: 'not', operand, loc: loc(t.s, operand.loc.end) };
      }
      return parsePrimary();
    };
    const parsePrimary = (): Expr => {
      const t = peek();
      if (t.t === 'op' && t.v === '(') {
        k++;
        enter(t);
        const e = parseOr();
        // Never closed: said at the '(' that needs the ')', not at the end.
        if (peek().t === 'eof') throw new Fail({ message: "add ')': this '(' is never closed", start: t.s, end: t.e });
        expect(')', "')'");
        depth--;
        return e;
      }
      const left = parseOperand();
      const o = peek();
      const opText = o.t === 'op' || o.t === 'ident' ? o.v : '';
      if (COMPARE.has(opText) && (o.t === 'op' || WORD_OPS.has(opText))) {
        k++;
        const right = parseOperand();
        return { kind: 'compare', op: opText as CompareOp, left, right, loc: loc(left.loc.start, right.loc.end) };
      }
      if (o.t === 'ident' && o.v !== 'and' && o.v !== 'or') {
        throw new Fail({ message: `unknown operator '${o.v}': use == != > >= < <= contains startswith endswith in`, start: o.s, end: o.e });
      }
      return left;
    };
    const parseLiteral = (): Literal => {
      const t = peek();
      if (t.t === 'str' || t.t === 'num') {
        k++;
        return t.v;
      }
      if (t.t === 'ident' && (t.v === 'true' || t.v === 'false' || t.v === 'null')) {
        k++;
        return t.v === 'null' ? null : t.v === 'true';
      }
      if (t.t === 'op' && t.v === '[') {
        k++;
        enter(t);
        const items: Literal[] = [];
        if (!isOp(']')) {
          items.push(parseLiteral());
          while (isOp(',')) {
            k++;
            items.push(parseLiteral());
          }
        }
        expect(']', "']' or ','");
        depth--;
        return items;
      }
      if (t.t === 'op' && t.v === '(' && k > 0 && toks[k - 1]!.v === 'in') {
        // `in (404, 410)`: the list is written in square brackets.
        let d = 0,
          j = k;
        for (; j < toks.length - 1; j++) {
          if (toks[j]!.v === '(') d++;
          else if (toks[j]!.v === ')' && --d === 0) break;
        }
        const close = j < toks.length - 1 ? toks[j]!.e : t.e;
        const inner = close === t.e ? src.slice(t.e).trim() : src.slice(t.e, close - 1);
        throw new Fail({ message: `write the list in square brackets: in [${inner}]`, start: t.s, end: close });
      }
      throw new Fail({
        message: t.t === 'eof' ? 'expected a value before the end' : `expected a value, found '${src.slice(t.s, t.e)}'`,
        start: t.s,
        end: t.t === 'eof' ? t.s : t.e,
      });
    };
    const parseOperand = (): Operand => {
      const t = peek();
      if (t.t === 'ident' && !['true', 'false', 'null', 'and', 'or', 'not', ...WORD_OPS].includes(t.v)) {
        k++;
        const segments: (string | number)[] = [t.v];
        let end = t.e;
        let rootEnd = t.e;
        for (;;) {
          if (isOp('.')) {
            k++;
            const n = peek();
            if (n.t !== 'ident') throw new Fail({ message: "expected a name after '.'", start: n.s, end: Math.max(n.e, n.s) });
            k++;
            segments.push(n.v);
            end = n.e;
            if (segments.length === 2 && segments[0] === 'response') rootEnd = n.e;
          } else if (isOp('[')) {
            k++;
            const n = peek();
            if (n.t !== 'str' && n.t !== 'num')
              throw new Fail({ message: "expected a quoted key or an index inside '[ ]'", start: n.s, end: Math.max(n.e, n.s) });
            k++;
            segments.push(n.v);
            end = expect(']', "']'").e;
          } else break;
        }
        return { kind: 'path', segments, text: src.slice(t.s, end), loc: loc(t.s, end), rootLoc: loc(t.s, rootEnd) };
      }
      const s = t.s;
      const value = parseLiteral();
      return { kind: 'literal', value, loc: loc(s, toks[k - 1]!.e) };
    };
    const expr = parseOr();
    const rest = peek();
    if (rest.t !== 'eof')
      return {
        error: { message: `unexpected '${src.slice(rest.s, rest.e)}': expected 'and', 'or' or the end`, start: rest.s, end: rest.e },
      };
    return { expr };
  } catch (e) {
    if (e instanceof Fail) return { error: e.err };
    throw e;
  }
}

/** Every path operand of an expression, in order. */
export function paths(e: Expr): Extract<Operand, { kind: 'path' }>[] {
  switch (e.kind) {
    case 'or':
    case 'and':
      return [...paths(e.left), ...paths(e.right)];
    case 'not':
      return paths(e.operand);
    case 'compare':
      return [...paths(e.left), ...paths(e.right)];
    case 'path':
      return [e];
    default:
      return [];
  }
}
