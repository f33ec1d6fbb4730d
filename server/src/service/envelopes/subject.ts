/** Which code a preview is about, with its template and details specs, from the request or the cursor. */
import type { FeatureContext } from '../model/context';
import { entryAt, targetAt } from '../features/cursor';
import type { MappingEntry } from '../model/model';
import { categoryOf, createResolver } from '../workspace/resolve';
import type { DetailSpecLike } from './samples';
import type { EnvelopePreview, PreviewRequest } from './types';

/** What a preview is rendered from: the preview's header fields, with details as specs, not values. */
export interface Subject extends Pick<EnvelopePreview, 'code' | 'source' | 'category' | 'kind' | 'httpStatus' | 'template' | 'declaredAt'> {
  readonly details: readonly DetailSpecLike[];
  readonly description?: string;
  readonly mcpRecoverable?: boolean | null;
  /** `retry:` as written on a custom code of this file. */
  readonly retry?: string;
}

export function subjectFor(ctx: FeatureContext, req: PreviewRequest): Subject | undefined {
  if (req.code) return byName(ctx, req.code);
  if (!req.position) return undefined;
  const offset = ctx.doc.offsetAt(req.position);
  const t = targetAt(ctx.model, offset);
  if (t?.kind === 'codeRef') return fromMapping(ctx, t.entry);
  if (t?.kind === 'status' && 'status' in t.owner && 'index' in t.owner) return fromMapping(ctx, t.owner as MappingEntry);
  const e = entryAt(ctx.model, offset);
  if (e?.kind === 'code') return byName(ctx, e.def.name, e.def.keySpan.start, e.def.section);
  if (e?.kind === 'mapping') return fromMapping(ctx, e.entry);
  // Any code-looking word under the cursor (a registry code named in a comment or a description).
  const text = ctx.doc.getText();
  let s = offset,
    end = offset;
  while (s > 0 && /[A-Z0-9_]/.test(text[s - 1]!)) s--;
  while (end < text.length && /[A-Z0-9_]/.test(text[end]!)) end++;
  const word = text.slice(s, end);
  return /^[A-Z][A-Z0-9_]+$/.test(word) && ctx.registry.byCode.has(word) ? byName(ctx, word) : undefined;
}

/**
 * The file's codes with those of document `section` first: one YAML document is one adapter
 * (docs/spec-decisions.md), so a name declared in two documents means the one of the cursor's document.
 */
function codesOf(ctx: FeatureContext, section: number | undefined) {
  const codes = ctx.model.codes;
  if (section === undefined || ctx.model.sections.length < 2) return codes;
  return [...codes.filter(c => c.section === section), ...codes.filter(c => c.section !== section)];
}

function byName(ctx: FeatureContext, name: string, declaredAt?: number, section?: number): Subject {
  const r = createResolver(codesOf(ctx, section), ctx.registry, ctx.workspace, ctx.doc.uri).code(name);
  if (!r) return { code: name, source: 'unknown', kind: 'error', httpStatus: [], details: [] };
  if (r.source === 'registry') {
    return {
      code: name,
      source: 'registry',
      category: r.reg.category,
      kind: r.reg.kind,
      httpStatus: r.reg.http_status,
      template: r.reg.message_template ?? undefined,
      description: r.reg.description,
      mcpRecoverable: r.reg.mcp_recoverable,
      details: Object.entries(r.reg.details ?? {}).map(([k, d]) => ({
        name: k,
        type: d.type,
        required: d.required,
        enum: d.enum,
        format: d.format,
      })),
    };
  }
  if (r.source === 'file') {
    return {
      code: name,
      source: 'custom',
      category: categoryOf(r.def),
      kind: 'error',
      httpStatus: r.def.mapsFromHttp.map(s => s.value),
      template: r.def.template?.value,
      description: r.def.description,
      retry: r.def.retry,
      declaredAt: declaredAt ?? r.def.keySpan.start,
      details: r.def.details.map(d => ({ name: d.name, type: d.type, required: d.required, example: d.example, enum: d.enum })),
    };
  }
  return {
    code: name,
    source: 'workspace',
    category: r.decl.category,
    kind: 'error',
    httpStatus: r.decl.mapsFromHttp,
    template: r.decl.template,
    description: r.decl.description,
    details: r.decl.details.map(d => ({ name: d.name, type: d.type, required: d.required })),
  };
}

/** A mapping entry previews its code, with the entry's own template and details on top. */
function fromMapping(ctx: FeatureContext, m: MappingEntry): Subject | undefined {
  if (!m.code) return undefined;
  const base = byName(ctx, m.code.value, undefined, m.section);
  const own = m.details.map(d => ({ name: d.name, type: d.type, required: d.required, example: d.example, enum: d.enum }));
  const names = new Set(own.map(d => d.name));
  return {
    ...base,
    httpStatus: [m.status.value],
    template: m.template?.value ?? base.template,
    details: [...own, ...base.details.filter(d => !names.has(d.name))],
  };
}
