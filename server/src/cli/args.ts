/** The arguments of `check` and `verify`, read through the option lists of options.ts. */
import { availableParallelism } from 'node:os';
import { CODE_SCOPES, isCode, RULE_LEVEL_SPELLINGS, ruleLevelOf, type CodeScope, type RuleLevel } from '../service';
import { UsageError } from './files';
import { FORMATS, parseOptions } from './options';

export { FORMATS } from './options';

/** Bad input rather than bad usage (an invalid config file): exit 2 without the usage hint. */
export class InputError extends UsageError {}

/** One report: a format, and the file it goes to (none: standard output). */
export interface Output {
  readonly format: string;
  readonly file?: string;
}

export interface CheckArgs {
  paths: string[];
  /** Each -f with the -o after it (Spectral's pairing); at most one without a file (standard output). */
  outputs: Output[];
  maxWarnings?: number;
  /** The lowest severity (1 error … 4 hint) that makes the exit status 1. */
  failSeverity: number;
  rules: Record<string, RuleLevel>;
  codeScope?: CodeScope;
  followSymlinks?: boolean;
  /** --color / --no-color; undefined: the terminal and FORCE_COLOR / NO_COLOR decide. */
  color?: boolean;
  ignorePatterns: string[];
  errorOnUnmatchedPattern: boolean;
  jobs?: number;
  cache?: boolean;
  cacheLocation?: string;
  fix?: boolean;
  fixDryRun?: boolean;
  stdin?: boolean;
  stdinFilename?: string;
  quiet?: boolean;
  printConfig?: string;
  config?: string;
  noConfig?: boolean;
  help?: boolean;
}

export const ruleLevel = (s: string): RuleLevel | undefined => ruleLevelOf(s);
/** `--rule code=level` (check, verify, watch, probe): the code and its level, or a one-line usage error. */
export function ruleOption(value: string): [string, RuleLevel] {
  const [code, level] = value.split('=');
  if (!code || !isCode(code)) throw new UsageError(`--rule: unknown diagnostic code '${code ?? ''}'`);
  const l = ruleLevel(level ?? '');
  if (!l) throw new UsageError(`--rule ${code}: level must be ${RULE_LEVEL_SPELLINGS}`);
  return [code, l];
}
const SEVERITY: Record<string, number> = { error: 1, warning: 2, warn: 2, information: 3, info: 3, hint: 4 };

const whole = (v: string, name: string, min: number): number => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} takes a whole number ≥ ${min}`);
  return n;
};

export function parseCheckArgs(argv: readonly string[], cmd = 'check'): CheckArgs {
  const a: CheckArgs = { paths: [], outputs: [], failSeverity: 1, rules: {}, ignorePatterns: [], errorOnUnmatchedPattern: true };
  const { options, plain } = parseOptions(cmd, argv);
  a.paths = plain;
  for (const [name, v] of options) {
    const value = v as string;
    switch (name) {
      case '--format': {
        if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`unknown format '${value}' (${FORMATS.join(', ')})`);
        // A format fills an -o given before any -f, else starts a new output.
        const waiting = a.outputs.findIndex(o => o.format === '');
        if (waiting >= 0) a.outputs[waiting] = { ...a.outputs[waiting], format: value };
        else a.outputs.push({ format: value });
        break;
      }
      case '--output-file': {
        const open = a.outputs.map(o => o.file === undefined && o.format !== '').lastIndexOf(true);
        if (open >= 0) a.outputs[open] = { ...a.outputs[open]!, file: value };
        else a.outputs.push({ format: '', file: value });
        break;
      }
      case '--max-warnings':
        a.maxWarnings = whole(value, name, 0);
        break;
      case '--fail-severity': {
        const s = SEVERITY[value];
        if (!s) throw new UsageError('--fail-severity takes error, warning, information or hint');
        a.failSeverity = s;
        break;
      }
      case '--rule': {
        const [code, level] = ruleOption(value);
        a.rules[code] = level;
        break;
      }
      case '--code-scope':
        if (!CODE_SCOPES.includes(value as CodeScope)) throw new UsageError(`--code-scope must be ${CODE_SCOPES.join(', ')}`);
        a.codeScope = value as CodeScope;
        break;
      case '--jobs':
        // More workers than cores only costs memory (each holds a service and its share of models).
        a.jobs = Math.min(whole(value, name, 1), availableParallelism());
        break;
      case '--cache-location':
        a.cache = true;
        a.cacheLocation = value;
        break;
      case '--ignore-pattern':
        a.ignorePatterns.push(value);
        break;
      case '--color':
      case '--no-color':
        a.color = name === '--color';
        break;
      case '--no-error-on-unmatched-pattern':
        a.errorOnUnmatchedPattern = false;
        break;
      default: {
        // The flags and plain-valued options: --quiet → quiet, --stdin-filename → stdinFilename.
        const key = name.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof CheckArgs;
        (a as unknown as Record<string, unknown>)[key] = v;
      }
    }
  }
  a.outputs = a.outputs.length ? a.outputs.map(o => ({ ...o, format: o.format || 'text' })) : [{ format: 'text' }];
  checkCombinations(a);
  return a;
}

/** Combinations that make no sense are usage errors (exit 2), never guesses. */
function checkCombinations(a: CheckArgs): void {
  if (a.outputs.filter(o => o.file === undefined).length > 1)
    throw new UsageError('two reports for standard output: give every -f but one an -o after it');
  const files = a.outputs.flatMap(o => (o.file === undefined ? [] : [o.file]));
  if (new Set(files).size < files.length) throw new UsageError('two reports for the same -o file');
  if (a.fix && a.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other');
  if (a.stdinFilename !== undefined && !a.stdin) throw new UsageError('--stdin-filename needs --stdin');
  if (a.stdin && a.paths.length) throw new UsageError('--stdin reads one document: name no paths (use --stdin-filename)');
  if (a.config !== undefined && a.noConfig) throw new UsageError('--config and --no-config exclude each other');
}
