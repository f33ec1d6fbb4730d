/**
 * The two versions `diff` compares, read from disk or git (docs/contract-diff.md): two files, two folders, or the
 * files at a git revision against the working tree. Each file becomes a `DiffInput` keyed so the same
 * file matches across versions (its path inside the folder; a file git saw renamed keeps its new path),
 * with the options `check` would use for it (config file, `files` globs, `ignore`).
 */
import { realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DiffInput } from '../../service';
import type { ConfigLookup } from '../config';
import { findFiles, UsageError, readText } from '../files';
import { escapeControls } from '../format';
import { GitError, listFiles, readBlob, renamesSince, repositoryTop, resolveRevision } from '../../node/gitRevision';
import { InputError } from '../args';
import type { Io } from '../io';

export interface Side {
  readonly inputs: DiffInput[];
  /** uri → how the report names the file (`shop.adapter.yaml`, `main:shop.adapter.yaml`). */
  readonly labels: Map<string, string>;
}

const CANDIDATE = /\.(?:ya?ml|json|md|markdown)$/i;
const SKIP_SEGMENT = /(?:^|\/)(?:node_modules|\.git|dist|out|\.cache|\.e2e)\//;
const slash = (p: string) => p.split(sep).join('/');
const decode = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b);

/** A file or a folder on disk; in a folder, a file is named across versions by its path inside the folder. */
/** `fileKey`: what a single file is called in the report when its adapter has no name (the same on both sides). */
export function readPath(
  arg: string,
  fileKey: string,
  io: Io,
  configs: ConfigLookup,
  followSymlinks: boolean | undefined,
): Side & { folder: boolean } {
  const root = resolve(io.cwd, arg);
  let folder: boolean;
  try {
    folder = statSync(root).isDirectory();
  } catch {
    throw new UsageError(`cannot read '${escapeControls(arg)}': no such file or directory`);
  }
  const side: Side & { folder: boolean } = { inputs: [], labels: new Map(), folder };
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles([arg], io.cwd, { followSymlinks, onNote: notes })) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) continue;
    const uri = pathToFileURL(f.path).href;
    side.inputs.push({
      doc: TextDocument.create(uri, 'yaml', 1, readText(f.path, io.cwd)),
      fileKey: folder ? slash(relative(root, f.path)) : fileKey,
      opts,
    });
    side.labels.set(uri, slash(relative(io.cwd, f.path)) || f.path);
  }
  return side;
}

/** The files under `paths` at `rev` (old) and in the working tree (new), renames followed. */
type Sides = { before: Side; after: Side };
type RevisionArgs = [rev: string, paths: readonly string[], io: Io, configs: ConfigLookup, followSymlinks: boolean | undefined];

export function readRevision(...a: RevisionArgs): Sides {
  try {
    return readRevisionOrThrow(...a);
  } catch (e) {
    if (e instanceof GitError) throw new InputError(`--base: ${e.message}`);
    throw e;
  }
}

function readRevisionOrThrow(...[rev, paths, io, configs, followSymlinks]: RevisionArgs): Sides {
  const commit = resolveRevision(rev, io.cwd);
  const top = repositoryTop(io.cwd);
  const wanted = paths.length ? paths : ['.'];
  const renames = renamesSince(commit, wanted, io.cwd);
  const before: Side = { inputs: [], labels: new Map() };
  for (const f of listFiles(commit, wanted, io.cwd)) {
    if (!CANDIDATE.test(f.path) || SKIP_SEGMENT.test(`/${f.path}`)) continue;
    const now = renames.get(f.path) ?? f.path;
    const opts = configs.optionsFor(join(top, now));
    if (opts.ignored) continue;
    const bytes = readBlob(f.blob, io.cwd);
    // Skipping it would report every code in it as removed: refuse instead.
    if (!bytes) throw new InputError(`${escapeControls(`${rev}:${f.path}`)}: larger than 8 MiB; cannot compare`);
    // Its own scheme, so the old version never shares a cached model with the working-tree file.
    const uri = `mcp-aql-git://${commit}/${f.path.split('/').map(encodeURIComponent).join('/')}`;
    before.inputs.push({ doc: TextDocument.create(uri, 'yaml', 1, decode(bytes)), fileKey: now, opts });
    before.labels.set(uri, `${rev}:${f.path}`);
  }
  const after: Side = { inputs: [], labels: new Map() };
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(wanted, io.cwd, { followSymlinks, onNote: notes })) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) continue;
    const uri = pathToFileURL(f.path).href;
    after.inputs.push({
      doc: TextDocument.create(uri, 'yaml', 1, readText(f.path, io.cwd)),
      fileKey: slash(relative(realpathSync(top), realpathSync(f.path))),
      opts,
    });
    after.labels.set(uri, slash(relative(io.cwd, f.path)));
  }
  return { before, after };
}
