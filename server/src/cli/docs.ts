/**
 * `mcp-aql-errors docs <adapter…> [-o dir] [--format markdown|html]` (issue 25): the adapters' error
 * reference, on stdout or written to `dir/error-reference.md` / `.html` (the only file this command writes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService } from '../service';
import { deps, VERSION } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls } from './format/escape';
import type { Io } from './io';
import { parseOptions } from './options';
import { readText } from './verify';

interface DocsArgs {
  paths: string[];
  format: 'markdown' | 'html';
  out?: string;
  followSymlinks?: boolean;
}

function parse(argv: readonly string[]): DocsArgs {
  const { options, plain } = parseOptions('docs', argv);
  const a: DocsArgs = { paths: plain, format: 'markdown' };
  for (const [name, v] of options) {
    if (name === '--format') {
      if (v !== 'markdown' && v !== 'html') throw new UsageError("docs: --format takes 'markdown' or 'html'");
      a.format = v;
    } else if (name === '--out') a.out = String(v);
    else if (name === '--follow-symlinks') a.followSymlinks = true;
  }
  if (!a.paths.length) throw new UsageError('docs needs an adapter file');
  return a;
}

export function runDocs(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const service = createAdapterService(deps);
  const adapters: TextDocument[] = [];
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: notes })) {
    const doc = TextDocument.create(pathToFileURL(f.path).href, 'yaml', 1, readText(f.path, io.cwd));
    if (service.isAdapter(doc)) adapters.push(doc);
    else if (f.explicit)
      throw new UsageError(`'${escapeControls(relative(io.cwd, f.path))}' is not an adapter file (see README "Which files")`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${args.paths.join(' ')}`);
  const text = service.errorReference(adapters, {
    format: args.format,
    sources: adapters.map(d => basename(new URL(d.uri).pathname)),
    version: VERSION,
  });
  if (args.out === undefined) {
    io.stdout(text);
    return 0;
  }
  const dir = resolve(io.cwd, args.out);
  const target = join(dir, args.format === 'html' ? 'error-reference.html' : 'error-reference.md');
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(target, text);
  } catch (e) {
    throw new UsageError(`cannot write '${escapeControls(relative(io.cwd, target))}': ${(e as Error).message}`);
  }
  io.stderr(`wrote ${escapeControls(relative(io.cwd, target))}\n`);
  return 0;
}
