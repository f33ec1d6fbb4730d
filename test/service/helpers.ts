/**
 * Test helpers for the service: a fresh service per call, inline YAML fixtures with `[[…]]` span
 * markers and a `|` cursor marker, and edit application.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { createAdapterService, type AdapterService, type Registry, type ServiceDeps, type WorkspaceCodes } from '../../server/src/service';

export const ROOT = join(__dirname, '..', '..');

let deps: ServiceDeps | undefined;
export function loadDeps(): ServiceDeps {
  deps ??= {
    registry: JSON.parse(readFileSync(join(ROOT, 'schemas', 'error-registry.json'), 'utf8')) as Registry,
    schema: JSON.parse(readFileSync(join(ROOT, 'schemas', 'adapter.schema.json'), 'utf8')) as object,
    envelopeSchemas: Object.fromEntries(
      ['mcp-aql', 'mcp-tool-result', 'json-rpc', 'atlas-gate'].map(id => [
        id,
        JSON.parse(readFileSync(join(ROOT, 'schemas', 'envelopes', `${id}.schema.json`), 'utf8')) as object,
      ]),
    ),
  };
  return deps;
}

/** A fresh service; `workspace` is what it sees of other files (default: none). */
export const newService = (workspace?: WorkspaceCodes): AdapterService => createAdapterService({ ...loadDeps(), workspace });

/** Join lines, so fixtures stay readable and indentation is explicit. */
export const yamlDoc = (...lines: string[]): string => lines.join('\n') + '\n';

export interface Fixture {
  readonly doc: TextDocument;
  /** Ranges marked with [[…]], in order of appearance. */
  readonly spans: Range[];
  /** The position marked with `|` (only when `cursor` is true). */
  readonly cursor?: Position;
}

/**
 * Strip `[[` `]]` markers (and, with `cursor`, one `|`) from the text and remember where they were.
 * Use `cursor: true` only when the text has no other `|` (YAML block scalars use it).
 */
export function fixture(text: string, opts: { uri?: string; cursor?: boolean } = {}): Fixture {
  const uri = opts.uri ?? 'file:///work/test.adapter.yaml';
  let clean = '';
  const starts: number[] = [];
  const spans: [number, number][] = [];
  let cursorAt: number | undefined;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('[[', i)) {
      starts.push(clean.length);
      i++;
      continue;
    }
    if (text.startsWith(']]', i) && starts.length) {
      spans.push([starts.pop()!, clean.length]);
      i++;
      continue;
    }
    if (opts.cursor && text[i] === '|' && cursorAt === undefined) {
      cursorAt = clean.length;
      continue;
    }
    clean += text[i];
  }
  spans.sort((a, b) => a[0] - b[0]);
  const doc = TextDocument.create(uri, 'yaml', 1, clean);
  return {
    doc,
    spans: spans.map(([s, e]) => ({ start: doc.positionAt(s), end: doc.positionAt(e) })),
    cursor: cursorAt === undefined ? undefined : doc.positionAt(cursorAt),
  };
}

export const docOf = (text: string, uri = 'file:///work/test.adapter.yaml', version = 1): TextDocument =>
  TextDocument.create(uri, 'yaml', version, text);

/** A real adapter of the corpus (test/fixtures/corpus, sources in its SOURCES.md). */
export function readCorpus(name: string): string {
  return readFileSync(join(ROOT, 'test', 'fixtures', 'corpus', name), 'utf8');
}

export function applyEdits(doc: TextDocument, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(doc, [...edits]);
}

/** The edits of a code action for `doc` (from `changes` or `documentChanges`). */
export function editsOf(action: CodeAction | WorkspaceEdit, uri: string): TextEdit[] {
  const edit = 'edit' in action || 'title' in action ? (action as CodeAction).edit : (action as WorkspaceEdit);
  if (!edit) return [];
  if (edit.changes?.[uri]) return edit.changes[uri]!;
  for (const dc of edit.documentChanges ?? []) if ('textDocument' in dc && dc.textDocument.uri === uri) return dc.edits as TextEdit[];
  return [];
}

/** Text under a range. */
export const textAt = (doc: TextDocument, r: Range): string => doc.getText(r);

/** Diagnostics of one code for a fixture, with the text under each range. */
export function check(f: Fixture, code: string, service: AdapterService = newService()) {
  const all = service.validate(f.doc);
  const ds = all.filter(d => d.code === code);
  return { all, ds, texts: ds.map(d => f.doc.getText(d.range)), service };
}

