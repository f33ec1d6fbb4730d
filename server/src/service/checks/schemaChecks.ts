/**
 * schema.*: the structure of error_codes / error_mapping, from schemas/adapter.schema.json via ajv,
 * each error mapped back to the narrowest node (conventions C4). Entries are validated one by one and
 * the verdict is cached per entry node: the incremental parse reuses a node only while its text is
 * unchanged, so a keystroke re-validates one entry.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Node, Pair } from 'yaml';
import { isMap, isScalar, isSeq } from '../parse/yamlNodes';
import { Code, type UnknownKeyData, type EnumData } from '../codes';
import { closest, closestKey } from '../util/closest';
import { keyKind } from '../util/keyKind';
import { ObjectMemo } from '../util/objectMemo';
import { keyString } from '../parse/extract';
import type { Section } from '../model/model';
import { nodeAt } from '../parse/pointer';
import { plainValue } from '../parse/plainValue';
import { NO_PLAIN, simpleHollow, takePlain } from '../parse/hollow';
import { onePerSpan } from './onePerSpan';
import type { Check, Problem } from './types';
import { hasAliasNodes } from './aliasNodes';

/** Entry value node → ajv errors (relative to the entry), per validator. */
const verdicts = new WeakMap<ValidateFunction, ObjectMemo<Node, ErrorObject[]>>();

export const schema: Check = {
  name: 'schema',
  run({ model, validateSchema, validateEntry }, emit) {
    for (const s of model.sections) {
      const root = s.doc.contents as Node | null;
      if (!isMap(root)) {
        if (model.kind !== 'json') rootTypeProblem(s, root, emit);
        continue;
      }
      const push = onePerSpan(emit);
      // Only a model parsed in chunks hands its entry nodes to a later parse: other verdicts are not kept.
      const remember = model.parseState !== undefined;
      // Documents with aliases or merge keys are validated whole (toJS resolves them, with a budget).
      if (!validateEntry || hasAliasNodes(s)) {
        wholeSchemaProblems(s, validateSchema, push);
        continue;
      }
      for (const top of root.items) {
        const block = keyString(top);
        if (block !== 'error_codes' && block !== 'error_mapping') continue;
        const v = top.value as Node | null;
        if (!isMap(v)) {
          blockTypeProblem(s, block, v, push);
          continue;
        }
        const validate = block === 'error_codes' ? validateEntry.code : validateEntry.mapping;
        for (const pair of v.items) pairSchemaProblems(s, block, validate, pair, push, remember);
      }
    }
  },
};

/**
 * A document whose root is a list or a scalar (test/service/roots.test.ts): an adapter is one mapping. A JSON
 * adapter's root is the JSON check's (json.syntax), so it is said once; an empty document is no problem.
 */
export function rootTypeProblem(s: Section, root: Node | null, emit: (p: Problem) => void): void {
  if (!root?.range || root.range[0] === root.range[1] || isMap(root)) return;
  if (isScalar(root) && (root.value === null || root.value === '')) return;
  const what = isSeq(root) ? 'a list' : isScalar(root) && typeof root.value === 'string' ? 'a string' : 'a single value';
  const start = s.base + root.range[0];
  const nl = s.text.indexOf('\n', root.range[0]);
  const end = s.base + Math.min(root.range[1], nl < 0 ? s.text.length : nl);
  emit({
    code: Code.SchemaType,
    start,
    end: Math.max(end, start + 1),
    message: `Write the adapter as one mapping of keys (name:, error_codes:, error_mapping:, …): this document is ${what}.`,
  });
}

/** A block (error_codes / error_mapping) whose value is not a mapping; an empty value is no problem. */
export function blockTypeProblem(s: Section, block: string, v: Node | null, emit: (p: Problem) => void): void {
  if (!v || (v.range && v.range[0] === v.range[1])) return;
  const p = toProblem(s, typeError(`/${block}`, 'must be object'));
  if (p) emit(p);
}

/**
 * schema.* of one entry of a block. The pointer of each error is resolved from the section's root, so
 * the result holds for this pair only while it is the first of its key in the first block of its name.
 */
export function pairSchemaProblems(
  s: Section,
  block: string,
  validate: ValidateFunction,
  pair: Pair,
  emit: (p: Problem) => void,
  remember = true,
): void {
  const key = keyString(pair);
  if (key === undefined) {
    if (block === 'error_codes') namelessKeyProblem(s, pair, emit, 'code');
    return;
  }
  // An entry hollowed with simple keys (parse/hollow.ts) has no nameless key: not read back to be looked at.
  if (block === 'error_codes' && !simpleHollow(pair.value)) namelessDetailsKeys(s, pair, emit);
  for (const e of entryErrors(validate, pair, remember)) {
    const p = toProblem(s, { ...e, instancePath: `/${block}/${escape(key)}${e.instancePath}` });
    if (p) emit(p);
  }
}

