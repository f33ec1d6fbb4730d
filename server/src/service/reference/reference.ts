/**
 * The data of an error reference (`mcp-aql-errors docs`; docs/cli.md, "Error reference"): per code its category, kind, HTTP
 * statuses, message template, details, the recovery a client should take and an example envelope in each
 * dialect; per adapter its error_mapping as rows. Pure: the façade passes the contract, the snapshot (for
 * the mappings and statuses) and the envelope previews it made; renderers (markdown.ts, html.ts) only format.
 */
import type { ContractCode, ContractDetail, Contract } from '../contract/contract';
import type { DialectEnvelope, EnvelopePreview } from '../envelopes/types';
import type { Snapshot } from '../evolution/snapshot';
import { recoveryFor } from '../features/describe';
import type { RegistryIndex } from '../model/registry';

export interface ReferenceCode {
  readonly code: string;
  readonly anchor: string;
  readonly source: 'custom' | 'registry';
  readonly kind: 'error' | 'warning';
  readonly category?: string;
  readonly description?: string;
  /** The statuses whose responses carry the code: its maps_from_http (shadowed ones left out) and the error_mapping keys that give it. */
  readonly statuses: readonly string[];
  /** maps_from_http statuses the code never answers, each with the error_mapping key that answers it first. */
  readonly shadowed: readonly { readonly status: string; readonly by: string }[];
  readonly template?: string;
  readonly details: readonly ContractDetail[];
  readonly recovery?: string;
  /** When a client may retry, and whether the code says so or its category's default does. */
  readonly retry?: { readonly value: string; readonly declared: boolean };
  readonly examples: readonly Pick<DialectEnvelope, 'id' | 'title' | 'channel' | 'envelope'>[];
}

export interface ReferenceMappingRow {
  readonly status: string;
  readonly condition?: string;
  readonly code?: string;
  /** The code's anchor, when the code has a section. */
  readonly anchor?: string;
  readonly template?: string;
}

export interface Reference {
  readonly title: string;
  readonly sources: readonly string[];
  readonly version: string;
  readonly codes: readonly ReferenceCode[];
  readonly mappings: readonly { readonly adapter: string; readonly rows: readonly ReferenceMappingRow[] }[];
}

/** A stable, safe fragment id per code: `code-NOT_FOUND_ORDER`; any other character as `.hex.`. */
export const codeAnchor = (code: string): string => `code-${code.replace(/[^A-Za-z0-9_-]/g, c => `.${c.codePointAt(0)!.toString(16)}.`)}`;

/** 400 < 404 < 4XX < 500 < 5XX; anything else after, by text. */
const statusKey = (s: string) => (/^\d{3}$/.test(s) ? Number(s) : /^\dXX$/i.test(s) ? Number(s[0]) * 100 + 99.5 : 1000);
const statusOrder = (a: string, b: string) => statusKey(a) - statusKey(b) || a.localeCompare(b);

export function buildReference(
  contract: Contract,
  snapshot: Snapshot,
  registry: RegistryIndex,
  previews: ReadonlyMap<string, EnvelopePreview | undefined>,
  meta: { readonly sources: readonly string[]; readonly version: string },
): Reference {
  const mappedStatuses = new Map<string, Set<string>>();
  const mappings = [...snapshot.adapters.values()]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map(a => ({
      adapter: a.key,
      rows: [...a.mappings.entries()]
        .sort(([x], [y]) => statusOrder(x, y))
        .flatMap(([, list]) =>
          list.map(e => {
            if (e.code) {
              let s = mappedStatuses.get(e.code);
              if (!s) mappedStatuses.set(e.code, (s = new Set()));
              s.add(e.status);
            }
            return { status: e.status, condition: e.condition, code: e.code, template: e.template?.text };
          }),
        ),
    }));
  const codes: ReferenceCode[] = [];
  for (const c of contract.codes.values()) {
    if (c.source !== 'custom' && !c.mapped) continue;
    codes.push(referenceCode(c, snapshot, registry, previews.get(c.code), mappedStatuses.get(c.code)));
  }
  const anchors = new Set(codes.map(c => c.code));
  return {
    title: `Error reference: ${mappings.map(m => m.adapter).join(', ') || 'adapters'}`,
    sources: meta.sources,
    version: meta.version,
    codes,
    mappings: mappings.map(m => ({
      ...m,
      rows: m.rows.map(r => (r.code && anchors.has(r.code) ? { ...r, anchor: codeAnchor(r.code) } : r)),
    })),
  };
}

function referenceCode(
  c: ContractCode,
  snapshot: Snapshot,
  registry: RegistryIndex,
  preview: EnvelopePreview | undefined,
  mapped: ReadonlySet<string> | undefined,
): ReferenceCode {
  const reg = registry.byCode.get(c.code);
  const snap = c.source === 'custom' ? snapshot.codes.get(c.code) : undefined;
  const own = c.source === 'registry' ? (reg?.http_status ?? []).map(String) : (snap?.statuses ?? []);
  // A status error_mapping answers first with another code is not one this code is produced for (model/shadowing.ts).
  const reached = own.filter(s => !snap?.shadowed.has(s) || mapped?.has(s));
  const statuses = [...new Set([...reached, ...(mapped ?? [])])].sort(statusOrder);
  const shadowed = own
    .filter(s => !reached.includes(s))
    .sort(statusOrder)
    .map(s => ({ status: s, by: snap!.shadowed.get(s)! }));
  const template =
    c.templates.find(t => t.label === (c.source === 'custom' ? `error_codes.${c.code}` : 'registry'))?.text ?? c.templates[0]?.text;
  return {
    code: c.code,
    anchor: codeAnchor(c.code),
    source: c.source,
    kind: c.kind,
    category: c.category,
    description: c.description,
    statuses,
    shadowed,
    template,
    details: c.details,
    recovery: (c.source === 'registry' ? reg?.recovery?.text : undefined) ?? recoveryFor(c.category),
    retry: c.retry ? { value: c.retry, declared: c.retryDeclared } : undefined,
    examples: (preview?.dialects ?? []).map(d => ({ id: d.id, title: d.title, channel: d.channel, envelope: d.envelope })),
  };
}
