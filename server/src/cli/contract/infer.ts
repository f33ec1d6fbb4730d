/**
 * `mcp-aql-errors infer <transcript.jsonl…> [-o out.adapter.yaml] [--merge existing.adapter.yaml] [--name N]`
 * (docs/cli.md, "Inferring a contract"): an adapter's error_codes / error_mapping from the failures in
 * recorded JSON-RPC traffic, on standard output or written whole to `-o` by the one writer (with
 * `--merge` and no `-o`, back to the merged file as `--fix` writes). Never written through a symbolic link.
 */
import { lstatSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { createAdapterService, DEFAULT_MAX_FILE_SIZE, FailureReader, InferRenderError } from '../../service';
import { readLines } from '../../node/readLines';
import { readRegularFile } from '../../node/readRegularFile';
import { deps } from '../deps';
import { UsageError } from '../files';
import { escapeControls } from '../format';
import type { Io } from '../io';
import { parseOptions } from '../options';
import { writeFixed, writeOutput } from '../safeWrite';

interface InferArgs {
  transcripts: string[];
  out?: string;
  merge?: string;
  name?: string;
}

function parse(argv: readonly string[]): InferArgs {
  const { options, plain } = parseOptions('infer', argv);
  const a: InferArgs = { transcripts: plain };
  for (const [name, v] of options) {
    if (name === '--output-file') a.out = String(v);
    else if (name === '--merge') a.merge = String(v);
    else if (name === '--name') a.name = String(v);
  }
  if (!a.transcripts.length) throw new UsageError('infer needs a transcript (JSON Lines: probe --record, watch --record)');
  if (a.name !== undefined && !/^[a-z][a-z0-9-]*$/.test(a.name))
    throw new UsageError(`--name '${escapeControls(a.name)}' is not an adapter name (^[a-z][a-z0-9-]*$)`);
  if (a.name !== undefined && a.merge !== undefined)
    throw new UsageError("--name is for a new adapter; --merge keeps the adapter's own name");
  return a;
}

function read(path: string, cwd: string, what: string): string {
  const r = readRegularFile(resolve(cwd, path));
  if (!r.ok) throw new UsageError(`cannot read ${what} '${escapeControls(relative(cwd, resolve(cwd, path)) || path)}': ${r.message}`);
  return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
}

/**
 * The transcripts read line by line into one FailureReader, a chunk at a time (node/readLines.ts, as
 * `verify` reads a `.jsonl`): memory grows with the kinds of failure, not the size of the files. A
 * line over mcpAql.maxFileSize characters is skipped and counted.
 */
function readTranscripts(paths: readonly string[], cwd: string): { reader: FailureReader; skipped: number } {
  const reader = new FailureReader();
  let skipped = 0;
  for (const path of paths) {
    const r = readLines(resolve(cwd, path), DEFAULT_MAX_FILE_SIZE, { line: t => reader.line(t), tooLong: () => skipped++ });
    if (!r.ok) throw new UsageError(`cannot read transcript '${escapeControls(relative(cwd, resolve(cwd, path)) || path)}': ${r.message}`);
    reader.endTranscript();
  }
  return { reader, skipped };
}

export function runInfer(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const { reader, skipped } = readTranscripts(args.transcripts, io.cwd);
  const transcripts = args.transcripts;
  const existing = args.merge === undefined ? undefined : read(args.merge, io.cwd, '--merge');
  const service = createAdapterService(deps);
  if (skipped)
    io.stderr(`mcp-aql-errors infer: ${skipped} line${skipped === 1 ? '' : 's'} over ${DEFAULT_MAX_FILE_SIZE} characters skipped\n`);
  let r;
  try {
    r = service.inferContract({ reader, existing, name: args.name });
  } catch (e) {
    if (e instanceof InferRenderError) throw new UsageError(`--merge '${escapeControls(args.merge ?? '')}': ${e.message}`);
    throw e;
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  io.stderr(
    `mcp-aql-errors infer: ${plural(r.failures, 'failure')} in ${plural(transcripts.length, 'transcript')}, ${plural(r.kinds.length, 'kind')} of failure` +
      (r.added.length ? `; added ${r.added.join(', ')}` : '') +
      (r.kept.length ? `; kept as written ${r.kept.join(', ')}` : '') +
      '\n',
  );
  if (args.out !== undefined)
    writeOutput(io.cwd, args.out, r.text, '-o'); // the one writer (safeWrite.ts)
  else if (args.merge !== undefined) {
    // Back into the merged file, by the safe writer of --fix: only if it still holds the text read
    // (an edit made meanwhile is never lost), never through a symbolic link.
    const path = resolve(io.cwd, args.merge);
    if (lstatSync(path).isSymbolicLink())
      throw new UsageError(
        `--merge '${escapeControls(args.merge)}' is a symbolic link: not written through (give -o, or name the file it points to)`,
      );
    const w = writeFixed(path, existing!, r.text, dirname(path));
    if (!w.written) throw new UsageError(`--merge '${escapeControls(args.merge)}': ${w.note ?? 'not written'}`);
  } else io.stdout(r.text);
  return 0;
}