/**
 * An error_codes key that names no code: a mapping, a list or null (an error_mapping key is a status,
 * extract.ts's). The entry is no code, and the schema, which reads keys as strings, cannot point at it.
 */
function namelessKeyProblem(s: Section, pair: Pair, emit: (p: Problem) => void, of: 'code' | 'details'): void {
  const k = pair.key as Node | null;
  if (!k?.range || (isScalar(k) && typeof k.value === 'symbol')) return; // `<<`: a merge, no entry of its own
  const what = keyKind(k);
  const start = s.base + k.range[0];
  emit({
    code: Code.SchemaType,
    start,
    end: Math.max(s.base + k.range[1], start + 1),
    message:
      of === 'code'
        ? `An error code's key is its name (CATEGORY_SPECIFIC_CONDITION): this key is ${what}, so the entry declares no code.`
        : `A details key is the name of a value the error carries (a placeholder's name): this key is ${what}, so it declares none.`,
  });
}

/** The keys of an error code's `details` mapping (written in the entry itself) that name nothing. */
function namelessDetailsKeys(s: Section, pair: Pair, emit: (p: Problem) => void): void {
  const entry = pair.value as Node | null;
  if (!isMap(entry)) return;
  for (const field of entry.items) {
    const v = field.value as Node | null;
    if (keyString(field) === 'details' && isMap(v))
      for (const d of v.items) if (keyString(d) === undefined) namelessKeyProblem(s, d, emit, 'details');
  }
}

/** Whole-section validation, for documents with aliases (toJS resolves them, with a budget). */
export function wholeSchemaProblems(s: Section, validateSchema: ValidateFunction, emit: (p: Problem) => void): void {
  whole(s, validateSchema, e => {
    const p = toProblem(s, e);
    if (p) emit(p);
  });
  const root = s.doc.contents as Node | null;
  if (isMap(root))
    for (const top of root.items) {
      const v = top.value as Node | null;
      if (keyString(top) === 'error_codes' && isMap(v))
        for (const pair of v.items) {
          if (keyString(pair) === undefined) namelessKeyProblem(s, pair, emit, 'code');
          else namelessDetailsKeys(s, pair, emit);
        }
    }
}

const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const typeError = (instancePath: string, message: string): ErrorObject => ({
  keyword: 'type',
  instancePath,
  schemaPath: '',
  params: {},
  message,
});

function entryErrors(validate: ValidateFunction, pair: Pair, remember: boolean): ErrorObject[] {
  const node = pair.value as Node | null;
  if (!node) return validate(null) ? [] : [...(validate.errors ?? [])];
  let cache = verdicts.get(validate);
  if (!cache) verdicts.set(validate, (cache = new ObjectMemo('schemaVerdict')));
  const hit = cache.get(node);
  if (hit) return hit;
  // Hollowed as parsed (parse/hollow.ts): its plain value was kept for this, its first check.
  let js: unknown = takePlain(node);
  if (js === NO_PLAIN)
    try {
      js = plainValue(node);
    } catch {
      return [];
    }
  const errors = validate(js) ? [] : [...(validate.errors ?? [])];
  if (remember) cache.set(node, errors);
  return errors;
}

function whole(s: Section, validateSchema: ValidateFunction, push: (e: ErrorObject) => void): void {
  let js: unknown;
  try {
    js = s.doc.toJS({ maxAliasCount: 100 });
  } catch {
    return;
  } // alias bombs: yaml.alias-limit reports them
  if (!js || typeof js !== 'object' || Array.isArray(js)) return;
  const o = js as Record<string, unknown>;
  if (o.error_codes === undefined && o.error_mapping === undefined) return;
  if (validateSchema({ error_codes: o.error_codes, error_mapping: o.error_mapping })) return;
  for (const e of validateSchema.errors ?? []) push(e);
}

const at = (s: Section, n: Node | undefined): { start: number; end: number } | undefined =>
  n?.range ? { start: s.base + n.range[0], end: s.base + n.range[1] } : undefined;

