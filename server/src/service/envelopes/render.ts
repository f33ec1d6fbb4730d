/**
 * One implementation of envelope rendering, used by the preview panel (through the LSP) and by
 * `mcp-aql-errors preview`: the code's message from its template and sample details, in four
 * dialects, each validated against its schema. And the upstream-response simulator.
 */
import type { FeatureContext } from '../model/context';
import { isRetry, retryOf } from '../model/retry';
import { renderTemplate } from '../parse/placeholders';
import { RENDER } from './dialects';
import { DEFAULT_NOW, display, sampleProblem, sampleValue } from './samples';
import { simulatorStatus } from './simulatorStart';
import { subjectFor, type Subject } from './subject';
import { DIALECTS, type DetailField, type DialectEnvelope, type EnvelopePreview, type PreviewRequest } from './types';

export function preview(ctx: FeatureContext, req: PreviewRequest): EnvelopePreview | undefined {
  const subject = subjectFor(ctx, req);
  return subject && previewSubject(ctx, subject, req);
}

/**
 * `origin`: where a value of `req.samples` came from when it is not the user's edit (the simulator
 * fills details from the response body or headers).
 */
export function previewSubject(
  ctx: FeatureContext,
  s: Subject,
  req: PreviewRequest,
  origin: ReadonlyMap<string, 'body' | 'header'> = new Map(),
): EnvelopePreview {
  const now = req.now ?? DEFAULT_NOW;
  const notes: string[] = [];
  const fields: DetailField[] = s.details.map(d => {
    const override = req.samples && Object.prototype.hasOwnProperty.call(req.samples, d.name);
    const sample = sampleValue(d, now);
    const value = override ? req.samples![d.name] : sample.value;
    const problem = sampleProblem(d, value);
    return {
      name: d.name,
      type: d.type ?? 'string',
      required: d.required ?? false,
      value,
      from: override ? (origin.get(d.name) ?? 'default') : sample.from,
      ...(problem ? { problem } : {}),
    };
  });
  const problems = fields.flatMap(f => (f.problem ? [`details.${f.name}: ${f.problem}`] : []));
  const values = new Map(fields.map(f => [f.name, f.value] as const));
  const template = req.template ?? s.template;
  const aliases = ctx.registry.data.template_aliases?.[s.code] ?? {};
  const literal: string[] = [];
  const message = template
    ? renderTemplate(template, name => {
        if (values.has(name)) return display(values.get(name));
        const a = aliases[name];
        if (a && values.has(a.key)) return display(values.get(a.key), a.join ?? ', ');
        literal.push(name);
        return undefined;
      })
    : (s.description ?? s.code);
  if (!template) notes.push(`${s.code} has no message template; the message shown is its ${s.description ? 'description' : 'code'}.`);
  if (literal.length) notes.push(`Not a details key, rendered literally: ${literal.map(n => `{${n}}`).join(', ')}.`);
  // An unknown code is no envelope a client can receive: every dialect says so instead of "valid".
  const unknown = s.source === 'unknown' ? [`${s.code} is an unknown code: neither a registry code nor declared in error_codes.`] : [];
  notes.push(...unknown);
  const details = Object.fromEntries(fields.filter(f => f.value !== undefined).map(f => [f.name, f.value]));
  const rendered = {
    code: s.code,
    category: s.category,
    kind: s.kind,
    message,
    details,
    mirrorConfirmation: req.mirrorConfirmation ?? false,
    toolName: req.toolName ?? 'mcp_aql',
    now,
  };
  const dialects: DialectEnvelope[] = DIALECTS.map(id => {
    const d = RENDER[id];
    const envelope = d.render(rendered);
    const validate = ctx.envelopeValidators?.get(id);
    const ok = validate ? validate(envelope) : true;
    const errors = !validate
      ? ['no schema loaded for this dialect']
      : ok
        ? []
        : (validate.errors ?? []).map(e => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
    // The envelope schemas cannot know the code's details types: the sample values are checked here.
    return {
      id,
      title: d.title,
      channel: d.channel,
      envelope,
      valid: !!validate && !!ok && !problems.length && !unknown.length,
      errors: [...unknown, ...problems, ...errors],
    };
  });
  return {
    code: s.code,
    source: s.source,
    category: s.category,
    kind: s.kind,
    httpStatus: s.httpStatus,
    template,
    message,
    details: fields,
    dialects,
    notes,
    declaredAt: s.declaredAt,
    simulateStatus: simulatorStatus(ctx, s),
    ...retryOfSubject(s),
  };
}

/** The preview's retry (docs/spec-decisions.md, "Retry"): as written, else the category's default. */
function retryOfSubject(s: Subject): { retry?: string; retryDeclared?: boolean } {
  const retry = retryOf(s.retry, s.category);
  return retry ? { retry, retryDeclared: isRetry(s.retry) } : {};
}
