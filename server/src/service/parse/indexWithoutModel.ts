/** A file's entries for the workspace index without building its model, when the fast scan can read it. */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { scanIndexEntries, type IndexEntries } from './indexScan';
import { firstLoneCr } from './lineEnds';
import { deepIn } from './modelCache';
import { maxSizeOf } from './sizeLimit';
import { classify } from './sourceFile';

/**
 * The file's index entries from the fast scan; null when the file has none (too large, not an adapter,
 * too deep to parse); undefined when only its model can tell.
 */
export function indexWithoutModel(
  doc: TextDocument,
  opts: { readonly files?: readonly string[]; readonly maxFileSize?: number } | undefined,
): IndexEntries | null | undefined {
  const text = doc.getText();
  if (text.length > maxSizeOf(opts)) return null;
  const cls = classify(doc.uri, text, opts?.files);
  if (!cls) return null;
  // The scan reads no lone CR (it would miss a CR-only front matter): the model reads them as LF. It reads
  // at most SHALLOW levels, so a text it reads needs no nesting scan (util/nesting.ts); any other takes it.
  const fast = firstLoneCr(text, 0, text.length) < 0 ? scanIndexEntries(doc, cls) : undefined;
  if (fast) return fast;
  if (deepIn(cls, text)) return null;
  return undefined;
}
