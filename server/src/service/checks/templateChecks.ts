/**
 * template.*: every `{placeholder}` of a message_template must be a details key its entry sees
 * (design s2); declared keys should be used; malformed placeholders; single quotes around string
 * values (spec s4.2); a template that YAML read as a flow mapping.
 */
import { isMap } from '../parse/yamlNodes';
import { Code, type InvalidDetailNameData, type UnknownPlaceholderData, type UnusedDetailData, type UnquotedData } from '../codes';
import { closest } from '../util/closest';
import type { CodeDef, MappingEntry, Template } from '../model/model';
import { createResolver, isStringType, visibleKeys, type VisibleKey } from '../workspace/resolve';
import { commentCut, flowTemplateEnd, PLACEHOLDER_NAME, scanTemplate } from '../parse/placeholders';
import { onePerSpan } from './onePerSpan';
import type { Check, EntryEnv, Problem } from './types';

export const templates: Check = {
  name: 'templates',
  run({ model, registry, workspace }, report) {
    // A template or details block shared through an alias is seen by each entry that uses it: one
    // diagnostic per position and code (an entry's own spans never coincide with another's).
    const emit = onePerSpan(report);
    const params = new Map(model.params.map(p => [p.name, p] as const));
    const env: EntryEnv = {
      text: model.text,
      registry,
      resolver: createResolver(model.codes, registry, workspace, model.uri),
      param: name => params.get(name),
    };
    for (const c of model.codes) codeTemplateProblems(c, env, emit);
    for (const m of model.mappings) mappingTemplateProblems(m, env, emit);
  },
};

/** template.* of one error_codes entry: reads the entry, its text line and the parameters it names. */
export function codeTemplateProblems(c: CodeDef, env: EntryEnv, emit: (p: Problem) => void): void {
  one(
    env,
    emit,
    c.template,
    c.templateNode,
    () => visibleKeys({ kind: 'code', def: c }, env.resolver, env.registry),
    c.template ? c.details : [],
    {
      entryAt: c.keySpan.start,
      entryKind: 'code',
      index: null,
    },
    '',
    c.name,
  );
}

/** template.* of one error_mapping entry: also reads the code it resolves to. */
export function mappingTemplateProblems(m: MappingEntry, env: EntryEnv, emit: (p: Problem) => void): void {
  const r = m.template && m.code ? env.resolver.code(m.code.value) : undefined;
  // A code from another file: say which, so a surprising key list can be traced.
  const origin = r?.source === 'workspace' ? ` — ${r.code} is declared in ${decodeURIComponent(r.decl.uri.replace(/^.*\//, ''))}` : '';
  one(
    env,
    emit,
    m.template,
    m.templateNode,
    () => visibleKeys({ kind: 'mapping', entry: m }, env.resolver, env.registry),
    m.template ? m.details : [],
    { entryAt: m.status.span.start, entryKind: 'mapping', index: m.index },
    origin,
    `error_mapping ${m.status.raw}${m.index === null ? '' : ` [${m.index}]`}`,
  );
}

