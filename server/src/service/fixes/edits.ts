/** Building text edits on the document's text with its offsets. */
import { isMap, isSeq, type Node, type YAMLMap } from 'yaml';
import { CodeActionKind, TextEdit, type CodeAction, type Diagnostic, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeDef, MappingEntry, Section, Span } from '../model/model';
import { toRange } from '../util/ranges';
import { insertIntoFlowMap, removeFlowItem, type FileSyntax } from './syntax';

export const replace = (doc: TextDocument, start: number, end: number, text: string): TextEdit =>
  TextEdit.replace(toRange(doc, start, end), text);

export function action(title: string, d: Diagnostic | undefined, edit: WorkspaceEdit, preferred = false): CodeAction {
  const a: CodeAction = { title, kind: CodeActionKind.QuickFix, edit };
  if (d) a.diagnostics = [d];
  if (preferred) a.isPreferred = true;
  return a;
}

export const single = (doc: TextDocument, edits: TextEdit[]): WorkspaceEdit => ({ changes: { [doc.uri]: edits } });

export const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;

/** The column of `offset` when only spaces stand before it on its line, else -1. */
export function columnIfFirst(text: string, offset: number): number {
  const ls = lineStart(text, offset);
  return /^ *$/.test(text.slice(ls, offset)) ? offset - ls : -1;
}

/** The column of a mapping key that only spaces or list dashes (`- `) precede on its line, else -1. */
function keyColumn(text: string, offset: number): number {
  const ls = lineStart(text, offset);
  return /^ *(?:- +)*$/.test(text.slice(ls, offset)) ? offset - ls : -1;
}

/** End of the line holding `offset`, after its newline (or the end of the text). */
export function lineEndAfter(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/**
 * Insert whole lines after the node ending at `end` (a value's end offset): before the next line
 * when the value already ended its line, else after a newline.
 */
export function insertLines(doc: TextDocument, end: number, lines: readonly string[]): TextEdit {
  const text = doc.getText();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = lines.map(l => l + eol).join('');
  if (end > 0 && text[end - 1] === '\n') return TextEdit.insert(doc.positionAt(end), body);
  const nl = text.indexOf('\n', end);
  if (nl < 0) return TextEdit.insert(doc.positionAt(text.length), eol + lines.join(eol));
  return TextEdit.insert(doc.positionAt(nl + 1), body);
}

export function sectionOf(sections: readonly Section[], index: number): Section | undefined {
  return sections.find(s => s.index === index);
}

/** Absolute end offset of a node (value end, comments excluded). */
export const nodeEnd = (s: Section, n: Node): number => s.base + n.range![1];
export const nodeStart = (s: Section, n: Node): number => s.base + n.range![0];

/** Find the error_codes entry or error_mapping entry a diagnostic's data points at. */
export function findEntry(
  codes: readonly CodeDef[],
  mappings: readonly MappingEntry[],
  kind: 'code' | 'mapping',
  at: number,
  index: number | null,
): CodeDef | MappingEntry | undefined {
  return kind === 'code' ? codes.find(c => c.keySpan.start === at) : mappings.find(m => m.status.span.start === at && m.index === index);
}

/**
 * Edit that adds `key: type` to an entry's details (creating the details block when absent), in the
 * file's own syntax: `"key": "string"` with its comma in JSON, `key: string` in YAML.
 */
export function declareDetail(
  doc: TextDocument,
  s: Section,
  entryNode: YAMLMap | undefined,
  details: Node | undefined,
  key: string,
  type: string,
  syntax: FileSyntax,
): TextEdit | undefined {
  const text = doc.getText();
  const pair = syntax.pair(key, syntax.value(type, false));
  if (details && isMap(details) && details.range) {
    if (details.flow) return insertIntoFlowMap(doc, s, details, syntax.pair(key, syntax.value(type)));
    const first = details.items[0]?.key as Node | undefined;
    if (!first?.range) return undefined;
    const col = columnIfFirst(text, nodeStart(s, first));
    if (col < 0) return undefined;
    return insertLines(doc, nodeEnd(s, details), [`${' '.repeat(col)}${pair}`]);
  }
  if (details && isSeq(details) && details.range) {
    if (details.flow) {
      const close = nodeEnd(s, details) - 1;
      if (text[close] !== ']') return undefined;
      const last = details.items[details.items.length - 1] as Node | undefined;
      if (!last?.range) return TextEdit.insert(doc.positionAt(close), syntax.value(key));
      return TextEdit.insert(doc.positionAt(nodeEnd(s, last)), `, ${syntax.value(key)}`);
    }
    const first = details.items[0] as Node | undefined;
    if (!first?.range) return undefined;
    const dash = text.lastIndexOf('-', nodeStart(s, first));
    const col = columnIfFirst(text, dash);
    if (col < 0) return undefined;
    return insertLines(doc, nodeEnd(s, details), [`${' '.repeat(col)}- ${syntax.value(key)}`]);
  }
  if (details && !(details.range && details.range[0] === details.range[1])) return undefined; // some other value: leave it
  if (!entryNode || !entryNode.items.length) return undefined;
  if (entryNode.flow) {
    // `CODE: { category: X, message_template: "…" }` or a JSON object: add a one-line details map as the last item.
    if (details) return undefined;
    return insertIntoFlowMap(doc, s, entryNode, syntax.pair('details', syntax.map([[key, syntax.value(type)]])));
  }
  const firstKey = entryNode.items[0]!.key as Node;
  const col = firstKey.range ? keyColumn(text, nodeStart(s, firstKey)) : -1;
  if (col < 0) return undefined;
  const pad = ' '.repeat(col);
  if (details) {
    // `details:` with an empty value: put the key under it.
    const detailsPair = entryNode.items.find(p => p.value === details);
    const k = detailsPair?.key as Node | undefined;
    if (!k?.range) return undefined;
    return insertLines(doc, nodeEnd(s, k) + 1, [`${pad}  ${pair}`]);
  }
  const last = entryNode.items[entryNode.items.length - 1]!;
  const lastNode = (last.value ?? last.key) as Node;
  return insertLines(doc, nodeEnd(s, lastNode), [`${pad}details:`, `${pad}  ${pair}`]);
}

/** Remove a details key: its whole line(s) in block style, the item and one comma in flow style (and JSON). */
export function removePair(doc: TextDocument, span: Span, flowItem: boolean): TextEdit {
  const text = doc.getText();
  if (!flowItem && columnIfFirst(text, span.start) >= 0) {
    const start = lineStart(text, span.start);
    const end = lineEndAfter(text, Math.max(span.end - 1, span.start));
    return replace(doc, start, end, '');
  }
  return removeFlowItem(doc, span.start, span.end);
}

/** Quote a string for YAML as a double-quoted scalar. */
export const doubleQuote = (s: string): string => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
