/** `mcp-aql-errors check`: arguments, config files, the shared index → validate pass (checkFiles.ts), fixes, the report. */
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import { CODE_SCOPES, isCode, type CodeScope, type RuleLevel } from '../service';
import { fileUri, pathFromUri } from '../node/bytePaths';
import { readRegularFile } from '../node/readRegularFile';
import { checkExtraArgs, FORMATS, InputError, parseExtraArg, type ExtraArgs } from './args';
import { checkFiles } from './checkFiles';
import { ConfigLookup } from './config';
import { findFiles, UsageError, type Found } from './files';
import { fixDocuments } from './fix';
import { escapeControls, shownPath } from './format/escape';
import { emitReport, errorsOnly } from './output';
import { printConfig } from './printConfig';
import { capReports, count } from './report';
import type { Io } from './io';

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);

interface CheckArgs extends ExtraArgs {
  paths: string[];
  format: string;
  maxWarnings?: number;
  rules: Record<string, RuleLevel>;
  codeScope?: CodeScope;
  followSymlinks?: boolean;
  jobs?: number;
  cache?: boolean;
  cacheLocation?: string;
}

export function parseCheckArgs(argv: readonly string[]): CheckArgs {
  const a: CheckArgs = { paths: [], format: 'text', rules: {} };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const val = (name: string) => {
      const eq = x.indexOf('=');
      if (x.startsWith('--') && eq > 0) return x.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (x === '--format' || x.startsWith('--format=')) {
      a.format = val('--format');
      if (!(FORMATS as readonly string[]).includes(a.format)) throw new UsageError(`unknown format '${a.format}' (${FORMATS.join(', ')})`);
    } else if (x === '--max-warnings' || x.startsWith('--max-warnings=')) {
      const n = Number(val('--max-warnings'));
      if (!Number.isInteger(n) || n < 0) throw new UsageError('--max-warnings takes a whole number ≥ 0');
      a.maxWarnings = n;
    } else if (x === '--rule' || x.startsWith('--rule=')) {
      const [code, level] = val('--rule').split('=');
      if (!code || !isCode(code)) throw new UsageError(`--rule: unknown diagnostic code '${code ?? ''}'`);
      if (!level || !LEVELS.has(level)) throw new UsageError(`--rule ${code}: level must be off, hint, information, warning or error`);
      a.rules[code] = level as RuleLevel;
    } else if (x === '--code-scope' || x.startsWith('--code-scope=')) {
      const v = val('--code-scope');
      if (!CODE_SCOPES.includes(v as CodeScope)) throw new UsageError(`--code-scope must be ${CODE_SCOPES.join(', ')}`);
      a.codeScope = v as CodeScope;
    } else if (x === '--follow-symlinks') a.followSymlinks = true;
    else if (x === '--jobs' || x.startsWith('--jobs=')) {
      const n = Number(val('--jobs'));
      if (!Number.isInteger(n) || n < 1) throw new UsageError('--jobs takes a whole number ≥ 1');
      a.jobs = n;
    } else if (x === '--cache') a.cache = true;
    else if (x === '--cache-location' || x.startsWith('--cache-location=')) {
      a.cache = true;
      a.cacheLocation = val('--cache-location');
    } else if (x.startsWith('-') && x !== '-') i = parseExtraArg(argv, i, a);
    else a.paths.push(x);
  }
  checkExtraArgs(a);
  return a;
}

export async function runCheck(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCheckArgs(argv);
  const configs = new ConfigLookup(io.cwd, args);
  if (args.printConfig !== undefined) return printConfig(args.printConfig, configs, io);
  const stdin = args.stdin ? readStdin(args, io) : undefined;
  const found: Found[] = stdin
    ? [stdin]
    : findFiles(args.paths, io.cwd, {
        followSymlinks: args.followSymlinks,
        onNote: (p, m) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`),
      });
  // Files the config ignores are not read at all; a named one is said to be skipped.
  const files = found.filter(f => {
    const o = configs.optionsFor(f.path);
    if (o.ignored && f.explicit)
      io.stderr(`${shownPath(relative(io.cwd, f.path))}: ignored by ${escapeControls(relative(io.cwd, o.configPath!))}; skipped\n`);
    return !o.ignored;
  });
  // Every file named (by a pre-commit hook, say) is ignored by the config: nothing to check is fine.
  if (!files.length && found.length && found.every(f => f.explicit)) {
    // --stdin --fix still owes standard output the text: unchanged.
    if (stdin && args.fix) io.stdout(new TextDecoder('utf-8', { fatal: false }).decode(stdin.bytes), 'raw');
    else emitReport(io, args, []);
    return 0;
  }
  // Every problem from the service: the per-file cap is applied here, after --quiet (capReports).
  const opts = (uri: string) => ({ ...configs.optionsFor(pathFromUri(uri)), maxProblems: Infinity });
  const stdinTexts = stdin ? new Map([[fileUri(stdin.path), new TextDecoder('utf-8', { fatal: false }).decode(stdin.bytes)]]) : undefined;
  let stdoutTaken = false;
  const checked = await checkFiles(files, opts, io, args.paths, {
    jobs: args.jobs ?? defaultJobs(files.length),
    cacheFile: args.cache ? resolve(io.cwd, args.cacheLocation ?? '.mcp-aql-cache.json') : undefined,
    texts: stdinTexts,
    fix:
      args.fix || args.fixDryRun
        ? (service, adapters, read) => {
            const r = fixDocuments({
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
            return r.texts;
          }
        : undefined,
  });
  const reports = capReports(args.quiet ? errorsOnly(checked.reports) : checked.reports);
  const unreadable = checked.unreadable;
  if (args.outputFile !== undefined || !stdoutTaken) emitReport(io, args, reports);
  const c = count(reports);
  if (unreadable) {
    io.stderr(`${unreadable} file${unreadable === 1 ? '' : 's'} could not be read\n`);
    return 2;
  }
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
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

/** All cores, but only when each worker gets enough files to pay for its start (about 100 ms). */
function defaultJobs(files: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(files / 200)));
}
