/**
 * A document's entries for the workspace index (its declarations and code occurrences) read from its model one at
 * a time, as the index compares them: a re-index after typing pauses makes each entry, compares it with what the
 * index holds and drops it, so none of the 10,000 entries of a large file outlives a scavenge (bench/NOTES.md,
 * "the re-index after a pause"). `declaredCodes` (symbols.ts) and `codeOccurrences` (navigation.ts) are these
 * lists made whole.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel, CodeDef, MappingEntry } from '../model/model';
import type { TextSource } from '../model/textSource';
import type { CodeDeclaration, CodeOccurrence } from '../model/workspace';
import { sourceText } from '../util/pieceText';
import { unquotedSpan } from '../util/quotes';
import { spanRange } from '../util/ranges';
import { categoryOf } from '../workspace/resolve';
import type { IndexList } from '../workspace/workspaceIndex';
import { nameSpan } from './cursor';

/** A code's declaration; `text` is the model's (in pieces when the document is: a re-index makes no whole text). */
export function declarationOf(doc: TextDocument, text: TextSource, c: CodeDef): CodeDeclaration {
  return {
    uri: doc.uri,
    code: c.name,
    // The text read at the key only.
    range: spanRange(doc, unquotedSpan(text, c.keySpan)),
    category: categoryOf(c),
    template: c.template?.value,
    description: c.description,
    details: c.details.map(d => ({ name: d.name, type: d.type, required: d.required, description: d.description })),
    mapsFromHttp: c.mapsFromHttp.map(s => s.value),
  };
}

/** Where a code is declared, as an occurrence. */
export const declaredAt = (doc: TextDocument, text: TextSource, c: CodeDef): CodeOccurrence => ({
  uri: doc.uri,
  code: c.name,
  range: spanRange(doc, unquotedSpan(text, c.keySpan)),
  kind: 'declaration',
});

type CodeValue = NonNullable<MappingEntry['code']>;

/** Where an error_mapping entry names a code (its `code:` value). */
export const usedAt = (doc: TextDocument, code: CodeValue): CodeOccurrence => ({
  uri: doc.uri,
  code: code.value,
  range: spanRange(doc, nameSpan(code)),
  kind: 'reference',
});

/** The model's entries, each made when read: the declarations, then the occurrences (declarations first, then uses). */
export function liveEntries(
  doc: TextDocument,
  model: AdapterModel,
): { readonly declarations: IndexList<CodeDeclaration>; readonly occurrences: IndexList<CodeOccurrence> } {
  const text = sourceText(model),
    codes = model.codes;
  const uses: CodeValue[] = [];
  for (const m of model.mappings) if (m.code) uses.push(m.code);
  return {
    declarations: { length: codes.length, at: i => (codes[i] ? declarationOf(doc, text, codes[i]) : undefined) },
    occurrences: {
      length: codes.length + uses.length,
      at: i => {
        const use = i < codes.length ? undefined : uses[i - codes.length];
        return i < codes.length ? declaredAt(doc, text, codes[i]!) : use && usedAt(doc, use);
      },
    },
  };
}