function one(
  env: EntryEnv,
  emit: (p: Problem) => void,
  t: Template | undefined,
  node: CodeDef['templateNode'],
  /** The keys the entry sees: asked only when a placeholder needs them. */
  visibleOf: () => Map<string, VisibleKey> | undefined,
  declared: readonly { name: string; keySpan: { start: number; end: number }; required?: boolean; shared?: true }[],
  where: Pick<UnknownPlaceholderData, 'entryAt' | 'entryKind' | 'index'>,
  origin = '',
  entryName = '',
): void {
  if (node && isMap(node.node) && node.node.flow) {
    emit({
      code: Code.TemplateFlowMapping,
      start: node.span.start,
      end: flowTemplateEnd(env.text, node.span.start, node.span.end),
      message: 'This template starts with { and is not quoted, so YAML read it as a mapping. Quote the whole template.',
      data: where,
    });
  }
  if (!t) return;
  const used = new Set<string>();
  const written = new Set(t.placeholders.map(p => p.name));
  const cut = commentCut(env.text, t);
  if (cut) {
    emit({
      code: Code.TemplateCommentCut,
      start: cut.start,
      end: cut.end,
      message: `Quote the template: YAML reads ' ${env.text.slice(cut.start, Math.min(cut.end, cut.start + 24))}${cut.end - cut.start > 24 ? '…' : ''}' as a comment, so the message ends at '${t.value.length > 24 ? '…' + t.value.slice(-24) : t.value}'.`,
      data: where,
    });
    // The placeholders after the cut are the author's too: their keys are not unused.
    for (const m of scanTemplate(env.text.slice(cut.start, cut.end), cut.start, '', 'plain').placeholders) written.add(m.name);
  }
  for (const m of t.malformed) if (m.name) written.add(m.name);
  // Declared keys no placeholder names (and that one could): what an unknown name most likely meant (made when one is unknown).
  let unused: string[] | undefined;
  const unusedKeys = () =>
    (unused ??= declared.filter(d => !written.has(d.name) && d.required !== false && PLACEHOLDER_NAME.test(d.name)).map(d => d.name));
  for (const m of t.malformed) {
    if (m.name) used.add(m.name); // meant as that key: one diagnostic, not two
    emit({
      code: Code.TemplateMalformedPlaceholder,
      start: m.span.start,
      end: m.span.end,
      message: `Malformed placeholder: ${m.reason}.`,
    });
  }
  let visible: Map<string, VisibleKey> | undefined | null = null;
  for (const p of t.placeholders) {
    used.add(p.name);
    if (visible === null) visible = visibleOf();
    if (!visible) continue;
    const key = visible.get(p.name);
    if (!key) {
      const names = [...visible.keys()];
      const param = env.param(p.name);
      const near = closest(p.name, names, 3);
      const meant = unusedKeys().filter(k => partOf(p.name, k) || near.includes(k));
      const unusedKey = meant.length === 1 && unusedKeys().length === 1;
      const suggested = unusedKey ? meant : near;
      emit({
        code: Code.TemplateUnknownPlaceholder,
        start: p.span.start,
        end: p.span.end,
        message:
          (param
            ? `Declare '${p.name}' in details (it is a parameter of ${param.operation})? `
            : suggested.length
              ? `Did you mean {${suggested[0]}}? `
              : '') +
          (names.length
            ? `{${p.name}} is not a details key of this error (details: ${names.join(', ')}${origin}); it would render literally.`
            : `{${p.name}} is not a details key: this error declares no details, so it would render literally.`),
        data: {
          ...where,
          key: p.name,
          visible: names,
          suggestions: suggested,
          param: param && { operation: param.operation, type: param.type },
          ...(unusedKey ? { unusedKey: true as const } : {}),
        } satisfies UnknownPlaceholderData,
      } satisfies Problem);
      continue;
    }
    if (isStringType(key.type) && !quotedAround(t, p.span.start, p.span.end)) {
      emit({
        code: Code.TemplateUnquotedPlaceholder,
        start: p.span.start,
        end: p.span.end,
        message: `Write '{${p.name}}': a string value in a message is wrapped in single quotes (error-codes.md s4.2).`,
        data: { key: p.name } satisfies UnquotedData,
      });
    }
  }
  for (const d of declared) {
    // `required: false` marks a data-only extra: a placeholder for it could render literally.
    if (used.has(d.name) || written.has(d.name) || d.required === false) continue;
    if (!PLACEHOLDER_NAME.test(d.name)) {
      const suggestion = placeholderName(d.name);
      emit({
        code: Code.TemplateInvalidDetailName,
        start: d.keySpan.start,
        end: d.keySpan.end,
        message: `Rename '${d.name}' to '${suggestion}' to use it in the template, or mark it required: false if it is data only: a placeholder name is letters, digits and _ ([A-Za-z_][A-Za-z0-9_]*), so {${d.name}} could never be filled.`,
        data: { ...where, key: d.name, suggestion } satisfies InvalidDetailNameData,
      });
      continue;
    }
    emit({
      code: Code.TemplateUnusedDetail,
      start: d.keySpan.start,
      end: d.keySpan.end,
      // Details shared through an alias are used by some entries: name the one that does not use the key.
      message: d.shared
        ? `Details key '${d.name}' is never used in the message template of ${entryName} (these details are shared through an alias).`
        : `Details key '${d.name}' is never used in the message template.`,
      data: { ...where, key: d.name } satisfies UnusedDetailData,
    });
  }
}

/** The nearest placeholder name: accents dropped, other characters to `_` (`durée-minutes` → `duree_minutes`). */
export function placeholderName(key: string): string {
  const s = key
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+(?=.)|_+$/g, '');
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}

/** One name is part of the other, ignoring case and underscores (`ticket`, `ticket_id`; `id`, `item_id`). */
function partOf(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/_/g, ''),
    y = b.toLowerCase().replace(/_/g, '');
  return x.length >= 2 && y.length >= 2 && (x.includes(y) || y.includes(x));
}

/**
 * Is the placeholder inside single quotes in the template's value? Spec s4.2 writes '{x}'; the spec's
 * own s8.3 example writes '{owner}/{repo}', so a quote may open and close the whole word around it.
 */
function quotedAround(t: Template, start: number, end: number): boolean {
  const quoted = t.style === 'single' || t.style === 'double';
  const lo = quoted ? 1 : 0,
    hi = quoted ? t.raw.length - 1 : t.raw.length;
  let i = start - t.span.start - 1,
    j = end - t.span.start;
  let before = false,
    after = false;
  for (; i >= lo && !/\s/.test(t.raw[i]!); i--)
    if (t.raw[i] === "'") {
      before = true;
      break;
    }
  for (; j < hi && !/\s/.test(t.raw[j]!); j++)
    if (t.raw[j] === "'") {
      after = true;
      break;
    }
  return before && after;
}

export type EntryRef = { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry };
