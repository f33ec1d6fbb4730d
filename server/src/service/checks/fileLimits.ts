/** The one diagnostic of a file the service does not read: longer than mcpAql.maxFileSize, or nested too deep to parse. */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { TooDeep } from '../util/nesting';
import { toDiagnostics, type ValidateOptions } from './runChecks';

/**
 * The one diagnostic of a file of `size` characters, over `maxFileSize` (nothing else is checked). It sits at offset 0,
 * so it is placed on an empty document of the same uri: the file's own would first split its whole text into lines (a
 * 200 MB text: about a second, for line 0, character 0). The size is the caller's, read from the text it has: an open
 * document kept in pieces would make its whole text for `getText()` (a 200 MB string, 0.17 s).
 */
export function tooLarge(doc: TextDocument, size: number, max: number, opts: ValidateOptions | undefined): Diagnostic[] {
  const message = `This file has ${size} characters, more than mcpAql.maxFileSize (${max}); it is not checked.`;
  const at = TextDocument.create(doc.uri, doc.languageId, doc.version, '');
  return toDiagnostics(at, [{ code: 'file.too-large', start: 0, end: 0, message, data: { size, max } }], new Map(), opts ?? {});
}

/** The one diagnostic of a file nested past MAX_NESTING (nothing is parsed, nothing else is checked). */
export function tooDeep(doc: TextDocument, deep: TooDeep, opts: ValidateOptions | undefined): Diagnostic[] {
  const message = `This file nests deeper than ${deep.limit} levels here; it is not parsed or checked (the parser would exhaust its stack).`;
  return toDiagnostics(
    doc,
    [{ code: 'file.too-deep', start: deep.offset, end: deep.offset + 1, message, data: { limit: deep.limit } }],
    new Map(),
    opts ?? {},
  );
}
