/** Fixers for template.*: declare or rename an unknown placeholder, use or remove an unused key, quote. */
import { isMap } from 'yaml';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from '../context';
import type { CodeDef, MappingEntry, Template } from '../model';
import type { UnknownPlaceholderData, UnquotedData, UnusedDetailData } from '../checks/templates';
import { action, declareDetail, doubleQuote, findEntry, lineEndAfter, removePair, replace, sectionOf, single } from './edits';
import type { Fixer } from './types';

const TYPE_OF_PARAM: Record<string, string> = { string: 'string', integer: 'integer', number: 'number', boolean: 'boolean', array: 'string[]', object: 'object' };

function entryAndSection(ctx: FeatureContext, kind: 'code' | 'mapping', at: number, index: number | null) {
  const e = findEntry(ctx.model.codes, ctx.model.mappings, kind, at, index);
  const s = e && sectionOf(ctx.model.sections, e.section);
  return e && s ? { e, s } : undefined;
}

const unknownPlaceholder: Fixer = (ctx, d) => {
  const data = d.data as UnknownPlaceholderData | undefined;
  if (!data || ctx.doc.getText(d.range) !== `{${data.key}}`) return [];
  const out: CodeAction[] = [];
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  if (found) {
    const type = (data.param?.type && TYPE_OF_PARAM[data.param.type]) || 'string';
    const edit = declareDetail(ctx.doc, found.s, found.e.node, found.e.detailsNode, data.key, type);
    if (edit) out.push(action(`Declare '${data.key}: ${type}' in details`, d, single(ctx.doc, [edit]), !!data.param || data.suggestions.length === 0));
  }
  data.suggestions.forEach((k, i) => out.push(action(`Change to '{${k}}'`, d, single(ctx.doc, [{ range: d.range, newText: `{${k}}` }]), !data.param && i === 0)));
  out.push(action(`Remove '{${data.key}}' from the template`, d, single(ctx.doc, [{ range: d.range, newText: '' }])));
  return out;
};

function templateOf(e: CodeDef | MappingEntry): Template | undefined { return e.template; }

/** Insert text just before the template's closing quote (or at its end for a plain scalar). */
function appendToTemplate(ctx: FeatureContext, t: Template, addition: string): TextEdit | undefined {
  if (t.style === 'literal' || t.style === 'folded') return undefined;
  const end = t.style === 'plain' ? t.span.end : t.span.end - 1;
  const text = t.style === 'single' ? addition.replace(/'/g, "''") : addition;
  return replace(ctx.doc, end, end, text);
}

const unusedDetail: Fixer = (ctx, d) => {
  const data = d.data as UnusedDetailData | undefined;
  if (!data || ctx.doc.getText(d.range) !== data.key) return [];
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  if (!found) return [];
  const out: CodeAction[] = [];
  const t = templateOf(found.e);
  const ins = t && appendToTemplate(ctx, t, ` '{${data.key}}'`);
  if (ins) out.push(action(`Use '{${data.key}}' in the message template`, d, single(ctx.doc, [ins]), true));
  const decl = found.e.details.find(x => x.name === data.key);
  if (decl) {
    const flow = !!found.e.detailsNode && (found.e.detailsNode as { flow?: boolean }).flow === true;
    out.push(action(`Remove details key '${data.key}'`, d, single(ctx.doc, [removePair(ctx.doc, decl.pairSpan, flow)])));
  }
  return out;
};

const unquoted: Fixer = (ctx, d) => {
  const data = d.data as UnquotedData | undefined;
  if (!data || ctx.doc.getText(d.range) !== `{${data.key}}`) return [];
  const start = ctx.doc.offsetAt(d.range.start);
  const t = [...ctx.model.codes, ...ctx.model.mappings].map(templateOf).find(x => x && start >= x.span.start && start < x.span.end);
  if (!t) return [];
  let edit: TextEdit;
  if (t.style === 'single') edit = { range: d.range, newText: `''{${data.key}}''` };
  else if (t.style === 'plain' && start === t.span.start) {
    const rel = start - t.span.start;
    const v = t.raw.slice(0, rel) + `'{${data.key}}'` + t.raw.slice(rel + data.key.length + 2);
    edit = replace(ctx.doc, t.span.start, t.span.end, doubleQuote(v));
  } else edit = { range: d.range, newText: `'{${data.key}}'` };
  return [action(`Wrap in single quotes: '{${data.key}}'`, d, single(ctx.doc, [edit]), true)];
};

const flowMapping: Fixer = (ctx, d) => {
  const text = ctx.doc.getText();
  const start = ctx.doc.offsetAt(d.range.start);
  if (text[start] !== '{') return [];
  const lineEnd = lineEndAfter(text, start);
  let value = text.slice(start, lineEnd).replace(/\r?\n$/, '');
  value = value.replace(/\s+#.*$/, '').trimEnd();
  // Only when the rest of the line is the template (not a multi-line flow mapping).
  const node = [...ctx.model.codes, ...ctx.model.mappings].map(e => e.templateNode).find(n => n && n.span.start === start);
  if (node && isMap(node.node) && node.span.end > start + value.length) return [];
  return [action('Quote the template', d, single(ctx.doc, [replace(ctx.doc, start, start + value.length, doubleQuote(value))]), true)];
};

export const templatesFixers: Record<string, Fixer> = {
  'template.unknown-placeholder': unknownPlaceholder,
  'template.unused-detail': unusedDetail,
  'template.unquoted-placeholder': unquoted,
  'template.flow-mapping': flowMapping,
};

export type { Diagnostic };
