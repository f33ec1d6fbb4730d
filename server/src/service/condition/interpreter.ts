/**
 * Evaluates a parsed condition against a simulated upstream response (design s2; docs/conditions.md).
 * Semantics: a missing path is undefined; comparisons with undefined are false (`!=` is true);
 * numbers compare numerically and numeric strings compare as numbers; contains / startswith /
 * endswith on strings ignore case (upstream messages vary in case); contains on a list tests membership;
 * `x in [..]` tests membership; header names ignore case; a bare path is true when truthy. Work is
 * linear in the expression's size; no code is evaluated.
 */
import type { Expr, Literal, Operand } from './ast';

export interface ConditionContext {
  readonly response: { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> };
  readonly params?: Readonly<Record<string, unknown>>;
}

const show = (v: unknown): string =>
  v === undefined
    ? 'undefined'
    : typeof v === 'string'
      ? JSON.stringify(v.length > 80 ? v.slice(0, 77) + '…' : v)
      : (JSON.stringify(v) ?? String(v));

function resolvePath(segments: readonly (string | number)[], ctx: ConditionContext): unknown {
  const [root, ...rest] = segments;
  let cur: unknown;
  let i = 0;
  if (root === 'params') cur = ctx.params;
  else if (root === 'response') {
    const second = rest[0];
    i = 1;
    if (second === 'status') cur = ctx.response.status;
    else if (second === 'body') cur = ctx.response.body;
    else if (second === 'headers') {
      const h = ctx.response.headers ?? {};
      const name = rest[1];
      if (name === undefined) return h;
      const hit = Object.keys(h).find(k => k.toLowerCase() === String(name).toLowerCase());
      cur = hit === undefined ? undefined : h[hit];
      i = 2;
    } else return undefined;
  } else return undefined;
  for (; i < rest.length; i++) {
    const seg = rest[i]!;
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) cur = typeof seg === 'number' ? cur[seg] : /^\d+$/.test(String(seg)) ? cur[Number(seg)] : undefined;
    else cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[String(seg)] : undefined;
  }
  return cur;
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined;

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = num(a),
    y = num(b);
  if (x !== undefined && y !== undefined && (typeof a === 'number' || typeof b === 'number')) return x === y;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  return false;
}

export function evaluate(e: Expr, ctx: ConditionContext, steps: string[]): boolean {
  switch (e.kind) {
    case 'or':
      return evaluate(e.left, ctx, steps) || evaluate(e.right, ctx, steps);
    case 'and':
      return evaluate(e.left, ctx, steps) && evaluate(e.right, ctx, steps);
    case 'not':
      return !evaluate(e.operand, ctx, steps);
    case 'path':
    case 'literal': {
      const v = operand(e, ctx);
      const r = !!v && !(Array.isArray(v) && v.length === 0);
      steps.push(`${e.kind === 'path' ? e.text : show(v)} (${show(v)}) → ${r}`);
      return r;
    }
    case 'compare': {
      const a = operand(e.left, ctx),
        b = operand(e.right, ctx);
      const r = compare(e.op, a, b);
      const label = (o: Operand, v: unknown) => (o.kind === 'path' ? `${o.text} (${show(v)})` : show(v));
      steps.push(`${label(e.left, a)} ${e.op} ${label(e.right, b)} → ${r}`);
      return r;
    }
  }
}

function operand(o: Operand, ctx: ConditionContext): unknown {
  return o.kind === 'path' ? resolvePath(o.segments, ctx) : (o.value as Literal);
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (op === '!=') return !equal(a, b);
  if (a === undefined || b === undefined) return false;
  switch (op) {
    case '==':
      return equal(a, b);
    case '>':
    case '>=':
    case '<':
    case '<=': {
      const x = num(a),
        y = num(b);
      if (x === undefined || y === undefined) return false;
      return op === '>' ? x > y : op === '>=' ? x >= y : op === '<' ? x < y : x <= y;
    }
    case 'contains':
      if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase().includes(b.toLowerCase());
      if (Array.isArray(a)) return a.some(v => equal(v, b));
      return false;
    case 'startswith':
      return typeof a === 'string' && typeof b === 'string' && a.toLowerCase().startsWith(b.toLowerCase());
    case 'endswith':
      return typeof a === 'string' && typeof b === 'string' && a.toLowerCase().endsWith(b.toLowerCase());
    case 'in':
      if (Array.isArray(b)) return b.some(v => equal(a, v));
      if (typeof b === 'string' && typeof a === 'string') return b.toLowerCase().includes(a.toLowerCase());
      return false;
  }
  return false;
}
