/** `mcp-aql-errors check`: arguments, config files, the shared index → validate pass (checkFiles.ts), fixes, the report. */
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import { compileGlob, GlobSyntaxError, type Glob, type ServiceOptions } from '../../service';
import { fileUri, pathFromUri } from '../../node/bytePaths';
import { readRegularFile } from '../../node/readRegularFile';
import { InputError, parseCheckArgs, type CheckArgs } from '../args';
import { defaultCacheFile } from '../cache';
import { checkFiles } from './checkFiles';
import { ConfigLookup } from '../config';
import { findFiles, UsageError, type Found } from '../files';
import { fixDocuments, stdoutBytes } from '../fix';
import { escapeControls, shownPath, neutralizeCommands } from '../format';
import { emitReport, errorsOnly, exitFromCounts, outKind, outputSyntax, useColor, writeOutputFile } from '../output';
import { commandHelp } from '../options';
import { printConfig } from './printConfig';
import { capReports, omittedLine, type Counts, type FileReport } from '../report';
import { reportStream } from './reportStream';
import type { Io } from '../io';

export async function runCheck(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCheckArgs(argv);
  if (args.help) {
    io.stdout(commandHelp('check'));
    return 0;
  }
  const configs = new ConfigLookup(io.cwd, args);
  if (args.printConfig !== undefined) return printConfig(args.printConfig, configs, io);
  const stdin = args.stdin ? readStdin(args, io) : undefined;
  const found: Found[] = stdin
    ? [stdin]
    : findFiles(args.paths, io.cwd, {
        followSymlinks: args.followSymlinks,
        errorOnUnmatched: args.errorOnUnmatchedPattern,
        onNote: (p, m) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`),
      });
  const ignored = ignoreMatcher(args.ignorePatterns, io.cwd);
  // Files the config or --ignore-pattern ignores are not read at all; a named one is said to be skipped.
  const files = found.filter(f => {
    if (!stdin && ignored(f.path)) {
      if (f.explicit) io.stderr(`${shownPath(relative(io.cwd, f.path))}: ignored by --ignore-pattern; skipped\n`);
      return false;
    }
    const o = configs.optionsFor(f.path);
    if (o.ignored && f.explicit)
      io.stderr(`${shownPath(relative(io.cwd, f.path))}: ignored by ${escapeControls(relative(io.cwd, o.configPath!))}; skipped\n`);
    return !o.ignored;
  });
  // Every file named (by a pre-commit hook, say) is ignored by the config: nothing to check is fine.
  if (!files.length && ((found.length && found.every(f => f.explicit)) || !args.errorOnUnmatchedPattern)) {
    // --stdin --fix still owes standard output the text: unchanged.
    if (stdin && args.fix) stdoutBytes(io, stdin.bytes);
    else emitReport(io, args, []);
    return 0;
  }
  // Every problem from the service: the per-file cap is applied here, after --quiet (capReports). A file's
  // options are its config's (each loaded once) and whether that config ignores it: one object for all such
  // files (`check --cache` keys entries by them, by identity before their text). Each file's is worked out
  // once: a run asks for it in each pass.
  const shared = new Map<string, ServiceOptions>();
  const ofUri = new Map<string, ServiceOptions>();
  const opts = (uri: string) => {
    let s = ofUri.get(uri);
    if (s) return s;
    const o = configs.optionsFor(pathFromUri(uri));
    const key = `${o.ignored}\0${o.configPath ?? ''}`;
    s = shared.get(key);
    if (!s) shared.set(key, (s = { ...o, maxProblems: Infinity }));
    ofUri.set(uri, s);
    return s;
  };
  const stdinTexts = stdin ? new Map([[fileUri(stdin.path), new TextDecoder('utf-8', { fatal: false }).decode(stdin.bytes)]]) : undefined;
  let stdoutTaken = false;
  // Each report streams: to standard output as the files come (unless --fix-dry-run or --stdin --fix
  // own it), or gathered for its -o file, written whole at the end. --quiet, then the per-file cap, apply
  // first; what the cap left out is said on standard error when a report is not text on standard output.
  let unwritten = 0;
  const toFile = new Map<string, string[]>();
  const streams = args.outputs.map(o => {
    if (o.file !== undefined) toFile.set(o.file, []);
    return reportStream(
      o.format,
      io,
      s => {
        if (o.file !== undefined) toFile.get(o.file)!.push(s);
        else if (!stdoutTaken) io.stdout(neutralizeCommands(s, outputSyntax(o.format), { own: o.format === 'github' }), outKind(o.format));
      },
      { color: o.file === undefined && useColor(io, args.color) },
    );
  });
  const noteCut = args.outputs.some(o => o.format !== 'text' || o.file !== undefined);
  const onReport = (r: FileReport) => {
    const shown = capReports([args.quiet ? errorsOnly([r])[0]! : r])[0]!;
    const cut = noteCut && omittedLine(shown, shownPath(shown.rel));
    if (cut) io.stderr(cut + '\n');
    for (const st of streams) st.file(shown);
  };
  const checked = await checkFiles(files, opts, io, args.paths, onReport, {
    allowNone: !args.errorOnUnmatchedPattern,
    jobs: args.jobs ?? defaultJobs,
    cacheFile: args.cache ? (args.cacheLocation === undefined ? defaultCacheFile(io.cwd) : resolve(io.cwd, args.cacheLocation)) : undefined,
    lines: args.outputs.some(o => o.format === 'text' || o.format === 'codeclimate'),
    texts: stdinTexts,
    fix:
      args.fix || args.fixDryRun
        ? async (service, adapters, read) => {
            const r = await fixDocuments({
              service,
              adapters,
              read,
              opts,
              io,
              args,
              pathOf: pathFromUri,
              bytes: uri => {
                if (stdin) return stdin.bytes;
                const r = readRegularFile(pathFromUri(uri));
                return r.ok ? r.bytes : new Uint8Array([0xff]);
              },
            });
            stdoutTaken = r.stdoutTaken;
            unwritten = r.unwritten;
            return r.texts;
          }
        : undefined,
  });
  let c: Counts = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  for (const st of streams) c = st.end();
  for (const o of args.outputs)
    if (o.file !== undefined)
      writeOutputFile(io, o.file, neutralizeCommands(toFile.get(o.file)!.join(''), outputSyntax(o.format), { own: o.format === 'github' }));
  const unreadable = checked.unreadable;
  if (unwritten) io.stderr(`${unwritten} file${unwritten === 1 ? '' : 's'} could not be written\n`);
  if (unreadable) io.stderr(`${unreadable} file${unreadable === 1 ? '' : 's'} could not be read\n`);
  if (unreadable || unwritten) return 2;
  return exitFromCounts(io, args, c);
}

/** --ignore-pattern: globs against the path relative to the working directory; one without `/` matches a name at any depth. */
function ignoreMatcher(patterns: readonly string[], cwd: string): (path: string) => boolean {
  const globs: [Glob, boolean][] = patterns.map(p => {
    try {
      return [compileGlob(p.replace(/^\.\//, '')), !p.includes('/')];
    } catch (e) {
      if (e instanceof GlobSyntaxError) throw new UsageError(`invalid glob '${p}': ${e.message}`);
      throw e;
    }
  });
  return path => {
    const rel = relative(cwd, path).split(/[\\/]/).join('/');
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    return globs.some(([g, anyDepth]) => g.test(rel) || (anyDepth && g.test(name)));
  };
}

/** --stdin: one document, named by --stdin-filename (default `stdin.adapter.yaml` in the working folder). */
function readStdin(args: CheckArgs, io: Io): Found & { bytes: Uint8Array } {
  if (!io.readStdin) throw new UsageError('--stdin: standard input is not available');
  let bytes: Uint8Array;
  try {
    bytes = io.readStdin();
  } catch (e) {
    throw new InputError(`cannot read standard input: ${(e as Error).message}`);
  }
  return { path: resolve(io.cwd, args.stdinFilename ?? 'stdin.adapter.yaml'), explicit: true, bytes };
}

/**
 * All cores from 1,500 files (a thread per 750): a worker pays its start and its own JIT warm-up (about 0.6-1 s of
 * CPU), which fewer files do not earn back in wall time. 2026-11-28, one thread against two, medians of interleaved
 * runs (bench/NOTES.md, "twelfth sitting"): 1,000 files 1.91 / 2.56 s (wall / CPU) against 1.83 / 3.24 s at load 0.7,
 * and as fast at load 4-5 for 27 % less CPU; 1,250 files 5 % slower for 24 % less CPU; 1,500 files 2.63 / 3.36 s
 * against 2.36 / 4.27 s (11 % slower); 2,000 files 3.70 against 2.96 s wall (25 %). Exported for tests.
 */
export function defaultJobs(files: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(files / 750)));
}
