/**
 * Completion (design s4). What is completed is decided by `slotAt` (features/slot.ts) from the
 * parsed tree: codes for the value of an error_mapping entry's `code`, categories, details types,
 * entry keys, details keys and spec keys, HTTP statuses as error_mapping keys, details keys inside `{`
 * of a template, condition roots and operators. The same in YAML, Markdown front matter and JSON;
 * what is inserted follows the file's syntax (JSON keys and strings are quoted).
 */
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  TextEdit,
  type CompletionItem,
  type CompletionList,
  type Position,
} from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { codeNameChoices } from './codeNameChoices';
import { slotAt, type Slot, type SlotEdit } from './slot';
import { codeMarkdown } from './describe';
import { markdownToPlain } from '../util/markdown';
import { defaultCodeFor, REASONS } from '../model/httpReasons';
import { toRange } from '../util/ranges';
import { createResolver, visibleKeys } from '../workspace/resolve';
import { PLACEHOLDER_NAME } from '../parse/placeholders';
import { RETRY_MEANING, RETRY_VALUES, retryOf } from '../model/retry';

export interface CompletionOptions {
  readonly snippets?: boolean;
  readonly markdown?: boolean;
}

const CODE_KEYS = ['category', 'message_template', 'maps_from_http', 'condition', 'details', 'description', 'retry'];
const MAPPING_KEYS = ['code', 'message_template', 'condition', 'details'];
const SPEC_KEYS = ['type', 'required', 'description', 'example', 'enum', 'format'];
const OPERATORS = ['==', '!=', '>', '>=', '<', '<=', 'contains', 'startswith', 'endswith', 'in', 'and', 'or', 'not'];
const ROOT_ITEMS = ['response.status', 'response.body.', 'response.headers.', 'params.'];
/** schemas/adapter.schema.json `definitions.detailType`, when the service was given no schema. */
const DETAIL_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'object',
  'array',
  'unknown',
  'string[]',
  'number[]',
  'integer[]',
  'object[]',
];

/** At most this many code items per answer; the list is marked incomplete so the client asks again as the user types. */
export const MAX_CODE_ITEMS = 200;

export function complete(ctx: FeatureContext, at: Position, opts: CompletionOptions = {}): CompletionItem[] {
  return completeList(ctx, at, opts).items;
}

export function completeList(ctx: FeatureContext, at: Position, opts: CompletionOptions = {}): CompletionList {
  let incomplete = false;
  const slot = slotAt(ctx.model, ctx.doc.offsetAt(at));
  const items = slot
    ? itemsFor(ctx, slot, opts, () => {
        incomplete = true;
      })
    : [];
  return { isIncomplete: incomplete, items };
}

/** The text that replaces the slot's word: quoted where the file needs it (JSON), plain YAML otherwise. */
function valueText(ctx: FeatureContext, e: SlotEdit, word: string): string {
  return (e.lead ?? '') + quotedValue(ctx, e, word);
}

function quotedValue(ctx: FeatureContext, e: SlotEdit, word: string): string {
  if (e.quote) return `"${word}"`;
  // YAML: `[` `]` end a plain scalar inside `{ }`; a plain `string[]` is fine in block style.
  return ctx.model.kind !== 'json' && e.flow && /[[\]{},]/.test(word) && !isQuotedAt(ctx, e) ? `"${word}"` : word;
}

