/**
 * The upstream-response simulator: status + body (+ headers, params) → which rule fires and the
 * resulting envelopes. Order (ours, docs/spec-decisions.md): error_mapping entries for the exact status
 * in list order, then for its 4XX/5XX range — except that before an entry without a condition, the
 * error_codes claiming the status (maps_from_http) whose condition holds are tried, a condition being
 * more specific than none; then the remaining error_codes claiming the status, in file order; then the
 * spec's default table with the 409/429 variant first.
 * Conditions are interpreted (condition/), never evaluated as code.
 */
import { evaluateCondition } from '../condition';
import type { FeatureContext } from '../model/context';
import { defaultCodeFor } from '../model/httpReasons';
import type { MappingEntry } from '../model/model';
import { previewSubject } from './render';
import { coerce } from './samples';
import { subjectFor } from './subject';
import type { ConsideredRule, SimulationRequest, SimulationResult } from './types';

/**
 * The document whose rules are simulated: the one at `req.position`, else the first that has rules
 * (error_codes or error_mapping entries), else the first.
 */
function simulatedSection(ctx: FeatureContext, req: SimulationRequest): number {
  const secs = ctx.model.sections;
  if (secs.length < 2) return secs[0]?.index ?? 0;
  if (req.position) {
    const at = ctx.doc.offsetAt(req.position);
    const hit = [...secs].reverse().find(s => at >= s.base + (s.doc.range?.[0] ?? 0));
    if (hit) return hit.index;
  }
  const ruled = secs.find(s => ctx.model.codes.some(c => c.section === s.index) || ctx.model.mappings.some(m => m.section === s.index));
  return (ruled ?? secs[0]!).index;
}

export function simulate(ctx: FeatureContext, req: SimulationRequest): SimulationResult {
  const status = req.status;
  const cond = { response: { status, body: req.body, headers: req.headers }, params: req.params };
  const considered: ConsideredRule[] = [];
  const test = (rule: string, code: string | undefined, condition: string | undefined): boolean => {
    if (condition === undefined) {
      considered.push({ rule, code, matched: true, steps: ['no condition: always matches'] });
      return true;
    }
    const r = evaluateCondition(condition, cond);
    considered.push({ rule, code, condition, matched: !r.error && r.value, steps: r.steps, error: r.error?.message });
    return !r.error && r.value;
  };
  const range = `${String(status)[0]}XX`;
  // One YAML document is one adapter (docs/spec-decisions.md): the rules of the document simulated only.
  const section = simulatedSection(ctx, req);
  const entries = (key: number | string) => ctx.model.mappings.filter(m => m.section === section && m.status.value === key);
  const name = (m: MappingEntry) => `error_mapping[${m.status.raw}]${m.index === null ? '' : `[${m.index}]`}`;
  const claiming = ctx.model.codes.filter(
    c => c.section === section && c.mapsFromHttp.some(st => st.value === status || st.value === range),
  );
  const tried = new Set<string>();
  const tryCodes = (conditionalOnly: boolean): SimulationResult | undefined => {
    for (const c of claiming) {
      if ((conditionalOnly && !c.condition) || tried.has(c.name)) continue;
      tried.add(c.name);
      if (test(`error_codes.${c.name}`, c.name, c.condition?.value))
        return done(ctx, req, status, `error_codes.${c.name}`, c.name, considered);
    }
    return undefined;
  };
  for (const m of [...entries(status), ...entries(range)]) {
    if (!m.code) continue;
    // A condition is more specific than none: before an unconditional fallback, the error_codes whose condition holds.
    if (!m.condition) {
      const hit = tryCodes(true);
      if (hit) return hit;
    }
    if (test(name(m), m.code.value, m.condition?.value)) return done(ctx, req, status, name(m), m.code.value, considered, m);
  }
  const hit = tryCodes(false);
  if (hit) return hit;
  const code = defaultCodeFor(status);
  considered.push({
    rule: 'default table',
    code,
    matched: true,
    steps: [`status ${status} → ${code} (error-codes.md s6.2, 409/429 variant of mcp-integration.md s4.3)`],
  });
  return done(ctx, req, status, 'default table', code, considered);
}

function done(
  ctx: FeatureContext,
  req: SimulationRequest,
  status: number,
  rule: string,
  code: string,
  considered: ConsideredRule[],
  entry?: MappingEntry,
): SimulationResult {
  const subject = subjectFor(ctx, { code });
  if (!subject) return { status, rule, code, considered };
  const mapped = entry
    ? {
        ...subject,
        template: entry.template?.value ?? subject.template,
        details: [
          ...entry.details.map(d => ({ name: d.name, type: d.type, required: d.required, example: d.example, enum: d.enum })),
          ...subject.details.filter(d => !entry.details.some(e => e.name === d.name)),
        ],
      }
    : subject;
  // Details the body (or the request parameters, or a header) carry under the same key fill the envelope;
  // the preview form's edited values win over all of them.
  const samples: Record<string, unknown> = {};
  const origin = new Map<string, 'body' | 'header'>();
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const headers = headerValues(req.headers);
  const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  for (const d of mapped.details) {
    if (req.samples && own(req.samples, d.name)) {
      samples[d.name] = req.samples[d.name];
      continue;
    }
    if (d.name === 'http_status') {
      samples[d.name] = status;
      origin.set(d.name, 'body');
      continue;
    }
    for (const src of [body, req.params ?? {}])
      if (own(src, d.name)) {
        samples[d.name] = src[d.name];
        origin.set(d.name, 'body');
        break;
      }
    if (origin.has(d.name)) continue;
    const header = headers.get(d.name) ?? headers.get(d.name.replace(/_seconds$/, ''));
    if (header !== undefined) {
      samples[d.name] = coerce(header, d.type);
      origin.set(d.name, 'header');
      continue;
    }
    if ((d.name === 'reason' || d.name === 'upstream_error') && typeof body.message === 'string') {
      samples[d.name] = body.message;
      origin.set(d.name, 'body');
    }
  }
  const preview = previewSubject(
    ctx,
    { ...mapped, httpStatus: [status] },
    { samples, now: req.now, toolName: req.toolName, mirrorConfirmation: req.mirrorConfirmation },
    origin,
  );
  return { status, rule, code, considered, preview };
}

/** Header values by details-key spelling: `Retry-After` → `retry_after` (a `_seconds` key takes it too). */
function headerValues(headers: Readonly<Record<string, string>> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(headers ?? {})) if (typeof v === 'string') out.set(k.toLowerCase().replace(/-/g, '_'), v);
  return out;
}
