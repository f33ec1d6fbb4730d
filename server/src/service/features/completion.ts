/**
 * Completion (design s4): codes after `code:`, categories, entry keys, HTTP statuses under
 * error_mapping, details keys inside `{` of a template, condition roots and operators. Reads the
 * current line and the model; never walks the document more than once.
 */
import { CompletionItemKind, InsertTextFormat, MarkupKind, TextEdit, type CompletionItem, type CompletionList, type Position } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { entryAt } from './cursor';
import { codeMarkdown } from './describe';
import { defaultCodeFor, REASONS } from '../model/httpReasons';
import { createResolver, visibleKeys } from '../workspace/resolve';

export interface CompletionOptions { readonly snippets?: boolean; readonly markdown?: boolean }

const CODE_KEYS = ['category', 'message_template', 'maps_from_http', 'condition', 'details', 'description'];
const MAPPING_KEYS = ['code', 'message_template', 'condition', 'details'];
const OPERATORS = ['==', '!=', '>', '>=', '<', '<=', 'contains', 'startswith', 'endswith', 'in', 'and', 'or', 'not'];
const ROOT_ITEMS = ['response.status', 'response.body.', 'response.headers.', 'params.'];

/** At most this many code items per answer; the list is marked incomplete so the client asks again as the user types. */
export const MAX_CODE_ITEMS = 200;

export function complete(ctx: FeatureContext, at: Position, opts: CompletionOptions = {}): CompletionItem[] {
  return completeList(ctx, at, opts).items;
}

export function completeList(ctx: FeatureContext, at: Position, opts: CompletionOptions = {}): CompletionList {
  let incomplete = false;
  const items = completeItems(ctx, at, opts, () => { incomplete = true; });
  return { isIncomplete: incomplete, items };
}

