/**
 * `mcp-aql-errors types <adapter…> [--lang ts|json-schema] [-o file] [--include-registry]`: the
 * adapters' error envelopes as a TypeScript discriminated union or a JSON Schema, on stdout or
 * written to the file named by -o (folders created, written whole; the only file this command writes).
 */
import { basename, relative, resolve, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { createAdapterService, createWorkspaceIndex, type ServiceOptions } from '../../service';
import { ConfigLookup } from '../config';
import { fileUri } from '../../node/bytePaths';
import { deps, VERSION } from '../deps';
import { findFiles, UsageError, readText } from '../files';
import { escapeControls, shownPath, neutralizeCommands } from '../format';
import { parseOptions } from '../options';
import { render, writeOutputFile } from '../output';
import type { Io } from '../io';
import type { FileReport } from '../report';

interface TypesArgs {
  paths: string[];
  lang: 'ts' | 'json-schema';
  out?: string;
  includeRegistry: boolean;
}

function parse(argv: readonly string[]): TypesArgs {
  const a: TypesArgs = { paths: [], lang: 'ts', includeRegistry: false };
  const { options, plain } = parseOptions('types', argv);
  a.paths = plain;
  for (const [x, v] of options) {
    const val = () => v as string;
    switch (x) {
      case '--lang': {
        const l = val();
        if (l !== 'ts' && l !== 'json-schema') throw new UsageError("--lang takes 'ts' or 'json-schema'");
        a.lang = l;
        break;
      }
      case '--output-file':
        a.out = val();
        break;
      case '--include-registry':
        a.includeRegistry = true;
        break;
    }
  }
  if (!a.paths.length) throw new UsageError('types needs an adapter file');
  return a;
}

/**
 * Types are generated only from adapters `check` accepts (no problem at error level, with the config
 * file's levels): a client compiled against a contract with errors would trust codes the server may
 * not send. Otherwise the files with errors are printed on standard error as `check` prints them, the
 * exit status is 1 and nothing is written, so an `-o` file keeps its last good types (docs/cli.md).
 */
export function runTypes(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const configs = new ConfigLookup(io.cwd, {});
  const adapters: { doc: TextDocument; path: string; opts: ServiceOptions }[] = [];
  for (const f of findFiles(args.paths, io.cwd, { onNote: (p, m) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`) })) {
    const doc = TextDocument.create(fileUri(f.path), 'yaml', 1, readText(f.path, io.cwd));
    const opts = configs.optionsFor(f.path);
    if (service.isAdapter(doc, opts)) adapters.push({ doc, path: f.path, opts });
    else if (f.explicit)
      throw new UsageError(`'${escapeControls(relative(io.cwd, f.path))}' is not an adapter file (see README "Which files")`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${args.paths.join(' ')}`);
  for (const a of adapters) {
    const e = service.indexEntries(a.doc, a.opts);
    index.update(a.doc.uri, e.declarations, e.occurrences);
  }
  const rejected: FileReport[] = [];
  for (const a of adapters) {
    const diagnostics = service.validate(a.doc, a.opts);
    if (diagnostics.some(d => (d.severity ?? DiagnosticSeverity.Error) === DiagnosticSeverity.Error))
      rejected.push({
        path: a.path,
        rel: relative(io.cwd, a.path).split(sep).join('/'),
        uri: a.doc.uri,
        text: a.doc.getText(),
        diagnostics,
      });
  }
  if (rejected.length) {
    io.stderr(render('text', rejected, io, false));
    io.stderr('mcp-aql-errors types: the adapters have errors: no types written\n');
    return 1;
  }
  const docs = adapters.map(a => a.doc);
  const sources = docs.map(d => basename(new URL(d.uri).pathname));
  const text = service.types(service.contract(docs), {
    lang: args.lang,
    includeRegistry: args.includeRegistry,
    sources,
    version: VERSION,
  });
  // `##[` inside the generated strings is escaped in the output's own syntax (docs/robustness.md, "CLI output that a checkout cannot forge or hide").
  const out = neutralizeCommands(text, args.lang === 'json-schema' ? 'json' : 'text');
  if (!args.out) {
    io.stdout(out);
    return 0;
  }
  writeOutputFile(io, args.out, out);
  io.stderr(`wrote ${shownPath(relative(io.cwd, resolve(io.cwd, args.out)))}\n`);
  return 0;
}
