/**
 * Fixers for mapping.unknown-code (the closest known code, or declare the code in error_codes) and
 * mapping.shadowed-status (remove the status the code never answers: nothing a client sees changes).
 */
import { isMap, isSeq, type Node } from 'yaml';
import type { CodeAction, TextEdit } from 'vscode-languageserver-types';
import type { UnknownCodeData } from '../codes';
import type { FeatureContext } from '../model/context';
import { keyString } from '../parse/extract';
import type { CodeDef, MappingEntry, StatusRef } from '../model/model';
import { prefixCategory } from '../util/naming';
import { statusInCategory } from '../model/registry';
import {
  action,
  columnIfFirst,
  insertLines,
  lineEndAfter,
  lineStart,
  nodeEnd,
  nodeStart,
  removePair,
  replace,
  sectionOf,
  single,
} from './edits';
import { clearlyBest } from './schemaFixes';
import { insertIntoFlowMap, removeFlowItem, replaceScalar, syntaxOf, unquotedText } from './syntax';
import type { Fixers } from './types';

function guessCategory(ctx: FeatureContext, code: string, m: MappingEntry | undefined): string {
  const byPrefix = prefixCategory(code, ctx.registry.categoryNames);
  if (byPrefix && byPrefix !== 'SCHEMA') return byPrefix;
  const st = typeof m?.status.value === 'number' ? m.status.value : undefined;
  const cat = st === undefined ? undefined : ctx.registry.data.categories.find(c => c.name !== 'TOKEN' && statusInCategory(c, st));
  return cat?.name ?? 'VALIDATION';
}

function declareCode(ctx: FeatureContext, data: UnknownCodeData, m: MappingEntry | undefined): CodeAction | undefined {
  if (!m) return undefined;
  const s = sectionOf(ctx.model.sections, m.section);
  if (!s) return undefined;
  const syntax = syntaxOf(ctx.model);
  const text = ctx.doc.getText();
  const category = guessCategory(ctx, data.code, m);
  const keys = [...new Set(m.template?.placeholders.map(p => p.name) ?? [])];
  // The template as a string of this file: its own source when it is one line, else re-quoted.
  const template = m.template && (syntax.json || m.template.raw.includes('\n') ? JSON.stringify(m.template.value) : m.template.raw);
  /** The entry as block lines (YAML) … */
  const lines = (pad: string) => {
    const out = [`${pad}${syntax.key(data.code)}:`, `${pad}  category: ${category}`];
    if (template) out.push(`${pad}  message_template: ${template}`);
    if (keys.length) {
      out.push(`${pad}  details:`);
      for (const k of keys) out.push(`${pad}    ${syntax.pair(k, 'string')}`);
    }
    return out;
  };
  /** … or as one flow mapping (JSON, or a YAML `{ … }` block). */
  const flowEntry = () =>
    syntax.map([
      ['category', syntax.value(category)],
      ...(template ? [['message_template', template] as const] : []),
      ...(keys.length ? [['details', syntax.map(keys.map(k => [k, syntax.value('string')] as const))] as const] : []),
    ]);
  const root = s.doc.contents as Node | null;
  const pair = isMap(root) ? root.items.find(p => keyString(p) === 'error_codes') : undefined;
  let edit;
  if (pair) {
    const block = pair.value as Node | null;
    if (!isMap(block)) return undefined;
    if (block.flow) edit = insertIntoFlowMap(ctx.doc, s, block, syntax.pair(data.code, flowEntry()));
    else {
      if (!block.items.length) return undefined;
      const first = block.items[0]!.key as Node;
      const col = first.range ? columnIfFirst(text, nodeStart(s, first)) : -1;
      if (col < 0) return undefined;
      edit = insertLines(ctx.doc, nodeEnd(s, block), lines(' '.repeat(col)));
    }
  } else if (isMap(root) && root.flow) {
    edit = insertIntoFlowMap(ctx.doc, s, root, syntax.pair('error_codes', syntax.map([[data.code, flowEntry()]])));
  } else if (!syntax.json) {
    const end = s.base + s.text.length;
    edit = insertLines(ctx.doc, end, ['error_codes:', ...lines('  ')]);
  }
  return edit && action(`Declare '${data.code}' in error_codes`, undefined, single(ctx.doc, [edit]));
}

/**
 * The edit that removes `status` from the code's own maps_from_http: the item (a flow list's with one
 * comma, a block list's whole line), or the whole maps_from_http key when it is the only item (the list
 * must not be empty). Nothing when the list or the entry is reached through an alias or a merge key.
 */
function removeStatus(ctx: FeatureContext, c: CodeDef, status: StatusRef): TextEdit | undefined {
  const s = sectionOf(ctx.model.sections, c.section);
  if (!s || !c.node || c.shared) return undefined;
  const pair = c.node.items.find(p => keyString(p) === 'maps_from_http');
  const seq = pair?.value as Node | null | undefined;
  const key = pair?.key as Node | null | undefined;
  if (!pair || !isSeq(seq) || !seq.range || !key?.range) return undefined;
  const item = seq.items.find(n => (n as Node | null)?.range && nodeStart(s, n as Node) === status.span.start) as Node | undefined;
  if (!item) return undefined;
  const text = ctx.doc.getText();
  if (seq.items.length === 1) {
    const span = { start: nodeStart(s, key), end: nodeEnd(s, seq) };
    return c.node.flow ? removeFlowItem(ctx.doc, span.start, span.end) : removePair(ctx.doc, span, false);
  }
  if (seq.flow) return removeFlowItem(ctx.doc, nodeStart(s, item), nodeEnd(s, item));
  const ls = lineStart(text, status.span.start);
  const end = lineEndAfter(text, status.span.end);
  // A block item alone on its line (`    - 503`, a comment after it allowed).
  if (!/^ *- +$/.test(text.slice(ls, status.span.start)) || !/^ *(?:#.*)?\r?\n?$/.test(text.slice(status.span.end, end))) return undefined;
  return replace(ctx.doc, ls, end, '');
}

export const mappingsFixers: Fixers = {
  'mapping.shadowed-status': (ctx, d, data) => {
    const at = ctx.doc.offsetAt(d.range.start);
    const c = ctx.model.codes.find(x => x.name === data.code && x.mapsFromHttp.some(st => st.span.start === at));
    const status = c?.mapsFromHttp.find(st => st.span.start === at);
    if (!c || !status || status.raw !== data.status) return [];
    const edit = removeStatus(ctx, c, status);
    return edit ? [action(`Remove ${data.status} from maps_from_http of ${data.code}`, d, single(ctx.doc, [edit]))] : [];
  },
  'mapping.unknown-code': (ctx, d, data) => {
    if (unquotedText(ctx.doc, d.range) !== data.code) return [];
    const m = ctx.model.mappings.find(x => x.status.span.start === data.entryAt && x.index === data.index);
    const best = clearlyBest(data.code, data.suggestions);
    const out = data.suggestions.map((c, i) =>
      action(`Change to ${c}`, d, single(ctx.doc, [replaceScalar(ctx.doc, d.range, c, syntaxOf(ctx.model))]), best && i === 0),
    );
    const declare = declareCode(ctx, data, m);
    // Declaring is the fix when no known code is close: the author meant a new code.
    if (declare) {
      declare.diagnostics = [d];
      if (!out.length) declare.isPreferred = true;
      out.push(declare);
    }
    return out;
  },
};
