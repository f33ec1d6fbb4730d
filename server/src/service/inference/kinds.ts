/**
 * Failures → kinds of failure, each one code of the inferred contract. A failure that names a code is
 * of that code's kind; one that names none (a text, a bare JSON-RPC error) joins the kind of the
 * messages it resembles (same channel and JSON-RPC code, most words shared). For each kind: the code
 * name, category, template, details keys and types, channel, HTTP status, retry, and whether a
 * registry code already says it all. Everything is sorted, so the result does not depend on the
 * order of the input.
 */
import type { Contract, ContractCode } from '../contract/contract';
import type { RegistryIndex } from '../model/registry';
import { retryOf, type Retry } from '../model/retry';
import { CODE_NAME, prefixCategory, toUpperSnake } from '../util/naming';
import { judgeMessage } from '../verify/message';
import type { Channel, Failure } from './failures';
import { inferTemplate, similarity, templatePattern, tokensOf, type InferredTemplate } from './template';

export interface InferredDetail {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  /** Not in the details: a placeholder filled from a request argument, the tool or a varying word. */
  readonly placeholderOnly?: 'argument' | 'tool' | 'varies' | 'span';
}

export interface InferredKind {
  readonly code: string;
  /** The code as the server sent it; undefined when the name is ours (a text, a bare JSON-RPC error). */
  readonly sent?: string;
  readonly category: string;
  /** Why this category (a comment). */
  readonly categoryFrom: string;
  readonly template: InferredTemplate;
  readonly details: readonly InferredDetail[];
  readonly channels: readonly string[];
  readonly tools: readonly string[];
  readonly count: number;
  readonly statuses: readonly number[];
  readonly rpcCodes: readonly number[];
  /** The retry to write; undefined when the category's default is retry-after-delay but no answer carried a delay. */
  readonly retry?: Retry;
  readonly retryFrom: string;
  /** A registry code: every message matched its template (or it is one and nothing needs saying). */
  readonly registry?: { readonly code: string; readonly templateMatches: boolean };
  /** A registry code of the same category this one is near (a comment). */
  readonly near?: string;
}

const KEYWORDS: readonly [string, RegExp][] = [
  ['RATE_LIMIT', /rate.?limit|too many requests|quota|throttl/i],
  ['NOT_FOUND', /not found|no such|does not exist|doesn't exist|unknown (?:tool|operation|resource|method)|\benoent\b/i],
  ['PERMISSION', /access denied|permission|forbidden|unauthori[sz]ed|not allowed|\beacces\b|\beperm\b|outside allowed/i],
  ['CONFLICT', /already exists|conflict|\beexist\b|duplicate/i],
  ['VALIDATION', /invalid|required|must be|expected|missing|validation|malformed|bad request/i],
];
const RPC: Readonly<Record<number, string>> = {
  [-32700]: 'VALIDATION',
  [-32600]: 'VALIDATION',
  [-32601]: 'NOT_FOUND',
  [-32602]: 'VALIDATION',
  [-32603]: 'INTERNAL',
};
const NAME_STOP = new Set(
  'a an the at in on of to for is be and or with by from as but not no such mcp error errors invalid input failed failure name value directory enoent eacces eperm eexist'.split(
    ' ',
  ),
);
const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  NOT_FOUND: ['not', 'found', 'unknown', 'exist', 'exists'],
  PERMISSION: ['permission', 'denied', 'access', 'forbidden', 'unauthorized', 'allowed'],
  CONFLICT: ['conflict', 'already', 'exists'],
  RATE_LIMIT: ['rate', 'limit', 'exceeded', 'too', 'many', 'requests'],
  VALIDATION: ['validation', 'required', 'missing', 'expected', 'must'],
  INTERNAL: ['internal'],
};
/** Kinds whose messages share at least this much are one kind. */
const SAME_KIND = 0.6;

