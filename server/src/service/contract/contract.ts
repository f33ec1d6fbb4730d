/**
 * The error contract of one or more adapters, as plain data: every code a response may carry (the
 * adapters' custom codes, and the registry's), with its kind, category, details specs, the templates
 * its message may come from (the code's own and those of error_mapping entries targeting it) and
 * where each is declared. `verify` checks recorded responses against it; `types` generates from it.
 */
import type { Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel, DetailDecl } from '../model/model';
import type { PlaceholderAlias, RegistryIndex } from '../model/registry';
import { spanRange } from '../util/ranges';
import { isRetry, retryOf, type Retry } from '../model/retry';
import { categoryOf } from '../workspace/resolve';

interface ContractLocation {
  readonly uri: string;
  readonly range: Range;
}

export interface ContractDetail {
  readonly name: string;
  /** A detailType of the adapter schema; undefined when not declared (any value). */
  readonly type?: string;
  /** Declared keys are required unless `required: false` (registry: as the registry says). */
  readonly required: boolean;
  readonly enum?: readonly unknown[];
  readonly description?: string;
}

export interface ContractTemplate {
  readonly text: string;
  /** `error_codes.X`, `error_mapping[404]`, `registry`. */
  readonly label: string;
  readonly location?: ContractLocation;
  /** Details declared on the mapping entry itself (they add to the code's). */
  readonly details: readonly ContractDetail[];
}

export interface ContractCode {
  readonly code: string;
  readonly source: 'custom' | 'registry';
  readonly kind: 'error' | 'warning';
  readonly category?: string;
  readonly description?: string;
  readonly details: readonly ContractDetail[];
  /** The registry declares no details for this code: any key is accepted. */
  readonly openDetails: boolean;
  readonly templates: readonly ContractTemplate[];
  readonly aliases: Readonly<Record<string, PlaceholderAlias>>;
  readonly location?: ContractLocation;
  /** An error_mapping entry of some adapter targets this code. */
  readonly mapped: boolean;
  /** When a client may retry: the code's `retry:`, else its category's default (model/retry.ts). */
  readonly retry?: Retry;
  /** `retry:` was written on the code (only a declared retry is checked on answers). */
  readonly retryDeclared: boolean;
}

export interface Contract {
  /** Every code, custom codes first in file order, then registry codes in registry order. */
  readonly codes: ReadonlyMap<string, ContractCode>;
  readonly adapters: readonly string[];
}

interface AdapterInput {
  readonly doc: TextDocument;
  readonly model: AdapterModel;
}

const detailOf = (d: DetailDecl): ContractDetail => ({
  name: d.name,
  type: d.type,
  required: d.required !== false,
  enum: d.enum,
  description: d.description,
});

export function buildContract(adapters: readonly AdapterInput[], registry: RegistryIndex): Contract {
  const custom = new Map<string, { code: ContractCode; templates: ContractTemplate[] }>();
  const extra = new Map<string, ContractTemplate[]>();
  const mapped = new Set<string>();
  for (const { doc, model } of adapters) {
    for (const c of model.codes) {
      if (custom.has(c.name)) continue; // the first declaration wins, as in the resolver
      const location = { uri: doc.uri, range: spanRange(doc, c.keySpan) };
      const templates: ContractTemplate[] = c.template
        ? [
            {
              text: c.template.value,
              label: `error_codes.${c.name}`,
              location: { uri: doc.uri, range: spanRange(doc, c.template.span) },
              details: [],
            },
          ]
        : [];
      custom.set(c.name, {
        templates,
        code: {
          code: c.name,
          source: 'custom',
          kind: 'error',
          category: categoryOf(c),
          description: c.description,
          details: c.details.map(detailOf),
          openDetails: false,
          templates,
          aliases: {},
          location,
          mapped: false,
          retry: retryOf(c.retry, categoryOf(c)),
          retryDeclared: isRetry(c.retry),
        },
      });
    }
    for (const m of model.mappings) {
      const name = m.code?.value;
      if (!name) continue;
      mapped.add(name);
      if (!m.template && !m.details.length) continue;
      const label = `error_mapping[${m.status.raw}]${m.index === null ? '' : `[${m.index}]`}`;
      const t: ContractTemplate = {
        text: m.template?.value ?? '',
        label,
        location: { uri: doc.uri, range: spanRange(doc, m.template?.span ?? m.code!.span) },
        details: m.details.map(detailOf),
      };
      let list = extra.get(name);
      if (!list) extra.set(name, (list = []));
      list.push(t);
    }
  }
  const codes = new Map<string, ContractCode>();
  const withMappings = (c: ContractCode, own: readonly ContractTemplate[]): ContractCode => {
    const more = extra.get(c.code) ?? [];
    return { ...c, mapped: mapped.has(c.code), templates: [...more.filter(t => t.text), ...own], details: mergeDetails(c.details, more) };
  };
  for (const { code, templates } of custom.values()) codes.set(code.code, withMappings(code, templates));
  for (const r of registry.data.codes) {
    if (codes.has(r.code)) continue;
    const details = Object.entries(r.details ?? {}).map(([name, d]): ContractDetail => ({
      name,
      type: d.type,
      required: d.required === true,
      enum: d.enum,
      description: d.description,
    }));
    const own: ContractTemplate[] = r.message_template ? [{ text: r.message_template, label: 'registry', details: [] }] : [];
    codes.set(
      r.code,
      withMappings(
        {
          code: r.code,
          source: 'registry',
          kind: r.kind,
          category: r.category,
          description: r.description,
          details,
          openDetails: details.length === 0,
          templates: own,
          aliases: registry.data.template_aliases?.[r.code] ?? {},
          mapped: false,
          retry: retryOf(undefined, r.category),
          retryDeclared: false,
        },
        own,
      ),
    );
  }
  return { codes, adapters: adapters.map(a => a.doc.uri) };
}

/** A mapping entry's own details add optional keys to the code (required only when that entry's template is the one used). */
function mergeDetails(base: readonly ContractDetail[], templates: readonly ContractTemplate[]): ContractDetail[] {
  const out = [...base];
  const names = new Set(base.map(d => d.name));
  for (const t of templates)
    for (const d of t.details)
      if (!names.has(d.name)) {
        names.add(d.name);
        out.push({ ...d, required: false });
      }
  return out;
}

/** The codes an adapter's own envelopes carry: its custom codes and the registry codes its error_mapping targets (all registry codes on request). */
export function contractCodes(contract: Contract, includeRegistry: boolean): ContractCode[] {
  return [...contract.codes.values()].filter(c => c.source === 'custom' || c.mapped || includeRegistry);
}
