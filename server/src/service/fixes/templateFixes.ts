/** Fixers for template.*: declare or rename an unknown placeholder, use or remove an unused key, quote. */
import { isMap, type Node } from 'yaml';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import type { CodeDef, MappingEntry, Section, Template } from '../model/model';
import { commentCut, flowTemplateEnd, PLACEHOLDER_NAME } from '../parse/placeholders';
import {
  action,
  columnIfFirst,
  declareDetail,
  doubleQuote,
  findEntry,
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
import { removeFlowItem, replaceScalar, syntaxOf, unquotedText } from './syntax';
import type { Fixer, Fixers } from './types';

const TYPE_OF_PARAM: Record<string, string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  array: 'string[]',
  object: 'object',
};

function entryAndSection(ctx: FeatureContext, kind: 'code' | 'mapping', at: number, index: number | null) {
  const e = findEntry(ctx.model.codes, ctx.model.mappings, kind, at, index);
  const s = e && sectionOf(ctx.model.sections, e.section);
  return e && s ? { e, s } : undefined;
}

const unknownPlaceholder: Fixer<'template.unknown-placeholder'> = (ctx, d, data) => {
  if (ctx.doc.getText(d.range) !== `{${data.key}}`) return [];
  const out: CodeAction[] = [];
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  // Nothing reached through an alias (or anchored and aliased) is edited: it would change the anchor's other users.
  if (found && !found.e.detailsShared && !(found.e.shared && !found.e.detailsNode)) {
    const type = (data.param?.type && TYPE_OF_PARAM[data.param.type]) || 'string';
    const edit = declareDetail(ctx.doc, found.s, found.e.node, found.e.detailsNode, data.key, type, syntaxOf(ctx.model));
    if (edit)
      out.push(
        action(`Declare '${data.key}: ${type}' in details`, d, single(ctx.doc, [edit]), !!data.param || data.suggestions.length === 0),
      );
  }
  // A template shared through an alias is not edited: it would change the anchor's other users.
  if (found?.e.template?.shared || (!found && templateAt(ctx, ctx.doc.offsetAt(d.range.start))?.shared)) return out;
  // The closest key is the best fix only when no parameter says the key is meant, and it is clearly the closest.
  // The entry's one unused key that the name is part of (`{ticket}`, `ticket_id`) is the one candidate too.
  const best = !data.param && (!!data.unusedKey || clearlyBest(data.key, data.suggestions));
  data.suggestions.forEach((k, i) =>
    out.push(action(`Change to '{${k}}'`, d, single(ctx.doc, [{ range: d.range, newText: `{${k}}` }]), best && i === 0)),
  );
  out.push(action(`Remove '{${data.key}}' from the template`, d, single(ctx.doc, [removePlaceholder(ctx, d)])));
  return out;
};

function templateOf(e: CodeDef | MappingEntry): Template | undefined {
  return e.template;
}

function templateAt(ctx: FeatureContext, offset: number): Template | undefined {
  for (const e of [...ctx.model.codes, ...ctx.model.mappings]) {
    const t = e.template;
    if (t && offset >= t.span.start && offset < t.span.end) return t;
  }
  return undefined;
}

/**
 * Remove a placeholder with the single quotes wrapped around it (`'{x}'`, or `''{x}''` inside a
 * single-quoted scalar) and one space, so no empty quotes or double spaces stay behind.
 */
function removePlaceholder(ctx: FeatureContext, d: Diagnostic): TextEdit {
  const text = ctx.doc.getText();
  let start = ctx.doc.offsetAt(d.range.start),
    end = ctx.doc.offsetAt(d.range.end);
  const t = templateAt(ctx, start);
  if (t) {
    const lo = t.style === 'single' || t.style === 'double' ? t.span.start + 1 : t.span.start;
    const hi = t.style === 'single' || t.style === 'double' ? t.span.end - 1 : t.span.end;
    const q = t.style === 'single' ? "''" : "'";
    if (
      start - q.length >= lo &&
      end + q.length <= hi &&
      text.slice(start - q.length, start) === q &&
      text.slice(end, end + q.length) === q &&
      !(t.style === 'single' && text[start - 3] === "'" && start - 3 >= lo)
    ) {
      start -= q.length;
      end += q.length;
    }
    if (start > lo && text[start - 1] === ' ' && (end === hi || text[end] === ' ' || /[.,;:!?)]/.test(text[end] ?? ''))) start--;
    else if (start === lo && text[end] === ' ' && end < hi) end++;
  }
  return replace(ctx.doc, start, end, '');
}