/** Apply the quick fix titled `title` (or the preferred one) for diagnostic `d`; return the new text. */
export function applyFix(
  service: AdapterService,
  doc: TextDocument,
  d: import('vscode-languageserver-types').Diagnostic,
  title?: string,
): string {
  const actions = service.quickFixes(doc, d.range, { diagnostics: [d] });
  const a = title ? actions.find(x => x.title === title) : actions.find(x => x.isPreferred);
  if (!a) throw new Error(`no fix ${title ?? '(preferred)'} among: ${actions.map(x => x.title).join(' | ')}`);
  return applyEdits(doc, editsOf(a, doc.uri));
}

export const codesIn = (service: AdapterService, text: string, uri?: string): string[] =>
  service.validate(docOf(text, uri)).map(d => String(d.code));

/**
 * A model's extracted values without their YAML nodes (node, templateNode, detailsNode) or undefined
 * fields, to compare two parses by value. Not through JSON.stringify: it would call the YAML nodes'
 * toJSON (which throws on a bad merge key).
 */
export function withoutNodes(o: unknown): unknown {
  return Array.isArray(o)
    ? o.map(withoutNodes)
    : o && typeof o === 'object'
      ? Object.fromEntries(
          Object.entries(o)
            .filter(([k, v]) => k !== 'node' && k !== 'templateNode' && k !== 'detailsNode' && v !== undefined)
            .map(([k, v]) => [k, withoutNodes(v)]),
        )
      : o;
}

/**
 * The quick fixes of a diagnostic minus the "Disable mcp-aql(code) for this line" action, which every
 * YAML diagnostic gets (tested on its own in disableLine.test.ts): the lists the fix tests compare.
 */
export function fixesOf(service: AdapterService, ...args: Parameters<AdapterService['quickFixes']>): CodeAction[] {
  return service.quickFixes(...args).filter(a => !a.title.startsWith('Disable mcp-aql('));
}

/** `n` codes, each with one unquoted placeholder (information), then one unknown mapping code (error) at the end. */
export function infosThenError(n: number): string {
  let s = 'error_codes:\n';
  for (let i = 0; i < n; i++)
    s += `  NOT_FOUND_C${i}:\n    category: NOT_FOUND\n    message_template: "x {id}"\n    details:\n      id: string\n`;
  return s + 'error_mapping:\n  404:\n    code: NOPE_NOT_A_CODE\n';
}

/** What a generated adapter carries besides its entries (generatedAdapter). */
export interface GeneratedAdapterOptions {
  eol?: string;
  /** Each template also names `{nope}` and each `details` declares `unused`: two findings per entry. */
  flawed?: boolean;
  /** Each entry lists `maps_from_http: [422]`. */
  mapsFromHttp?: boolean;
  /** `details` as a block mapping (a line per key) instead of a flow one. */
  blockDetails?: boolean;
  /** The lines from after `type: adapter` to the first entry; `error_codes:` by default. */
  head?: readonly string[];
  /** The lines after the entries (`error_mapping`, `operations`…). */
  tail?: readonly string[];
}

/**
 * A big adapter of `n` VALIDATION_E<i> codes, one shape per entry, the text the keystroke, chunked-parse and rehearsal
 * tests type into; each test adds what it needs around the entries (head, tail) and picks the line ending.
 */
export function generatedAdapter(n: number, o: GeneratedAdapterOptions = {}): string {
  const eol = o.eol ?? '\n';
  const lines = ['name: big', 'type: adapter', ...(o.head ?? ['error_codes:'])];
  for (let i = 0; i < n; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Field '{field}' (entry ${i})${o.flawed ? ' {nope}' : ''}"`,
      ...(o.mapsFromHttp ? ['    maps_from_http: [422]'] : []),
      ...(o.blockDetails
        ? ['    details:', '      field: string', ...(o.flawed ? ['      unused: number'] : [])]
        : [o.flawed ? '    details: { field: string, unused: number }' : '    details: { field: string }']),
    );
  lines.push(...(o.tail ?? []));
  return lines.join(eol) + eol;
}

/** `error_mapping`'s 400 with `k` conditions, one per code VALIDATION_E0… (generatedAdapter's tail). */
export const conditionLines = (k: number): string[] =>
  Array.from({ length: k }, (_, i) => [`    - condition: "response.body.code == 'm${i}'"`, `      code: VALIDATION_E${i}`]).flat();
