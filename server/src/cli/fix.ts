/**
 * `--fix` / `--fix-dry-run`: the service's safe "fix all" edits, applied to a copy of the text in
 * passes until none remains (a fix can reveal another). Writing is atomic (a temporary file in the same folder,
 * then rename), keeps the file's mode and byte-order mark, and happens only when the text changed.
 */
import { chmodSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, ServiceOptions } from '../service';
import { fsPath } from '../node/bytePaths';
import { unifiedDiff } from './diff';
import { shownPath } from './format/escape';
import type { Io } from './io';

/**
 * The text after the safe fixes (the same document when nothing applied): passes until no safe fix
 * remains (a fix can reveal another; Fix all is not limited by the problem cap), ending early only if
 * a pass gives back a text seen before (fixes that undo each other).
 */
export function applyFixes(service: Pick<AdapterService, 'fixAll'>, doc: TextDocument, opts: ServiceOptions): TextDocument {
  let cur = doc;
  const seen = new Set([cur.getText()]);
  for (;;) {
    const edits = service.fixAll(cur, opts);
    if (!edits.length) break;
    const next = TextDocument.applyEdits(cur, edits);
    if (seen.has(next)) break;
    seen.add(next);
    cur = TextDocument.create(cur.uri, cur.languageId, cur.version + 1, next);
  }
  return cur;
}

/** True when the bytes are valid UTF-8 (a file we would otherwise re-encode lossily is never written). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Replace the file's content atomically, keeping its mode and its UTF-8 byte-order mark. */
function writeAtomic(path: string, text: string): void {
  const old = readFileSync(fsPath(path));
  const bom = old[0] === 0xef && old[1] === 0xbb && old[2] === 0xbf && !text.startsWith('\ufeff') ? '\ufeff' : '';
  const mode = statSync(fsPath(path)).mode & 0o7777;
  // A name that is not UTF-8 is written through its bytes (node/bytePaths.ts).
  const tmp = fsPath(join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.mcp-aql-tmp`));
  try {
    writeFileSync(tmp, bom + text, { flag: 'wx' });
    chmodSync(tmp, mode);
    renameSync(tmp, fsPath(path));
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw e;
  }
}

interface FixRun {
  readonly service: AdapterService;
  /** The adapter files of the run, by URI. */
  readonly adapters: readonly string[];
  readonly read: (uri: string) => string | undefined;
  /** The bytes as read (standard input's, or the file's), to refuse rewriting what is not UTF-8. */
  readonly bytes: (uri: string) => Uint8Array;
  readonly opts: (uri: string) => ServiceOptions;
  readonly pathOf: (uri: string) => string;
  readonly io: Io;
  readonly args: { readonly fix?: boolean; readonly fixDryRun?: boolean; readonly stdin?: boolean };
}

/**
 * --fix writes each changed file; --fix-dry-run prints one unified diff; with --stdin, --fix prints the
 * fixed text. Returns the fixed texts by URI (what the report is then about) and whether standard
 * output now carries the diff or the text (then the report goes only to --output-file).
 */
export function fixDocuments({ service, adapters, read, bytes, opts, pathOf, io, args }: FixRun): {
  texts: Map<string, string>;
  stdoutTaken: boolean;
} {
  const diffs: string[] = [];
  const texts = new Map<string, string>();
  for (const uri of adapters) {
    const before = read(uri);
    if (before === undefined) continue;
    const doc = TextDocument.create(uri, 'yaml', 1, before);
    const fixed = applyFixes(service, doc, opts(uri)).getText();
    service.forget(uri);
    const rel = relative(io.cwd, pathOf(uri)).split(sep).join('/');
    if (args.stdin && args.fix) io.stdout(fixed, 'raw');
    if (fixed === before) continue;
    if (!isUtf8(bytes(uri))) {
      io.stderr(`${shownPath(rel)}: not valid UTF-8; not fixed\n`);
      continue;
    }
    if (args.fixDryRun) diffs.push(unifiedDiff(before, fixed, rel));
    else if (!args.stdin) writeAtomic(pathOf(uri), fixed);
    texts.set(uri, fixed);
  }
  if (args.fixDryRun) io.stdout(diffs.join(''), 'raw');
  return { texts, stdoutTaken: !!args.fixDryRun || !!args.stdin };
}