function completeItems(ctx: FeatureContext, at: Position, opts: CompletionOptions, truncated: () => void): CompletionItem[] {
  const { doc, model } = ctx;
  const text = doc.getText();
  const offset = doc.offsetAt(at);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const lineEnd = (() => { const n = text.indexOf('\n', offset); return n < 0 ? text.length : n; })();
  const after = text.slice(offset, lineEnd);
  const doc_ = (md: string) => (opts.markdown === false ? md : { kind: MarkupKind.Markdown, value: md });
  const block = topLevelKey(text, lineStart);

  // `code:` value
  let m = /^(\s*(?:-\s+)?code:\s*)(["']?)([A-Za-z0-9_]*)$/.exec(before);
  if (m && block === 'error_mapping') {
    const start = offset - m[3]!.length - m[2]!.length;
    const endMatch = /^[A-Za-z0-9_]*["']?/.exec(after)!;
    const range = { start: doc.positionAt(start), end: doc.positionAt(offset + endMatch[0].length) };
    const resolver = createResolver(model.codes, ctx.registry, ctx.workspace, doc.uri);
    const items: CompletionItem[] = [];
    const typed = m[3]!.toUpperCase();
    let names = resolver.allNames().filter(n => n.toUpperCase().startsWith(typed) && ctx.registry.byCode.get(n)?.kind !== 'warning');
    // Registry codes first, then the rest by name; beyond MAX_CODE_ITEMS the client asks again as the user types.
    if (names.length > MAX_CODE_ITEMS) {
      names = [...names.filter(n => ctx.registry.byCode.has(n)), ...names.filter(n => !ctx.registry.byCode.has(n)).sort()].slice(0, MAX_CODE_ITEMS);
      truncated();
    }
    for (const name of names) {
      const r = resolver.code(name)!;
      if (r.kind === 'warning') continue;
      const rank = r.source === 'file' ? '0' : r.source === 'workspace' ? '1' : r.reg.phase === 'mvp' ? '2' : r.reg.phase === 'phase1' ? '3' : '4';
      items.push({
        label: name, kind: r.source === 'registry' ? CompletionItemKind.Constant : CompletionItemKind.EnumMember,
        detail: `${r.category ?? '?'} · ${r.source === 'registry' ? 'registry' : r.source === 'file' ? 'custom' : `custom (${decodeURIComponent(r.decl.uri.replace(/^.*\//, ''))})`}`,
        // Registry codes get the full card; custom codes (maybe 10,000 of them) their template only.
        documentation: r.source === 'registry' ? doc_(codeMarkdown(r, ctx.registry)) : r.source === 'file' ? r.def.template?.value : r.decl.template,
        sortText: `${rank}${name}`, filterText: name,
        textEdit: TextEdit.replace(range, name),
      });
    }
    return items;
  }
  // `category:` value
  m = /^(\s*category:\s*)([A-Za-z_]*)$/.exec(before);
  if (m && block === 'error_codes') {
    const range = { start: doc.positionAt(offset - m[2]!.length), end: doc.positionAt(offset + /^[A-Za-z_]*/.exec(after)![0].length) };
    return ctx.registry.data.categories.filter(c => c.name !== 'SCHEMA').map((c, i) => ({
      label: c.name, kind: CompletionItemKind.EnumMember, detail: c.description,
      documentation: doc_(`Prefix \`${c.prefix}\` · HTTP ${c.http_range.length ? c.http_range.join(', ') : c.http_range_min ? `${c.http_range_min}+` : '—'}`),
      sortText: String(i).padStart(2, '0'), textEdit: TextEdit.replace(range, c.name),
    }));
  }
  // `{` inside a template
  if (/message_template:/.test(before) || /^\s+\S/.test(before)) {
    const open = before.lastIndexOf('{');
    if (open >= 0 && before.indexOf('}', open) < 0 && /^[A-Za-z0-9_]*$/.test(before.slice(open + 1))) {
      const owner = entryAt(model, offset);
      if (owner && isInTemplate(owner, offset)) {
        const keys = visibleKeys(owner, createResolver(model.codes, ctx.registry, ctx.workspace, doc.uri), ctx.registry);
        const close = /^[A-Za-z0-9_]*\}?/.exec(after)![0];
        const range = { start: doc.positionAt(lineStart + open), end: doc.positionAt(offset + close.length) };
        return [...(keys?.values() ?? [])].map(k => ({
          label: k.name, kind: CompletionItemKind.Field, detail: k.type ?? 'details key',
          filterText: `{${k.name}`, textEdit: TextEdit.replace(range, `{${k.name}}`),
        }));
      }
    }
  }
  // `condition:` value
  m = /^(\s*(?:-\s+)?condition:\s*["']?)(.*)$/.exec(before);
  if (m) {
    const tail = m[2]!;
    const word = /[A-Za-z_.\-]*$/.exec(tail)![0];
    const range = { start: doc.positionAt(offset - word.length), end: at };
    const afterPath = /[A-Za-z0-9_\]]\s+$/.test(tail);
    const list = afterPath ? OPERATORS : ROOT_ITEMS;
    return list.map(label => ({ label, kind: afterPath ? CompletionItemKind.Operator : CompletionItemKind.Variable, textEdit: TextEdit.replace(range, label) }));
  }
  // keys
  m = /^(\s*)(-\s+)?([A-Za-z0-9_]*)$/.exec(before);
  if (m && block) {
    const indent = m[1]!.length + (m[2]?.length ?? 0);
    const range = { start: doc.positionAt(offset - m[3]!.length), end: doc.positionAt(offset + /^[A-Za-z0-9_]*/.exec(after)![0].length) };
    if (block === 'error_mapping' && indent > 0 && indent === childIndent(text, lineStart)) {
      const present = new Set(model.mappings.map(e => String(e.status.value)));
      return Object.entries(REASONS).filter(([s]) => Number(s) >= 400 && !present.has(s)).map(([s, reason]) => ({
        label: s, kind: CompletionItemKind.Value, detail: reason,
        documentation: doc_(`Default: \`${defaultCodeFor(Number(s))}\``),
        sortText: s,
        ...(opts.snippets
          ? { textEdit: TextEdit.replace(range, `${s}:\n${' '.repeat(indent + 2)}code: \${1:${defaultCodeFor(Number(s))}}`), insertTextFormat: InsertTextFormat.Snippet }
          : { textEdit: TextEdit.replace(range, `${s}:`) }),
      }));
    }
    const owner = entryAt(model, offset) ?? entryAt(model, Math.max(0, lineStart - 1));
    if (owner && indent > childIndent(text, lineStart)) {
      const keys = owner.kind === 'code' ? CODE_KEYS : MAPPING_KEYS;
      const node = owner.kind === 'code' ? owner.def.node : owner.entry.node;
      const present = new Set((node?.items ?? []).map(p => String((p.key as { value?: unknown } | null)?.value)));
      return keys.filter(k => !present.has(k)).map((k, i) => ({
        label: k, kind: CompletionItemKind.Property, sortText: String(i),
        ...(opts.snippets
          ? { textEdit: TextEdit.replace(range, k === 'message_template' ? `${k}: "\${1}"` : `${k}: \${1}`), insertTextFormat: InsertTextFormat.Snippet }
          : { textEdit: TextEdit.replace(range, `${k}: `) }),
      }));
    }
  }
  return [];
}

function isInTemplate(owner: NonNullable<ReturnType<typeof entryAt>>, offset: number): boolean {
  const t = owner.kind === 'code' ? owner.def.template : owner.entry.template;
  return !!t && offset > t.span.start && offset <= t.span.end;
}

/** The top-level key whose block holds the line starting at `lineStart`. */
function topLevelKey(text: string, lineStart: number): string | undefined {
  let i = lineStart;
  for (;;) {
    const c = text.charCodeAt(i);
    const m = c > 32 && c !== 35 ? /^([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(text.slice(i, i + 64)) : null;
    if (m && i < lineStart) return m[1];
    if (i === 0) return m?.[1];
    i = text.lastIndexOf('\n', i - 2) + 1;
  }
}

/** Indentation of the first child line of the top-level block above `lineStart`. */
function childIndent(text: string, lineStart: number): number {
  let i = lineStart, found = -1;
  while (i > 0) {
    i = text.lastIndexOf('\n', i - 2) + 1;
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 35) break;
    if (c !== 32) continue;
    let j = i;
    while (text.charCodeAt(j) === 32) j++;
    const d = text.charCodeAt(j);
    if (d !== 35 && d !== 10 && d !== 13 && !Number.isNaN(d)) found = j - i;
  }
  return found;
}
