/** Markdown that explains a code: used by hover and completion documentation. */
import type { RegistryIndex } from '../model/registry';
import { isRetry, RETRY_MEANING, retryOf } from '../model/retry';
import type { ResolvedCode } from '../workspace/resolve';
import { codeSpan, escapeMarkdown as esc } from '../util/markdown';

const RECOVERY: Record<string, string> = {
  VALIDATION: 'repair the request (fix or add the parameter) and retry',
  NOT_FOUND: 'stop, or choose another target; retrying the same request will not help',
  PERMISSION: 'ask the user for credentials or confirmation; do not retry blindly',
  CONFLICT: 're-read the current state, then retry or choose another name',
  RATE_LIMIT: 'wait until the limit resets, then retry',
  TOKEN: 'request a new confirmation token and resend',
  INTERNAL: 'surface a server fault to the user; retrying may help later',
  SCHEMA: 'fix the adapter schema (generator time)',
};

export function recoveryFor(category: string | undefined): string | undefined {
  const key = category?.replace(/_$/, '');
  return key !== undefined && Object.hasOwn(RECOVERY, key) ? RECOVERY[key] : undefined;
}

/** The last segment of a URI, decoded (kept as written when it is not valid percent-encoding). */
function fileName(uri: string): string {
  const last = uri.replace(/^.*\//, '');
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function codeMarkdown(r: ResolvedCode, registry: RegistryIndex): string {
  // Everything but our own words is escaped: a cloned repository's text shows as text (no pictures, links, HTML).
  const lines: string[] = [`**${esc(r.code)}**`];
  const category = r.category;
  let template: string | null | undefined, description: string | undefined;
  let details: { name: string; type?: string; required?: boolean }[] = [];
  let http: (number | string)[] = [];
  let recovery: string | undefined;
  let origin: string;
  if (r.source === 'registry') {
    template = r.reg.message_template;
    description = r.reg.description;
    http = [...r.reg.http_status];
    details = Object.entries(r.reg.details ?? {}).map(([name, d]) => ({ name, type: d.type, required: d.required }));
    recovery = r.reg.recovery?.text;
    origin = `registry (${r.reg.phase}${r.reg.kind === 'warning' ? ', warning' : ''})`;
  } else if (r.source === 'file') {
    template = r.def.template?.value;
    description = r.def.description;
    details = r.def.details.map(d => ({ name: d.name, type: d.type, required: d.required }));
    http = r.def.mapsFromHttp.map(s => s.value);
    origin = 'custom code (this file)';
  } else {
    template = r.decl.template;
    description = r.decl.description;
    details = r.decl.details.map(d => ({ name: d.name, type: d.type, required: d.required }));
    http = [...r.decl.mapsFromHttp];
    origin = `custom code (${fileName(r.decl.uri)})`;
  }
  lines[0] += ` — ${category === undefined ? 'no category' : esc(category)} · ${esc(origin)}`;
  if (description) lines.push('', esc(description));
  if (template) lines.push('', codeSpan(template));
  if (details.length) {
    lines.push('', '| details key | type | required |', '|---|---|---|');
    for (const d of details)
      lines.push(`| ${esc(d.name)} | ${esc(d.type ?? '')} | ${d.required === undefined ? '' : d.required ? 'yes' : 'no'} |`);
  }
  const cat = category ? registry.category(category) : undefined;
  if (http.length) lines.push('', `HTTP: ${esc(http.join(', '))}`);
  else if (cat?.http_range.length) lines.push('', `HTTP (category range): ${cat.http_range.join(', ')}`);
  const declared = r.source === 'file' && isRetry(r.def.retry) ? r.def.retry : undefined;
  const retry = retryOf(declared, category);
  if (retry)
    lines.push('', `Retry: ${retry}${declared ? '' : ` (the default of ${esc(category!.replace(/_$/, ''))})`} — ${RETRY_MEANING[retry]}.`);
  const rec = recoveryFor(category);
  if (rec) lines.push('', `Client recovery (${esc(category!.replace(/_$/, ''))}): ${rec}.`);
  if (recovery) lines.push('', `Spec: ${esc(recovery)}.`);
  return lines.join('\n');
}