function where(e: ErrorObject): string {
  const parts = e.instancePath
    .split('/')
    .slice(1)
    .map(x => x.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.length ? parts.join('.') : 'the document';
}

/** Words YAML 1.1 loaders read as booleans and YAML 1.2 (this checker, most current loaders) as strings. */
const spellings = (w: string): string[] => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)];
const YAML11_BOOLEANS = new Map<string, boolean>([
  ...['y', 'yes', 'on'].flatMap(spellings).map(w => [w, true] as [string, boolean]),
  ...['n', 'no', 'off'].flatMap(spellings).map(w => [w, false] as [string, boolean]),
]);

/**
 * Two wrong types a person writes on purpose, said with what to write (test/service/silentSlips.test.ts): `required: yes`
 * (a boolean in YAML 1.1, a string in YAML 1.2) and the mapping shorthand `"401": "PERMISSION_DENIED"`.
 */
function typeProblemSaid(e: ErrorObject, node: Node | undefined): { message: string; rewrite: 'true' | 'false' | 'code' } | undefined {
  if (e.keyword !== 'type' || typeof e.data !== 'string') return undefined;
  const type = (e.params as { type?: string }).type;
  const b = YAML11_BOOLEANS.get(e.data);
  // Only a plain `yes`: a quoted "yes" is a string in every YAML and in JSON.
  if (type === 'boolean' && b !== undefined && isScalar(node) && node.type === 'PLAIN')
    return {
      message: `Write ${b}: YAML 1.2 reads ${e.data} as the string "${e.data}", not a boolean (only YAML 1.1 loaders read it as ${b}); ${where(e)} must be boolean.`,
      rewrite: b ? 'true' : 'false',
    };
  if (type === 'object' && /^\/error_mapping\/[^/]+$/.test(e.instancePath) && e.data.trim() !== '')
    return {
      message: `Write { code: ${e.data} }: an error_mapping value is an entry with a code (or a list of entries), not the code alone; ${where(e)} must be an object.`,
      rewrite: 'code',
    };
  return undefined;
}

function toProblem(s: Section, e: ErrorObject): Problem | undefined {
  if (e.keyword === 'if') return undefined;
  const hit = nodeAt(s.doc.contents as Node | null, e.instancePath);
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const span = at(s, hit.key) ?? at(s, hit.node) ?? at(s, hit.reached);
      if (!span) return undefined;
      return { code: Code.SchemaRequired, ...span, message: `Missing required key '${missing}' in ${where(e)}.`, data: { missing } };
    }
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const h = nodeAt(s.doc.contents as Node | null, `${e.instancePath}/${escape(key)}`);
      // A key-less pair is the parser's recovery from a syntax error (`message_template: {x} happened: y`),
      // reported as yaml.syntax or template.flow-mapping: one mistake, one diagnostic.
      if (key === '' && !h.key) return undefined;
      const aliased = !h.key; // the key sits in an alias's target, not here: no rename fix
      const span = at(s, h.key) ?? at(s, h.reached);
      if (!span) return undefined;
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      // A key the mapping already has is no suggestion: renaming onto it would duplicate it.
      const present = new Set(isMap(hit.node) ? hit.node.items.map(p => keyString(p)) : []);
      const suggestions = closestKey(
        key,
        allowed.filter(k => !present.has(k)),
        3,
      );
      return {
        code: Code.SchemaUnknownKey,
        ...span,
        message: `${suggestions.length ? `Did you mean '${suggestions[0]}'? ` : ''}Unknown key '${key}' in ${where(e)}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}.`,
        data: { key, allowed, suggestions: aliased ? [] : suggestions } satisfies UnknownKeyData,
      };
    }
    case 'enum': {
      const span = at(s, hit.node) ?? at(s, hit.reached);
      if (!span) return undefined;
      const allowed = ((e.params as { allowedValues: unknown[] }).allowedValues ?? []).filter(v => v !== null);
      const value = e.data;
      const suggestions = typeof value === 'string' ? closest(value, allowed.map(String), 3) : [];
      return {
        code: Code.SchemaEnum,
        ...span,
        message: `${JSON.stringify(value)} is not allowed in ${where(e)}: one of ${allowed.map(String).join(', ')}.`,
        data: { value, allowed, suggestions } satisfies EnumData,
      };
    }
    default: {
      // An empty value (`message_template:` with nothing after it) has an empty range: use its key.
      const v = at(s, hit.node);
      const span = v && v.end > v.start ? v : (at(s, hit.key) ?? v ?? at(s, hit.reached));
      if (!span) return undefined;
      const said = typeProblemSaid(e, hit.node);
      if (said) return { code: Code.SchemaType, ...span, message: said.message, data: { rewrite: said.rewrite } };
      return { code: Code.SchemaType, ...span, message: `${where(e)} ${e.message ?? 'is invalid'}.` };
    }
  }
}
