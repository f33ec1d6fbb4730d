/**
 * Fixers for schema.unknown-key (the closest allowed key the mapping does not have yet, or remove the
 * key) and schema.enum (the closest allowed value). Quotes are kept: a JSON key stays a JSON string.
 */
import type { Node } from 'yaml';
import type { CodeAction } from 'vscode-languageserver-types';
import { editDistance, keyDistance } from '../util/closest';
import { action, removePair, single } from './edits';
import { mapOfKey, removeFlowItem, replaceScalar, syntaxOf, unquotedText } from './syntax';
import type { Fixers } from './types';

/**
 * The first suggestion is the best single fix (isPreferred) only when it is a small slip — at most 2
 * edits, or a sixth of the word — and strictly closer than the second.
 */
export function clearlyBest(
  word: string,
  suggestions: readonly string[],
  distance: (a: string, b: string) => number = editDistance,
): boolean {
  if (!suggestions.length) return false;
  const w = word.toLowerCase();
  const d0 = distance(w, suggestions[0]!.toLowerCase());
  if (d0 > Math.max(2, Math.floor(word.length / 6))) return false;
  return suggestions.length < 2 || d0 < distance(w, suggestions[1]!.toLowerCase());
}

export const schemaFixers: Fixers = {
  // `required: yes` → `true`; `"401": "PERMISSION_DENIED"` → `{ code: … }` (the scalar as written, inside).
  'schema.type': (ctx, d, data) => {
    const raw = ctx.doc.getText(d.range);
    if (data.rewrite === 'code') {
      if (!/^(?:"[^"\\\n]*"|'[^'\n]*'|[A-Za-z0-9_]+)$/.test(raw)) return [];
      const json = ctx.model.kind === 'json';
      if (json && !raw.startsWith('"')) return [];
      const text = json ? `{ "code": ${raw} }` : `{ code: ${raw} }`;
      return [
        action(`Write as { code: ${raw.replace(/^["']|["']$/g, '')} }`, d, single(ctx.doc, [{ range: d.range, newText: text }]), true),
      ];
    }
    const word = raw.replace(/^["']|["']$/g, '');
    if (!/^(?:y|yes|on|n|no|off)$/i.test(word)) return [];
    return [action(`Change to ${data.rewrite}`, d, single(ctx.doc, [{ range: d.range, newText: data.rewrite }]), true)];
  },
  'schema.unknown-key': (ctx, d, data) => {
    // `<<` is a YAML merge key, never a typo to rename or remove.
    if (data.key === '<<' || unquotedText(ctx.doc, d.range) !== data.key) return [];
    const start = ctx.doc.offsetAt(d.range.start);
    const held = mapOfKey(ctx.model, start);
    // A key the mapping already has would become a duplicate: never offered.
    const present = new Set(held?.map.items.map(p => String((p.key as { value?: unknown } | null)?.value)) ?? []);
    const suggestions = data.suggestions.filter(k => !present.has(k));
    const best = clearlyBest(data.key, suggestions, keyDistance);
    const out: CodeAction[] = suggestions.map((k, i) =>
      action(`Change to '${k}'`, d, single(ctx.doc, [replaceScalar(ctx.doc, d.range, k, syntaxOf(ctx.model))]), best && i === 0),
    );
    if (held) {
      const pair = held.map.items[held.index]!;
      const k = pair.key as Node,
        v = pair.value as Node | null;
      const span = { start: held.s.base + k.range![0], end: held.s.base + (v?.range ? v.range[1] : k.range![1]) };
      const edit = held.map.flow ? removeFlowItem(ctx.doc, span.start, span.end) : removePair(ctx.doc, span, false);
      out.push(action(`Remove key '${data.key}'`, d, single(ctx.doc, [edit])));
    }
    return out;
  },
  'schema.enum': (ctx, d, data) => {
    if (typeof data.value !== 'string' || unquotedText(ctx.doc, d.range) !== data.value) return [];
    const best = clearlyBest(data.value, data.suggestions);
    return data.suggestions.map((v, i) =>
      action(`Change to '${v}'`, d, single(ctx.doc, [replaceScalar(ctx.doc, d.range, v, syntaxOf(ctx.model))]), best && i === 0),
    );
  },
};
