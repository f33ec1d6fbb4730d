/** The `check` options beyond paths, --format, --max-warnings and --rule (parsed in check.ts). */
import { UsageError } from './files';

/** Bad input rather than bad usage (an invalid config file): exit 2 without the usage text. */
export class InputError extends UsageError {}

export const FORMATS = ['text', 'json', 'sarif', 'github', 'junit', 'checkstyle', 'codeclimate'] as const;

export interface ExtraArgs {
  /** Apply the safe fixes and write the changed files. */
  fix?: boolean;
  /** Print the safe fixes as a unified diff; write nothing. */
  fixDryRun?: boolean;
  /** Read one document from standard input. */
  stdin?: boolean;
  /** The path standard input stands for (file kind, config lookup, report paths). */
  stdinFilename?: string;
  /** Write the report here instead of standard output. */
  outputFile?: string;
  /** Report errors only. */
  quiet?: boolean;
  /** Print the effective config for this file and exit. */
  printConfig?: string;
  /** Use this config file for every file instead of looking one up. */
  config?: string;
  /** Look up no config file. */
  noConfig?: boolean;
}

/** Parse the option at argv[i] into `a`; returns the index of the last argument consumed. */
export function parseExtraArg(argv: readonly string[], i: number, a: ExtraArgs): number {
  const x = argv[i]!;
  const eq = x.indexOf('=');
  const name = x.startsWith('--') && eq > 0 ? x.slice(0, eq) : x;
  const value = (): string => {
    if (eq > 0 && x.startsWith('--')) return x.slice(eq + 1);
    const v = argv[++i];
    if (v === undefined || (v.startsWith('-') && v !== '-')) throw new UsageError(`${name} needs a value`);
    return v;
  };
  const flag = (): true => {
    if (eq > 0 && name !== x) throw new UsageError(`${name} takes no value`);
    return true;
  };
  switch (name) {
    case '--fix':
      a.fix = flag();
      break;
    case '--fix-dry-run':
      a.fixDryRun = flag();
      break;
    case '--stdin':
      a.stdin = flag();
      break;
    case '--quiet':
    case '-q':
      a.quiet = flag();
      break;
    case '--no-config':
      a.noConfig = flag();
      break;
    case '--stdin-filename':
      a.stdinFilename = value();
      break;
    case '--output-file':
    case '-o':
      a.outputFile = value();
      break;
    case '--print-config':
      a.printConfig = value();
      break;
    case '--config':
    case '-c':
      a.config = value();
      break;
    default:
      throw new UsageError(`unknown option '${x}'`);
  }
  return i;
}

/** Combinations that make no sense are usage errors (exit 2), never guesses. */
export function checkExtraArgs(a: ExtraArgs & { paths: readonly string[] }): void {
  if (a.fix && a.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other');
  if (a.stdinFilename !== undefined && !a.stdin) throw new UsageError('--stdin-filename needs --stdin');
  if (a.stdin && a.paths.length) throw new UsageError('--stdin reads one document: name no paths (use --stdin-filename)');
  if (a.config !== undefined && a.noConfig) throw new UsageError('--config and --no-config exclude each other');
}
