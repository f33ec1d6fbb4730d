/**
 * The two versions `diff` compares, read from disk or git (docs/contract-diff.md): two files, two folders, or the
 * files at a git revision against the working tree. Each file becomes a `DiffInput` keyed so the same
 * file matches across versions (its path inside the folder; a file git saw renamed keeps its new path),
 * with the options `check` would use for it (config file, `files` globs, `ignore`).
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
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
  /**
   * The files named on the command line (uris): each must be read as an adapter, or the comparison would
   * see every code of it as added or removed (runContractDiff refuses it, naming it).
   */
  readonly named: Set<string>;
}

/** A named file the config file ignores would drop out of the comparison: refused, naming it. */
function ignoredNamed(label: string): never {
  throw new InputError(`diff: '${escapeControls(label)}' is ignored by the config file: nothing to compare`);
}

const CANDIDATE = /\.(?:ya?ml|json|md|markdown)$/i;
const SKIP_SEGMENT = /(?:^|\/)(?:node_modules|\.git|dist|out|\.cache|\.e2e)\//;
const slash = (p: string) => p.split(sep).join('/');
const decode = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b);
/** A path's real path, or (gone from the working tree) its real folder joined with its name. */
function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const up = dirname(p);
    return up === p ? p : join(realOrResolved(up), basename(p));
  }
}

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
  const side: Side & { folder: boolean } = { inputs: [], labels: new Map(), named: new Set(), folder };
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles([arg], io.cwd, { followSymlinks, onNote: notes })) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) {
      if (f.explicit) ignoredNamed(slash(relative(io.cwd, f.path)) || f.path);
      continue;
    }
    const uri = pathToFileURL(f.path).href;
    if (f.explicit) side.named.add(uri);
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
  // The paths named, as git names them at the revision (from the top of the repository).
  const topReal = realpathSync(top);
  const named = new Set(wanted.map(p => slash(relative(topReal, realOrResolved(resolve(io.cwd, p))))));
  const before: Side = { inputs: [], labels: new Map(), named: new Set() };
  for (const f of listFiles(commit, wanted, io.cwd)) {
    const isNamed = named.has(f.path);
    if (!isNamed && (!CANDIDATE.test(f.path) || SKIP_SEGMENT.test(`/${f.path}`))) continue;
    const now = renames.get(f.path) ?? f.path;
    const opts = configs.optionsFor(join(top, now));
    if (opts.ignored) {
      if (isNamed) ignoredNamed(`${rev}:${f.path}`);
      continue;
    }
    const bytes = readBlob(f.blob, io.cwd);
    // Skipping it would report every code in it as removed: refuse instead.
    if (!bytes) throw new InputError(`${escapeControls(`${rev}:${f.path}`)}: larger than 8 MiB; cannot compare`);
    // Its own scheme, so the old version never shares a cached model with the working-tree file.
    const uri = `mcp-aql-git://${commit}/${f.path.split('/').map(encodeURIComponent).join('/')}`;
    before.inputs.push({ doc: TextDocument.create(uri, 'yaml', 1, decode(bytes)), fileKey: now, opts });
    before.labels.set(uri, `${rev}:${f.path}`);
    if (isNamed) before.named.add(uri);
  }
  const after: Side = { inputs: [], labels: new Map(), named: new Set() };
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(wanted, io.cwd, { followSymlinks, onNote: notes })) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) {
      if (f.explicit) ignoredNamed(slash(relative(io.cwd, f.path)) || f.path);
      continue;
    }
    const uri = pathToFileURL(f.path).href;
    if (f.explicit) after.named.add(uri);
    after.inputs.push({
      doc: TextDocument.create(uri, 'yaml', 1, readText(f.path, io.cwd)),
      fileKey: slash(relative(realpathSync(top), realpathSync(f.path))),
      opts,
    });
    after.labels.set(uri, slash(relative(io.cwd, f.path)));
  }
  return { before, after };
}
