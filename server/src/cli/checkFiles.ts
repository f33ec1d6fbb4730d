/**
 * The CLI's side of the shared "adapter files → index → validate" path (node/workspacePass): read
 * each file from disk (bytes that are not UTF-8 become U+FFFD, which text.invalid-character reports),
 * index every adapter, then validate each against the whole index. Text is kept only for files with
 * problems (the code frames), so memory is bounded by those, not by the workspace.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAdapterService, createWorkspaceIndex, type ServiceOptions } from '../service';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { deps } from './deps';
import { UsageError, type Found } from './files';
import type { Io } from './io';
import type { FileReport } from './report';

const decoder = new TextDecoder('utf-8', { fatal: false });

export function readDecoded(path: string, cwd: string): string {
  try {
    return decoder.decode(readFileSync(path));
  } catch (e) {
    throw new UsageError(`cannot read '${relative(cwd, path)}': ${(e as Error).message}`);
  }
}

export function checkFiles(files: readonly Found[], opts: ServiceOptions, io: Io, named: readonly string[]): FileReport[] {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const byUri = new Map(files.map(f => [pathToFileURL(f.path).href, f] as const));
  const read = (uri: string) => readDecoded(fileURLToPath(uri), io.cwd);
  const adapters: string[] = [];
  for (const r of indexFiles(service, index, byUri.keys(), read, () => opts)) {
    if (index.has(r.uri)) { adapters.push(r.uri); continue; }
    const f = byUri.get(r.uri)!;
    if (f.explicit) io.stderr(`${relative(io.cwd, f.path)}: not an adapter file (see README "Which files"); skipped\n`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${named.length ? named.join(' ') : 'the current directory'}`);
  const reports: FileReport[] = [];
  for (const r of validateFiles(service, adapters, read, () => opts)) {
    const path = byUri.get(r.uri)!.path;
    reports.push({ path, rel: relative(io.cwd, path).split(sep).join('/'), uri: r.uri, text: r.diagnostics.length ? r.text : '', diagnostics: r.diagnostics });
  }
  return reports;
}