const isQuotedAt = (ctx: FeatureContext, e: SlotEdit): boolean => /["']/.test(ctx.model.text[e.start - 1] ?? '');

/**
 * A key in the file's syntax, with `: value` when no colon follows it yet. Inside the quotes of a JSON
 * key being typed only the name is written (the colon goes after the closing quote, outside the word).
 */
function keyText(ctx: FeatureContext, e: SlotEdit, key: string, value = ''): string {
  if (e.closes) return `${key}": ${value}`;
  const insideJsonQuotes = ctx.model.kind === 'json' && !e.quote;
  const k = e.quote ? `"${key}"` : key;
  return e.colon && !insideJsonQuotes ? `${k}: ${value}` : k;
}

function itemsFor(ctx: FeatureContext, slot: Slot, opts: CompletionOptions, truncated: () => void): CompletionItem[] {
  const { doc, model } = ctx;
  const md = (text: string) => (opts.markdown === false ? markdownToPlain(text) : { kind: MarkupKind.Markdown, value: text });
  const json = model.kind === 'json';
  const range = (e: SlotEdit) => toRange(doc, e.start, e.end);
  switch (slot.kind) {
    case 'codeName': {
      const e = slot.edit;
      const resolver = createResolver(model.codes, ctx.registry, ctx.workspace, doc.uri);
      // Registry codes first, then the rest by name; beyond MAX_CODE_ITEMS the client asks again as the user types.
      const { names, truncated: cut } = codeNameChoices(
        e.typed.toUpperCase(),
        model.codes,
        ctx.registry,
        ctx.workspace,
        doc.uri,
        MAX_CODE_ITEMS,
      );
      if (cut) truncated();
      const where = range(e);
      const items: CompletionItem[] = [];
      for (const name of names) {
        const r = resolver.code(name)!;
        if (r.kind === 'warning') continue;
        const rank =
          r.source === 'file' ? '0' : r.source === 'workspace' ? '1' : r.reg.phase === 'mvp' ? '2' : r.reg.phase === 'phase1' ? '3' : '4';
        items.push({
          label: name,
          kind: r.source === 'registry' ? CompletionItemKind.Constant : CompletionItemKind.EnumMember,
          detail: `${r.category ?? '?'} · ${r.source === 'registry' ? 'registry' : r.source === 'file' ? 'custom' : `custom (${decodeURIComponent(r.decl.uri.replace(/^.*\//, ''))})`}`,
          // Registry codes get the full card; custom codes (maybe 10,000 of them) their template only.
          documentation:
            r.source === 'registry' ? md(codeMarkdown(r, ctx.registry)) : r.source === 'file' ? r.def.template?.value : r.decl.template,
          sortText: `${rank}${name}`,
          filterText: name,
          textEdit: TextEdit.replace(where, valueText(ctx, e, name)),
        });
      }
      return items;
    }
    case 'category':
      return ctx.registry.data.categories
        .filter(c => c.name !== 'SCHEMA')
        .map((c, i) => ({
          label: c.name,
          kind: CompletionItemKind.EnumMember,
          detail: c.description,
          documentation: md(
            `Prefix \`${c.prefix}\` · HTTP ${c.http_range.length ? c.http_range.join(', ') : c.http_range_min ? `${c.http_range_min}+` : '—'}`,
          ),
          sortText: String(i).padStart(2, '0'),
          filterText: c.name,
          textEdit: TextEdit.replace(range(slot.edit), valueText(ctx, slot.edit, c.name)),
        }));
    case 'retry': {
      // The default of the entry's category, marked among the three.
      const def = model.codes.find(c => c.entrySpan.start <= slot.edit.start && slot.edit.start <= c.entrySpan.end);
      const category = typeof def?.category?.value === 'string' ? def.category.value : undefined;
      const fallback = retryOf(undefined, category);
      return RETRY_VALUES.map((t, i) => ({
        label: t,
        kind: CompletionItemKind.EnumMember,
        detail: t === fallback ? `retry · the default of ${category}` : 'retry',
        documentation: md(RETRY_MEANING[t]),
        sortText: String(i).padStart(2, '0'),
        filterText: t,
        textEdit: TextEdit.replace(range(slot.edit), valueText(ctx, slot.edit, t)),
      }));
    }
    case 'detailType':
      return (ctx.detailTypes ?? DETAIL_TYPES).map((t, i) => ({
        label: t,
        kind: CompletionItemKind.TypeParameter,
        detail: 'details type',
        sortText: String(i).padStart(2, '0'),
        filterText: t,
        textEdit: TextEdit.replace(range(slot.edit), valueText(ctx, slot.edit, t)),
      }));
    case 'placeholder': {
      const keys = visibleKeys(slot.owner, createResolver(model.codes, ctx.registry, ctx.workspace, doc.uri), ctx.registry);
      const r = toRange(doc, slot.start, slot.end);
      // A key no placeholder can name is not offered: `{retry-after}` would be malformed.
      return [...(keys?.values() ?? [])]
        .filter(k => PLACEHOLDER_NAME.test(k.name))
        .map(k => ({
          label: k.name,
          kind: CompletionItemKind.Field,
          detail: k.type ?? 'details key',
          filterText: `{${k.name}`,
          textEdit: TextEdit.replace(r, `{${k.name}}`),
        }));
    }
    case 'condition': {
      const word = /[A-Za-z_.\-]*$/.exec(slot.before)![0];
      const start = doc.offsetAt(doc.positionAt(slot.edit.start + slot.before.length - word.length));
      const r = toRange(doc, start, slot.edit.start + slot.before.length);
      const afterPath = /[A-Za-z0-9_\]]\s+$/.test(slot.before);
      const list = afterPath ? OPERATORS : ROOT_ITEMS;
      const wrap = (s: string) => (slot.edit.quote && !slot.before ? `"${s}` : s);
      return list.map(label => ({
        label,
        kind: afterPath ? CompletionItemKind.Operator : CompletionItemKind.Variable,
        textEdit: TextEdit.replace(r, wrap(label)),
      }));
    }
    case 'statusKey': {
      const e = slot.edit;
      const statuses = [
        ...Object.entries(REASONS).filter(([s]) => Number(s) >= 400),
        ['4XX', 'any other 4xx status'],
        ['5XX', 'any other 5xx status'],
      ] as [string, string][];
      return statuses
        .filter(([s]) => !slot.present.has(s))
        .map(([s, reason]) => {
          const def = /XX$/.test(s) ? (s === '4XX' ? 'VALIDATION_INVALID_TYPE' : 'INTERNAL_ERROR') : defaultCodeFor(Number(s));
          const indent = ' '.repeat(e.start - (model.text.lastIndexOf('\n', e.start - 1) + 1) + 2);
          const snippet = json ? keyText(ctx, e, s, `{ "code": "\${1:${def}}" }`) : `${s}:\n${indent}code: \${1:${def}}`;
          return {
            label: s,
            kind: CompletionItemKind.Value,
            detail: reason,
            documentation: md(`Default: \`${def}\``),
            sortText: s,
            filterText: s,
            ...(opts.snippets && e.colon
              ? { textEdit: TextEdit.replace(range(e), snippet), insertTextFormat: InsertTextFormat.Snippet }
              : { textEdit: TextEdit.replace(range(e), json ? keyText(ctx, e, s) : e.colon ? `${s}:` : s) }),
          };
        });
    }
    case 'newCodeName': {
      // A name typed on a new line above another entry reads, to YAML, as one key over both lines: keep its first line.
      const e = slot.edit;
      const eol = model.text.indexOf('\n', e.start);
      const edit = eol >= 0 && e.end > eol ? { ...e, end: eol, colon: true } : e;
      return opts.snippets && edit.colon && !json ? [newCodeSnippet(ctx, edit)] : [];
    }
    case 'entryKey':
    case 'detailSpecKey': {
      const e = slot.edit;
      const keys = slot.kind === 'detailSpecKey' ? SPEC_KEYS : slot.block === 'error_codes' ? CODE_KEYS : MAPPING_KEYS;
      return keys
        .filter(k => !slot.present.has(k))
        .map((k, i) => ({
          label: k,
          kind: CompletionItemKind.Property,
          sortText: String(i),
          filterText: k,
          ...(opts.snippets && e.colon
            ? {
                textEdit: TextEdit.replace(range(e), keyText(ctx, e, k, k === 'message_template' || json ? '"${1}"' : '${1}')),
                insertTextFormat: InsertTextFormat.Snippet,
              }
            : { textEdit: TextEdit.replace(range(e), keyText(ctx, e, k)) }),
        }));
    }
    case 'detailsKey': {
      // The template's placeholders not yet declared: each one a key of type string.
      const e = slot.edit;
      const t = slot.owner && (slot.owner.kind === 'code' ? slot.owner.def.template : slot.owner.entry.template);
      const names = [...new Set(t?.placeholders.map(p => p.name) ?? [])].filter(n => !slot.present.has(n) || n === e.typed);
      return names.map(n => ({
        label: n,
        kind: CompletionItemKind.Field,
        detail: 'placeholder of the template',
        filterText: n,
        textEdit: TextEdit.replace(range(e), keyText(ctx, e, n, json ? '"string"' : 'string')),
      }));
    }
  }
}

/**
 * A whole new `error_codes` entry (YAML and front matter): the name, a category to pick, the template
 * and one details key, indented under the name; the name the user typed is kept as the first tab stop.
 */
function newCodeSnippet(ctx: FeatureContext, e: SlotEdit): CompletionItem {
  const text = ctx.model.text;
  const indent = ' '.repeat(e.start - (text.lastIndexOf('\n', e.start - 1) + 1) + 2);
  const typed = text.slice(e.start, e.end).replace(/[$}\\]/g, '\\$&');
  const categories = ctx.registry.categoryNames.filter(c => c !== 'SCHEMA').join(',');
  const body = [
    `\${1:${typed || 'NOT_FOUND_THING'}}:`,
    `${indent}category: \${2|${categories}|}`,
    `${indent}message_template: "\${3:Thing '{name\\}' not found}"`,
    `${indent}details:`,
    `${indent}  \${4:name}: \${5:string}`,
  ].join('\n');
  return {
    label: 'new error code',
    kind: CompletionItemKind.Snippet,
    detail: 'error_codes entry: category, message_template, details',
    filterText: text.slice(e.start, e.end) || 'new error code',
    sortText: '~',
    insertTextFormat: InsertTextFormat.Snippet,
    textEdit: TextEdit.replace(toRange(ctx.doc, e.start, e.end), body),
  };
}