/** Insert text just before the template's closing quote (or at its end for a plain scalar). */
function appendToTemplate(ctx: FeatureContext, t: Template, addition: string): TextEdit | undefined {
  if (t.style === 'literal' || t.style === 'folded') {
    // After the last character of the content (block scalars have no comments or escapes).
    const body = t.raw.indexOf('\n');
    let i = t.raw.length;
    while (i > body + 1 && /\s/.test(t.raw[i - 1]!)) i--;
    return body < 0 || i <= body + 1 ? undefined : replace(ctx.doc, t.span.start + i, t.span.start + i, addition);
  }
  const end = t.style === 'plain' ? t.span.end : t.span.end - 1;
  const text = t.style === 'single' ? addition.replace(/'/g, "''") : addition;
  return replace(ctx.doc, end, end, text);
}

const unusedDetail: Fixer<'template.unused-detail'> = (ctx, d, data) => {
  if (unquotedText(ctx.doc, d.range) !== data.key) return [];
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  if (!found) return [];
  const out: CodeAction[] = [];
  const t = templateOf(found.e);
  // Neither using nor removing an unused key is clearly right (it may be extra data): no preferred fix.
  // A key no placeholder can name is never inserted (template.invalid-detail-name says why).
  const ins = t && !t.shared && PLACEHOLDER_NAME.test(data.key) && appendToTemplate(ctx, t, ` '{${data.key}}'`);
  if (ins) out.push(action(`Use '{${data.key}}' in the message template`, d, single(ctx.doc, [ins])));
  const decl = found.e.details.find(x => x.name === data.key);
  if (decl && !decl.shared) {
    const flow = !!found.e.detailsNode && (found.e.detailsNode as { flow?: boolean }).flow === true;
    // The only key: remove the whole `details:` entry rather than leave an empty one behind.
    const whole = found.e.details.length === 1 ? removeDetailsBlock(ctx, found.s, found.e) : undefined;
    out.push(action(`Remove details key '${data.key}'`, d, single(ctx.doc, [whole ?? removePair(ctx.doc, decl.pairSpan, flow)])));
  }
  return out;
};

/** A details key no placeholder can name: rename it to one that can (not preferred: clients read the key). */
const invalidDetailName: Fixer<'template.invalid-detail-name'> = (ctx, d, data) => {
  if (unquotedText(ctx.doc, d.range) !== data.key) return [];
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  const decl = found?.e.details.find(x => x.name === data.key);
  if (!found || !decl || decl.shared || found.e.details.some(x => x.name === data.suggestion)) return [];
  const edit = replaceScalar(ctx.doc, d.range, data.suggestion, syntaxOf(ctx.model));
  return [action(`Rename details key '${data.key}' to '${data.suggestion}'`, d, single(ctx.doc, [edit]))];
};

function removeDetailsBlock(ctx: FeatureContext, s: Section, e: CodeDef | MappingEntry): TextEdit | undefined {
  const details = e.detailsNode;
  const pair = e.node?.items.find(p => p.value === details);
  const key = pair?.key as Node | undefined;
  if (!details?.range || !key?.range || e.node!.items.length < 2) return undefined;
  const text = ctx.doc.getText();
  const start = nodeStart(s, key);
  if (e.node!.flow) return removeFlowItem(ctx.doc, start, nodeEnd(s, details));
  if (columnIfFirst(text, start) < 0) return undefined;
  return replace(ctx.doc, lineStart(text, start), lineEndAfter(text, Math.max(start, nodeEnd(s, details) - 1)), '');
}

const unquoted: Fixer<'template.unquoted-placeholder'> = (ctx, d, data) => {
  if (ctx.doc.getText(d.range) !== `{${data.key}}`) return [];
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

const flowMapping: Fixer<'template.flow-mapping'> = (ctx, d) => {
  const text = ctx.doc.getText();
  const start = ctx.doc.offsetAt(d.range.start);
  if (text[start] !== '{') return [];
  const lineEnd = lineEndAfter(text, start);
  let value = text.slice(start, lineEnd).replace(/\r?\n$/, '');
  value = value.replace(/\s+#.*$/, '').trimEnd();
  // Only when the rest of the line is the template (not a multi-line flow mapping).
  const node = [...ctx.model.codes, ...ctx.model.mappings].map(e => e.templateNode).find(n => n && n.span.start === start);
  if (node && isMap(node.node) && flowTemplateEnd(text, start, node.span.end) > start + value.length) return [];
  return [action('Quote the template', d, single(ctx.doc, [replace(ctx.doc, start, start + value.length, doubleQuote(value))]), true)];
};

/** Quote the whole line's text, the part YAML read as a comment included. */
const commentCutFix: Fixer<'template.comment-cut'> = (ctx, d, data) => {
  const found = entryAndSection(ctx, data.entryKind, data.entryAt, data.index);
  const t = found?.e.template;
  const cut = t && commentCut(ctx.doc.getText(), t);
  if (!t || t.shared || !cut || cut.start !== ctx.doc.offsetAt(d.range.start)) return [];
  const value = ctx.doc.getText().slice(t.span.start, cut.end);
  return [
    action(
      'Quote the template (with the text after #)',
      d,
      single(ctx.doc, [replace(ctx.doc, t.span.start, cut.end, doubleQuote(value))]),
      true,
    ),
  ];
};

export const templatesFixers: Fixers = {
  'template.comment-cut': commentCutFix,
  'template.unknown-placeholder': unknownPlaceholder,
  'template.unused-detail': unusedDetail,
  'template.invalid-detail-name': invalidDetailName,
  'template.unquoted-placeholder': unquoted,
  'template.flow-mapping': flowMapping,
};
