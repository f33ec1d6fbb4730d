/**
 * `mcp-aql-errors docs <adapter…> [-o dir] [--format markdown|html]` (docs/contract-diff.md): the adapters' error
 * reference, on stdout or written to `dir/error-reference.md` / `.html` (the only file this command writes).
 */
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { createAdapterService, createWorkspaceIndex, type ServiceOptions } from '../../service';
import { ConfigLookup } from '../config';
import { deps, VERSION } from '../deps';
import { findFiles, UsageError, readText } from '../files';
import { escapeControls } from '../format';
import type { Io } from '../io';
import { parseOptions } from '../options';
import { writeOutput } from '../safeWrite';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface DocsArgs {
  paths: string[];
  format: 'markdown' | 'html';
  out?: string;
  config?: string;
  noConfig?: boolean;
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
    else if (name === '--config') a.config = String(v);
    else if (name === '--no-config') a.noConfig = true;
    else if (name === '--follow-symlinks') a.followSymlinks = true;
  }
  if (a.config !== undefined && a.noConfig) throw new UsageError('--config and --no-config exclude each other');
  if (!a.paths.length) throw new UsageError('docs needs an adapter file');
  return a;
}

/**
 * The reference documents what clients can rely on, so an adapter `check` rejects (a problem at error
 * level, with the config file's levels) is left out, said on standard error, and the exit status is 1 —
 * the examples' `broken/` folder holds slips planted for `check`, not a contract to publish. Files the
 * config file ignores are left out as `check` leaves them out.
 */
export function runDocs(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const configs = new ConfigLookup(io.cwd, args);
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const adapters: { doc: TextDocument; opts: ServiceOptions; shown: string }[] = [];
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: notes })) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) {
      if (f.explicit) notes(f.path, 'ignored by the config file; left out');
      continue;
    }
    const doc = TextDocument.create(pathToFileURL(f.path).href, 'yaml', 1, readText(f.path, io.cwd));
    if (service.isAdapter(doc, opts)) adapters.push({ doc, opts, shown: escapeControls(relative(io.cwd, f.path)) });
    else if (f.explicit)
      throw new UsageError(`'${escapeControls(relative(io.cwd, f.path))}' is not an adapter file (see README "Which files")`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${args.paths.join(' ')}`);
  for (const a of adapters) {
    const e = service.indexEntries(a.doc, a.opts);
    index.update(a.doc.uri, e.declarations, e.occurrences);
  }
  // Left out: an adapter with errors, then (its declarations gone from the index) any adapter that
  // relied on them, until none is left out; warnings are said, as check says them.
  const left = new Set<(typeof adapters)[number]>();
  let warned: string[] = [];
  for (let again = true; again;) {
    again = false;
    warned = [];
    for (const a of adapters) {
      if (left.has(a)) continue;
      const ds = service.validate(a.doc, a.opts);
      const errors = ds.filter(d => d.severity === DiagnosticSeverity.Error).length;
      const warnings = ds.filter(d => d.severity === DiagnosticSeverity.Warning).length;
      if (errors) {
        left.add(a);
        index.remove(a.doc.uri);
        again = true;
        io.stderr(`${a.shown}: left out of the reference: ${plural(errors, 'error')} (mcp-aql-errors check ${a.shown} lists them)\n`);
      } else if (warnings) warned.push(`${a.shown}: ${plural(warnings, 'warning')} (mcp-aql-errors check ${a.shown} lists them)\n`);
    }
  }
  warned.forEach(w => io.stderr(w));
  const kept = adapters.filter(a => !left.has(a)).map(a => a.doc);
  if (!kept.length) {
    io.stderr('mcp-aql-errors: every adapter has errors: no reference written\n');
    return 1;
  }
  const status = left.size ? 1 : 0;
  const text = service.errorReference(kept, {
    format: args.format,
    sources: kept.map(d => basename(new URL(d.uri).pathname)),
    version: VERSION,
  });
  if (args.out === undefined) {
    io.stdout(text);
    return status;
  }
  // Written by the one writer: a link a repository commits at this name is never written through.
  const target = join(args.out, args.format === 'html' ? 'error-reference.html' : 'error-reference.md');
  writeOutput(io.cwd, target, text, '-o');
  io.stderr(`wrote ${escapeControls(relative(io.cwd, join(io.cwd, target)))}\n`);
  return status;
}
