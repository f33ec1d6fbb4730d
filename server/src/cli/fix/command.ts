/**
 * `--fix` / `--fix-dry-run`: the service's safe "fix all" edits, applied to a copy of the text in
 * passes until none remains (a fix can reveal another). Writing (fixWrite.ts) happens only when the text
 * changed and the file is still what was read; a file not written is reported as it is on disk.
 */
import { relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, ServiceOptions } from '../../service';
import { unifiedDiff } from './unifiedDiff';
import { shownPath } from '../format';
import { writeFixed } from '../safeWrite';
import { yieldTurn } from '../tempFiles';
import type { Io } from '../io';

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

const hasBom = (b: Uint8Array) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** Standard output as bytes (what --stdin --fix cannot fix goes back exactly as it came). */
export function stdoutBytes(io: Io, bytes: Uint8Array): void {
  if (io.stdoutBytes) io.stdoutBytes(bytes);
  else io.stdout(new TextDecoder('utf-8').decode(bytes));
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
export async function fixDocuments({ service, adapters, read, bytes, opts, pathOf, io, args }: FixRun): Promise<{
  texts: Map<string, string>;
  stdoutTaken: boolean;
  /** Files whose fixes were due but could not be written (read-only, EACCES, ENOSPC, …). */
  unwritten: number;
}> {
  const diffs: string[] = [];
  const texts = new Map<string, string>();
  let unwritten = 0;
  for (const uri of adapters) {
    const before = read(uri);
    if (before === undefined) continue;
    const doc = TextDocument.create(uri, 'yaml', 1, before);
    const fixed = applyFixes(service, doc, opts(uri)).getText();
    service.forget(uri);
    const rel = relative(io.cwd, pathOf(uri)).split(sep).join('/');
    const note = (m: string) => io.stderr(`${shownPath(rel)}: ${m}\n`);
    if (args.stdin) {
      // Standard input: the fixed text, or the bytes exactly as they came when nothing is fixed or they are not UTF-8.
      const raw = bytes(uri);
      const utf8 = isUtf8(raw);
      if (fixed !== before && !utf8) note('not valid UTF-8; not fixed');
      if (args.fix) {
        if (fixed === before || !utf8) stdoutBytes(io, raw);
        else io.stdout((hasBom(raw) && !fixed.startsWith('\ufeff') ? '\ufeff' : '') + fixed, 'raw');
      }
      if (fixed !== before && utf8) texts.set(uri, fixed);
      continue;
    }
    if (fixed === before) continue;
    if (args.fixDryRun) {
      if (!isUtf8(bytes(uri))) note('not valid UTF-8; not fixed');
      else {
        diffs.push(unifiedDiff(before, fixed, rel));
        texts.set(uri, fixed);
      }
      continue;
    }
    const r = writeFixed(pathOf(uri), before, fixed, io.cwd, io.writeFs);
    if (r.note) note(r.note);
    if (r.failed) unwritten++;
    if (r.written) texts.set(uri, fixed);
    // A SIGINT or SIGTERM that came during the write is handled here, between files (tempFiles.ts).
    await yieldTurn();
  }
  if (args.fixDryRun) io.stdout(diffs.join(''), 'raw');
  return { texts, stdoutTaken: !!args.fixDryRun || !!args.stdin, unwritten };
}
