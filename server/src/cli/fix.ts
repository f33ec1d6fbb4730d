/**
 * `--fix` / `--fix-dry-run`: the service's safe "fix all" edits, applied to a copy of the text in up
 * to 10 passes (a fix can reveal another). Writing is atomic (a temporary file in the same folder,
 * then rename), keeps the file's mode and byte-order mark, and happens only when the text changed.
 */
import { chmodSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, ServiceOptions, WorkspaceCodes } from '../service';

const MAX_PASSES = 10;

/** The text after the safe fixes (the same document when nothing applied). */
export function applyFixes(service: AdapterService, doc: TextDocument, opts: ServiceOptions, workspace: WorkspaceCodes): TextDocument {
  let cur = doc;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const edits = service.fixAll(cur, opts, workspace);
    if (!edits.length) break;
    const next = TextDocument.applyEdits(cur, edits);
    if (next === cur.getText()) break;
    cur = TextDocument.create(cur.uri, cur.languageId, cur.version + 1, next);
  }
  return cur;
}

/** True when the bytes are valid UTF-8 (a file we would otherwise re-encode lossily is never written). */
export function isUtf8(bytes: Uint8Array): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(bytes); return true; } catch { return false; }
}

/** Replace the file's content atomically, keeping its mode and its UTF-8 byte-order mark. */
export function writeAtomic(path: string, text: string): void {
  const old = readFileSync(path);
  const bom = old[0] === 0xef && old[1] === 0xbb && old[2] === 0xbf && !text.startsWith('\ufeff') ? '\ufeff' : '';
  const mode = statSync(path).mode & 0o7777;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.mcp-aql-tmp`);
  try {
    writeFileSync(tmp, bom + text, { flag: 'wx' });
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* never created */ }
    throw e;
  }
}
