/** Hover (design s4): a code's card, a placeholder's details key, a status's reason and default code. */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { targetAt } from './cursor';
import { codeMarkdown } from './describe';
import { defaultCodeFor, REASONS } from '../model/httpReasons';
import { codeSpan, escapeMarkdown as esc, markdownToPlain } from '../util/markdown';
import { toRange } from '../util/ranges';
import { categoryOf, createResolver, visibleKeys } from '../workspace/resolve';

export interface HoverOptions {
  readonly markdown?: boolean;
}

export function hover(ctx: FeatureContext, at: Position, opts: HoverOptions = {}): Hover | null {
  const offset = ctx.doc.offsetAt(at);
  const t = targetAt(ctx.model, offset);
  const resolver = createResolver(ctx.model.codes, ctx.registry, ctx.workspace, ctx.doc.uri);
  const out = (value: string, start: number, end: number): Hover => ({
    contents: opts.markdown === false ? markdownToPlain(value) : { kind: MarkupKind.Markdown, value },
    range: toRange(ctx.doc, start, end),
  });
  if (!t) return null;
  switch (t.kind) {
    case 'codeKey': {
      const reg = ctx.registry.byCode.get(t.def.name);
      let md = codeMarkdown({ source: 'file', code: t.def.name, def: t.def, category: categoryOf(t.def), kind: 'error' }, ctx.registry);
      if (reg) md += `\n\n⚠ Redefines the registry code ${reg.code} (${reg.category}).`;
      return out(md, t.start, t.end);
    }
    case 'codeRef': {
      const r = resolver.code(t.name);
      return out(
        r ? codeMarkdown(r, ctx.registry) : `**${esc(t.name)}** — unknown code: not in the registry nor in error_codes.`,
        t.start,
        t.end,
      );
    }
    case 'category': {
      const cat = typeof t.def.category?.value === 'string' ? ctx.registry.category(t.def.category.value) : undefined;
      if (!cat) return null;
      const range = cat.http_range.length ? cat.http_range.join(', ') : cat.http_range_min ? `${cat.http_range_min}+` : '—';
      return out(`**${cat.name}** — ${cat.description}\n\nPrefix \`${cat.prefix}\` · HTTP ${range}`, t.start, t.end);
    }
    case 'placeholder': {
      const keys = visibleKeys(t.owner, resolver, ctx.registry);
      const key = keys?.get(t.placeholder.name);
      const code = t.owner.kind === 'code' ? t.owner.def.name : t.owner.entry.code?.value;
      const alias = code ? ctx.registry.alias(code, t.placeholder.name) : undefined;
      const md = key
        ? `${codeSpan(`{${t.placeholder.name}}`)} — details key${key.type ? ` of type ${codeSpan(key.type)}` : ''}${alias ? ` (alias of ${codeSpan(alias.key)} in the registry template)` : ''}`
        : unknownPlaceholderHover(t.placeholder.name, code, keys);
      return out(md, t.start, t.end);
    }
    case 'detailKey': {
      const used = (t.owner.kind === 'code' ? t.owner.def.template : t.owner.entry.template)?.placeholders.some(p => p.name === t.name);
      return out(
        `Details key ${codeSpan(t.name)}${used ? ` — rendered by ${codeSpan(`{${t.name}}`)}` : ' — not used in the template'}`,
        t.start,
        t.end,
      );
    }
    case 'status': {
      const v = t.status.value;
      if (typeof v !== 'number')
        return out(`**${esc(t.status.raw)}** — ${t.status.valid ? 'any status of this class' : 'not an HTTP status'}`, t.start, t.end);
      const reason = REASONS[v] ?? '';
      return out(`**${v} ${reason}**\n\nDefault table (error-codes.md s6, 409/429 variant): \`${defaultCodeFor(v)}\``, t.start, t.end);
    }
  }
}

/**
 * The hover of a placeholder that is no details key: the diagnostic already says so, so this adds what
 * it does not (test/service/messagesLead.test.ts): every key the template can use, with its type, to pick from.
 */
function unknownPlaceholderHover(name: string, code: string | undefined, keys: ReadonlyMap<string, { type?: string }> | undefined): string {
  const list = [...(keys?.entries() ?? [])].map(([k, v]) => `${codeSpan(`{${k}}`)}${v.type ? ` (${esc(v.type)})` : ''}`);
  const whose = code ? codeSpan(code) : 'this entry';
  return list.length
    ? `${codeSpan(`{${name}}`)} — the keys ${whose} offers: ${list.join(', ')}.`
    : `${codeSpan(`{${name}}`)} — ${whose} declares no details: add ${codeSpan('details:')} with ${codeSpan(`${name}: string`)} (or the type it has) to fill it.`;
}
