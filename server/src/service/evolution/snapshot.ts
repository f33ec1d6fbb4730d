/**
 * What the comparison reads of one version of a contract: every code clients can receive (the custom
 * codes and the registry codes an error_mapping targets), with category, condition, statuses, details
 * and template, and each adapter's error_mapping as status → entries. Built from `buildContract` (codes
 * across all files: a code moved to another file is the same code) and the adapter models (aliases and
 * merge keys already followed by extraction).
 */
import type { Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Contract } from '../contract/contract';
import type { AdapterModel, CodeDef, Span, Template } from '../model/model';
import { catchAlls, shadowingEntry, type CatchAlls } from '../model/shadowing';
import { spanRange } from '../util/ranges';

export interface Place {
  readonly uri: string;
  readonly range: Range;
}

export interface DetailSnap {
  readonly name: string;
  readonly type?: string;
  readonly required: boolean;
  /** Each allowed value as JSON text, when the key has an enum. */
  readonly enum?: readonly string[];
  readonly at?: Place;
}

export interface TemplateSnap {
  readonly text: string;
  readonly placeholders: readonly string[];
  readonly at?: Place;
}

export interface CodeSnap {
  readonly name: string;
  readonly source: 'custom' | 'registry';
  readonly category?: string;
  readonly description?: string;
  readonly condition?: string;
  /** When a client may retry: declared, else the category's default (`retryDeclared` false). */
  readonly retry?: string;
  readonly retryDeclared?: boolean;
  /** maps_from_http of a custom code, as written values (`404`, `4XX`). */
  readonly statuses: readonly string[];
  /**
   * Those of `statuses` the code never answers, each with the error_mapping key whose entry answers it
   * first (model/shadowing.ts: an entry without a condition for the status or its range, in the document
   * that declares the code).
   */
  readonly shadowed: ReadonlyMap<string, string>;
  readonly details: ReadonlyMap<string, DetailSnap>;
  readonly template?: TemplateSnap;
  readonly at?: Place;
}

export interface MappingSnap {
  readonly status: string;
  readonly code?: string;
  readonly condition?: string;
  readonly template?: TemplateSnap;
  readonly at: Place;
}

export interface AdapterSnap {
  /** The adapter's `name`, else the key its file was given (its path, renames followed). */
  readonly key: string;
  readonly uri: string;
  readonly mappings: ReadonlyMap<string, readonly MappingSnap[]>;
}

export interface Snapshot {
  readonly codes: ReadonlyMap<string, CodeSnap>;
  readonly adapters: ReadonlyMap<string, AdapterSnap>;
}

export interface SnapshotInput {
  readonly doc: TextDocument;
  readonly model: AdapterModel;
  /** Identifies the file across versions when the adapter has no `name` (its path; a renamed file keeps the new path). */
  readonly fileKey: string;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map(m => m[1]!))];
const oneLine = (s: string | undefined): string | undefined => (s === undefined ? undefined : s.trim().replace(/\s+/g, ' '));

/** The adapter's `name` (first document that has one), else undefined. */
function adapterName(model: AdapterModel): string | undefined {
  for (const s of model.sections) {
    try {
      const n = s.doc.get('name');
      if (typeof n === 'string' && n.trim()) return n.trim();
    } catch {
      // a root that is not a mapping has no name
    }
  }
  return undefined;
}

export function buildSnapshot(contract: Contract, inputs: readonly SnapshotInput[]): Snapshot {
  const defs = new Map<string, { def: CodeDef; doc: TextDocument; answers: () => CatchAlls }>();
  const adapters = new Map<string, AdapterSnap>();
  for (const { doc, model, fileKey } of inputs) {
    let all: CatchAlls | undefined;
    const answers = () => (all ??= catchAlls(model.mappings));
    const place = (s: Span): Place => ({ uri: doc.uri, range: spanRange(doc, s) });
    const tpl = (t: Template | undefined): TemplateSnap | undefined =>
      t ? { text: t.value, placeholders: placeholdersOf(t.value), at: place(t.span) } : undefined;
    for (const c of model.codes) if (!defs.has(c.name)) defs.set(c.name, { def: c, doc, answers });
    const mappings = new Map<string, MappingSnap[]>();
    for (const m of model.mappings) {
      const status = m.status.valid ? String(m.status.value) : m.status.raw;
      let list = mappings.get(status);
      if (!list) mappings.set(status, (list = []));
      list.push({
        status,
        code: m.code?.value,
        condition: oneLine(m.condition?.value),
        template: tpl(m.template),
        at: place(m.code?.span ?? m.status.span),
      });
    }
    const key = adapterName(model) ?? fileKey;
    const had = adapters.get(key);
    if (had) for (const [s, list] of mappings) mappings.set(s, [...(had.mappings.get(s) ?? []), ...list]);
    adapters.set(key, { key, uri: had?.uri ?? doc.uri, mappings: had ? new Map([...had.mappings, ...mappings]) : mappings });
  }
  const codes = new Map<string, CodeSnap>();
  for (const c of contract.codes.values()) {
    if (c.source !== 'custom' && !c.mapped) continue;
    const d = defs.get(c.code);
    const place = (s: Span | undefined): Place | undefined => (d && s ? { uri: d.doc.uri, range: spanRange(d.doc, s) } : undefined);
    const own = c.templates.find(t => t.label === (c.source === 'custom' ? `error_codes.${c.code}` : 'registry'));
    const details = new Map<string, DetailSnap>();
    for (const k of c.details) {
      const decl = d?.def.details.find(x => x.name === k.name);
      details.set(k.name, {
        name: k.name,
        type: k.type,
        required: k.required,
        enum: k.enum?.map(v => JSON.stringify(v)),
        at: place(decl?.keySpan) ?? c.location,
      });
    }
    const shadowed = new Map<string, string>();
    if (c.source === 'custom' && d)
      for (const st of d.def.mapsFromHttp) {
        const m = shadowingEntry(d.def, st, d.answers());
        if (m) shadowed.set(String(st.value), String(m.status.value));
      }
    codes.set(c.code, {
      name: c.code,
      source: c.source,
      category: c.category,
      description: oneLine(c.description),
      retry: c.retry,
      retryDeclared: c.retryDeclared,
      condition: c.source === 'custom' ? oneLine(d?.def.condition?.value) : undefined,
      statuses: c.source === 'custom' && d ? [...new Set(d.def.mapsFromHttp.map(s => (s.valid ? String(s.value) : s.raw)))] : [],
      shadowed,
      details,
      template: own ? { text: own.text, placeholders: placeholdersOf(own.text), at: own.location } : undefined,
      at: c.location,
    });
  }
  return { codes, adapters };
}