function statusCategory(s: number): string | undefined {
  if (s === 404) return 'NOT_FOUND';
  if (s === 401 || s === 403) return 'PERMISSION';
  if (s === 409) return 'CONFLICT';
  if (s === 429) return 'RATE_LIMIT';
  if (s >= 500) return 'INTERNAL';
  if (s >= 400) return 'VALIDATION';
  return undefined;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The kinds of failure in `failures`, sorted by code. `taken`: the codes already declared (merging), with
 * their message templates: a name not reused for a new kind, and a kind whose every message is one of a
 * declared code's templates takes that code (the merge then keeps it as written, not a second entry).
 */
export function kindsOf(
  failures: readonly Failure[],
  registry: RegistryIndex,
  contract: Contract,
  taken: ReadonlyMap<string, readonly string[]>,
): InferredKind[] {
  const groups = new Map<string, Failure[]>();
  const loose: Failure[] = [];
  for (const f of failures)
    if (f.code) {
      const g = groups.get(f.code);
      if (g) g.push(f);
      else groups.set(f.code, [f]);
    } else loose.push(f);
  const clusters: Failure[][] = [];
  // Deterministic: the loose failures in the order of their messages.
  const sorted = [...loose].sort((a, b) => cmp(a.channel, b.channel) || (a.rpcCode ?? 0) - (b.rpcCode ?? 0) || cmp(a.message, b.message));
  const reps: ReturnType<typeof tokensOf>[] = [];
  for (const f of sorted) {
    const t = tokensOf(f);
    let k = clusters.findIndex(
      (c, i) => c[0]!.channel === f.channel && c[0]!.rpcCode === f.rpcCode && similarity(reps[i]!, t) >= SAME_KIND,
    );
    if (k < 0) {
      k = clusters.push([]) - 1;
      reps.push(t);
    }
    clusters[k]!.push(f);
  }
  const used = new Set(taken.keys());
  const declared = [...taken]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([code, templates]) => ({ code, patterns: templates.map(t => templatePattern(t)) }));
  const out: InferredKind[] = [];
  for (const [code, fs] of [...groups].sort((a, b) => cmp(a[0], b[0]))) {
    used.add(code);
    out.push(describe(code, code, fs, registry, contract));
  }
  // Names for the loose kinds, in a stable order (by their template).
  const looseKinds = absorbTails(clusters.map(fs => ({ fs, template: inferTemplate(sortSamples(fs)) }))).sort((a, b) =>
    cmp(a.template.text, b.template.text),
  );
  for (const { fs, template } of looseKinds) {
    const category = categoryOf(undefined, fs, registry);
    const fit = registryFit(category.name, fs, contract);
    const mine = declared.find(d => d.patterns.some(p => fs.every(f => p.test(f.message))))?.code;
    const name = mine ?? fit ?? unique(nameFor(category.name, template.text), used, registry);
    used.add(name);
    out.push(describe(name, undefined, fs, registry, contract, fit));
  }
  return out.sort((a, b) => cmp(a.code, b.code));
}

/** A template's literal text must be this long before it may take in other kinds (absorbTails). */
const MIN_PREFIX = 12;

/**
 * A kind whose template ends in a varying tail (`Invalid arguments for tool {tool}: {value}`, the
 * shape of a validator's report) takes in the kinds whose every message fits it: a report with other
 * issues, one too different word by word to be clustered with it, is the same kind of failure.
 * Deterministic: kinds are visited in the order of their templates.
 */
function absorbTails(kinds: { fs: Failure[]; template: InferredTemplate }[]): { fs: Failure[]; template: InferredTemplate }[] {
  const out = [...kinds].sort((a, b) => cmp(a.template.text, b.template.text));
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const last = a.template.placeholders[a.template.placeholders.length - 1];
    if (!last || (last.from !== 'varies' && last.from !== 'span') || !a.template.text.endsWith(`{${last.name}}`)) continue;
    if (a.template.text.replace(/\{[^{}]*\}/g, '').trim().length < MIN_PREFIX) continue;
    const re = templatePattern(a.template.text);
    const { channel, rpcCode } = a.fs[0]!;
    let grew = false;
    for (let j = out.length - 1; j >= 0; j--) {
      const b = out[j]!;
      if (j === i || b.fs[0]!.channel !== channel || b.fs[0]!.rpcCode !== rpcCode || !b.fs.every(f => re.test(f.message))) continue;
      a.fs = [...a.fs, ...b.fs];
      out.splice(j, 1);
      if (j < i) i--;
      grew = true;
    }
    if (grew) a.template = inferTemplate(sortSamples(a.fs));
  }
  return out;
}

