/**
 * `--fix` / `--fix-dry-run`: the service's safe "fix all" edits, applied to a copy of the text in up
 * to 10 passes (a fix can reveal another). Writing is atomic (a temporary file in the same folder,
 * then rename), keeps the file's mode and byte-order mark, and happens only when the text changed.
 */
import { chmodSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, ServiceOptions, WorkspaceCodes, WorkspaceIndex } from '../service';
import { unifiedDiff } from './diff';
import type { Io } from './io';

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

export interface FixRun {
  readonly service: AdapterService;
  /** Replaced in place by their fixed versions. */
  readonly docs: TextDocument[];
  readonly optsOf: ReadonlyMap<string, ServiceOptions>;
  readonly bytesOf: ReadonlyMap<string, Uint8Array>;
  readonly paths: ReadonlyMap<string, string>;
  readonly index: WorkspaceIndex;
  readonly io: Io;
  readonly args: { readonly fix?: boolean; readonly fixDryRun?: boolean; readonly stdin?: boolean };
}

/**
 * --fix writes each changed file; --fix-dry-run prints one unified diff; with --stdin, --fix prints the
 * fixed text. True when standard output now carries the diff or the text (not the report).
 */
export function fixDocuments({ service, docs, optsOf, bytesOf, paths, index, io, args }: FixRun): boolean {
  const diffs: string[] = [];
  docs.forEach((d, i) => {
    const fixed = applyFixes(service, d, optsOf.get(d.uri) ?? {}, index.except(d.uri));
    const rel = relative(io.cwd, paths.get(d.uri)!).split(sep).join('/');
    if (args.stdin && args.fix) io.stdout(fixed.getText());
    if (fixed.getText() === d.getText()) return;
    if (!isUtf8(bytesOf.get(d.uri)!)) { io.stderr(`${rel}: not valid UTF-8; not fixed\n`); return; }
    if (args.fixDryRun) diffs.push(unifiedDiff(d.getText(), fixed.getText(), rel));
    else if (!args.stdin) writeAtomic(paths.get(d.uri)!, fixed.getText());
    docs[i] = fixed;
  });
  if (args.fixDryRun) io.stdout(diffs.join(''));
  return !!args.fixDryRun || !!args.stdin;
}
