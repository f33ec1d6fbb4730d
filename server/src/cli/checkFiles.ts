/**
 * The CLI's side of the shared "adapter files → index → validate" path (node/workspacePass): read
 * each file from disk (bytes that are not UTF-8 become U+FFFD, which text.invalid-character reports),
 * index every adapter, then validate each against the whole index. Text is kept only for files with
 * problems (the code frames), so memory is bounded by those, not by the workspace. Only regular files
 * are read, without blocking (issue 13); a file that cannot be read — gone since the listing, swapped
 * for a FIFO — is one message on stderr and the run goes on.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAdapterService, createWorkspaceIndex, type ServiceOptions } from '../service';
import { readRegularFile, type ReadResult } from '../node/readRegularFile';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { deps } from './deps';
import { UsageError, type Found } from './files';
import { escapeControls } from './format/escape';
import type { Io } from './io';
import type { FileReport } from './report';

const decoder = new TextDecoder('utf-8', { fatal: false });

/** A file's text, or undefined (said once on stderr) when it is not a regular file or cannot be read. */
function reader(io: Io): { read: (path: string) => string | undefined; failed: Map<string, ReadResult> } {
  const failed = new Map<string, ReadResult>();
  const read = (path: string) => {
    if (failed.has(path)) return undefined;
    const r = readRegularFile(path);
    if (r.ok) return decoder.decode(r.bytes);
    failed.set(path, r);
    io.stderr(`${escapeControls(relative(io.cwd, path))}: cannot read: ${r.message}; skipped\n`);
    return undefined;
  };
  return { read, failed };
}

export interface CheckResult {
  readonly reports: FileReport[];
  /** Files that exist but could not be read (not those gone since the listing, nor FIFOs and devices). */
  readonly unreadable: number;
}

export function checkFiles(files: readonly Found[], opts: ServiceOptions, io: Io, named: readonly string[]): CheckResult {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const byUri = new Map(files.map(f => [pathToFileURL(f.path).href, f] as const));
  const disk = reader(io);
  const read = (uri: string) => disk.read(fileURLToPath(uri));
  const adapters: string[] = [];
  for (const r of indexFiles(service, index, byUri.keys(), read, () => opts)) {
    if (index.has(r.uri)) { adapters.push(r.uri); continue; }
    const f = byUri.get(r.uri)!;
    if (f.explicit && !disk.failed.has(f.path)) io.stderr(`${escapeControls(relative(io.cwd, f.path))}: not an adapter file (see README "Which files"); skipped\n`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${named.length ? named.join(' ') : 'the current directory'}`);
  const reports: FileReport[] = [];
  for (const r of validateFiles(service, adapters, read, () => opts)) {
    const path = byUri.get(r.uri)!.path;
    reports.push({ path, rel: relative(io.cwd, path).split(sep).join('/'), uri: r.uri, text: r.diagnostics.length ? r.text : '', diagnostics: r.diagnostics });
  }
  return { reports, unreadable: [...disk.failed.values()].filter(r => !r.ok && r.reason === 'error').length };
}