const sortSamples = (fs: readonly Failure[]) =>
  [...fs].sort((a, b) => cmp(a.message, b.message) || cmp(JSON.stringify(a.details ?? {}), JSON.stringify(b.details ?? {})));

function describe(
  code: string,
  sent: string | undefined,
  fs: readonly Failure[],
  registry: RegistryIndex,
  contract: Contract,
  fit?: string,
): InferredKind {
  const samples = sortSamples(fs);
  const template = inferTemplate(samples);
  const category = categoryOf(sent, fs, registry);
  const reg = registry.byCode.get(fit ?? code);
  const rc = contract.codes.get(fit ?? code);
  const registryInfo =
    reg && rc && rc.source === 'registry'
      ? {
          code: reg.code,
          templateMatches: samples.every(
            f => judgeMessage(f.message, rc, f.details ?? {}, f.channel === 'json-rpc' && f.codeFrom === 'json-rpc data')?.kind === 'match',
          ),
        }
      : undefined;
  const delays = [...new Set(fs.flatMap(f => (f.delay ? [f.delay] : [])))].sort();
  const fallback = retryOf(undefined, category.name) ?? 'retry-after-change';
  const retry: Retry | undefined = delays.length ? 'retry-after-delay' : fallback === 'retry-after-delay' ? undefined : fallback;
  const retryFrom = delays.length
    ? `seen with a delay (${delays.join(', ')})`
    : retry
      ? `the default of ${category.name}; no delay was seen`
      : `not written: ${category.name}'s default is retry-after-delay, but no answer carried a delay (a declared retry-after-delay is checked for one)`;
  return {
    code,
    sent,
    category: category.name,
    categoryFrom: category.from,
    template,
    details: detailsOf(samples, template),
    channels: [...new Set(fs.map(channelName))].sort(),
    tools: [...new Set(fs.flatMap(f => (f.tool ? [f.tool] : [])))].sort(),
    count: fs.reduce((n, f) => n + (f.count ?? 1), 0),
    statuses: [...new Set(fs.flatMap(f => (f.status ? [f.status] : [])))].sort((a, b) => a - b),
    rpcCodes: [...new Set(fs.flatMap(f => (f.rpcCode !== undefined ? [f.rpcCode] : [])))].sort((a, b) => a - b),
    retry,
    retryFrom,
    registry: registryInfo,
    near: reg ? undefined : nearRegistry(category.name, samples, registry),
  };
}

function channelName(f: Failure): string {
  if (f.channel === 'json-rpc')
    return f.code ? 'JSON-RPC error (question dialect)' : `JSON-RPC error${f.rpcCode !== undefined ? ` ${f.rpcCode}` : ''}`;
  if (f.codeFrom === 'envelope') return `tool result, MCP-AQL envelope, isError ${f.flagged}`;
  if (f.codeFrom === 'structured error' || f.structured) return `tool result, structured error, isError ${f.flagged}`;
  return `tool result, text only, isError ${f.flagged}`;
}

function categoryOf(sent: string | undefined, fs: readonly Failure[], registry: RegistryIndex): { name: string; from: string } {
  if (sent) {
    const reg = registry.byCode.get(sent);
    if (reg) return { name: reg.category, from: `the registry's category of ${sent}` };
    const p = prefixCategory(sent, registry.categoryNames);
    if (p) return { name: p, from: `the code's prefix` };
  }
  for (const f of fs)
    if (f.status) {
      const c = statusCategory(f.status);
      if (c) return { name: c, from: `HTTP ${f.status}` };
    }
  for (const [name, re] of KEYWORDS) {
    const f = fs.find(x => re.test(x.message));
    if (f) return { name, from: `the message says '${re.exec(f.message)![0]}'` };
  }
  for (const f of fs) if (f.rpcCode !== undefined && RPC[f.rpcCode]) return { name: RPC[f.rpcCode]!, from: `JSON-RPC ${f.rpcCode}` };
  return { name: 'INTERNAL', from: 'nothing said otherwise' };
}

