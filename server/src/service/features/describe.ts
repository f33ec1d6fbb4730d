/** Markdown that explains a code: used by hover and completion documentation. */
import type { RegistryIndex } from '../model/registry';
import type { ResolvedCode } from '../workspace/resolve';

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
  return category ? RECOVERY[category.replace(/_$/, '')] : undefined;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function codeMarkdown(r: ResolvedCode, registry: RegistryIndex): string {
  const lines: string[] = [`**${r.code}**`];
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
    origin = `custom code (${r.decl.uri.replace(/^.*\//, '')})`;
  }
  lines[0] += ` — ${category ?? 'no category'} · ${origin}`;
  if (description) lines.push('', description);
  if (template) lines.push('', '`' + template.replace(/`/g, "'") + '`');
  if (details.length) {
    lines.push('', '| details key | type | required |', '|---|---|---|');
    for (const d of details)
      lines.push(`| ${cell(d.name)} | ${cell(d.type ?? '')} | ${d.required === undefined ? '' : d.required ? 'yes' : 'no'} |`);
  }
  const cat = category ? registry.category(category) : undefined;
  if (http.length) lines.push('', `HTTP: ${http.join(', ')}`);
  else if (cat?.http_range.length) lines.push('', `HTTP (category range): ${cat.http_range.join(', ')}`);
  const rec = recoveryFor(category);
  if (rec) lines.push('', `Client recovery (${category?.replace(/_$/, '')}): ${rec}.`);
  if (recovery) lines.push('', `Spec: ${recovery}.`);
  return lines.join('\n');
}
