/**
 * Globs (`**`, `*`, `?`, `{a,b}`, `[...]`) for `mcpAql.files` and the CLI, matched by a state-set
 * simulation of a small automaton: time O(path length × pattern length), no backtracking, no
 * regular expression built from input. A pattern matches the whole path or a suffix that starts
 * after a `/` (as VS Code's file associations do). `*`, `?` and classes never match `/`.
 */

/** A compiled glob; `run` also says how many automaton steps the match took (the linear-time evidence). */
export interface Glob {
  readonly source: string;
  test(path: string): boolean;
  run(path: string): { matched: boolean; steps: number };
}

export class GlobSyntaxError extends Error {}

const SLASH = 47;
/** Edge labels: a code unit, or one of these. */
const NOT_SLASH = -1,
  ANY = -2;
type Ranges = readonly (readonly [number, number])[];
interface Edge {
  readonly on: number | { neg: boolean; ranges: Ranges };
  readonly to: number;
}
const MAX_PATTERN = 1024,
  MAX_NESTING = 64;

function accepts(on: Edge['on'], c: number): boolean {
  if (typeof on === 'number') return on === ANY || (on === NOT_SLASH ? c !== SLASH : on === c);
  if (c === SLASH) return false;
  let hit = false;
  for (const [lo, hi] of on.ranges)
    if (c >= lo && c <= hi) {
      hit = true;
      break;
    }
  return hit !== on.neg;
}

/** Compile, or throw GlobSyntaxError with a message that names the problem and where it is. */
export function compileGlob(glob: string): Glob {
  if (glob.length > MAX_PATTERN) throw new GlobSyntaxError(`pattern longer than ${MAX_PATTERN} characters`);
  const edges: Edge[][] = [[]];
  const eps: number[][] = [[]];
  const state = () => {
    edges.push([]);
    eps.push([]);
    return edges.length - 1;
  };
  const groups: { fork: number; join: number; at: number }[] = [];
  let cur = 0;
  const step = (on: Edge['on']) => {
    const n = state();
    edges[cur]!.push({ on, to: n });
    cur = n;
  };
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        const a = state();
        eps[cur]!.push(a);
        if (glob[i + 1] === '/') {
          // `**/`: zero or more whole segments, each ending in `/`.
          i++;
          const b = state();
          edges[a]!.push({ on: SLASH, to: a }, { on: NOT_SLASH, to: b });
          edges[b]!.push({ on: NOT_SLASH, to: b }, { on: SLASH, to: a });
        } else edges[a]!.push({ on: ANY, to: a });
        cur = a;
      } else {
        const a = state();
        eps[cur]!.push(a);
        edges[a]!.push({ on: NOT_SLASH, to: a });
        cur = a;
      }
    } else if (c === '?') step(NOT_SLASH);
    else if (c === '{') {
      if (groups.length >= MAX_NESTING) throw new GlobSyntaxError(`braces nested deeper than ${MAX_NESTING}`);
      const g = { fork: cur, join: state(), at: i };
      groups.push(g);
      cur = state();
      eps[g.fork]!.push(cur);
    } else if (c === ',' && groups.length) {
      const g = groups[groups.length - 1]!;
      eps[cur]!.push(g.join);
      cur = state();
      eps[g.fork]!.push(cur);
    } else if (c === '}' && groups.length) {
      const g = groups.pop()!;
      eps[cur]!.push(g.join);
      cur = g.join;
    } else if (c === '[') {
      const [cls, end] = parseClass(glob, i);
      step(cls);
      i = end;
    } else step(c.charCodeAt(0));
  }
  if (groups.length) throw new GlobSyntaxError(`'{' at column ${groups[groups.length - 1]!.at + 1} is never closed`);
  return machine(glob, edges, eps, cur);
}

/** `[abc]`, `[a-z]`, `[!x]` or `[^x]`; a `]` right after the opening (or the `!`) is a member. */
function parseClass(glob: string, open: number): [{ neg: boolean; ranges: Ranges }, number] {
  let i = open + 1;
  const neg = glob[i] === '!' || glob[i] === '^';
  if (neg) i++;
  const ranges: [number, number][] = [];
  const first = i;
  for (; i < glob.length; i++) {
    if (glob[i] === ']' && i > first) return [{ neg, ranges }, i];
    const lo = glob.charCodeAt(i);
    if (glob[i + 1] === '-' && i + 2 < glob.length && glob[i + 2] !== ']') {
      const hi = glob.charCodeAt(i + 2);
      if (hi < lo) throw new GlobSyntaxError(`range '${glob.slice(i, i + 3)}' at column ${i + 1} is out of order`);
      ranges.push([lo, hi]);
      i += 2;
    } else ranges.push([lo, lo]);
  }
  throw new GlobSyntaxError(`'[' at column ${open + 1} is never closed`);
}

function machine(source: string, edges: Edge[][], eps: number[][], accept: number): Glob {
  const n = edges.length;
  const mark = new Uint32Array(n);
  let gen = 0;
  const run = (path: string) => {
    let steps = 0;
    let cur: number[] = [],
      next: number[] = [];
    const add = (set: number[], s0: number) => {
      const stack = [s0];
      while (stack.length) {
        const s = stack.pop()!;
        steps++;
        if (mark[s] === gen) continue;
        mark[s] = gen;
        set.push(s);
        for (const t of eps[s]!) stack.push(t);
      }
    };
    gen++;
    add(cur, 0);
    const lastSlash = path.lastIndexOf('/');
    for (let i = 0; i < path.length; i++) {
      // No state alive and no `/` left to start a match after: nothing can match any more.
      if (!cur.length && i > lastSlash) break;
      const c = path.charCodeAt(i);
      gen++;
      next.length = 0;
      for (const s of cur)
        for (const e of edges[s]!) {
          steps++;
          if (accepts(e.on, c)) add(next, e.to);
        }
      // Unanchored at segment starts: a match may begin after any `/`.
      if (c === SLASH) add(next, 0);
      [cur, next] = [next, cur];
      if (gen > 0xfffffff0) {
        mark.fill(0);
        gen = 1;
      }
    }
    return { matched: cur.includes(accept), steps };
  };
  return { source, run, test: path => run(path).matched };
}

const cache = new Map<string, Glob | GlobSyntaxError>();

function cached(glob: string): Glob | GlobSyntaxError {
  let hit = cache.get(glob);
  if (!hit) {
    try {
      hit = compileGlob(glob);
    } catch (e) {
      hit = e instanceof GlobSyntaxError ? e : new GlobSyntaxError(String(e));
    }
    if (cache.size > 256) cache.clear();
    cache.set(glob, hit);
  }
  return hit;
}

/** Why a glob is not valid, or undefined when it is. */
export function globError(glob: string): string | undefined {
  const g = cached(glob);
  return g instanceof GlobSyntaxError ? g.message : undefined;
}

/** Whether any valid glob matches; invalid ones match nothing (callers report them, see globError). */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  return globs.some(g => {
    const m = cached(g);
    return !(m instanceof GlobSyntaxError) && m.test(path);
  });
}
