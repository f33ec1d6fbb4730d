/**
 * The inferred kinds as adapter text: a new adapter, or new entries added to an existing one through
 * `yaml`'s Document API (its comments, order and entries kept; an entry already there — a code in
 * `error_codes`, a status in `error_mapping` — is never touched). Every guess carries a comment.
 */
import { Document, isMap, isScalar, parseDocument, Scalar, YAMLMap, type Pair } from 'yaml';
import type { RegistryIndex } from '../model/registry';
import { PLACEHOLDER_NAME } from '../parse/placeholders';
import type { InferredKind } from './kinds';

export interface RenderResult {
  readonly text: string;
  /** Codes and statuses the existing adapter already had (left as written). */
  readonly kept: readonly string[];
  /** Codes and statuses added. */
  readonly added: readonly string[];
}

export class InferRenderError extends Error {}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** The kinds written into `existing` (an adapter's YAML text), or into a new adapter named `name`. */
export function renderKinds(kinds: readonly InferredKind[], registry: RegistryIndex, existing?: string, name = 'inferred'): RenderResult {
  const doc: Document = existing === undefined ? newAdapter(name, kinds) : parseDocument(existing);
  if (existing !== undefined && doc.errors.length)
    throw new InferRenderError(`the adapter to merge into is not valid YAML: ${doc.errors[0]!.message}`);
  if (existing !== undefined && !isMap(doc.contents)) throw new InferRenderError('the adapter to merge into is not a YAML mapping');
  // A JSON adapter (its root a flow mapping) is refused, not rewritten: the merge adds commented
  // block entries, which would turn the file into YAML (docs/cli.md, "Inferring a contract").
  if (existing !== undefined && (doc.contents as YAMLMap).flow)
    throw new InferRenderError(
      'the adapter to merge into is JSON; --merge writes commented YAML entries and merges only into a YAML adapter (infer into a new file with -o and copy the entries over)',
    );
  const kept: string[] = [],
    added: string[] = [];
  const fresh = new Map<string, Pair<unknown, unknown>[]>();
  const block = (key: string, comment: string): YAMLMap => {
    const root = doc.contents as YAMLMap;
    const at = root.get(key, true);
    if (!fresh.has(key)) fresh.set(key, []);
    if (isMap(at)) return at;
    const m = new YAMLMap();
    root.set(doc.createNode(key), m);
    const pair = root.items.find(p => isScalar(p.key) && p.key.value === key)!;
    (pair.key as Scalar).commentBefore = comment;
    return m;
  };
  const codes = kinds.filter(k => !k.registry);
  const mapped = kinds.filter(k => k.registry && !k.registry.templateMatches);
  const covered = kinds.filter(k => k.registry?.templateMatches);
  if (codes.length) {
    const m = block('error_codes', ' Inferred by `mcp-aql-errors infer` from recorded traffic (docs/cli.md, "Inferring a contract").');
    for (const k of codes) {
      if (m.has(k.code)) {
        kept.push(k.code);
        continue;
      }
      const pair = codeEntry(doc, k) as Pair<unknown, unknown>;
      m.items.push(pair);
      fresh.get('error_codes')!.push(pair);
      added.push(k.code);
    }
  }
  if (mapped.length) {
    const m = block('error_mapping', ' Registry codes the server sends with messages of its own (inferred).');
    for (const k of mapped) {
      const status = k.statuses[0] ?? registry.byCode.get(k.code)?.http_status[0] ?? registry.category(k.category)?.http_range[0] ?? 500;
      if (m.has(status) || m.has(String(status))) {
        kept.push(String(status));
        continue;
      }
      const key = doc.createNode(status) as Scalar;
      key.commentBefore = [
        ...about(k),
        k.statuses.length
          ? ` status ${status}: seen.`
          : ` status ${status}: a guess (no HTTP status was seen); the registry's for ${k.code}.`,
      ].join('\n');
      const entry = new YAMLMap();
      entry.set(doc.createNode('code'), doc.createNode(k.code));
      const t = doc.createNode('message_template') as Scalar;
      if (unquotedStrings(k)) t.commentBefore = ' mcp-aql-disable-next-line template.unquoted-placeholder -- the server words it so';
      entry.set(t, quoted(doc, k.template.text));
      const only = k.details.filter(d => d.placeholderOnly);
      if (only.length) entry.set(doc.createNode('details'), detailsNode(doc, only, names(k)));
      const pair = doc.createPair(key, entry) as Pair<unknown, unknown>;
      m.items.push(pair);
      fresh.get('error_mapping')!.push(pair);
      added.push(String(status));
    }
  }
  if (covered.length) {
    const root = doc.contents as YAMLMap;
    const lines = covered.map(k => ` ${k.code}: ${plural(k.count, 'failure')} (${k.channels.join('; ')}), as the registry says.`);
    const note = [' Registry codes seen, nothing to declare:', ...lines].join('\n');
    const old = doc.comment ?? '';
    if (!old.includes(note)) doc.comment = old ? `${old}\n${note}` : note;
    void root;
  }
  const text = existing === undefined ? undefined : spliced(existing, doc, fresh);
  return { text: text ?? doc.toString({ lineWidth: 0 }), kept, added };
}

/**
 * The existing text with the new entries written after its last entry of each block (a block that was
 * not there: at the end), so that every byte already there stays as it was — the Document API alone
 * would move a comment on a key's line. Undefined (the whole document re-written) when a block is not a
 * block mapping with entries (`error_codes:` empty, null or in flow style).
 */
function spliced(existing: string, doc: Document, fresh: ReadonlyMap<string, Pair<unknown, unknown>[]>): string | undefined {
  const old = parseDocument(existing);
  const root = old.contents as YAMLMap;
  let text = existing;
  const tail: string[] = [];
  const inserts: { at: number; text: string }[] = [];
  for (const [key, pairs] of fresh) {
    if (!pairs.length) continue;
    const frag = new Document();
    const m = new YAMLMap();
    m.items.push(...pairs);
    frag.contents = m as unknown as typeof frag.contents;
    const body = frag.toString({ lineWidth: 0 });
    const at = root.get(key, true);
    if (at === undefined) {
      const current = (doc.contents as YAMLMap).items.find(p => isScalar(p.key) && p.key.value === key);
      const comment = (current?.key as Scalar | undefined)?.commentBefore;
      tail.push(
        `${
          comment
            ? comment
                .split('\n')
                .map(l => `#${l}\n`)
                .join('')
            : ''
        }${key}:\n${indent(body, '  ')}`,
      );
      continue;
    }
    if (!isMap(at) || at.flow || !at.items.length || !at.range) return undefined;
    const first = at.items[0]!.key as Scalar | null;
    if (!first?.range) return undefined;
    const lineStart = existing.lastIndexOf('\n', first.range[0] - 1) + 1;
    const pad = existing.slice(lineStart, first.range[0]);
    if (!/^ *$/.test(pad)) return undefined;
    let end = at.range[1];
    if (end > 0 && existing[end - 1] !== '\n') {
      const nl = existing.indexOf('\n', end);
      end = nl < 0 ? existing.length : nl + 1;
    }
    inserts.push({ at: end, text: (end === existing.length && !existing.endsWith('\n') ? '\n' : '') + indent(body, pad) });
  }
  for (const ins of inserts.sort((a, b) => b.at - a.at)) text = text.slice(0, ins.at) + ins.text + text.slice(ins.at);
  if (tail.length) text += (text.endsWith('\n') || !text ? '' : '\n') + tail.join('');
  const note = doc.comment && doc.comment !== old.comment ? doc.comment.slice((old.comment ?? '').length).replace(/^\n/, '') : '';
  if (note)
    text +=
      (text.endsWith('\n') ? '' : '\n') +
      '\n' +
      note
        .split('\n')
        .map(l => `#${l}\n`)
        .join('');
  return text;
}

const indent = (body: string, pad: string) =>
  body
    .split('\n')
    .map(l => (l ? pad + l : l))
    .join('\n');

function newAdapter(name: string, kinds: readonly InferredKind[]): Document {
  const doc = parseDocument('{}');
  const root = new YAMLMap();
  root.flow = false;
  root.set('name', name);
  root.set('type', 'adapter');
  root.set('version', quotedNode('0.1.0'));
  const n = kinds.reduce((s, k) => s + k.count, 0);
  root.set('description', `Error contract inferred from ${plural(n, 'recorded failure')}`);
  doc.contents = root as unknown as typeof doc.contents;
  doc.commentBefore =
    ' Inferred by `mcp-aql-errors infer` from recorded traffic: review every commented guess, then keep it in\n version control and check the server against it (`probe --contract`).';
  return doc;
}

function about(k: InferredKind): string[] {
  const lines = [
    ` Seen ${k.count === 1 ? 'once' : `${k.count} times`}${k.tools.length ? ` (${k.tools.join(', ')})` : ''}: ${k.channels.join('; ')}.`,
  ];
  if (k.sent === undefined && !k.registry) lines.push(` Name: a guess from the message (the server sends no code).`);
  if (k.registry && k.sent === undefined)
    lines.push(` ${k.code}: the registry's template matches every message (the server sends no code).`);
  lines.push(` category ${k.category}: ${k.categoryFrom}.`);
  const ph = k.template.placeholders.filter(p => p.from !== 'details');
  if (ph.length)
    lines.push(
      ` ${ph
        .map(
          p =>
            `{${p.name}}: ${
              p.from === 'argument'
                ? `the request argument '${p.name}'`
                : p.from === 'tool'
                  ? "the tool's name"
                  : p.from === 'span'
                    ? 'the text from the first difference to the last (the messages differ in many places)'
                    : 'a word that varied between calls'
            }`,
        )
        .join('; ')}.`,
    );
  if (k.count === 1 && !k.template.placeholders.length)
    lines.push(' Template: the one message seen, as it was; values in it may be literal.');
  lines.push(k.retry ? ` retry ${k.retry}: ${k.retryFrom}.` : ` retry ${k.retryFrom}.`);
  if (k.near) lines.push(` Near the registry's ${k.near} (same category, details in common).`);
  return lines;
}

function codeEntry(doc: Document, k: InferredKind): Pair {
  const key = doc.createNode(k.code) as Scalar;
  const comment = about(k);
  if (k.sent !== undefined && !k.code.startsWith(`${k.category}_`))
    comment.push(` mcp-aql-disable-next-line code.category-prefix -- the server sends this name`);
  key.commentBefore = comment.join('\n');
  const entry = new YAMLMap();
  entry.set(doc.createNode('category'), doc.createNode(k.category));
  if (k.retry) entry.set(doc.createNode('retry'), doc.createNode(k.retry));
  if (k.template.text) {
    const t = doc.createNode('message_template') as Scalar;
    if (unquotedStrings(k)) t.commentBefore = ' mcp-aql-disable-next-line template.unquoted-placeholder -- the server words it so';
    entry.set(t, quoted(doc, k.template.text));
  }
  if (k.statuses.length) {
    const s = doc.createNode([...k.statuses]);
    (s as { flow?: boolean }).flow = true;
    entry.set(doc.createNode('maps_from_http'), s);
  }
  if (k.details.length) entry.set(doc.createNode('details'), detailsNode(doc, k.details, names(k)));
  return doc.createPair(key, entry);
}

function detailsNode(doc: Document, details: InferredKind['details'], placeholders: ReadonlySet<string>): YAMLMap {
  const m = new YAMLMap();
  for (const d of details) {
    const spec = new YAMLMap();
    spec.flow = true;
    spec.set(doc.createNode('type'), doc.createNode(d.type));
    spec.set(doc.createNode('required'), doc.createNode(d.required));
    const key = doc.createNode(d.name) as Scalar;
    // A required key the message never shows: the hint a hand-written contract would get, silenced (what was sent).
    if (!placeholders.has(d.name) && d.required)
      key.commentBefore = ` mcp-aql-disable-next-line ${PLACEHOLDER_NAME.test(d.name) ? 'template.unused-detail' : 'template.invalid-detail-name'} -- sent, not in the message`;
    if (d.placeholderOnly)
      spec.comment =
        d.placeholderOnly === 'argument'
          ? ' not in the details: the request argument'
          : d.placeholderOnly === 'tool'
            ? " not in the details: the tool's name"
            : ' not in the details: varied between calls';
    m.items.push(doc.createPair(key, spec) as Pair<unknown, unknown>);
  }
  return m;
}

const quotedNode = (s: string) => {
  const n = new Scalar(s);
  n.type = 'QUOTE_DOUBLE';
  return n;
};
const quoted = (_doc: Document, s: string) => quotedNode(s);

/**
 * A placeholder of a string key not wrapped in single quotes within its word (what
 * `template.unquoted-placeholder` reports): the server's wording, kept, with the rule silenced there.
 */
function unquotedStrings(k: InferredKind): boolean {
  const t = k.template.text;
  const stringy = new Set(k.details.filter(d => d.type === 'string' || d.type === 'unknown').map(d => d.name));
  for (const m of t.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (!stringy.has(m[1]!)) continue;
    let i = m.index - 1,
      j = m.index + m[0].length,
      before = false,
      after = false;
    for (; i >= 0 && !/\s/.test(t[i]!); i--)
      if (t[i] === "'") {
        before = true;
        break;
      }
    for (; j < t.length && !/\s/.test(t[j]!); j++)
      if (t[j] === "'") {
        after = true;
        break;
      }
    if (!(before && after)) return true;
  }
  return false;
}

const names = (k: InferredKind) => new Set(k.template.placeholders.map(p => p.name));
