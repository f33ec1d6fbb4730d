/**
 * A document's entries for the workspace index (its declarations and code occurrences) read from its model one at
 * a time, as the index compares them: a re-index after typing pauses makes each entry, compares it with what the
 * index holds and drops it, so none of the 10,000 entries of a large file outlives a scavenge (bench/NOTES.md,
 * "the re-index after a pause"). They equal `declaredCodes` (symbols.ts) and `codeOccurrences` (navigation.ts)
 * item for item (test/service/workspaceIndexReuse.test.ts), but are made here, by code of their own: V8 decides per
 * allocation site whether to allocate straight in old space, and a site whose objects were once kept in bulk (those
 * lists made whole for references or a CLI contract; the positions of an outline or of code lenses, made by
 * `positionAt`) allocates there ever after. So the positions come from the document's line starts, read through
 * `offsetAt`, without a `positionAt` object.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import type { AdapterModel, CodeDef, MappingEntry, Span } from '../model/model';
import type { TextSource } from '../model/textSource';
import type { CodeDeclaration, CodeOccurrence } from '../model/workspace';
import { sourceText } from '../util/pieceText';
import { unquotedSpan } from '../util/quotes';
import { categoryOf } from '../workspace/resolve';
import type { LiveEntries } from '../workspace/workspaceIndex';

type CodeValue = NonNullable<MappingEntry['code']>;

/**
 * `doc.positionAt` as ranges, from the line starts (`offsetAt` of a line's first character, one position object
 * reused): entries come in the file's order, so the line of the one before is where the search starts.
 */
function rangesOf(doc: TextDocument, text: TextSource): (s: Span) => Range {
  const ask = { line: 0, character: 0 };
  const lines = doc.lineCount;
  const startOf = (line: number) => {
    ask.line = line;
    return doc.offsetAt(ask);
  };
  let line = 0,
    from = 0,
    to = lines > 1 ? startOf(1) : Infinity;
  /** Moves `line` to the one holding `offset` (the last whose start is at or before it). */
  const seek = (offset: number) => {
    if (offset >= from && offset < to) return;
    if (offset >= to && line + 1 < lines && (line + 2 >= lines || offset < startOf(line + 2))) line++;
    else {
      let low = 0,
        high = lines;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (startOf(mid) > offset) high = mid;
        else low = mid + 1;
      }
      line = Math.max(low - 1, 0);
    }
    from = startOf(line);
    to = line + 1 < lines ? startOf(line + 1) : Infinity;
  };
  const at = (offset: number) => {
    const o = Math.max(Math.min(offset, text.length), 0);
    seek(o);
    const c = o > from ? text.charCodeAt(o - 1) : 0;
    // An offset inside a line break (after a CR) stands before it: as the document says.
    if (c === 13 || c === 10) return doc.positionAt(o);
    return { line, character: o - from };
  };
  return s => ({ start: at(s.start), end: at(s.end) });
}

/** The model's entries, each made when read: the declarations, then the occurrences (declarations first, then uses). */
export function liveEntries(doc: TextDocument, model: AdapterModel): LiveEntries {
  const text = sourceText(model),
    codes = model.codes,
    uri = doc.uri;
  const uses: CodeValue[] = [];
  for (const m of model.mappings) if (m.code) uses.push(m.code);
  const declarationRange = rangesOf(doc, text),
    occurrenceRange = rangesOf(doc, text);
  const declaration = (c: CodeDef): CodeDeclaration => ({
    uri,
    code: c.name,
    range: declarationRange(unquotedSpan(text, c.keySpan)),
    category: categoryOf(c),
    template: c.template?.value,
    description: c.description,
    details: c.details.map(d => ({ name: d.name, type: d.type, required: d.required, description: d.description })),
    mapsFromHttp: c.mapsFromHttp.map(s => s.value),
  });
  const declared = (c: CodeDef): CodeOccurrence => ({
    uri,
    code: c.name,
    range: occurrenceRange(unquotedSpan(text, c.keySpan)),
    kind: 'declaration',
  });
  const used = (v: CodeValue): CodeOccurrence => ({
    uri,
    code: v.value,
    // The name without its quotes (features/cursor.ts `nameSpan`).
    range: occurrenceRange(v.style === 'single' || v.style === 'double' ? { start: v.span.start + 1, end: v.span.end - 1 } : v.span),
    kind: 'reference',
  });
  return {
    declarations: { length: codes.length, at: i => (codes[i] ? declaration(codes[i]) : undefined) },
    occurrences: {
      length: codes.length + uses.length,
      at: i => {
        if (i < codes.length) return declared(codes[i]!);
        const v = uses[i - codes.length];
        return v && used(v);
      },
    },
  };
}
