/**
 * `mcp-aql-errors types <adapter…> [--lang ts|json-schema] [-o file] [--include-registry]`: the
 * adapters' error envelopes as a TypeScript discriminated union or a JSON Schema, on stdout or
 * written to the file named by -o (folders created, written whole; the only file this command writes).
 */
import { basename, relative, resolve } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService } from '../../service';
import { fileUri } from '../../node/bytePaths';
import { deps, VERSION } from '../deps';
import { findFiles, UsageError, readText } from '../files';
import { escapeControls, shownPath, neutralizeCommands } from '../format';
import { parseOptions } from '../options';
import { writeOutputFile } from '../output';
import type { Io } from '../io';

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

export function runTypes(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const service = createAdapterService(deps);
  const adapters: TextDocument[] = [];
  for (const f of findFiles(args.paths, io.cwd, { onNote: (p, m) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`) })) {
    const doc = TextDocument.create(fileUri(f.path), 'yaml', 1, readText(f.path, io.cwd));
    if (service.isAdapter(doc)) adapters.push(doc);
    else if (f.explicit)
      throw new UsageError(`'${escapeControls(relative(io.cwd, f.path))}' is not an adapter file (see README "Which files")`);
  }
  if (!adapters.length) throw new UsageError(`no adapter files found in ${args.paths.join(' ')}`);
  const sources = adapters.map(d => basename(new URL(d.uri).pathname));
  const text = service.types(service.contract(adapters), {
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
