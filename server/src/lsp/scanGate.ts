/**
 * What an opened document may be told while the workspace's first scan runs. A validation then reads
 * an index that lacks the files the scan has not reached: a code name that resolves nowhere may be
 * declared in one of them, and the other files declaring a code are not all known. The diagnostics
 * that say so are held back until the scan has finished, when every open document is checked again
 * (indexing.ts). Everything else comes from the file itself, the registry, or a declaration the scan has
 * already read — a code that resolves is checked against that declaration (its details keys, its
 * category), and an unresolved one gets no template or status verdict — so it is published at once.
 */
import type { Diagnostic } from 'vscode-languageserver/node';

/** Codes that assert something about the files the scan has not read yet. */
export const HELD_WHILE_SCANNING: ReadonlySet<string> = new Set([
  // a name found nowhere: it may be declared in an unread file
  'mapping.unknown-code',
  // the other files declaring this code: an unread one may be among them
  'code.declared-elsewhere',
  // a response's code declared by no adapter: it may be declared in an unread one
  'verify.unknown-code',
]);

/** The diagnostics to publish now: all once the scan is complete, else those that hold whatever the unread files say. */
export function publishable(items: Diagnostic[], complete: boolean): Diagnostic[] {
  return complete ? items : items.filter(d => !HELD_WHILE_SCANNING.has(String(d.code)));
}