/** A registry code of this category whose template every message matches (without its details). */
function registryFit(category: string, fs: readonly Failure[], contract: Contract): string | undefined {
  for (const c of contract.codes.values()) {
    if (c.source !== 'registry' || c.kind !== 'error' || c.category !== category || !c.templates.some(t => t.text)) continue;
    if (fs.every(f => judgeMessage(f.message, c, f.details ?? {})?.kind === 'match' && hasLiteral(c))) return c.code;
  }
  return undefined;
}
/** A template that is more than placeholders (one that is all placeholders matches anything). */
const hasLiteral = (c: ContractCode) => c.templates.some(t => t.text.replace(/\{[^{}]*\}/g, '').trim().length >= 4);

function nearRegistry(category: string, samples: readonly Failure[], registry: RegistryIndex): string | undefined {
  const keys = new Set(samples.flatMap(f => Object.keys(f.details ?? {})));
  let best: string | undefined,
    score = 0;
  for (const c of registry.data.codes) {
    if (c.kind !== 'error' || c.category !== category) continue;
    const s = Object.keys(c.details ?? {}).filter(k => keys.has(k)).length;
    if (s > score) {
      best = c.code;
      score = s;
    }
  }
  return best;
}

function detailsOf(samples: readonly Failure[], template: InferredTemplate): InferredDetail[] {
  const seen = new Map<string, { types: Set<string>; count: number }>();
  for (const f of samples)
    for (const [k, v] of Object.entries(f.details ?? {})) {
      const s = seen.get(k) ?? { types: new Set<string>(), count: 0 };
      s.types.add(typeOf(v));
      s.count++;
      seen.set(k, s);
    }
  const out: InferredDetail[] = [...seen]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([name, s]) => {
      // An empty list goes with any list; a key only ever seen empty is a plain array.
      let types = [...s.types].filter(t => t !== 'null');
      if (types.includes('empty[]'))
        types =
          types.length > 1 && types.every(t => t.endsWith(']'))
            ? types.filter(t => t !== 'empty[]')
            : types.map(t => (t === 'empty[]' ? 'array' : t));
      types = [...new Set(types)];
      const type =
        types.length === 1 ? types[0]! : types.length === 2 && types.includes('integer') && types.includes('number') ? 'number' : 'unknown';
      return { name, type, required: s.count === samples.length && !s.types.has('null') };
    });
  for (const p of template.placeholders)
    if (p.from !== 'details' && !seen.has(p.name)) out.push({ name: p.name, type: 'string', required: false, placeholderOnly: p.from });
  return out;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const items = new Set(v.map(typeOf));
    if (items.size === 0) return 'empty[]';
    if (items.size !== 1) return 'array';
    const t = [...items][0]!;
    return ['string', 'number', 'integer', 'object'].includes(t) ? `${t}[]` : 'array';
  }
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v === 'string' || typeof v === 'boolean' ? typeof v : 'unknown';
}

/** `NOT_FOUND_ENTITY` from "Entity with name {name} not found": the category and the first two telling words. */
function nameFor(category: string, template: string): string {
  const skip = new Set(CATEGORY_WORDS[category] ?? []);
  const words = template
    .replace(/\{[^{}]*\}/g, ' ')
    .split(/[^A-Za-z]+/)
    .map(w => w.toLowerCase())
    .filter(w => w.length > 1 && !NAME_STOP.has(w) && !skip.has(w));
  const picked = [...new Set(words)].slice(0, 2);
  const name = toUpperSnake(`${category}_${picked.join('_') || 'failure'}`);
  return CODE_NAME.test(name) ? name : `${category}_FAILURE`;
}

function unique(name: string, used: ReadonlySet<string>, registry: RegistryIndex): string {
  let n = name;
  for (let k = 2; used.has(n) || registry.byCode.has(n); k++) n = `${name}_${k}`;
  return n;
}

export type { Channel };
