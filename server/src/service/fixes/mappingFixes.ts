/** Fixers for mapping.unknown-code: the closest known code, or declare the code in error_codes. */
import { isMap, type Node } from 'yaml';
import type { CodeAction } from 'vscode-languageserver-types';
import type { UnknownCodeData } from '../codes';
import type { FeatureContext } from '../model/context';
import { keyString } from '../parse/extract';
import type { MappingEntry } from '../model/model';
import { prefixCategory } from '../util/naming';
import { statusInCategory } from '../model/registry';
import { action, columnIfFirst, insertLines, nodeEnd, nodeStart, sectionOf, single } from './edits';
import type { Fixers } from './types';

function guessCategory(ctx: FeatureContext, code: string, m: MappingEntry | undefined): string {
  const byPrefix = prefixCategory(code, ctx.registry.categoryNames);
  if (byPrefix && byPrefix !== 'SCHEMA') return byPrefix;
  const st = typeof m?.status.value === 'number' ? m.status.value : undefined;
  const cat = st === undefined ? undefined : ctx.registry.data.categories.find(c => c.name !== 'TOKEN' && statusInCategory(c, st));
  return cat?.name ?? 'VALIDATION';
}

function declareCode(ctx: FeatureContext, data: UnknownCodeData, m: MappingEntry | undefined): CodeAction | undefined {
  if (ctx.model.kind === 'json' || !m) return undefined;
  const s = sectionOf(ctx.model.sections, m.section);
  if (!s) return undefined;
  const text = ctx.doc.getText();
  const lines = (pad: string) => {
    const out = [`${pad}${data.code}:`, `${pad}  category: ${guessCategory(ctx, data.code, m)}`];
    if (m.template) out.push(`${pad}  message_template: ${m.template.raw.includes('\n') ? JSON.stringify(m.template.value) : m.template.raw}`);
    const keys = [...new Set(m.template?.placeholders.map(p => p.name) ?? [])];
    if (keys.length) { out.push(`${pad}  details:`); for (const k of keys) out.push(`${pad}    ${k}: string`); }
    return out;
  };
  const root = s.doc.contents as Node | null;
  const pair = isMap(root) ? root.items.find(p => keyString(p) === 'error_codes') : undefined;
  let edit;
  if (pair) {
    const block = pair.value as Node | null;
    if (!isMap(block) || block.flow || !block.items.length) return undefined;
    const first = block.items[0]!.key as Node;
    const col = first.range ? columnIfFirst(text, nodeStart(s, first)) : -1;
    if (col < 0) return undefined;
    edit = insertLines(ctx.doc, nodeEnd(s, block), lines(' '.repeat(col)));
  } else {
    const end = s.base + s.text.length;
    edit = insertLines(ctx.doc, end, ['error_codes:', ...lines('  ')]);
  }
  return action(`Declare '${data.code}' in error_codes`, undefined, single(ctx.doc, [edit]));
}

export const mappingsFixers: Fixers = {
  'mapping.unknown-code': (ctx, d, data) => {
    if (!ctx.doc.getText(d.range).includes(data.code)) return [];
    const m = ctx.model.mappings.find(x => x.status.span.start === data.entryAt && x.index === data.index);
    const out = data.suggestions.map((c, i) => action(`Change to ${c}`, d, single(ctx.doc, [{ range: d.range, newText: c }]), i === 0));
    const declare = declareCode(ctx, data, m);
    if (declare) { declare.diagnostics = [d]; if (!out.length) declare.isPreferred = true; out.push(declare); }
    return out;
  },
};
