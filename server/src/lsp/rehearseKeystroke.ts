/**
 * A keystroke rehearsed in idle time after an open (bench/NOTES.md, "ninth sitting"): a space typed at the end of the
 * first `error_codes` entry's key line and taken back, each validated through the server's own validation (the
 * document's settings, the incremental parse and checks), on a copy of the document, so that V8 has compiled the
 * checks' incremental path — the part of the first keystroke that the move's warm-up leaves cold — before the user's
 * first keystroke. The service then holds the document's own version again, its model and kept checks as a keystroke
 * and its undo leave them (test/lsp/rehearseKeystroke.test.ts compares them with a fresh service); nothing is published.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextChange } from '../service';
import { PieceDocument } from './pieceDocument';

/**
 * The smallest document rehearsed (characters, about 4,700 codes): below it the first keystroke is a few ms anyway,
 * and the rehearsal's 9-12 ms and its compiles, right after the first diagnostics, met the first keystroke typed at
 * once (1,000 codes: 12.8-14.8 against 9.7-9.8 ms without real-time scheduling; bench/NOTES.md, "ninth sitting").
 */
export const REHEARSAL_MIN_LENGTH = 1 << 20;

/** The version the rehearsed text is validated at: never a client's (versions count up from 0 or 1). */
export const REHEARSAL_VERSION = -1;

/** Where the rehearsal types: the end of the first `error_codes` entry's key line (`error_codes:` in the first 64 KiB); undefined when there is none. */
export function rehearsalSite(doc: PieceDocument): number | undefined {
  const codes = doc.source.slice(0, Math.min(doc.length, 65536)).search(/^error_codes:[ \t]*(#.*)?\r?$/m);
  if (codes < 0) return undefined;
  for (let line = doc.positionAt(codes).line + 1; line < doc.lineCount; line++) {
    const r = doc.getLineRange(line);
    const text = doc.getText(r);
    if (!text.trim() || text.trimStart().startsWith('#')) continue;
    // An entry's key line: indented, a plain key and its colon ending the line (the entry's fields below it).
    return /^[ ]+[A-Za-z0-9_]+:$/.test(text) ? doc.offsetAt(r.end) : undefined;
  }
  return undefined;
}

/**
 * Rehearse a keystroke on `doc` (the open document at its current version): the edit and its undo reported to the
 * service (`edited`) and each version validated (`validate`). False when there is no site, or when the document
 * changed meanwhile (its next validation then parses from the rehearsed version: slower, the same result).
 */
export async function rehearseKeystroke(
  doc: PieceDocument,
  current: () => TextDocument | undefined,
  edited: (uri: string, from: number, to: number, edits: TextChange[]) => void,
  validate: (doc: TextDocument) => Promise<unknown>,
): Promise<boolean> {
  const at = rehearsalSite(doc);
  if (at === undefined) return false;
  const version = doc.version;
  const copy = doc.copy(REHEARSAL_VERSION);
  copy.edit(at, at, ' ');
  edited(doc.uri, version, REHEARSAL_VERSION, [{ start: at, end: at, text: ' ' }]);
  await validate(copy);
  if (current() !== doc || doc.version !== version) return false;
  edited(doc.uri, REHEARSAL_VERSION, version, [{ start: at, end: at + 1, text: '' }]);
  await validate(doc);
  return true;
}
