/** `mcp-aql-errors check`: arguments, the shared index → validate pass (checkFiles.ts), the report. */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODE_SCOPES, isCode, type CodeScope, type RuleLevel, type ServiceOptions } from '../service';
import { checkFiles } from './checkFiles';
import { VERSION } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls } from './format/escape';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { count } from './report';
import type { Io } from './io';

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);
const FORMATS = new Set(['text', 'json', 'sarif', 'github']);

export interface CheckArgs { paths: string[]; format: string; maxWarnings?: number; rules: Record<string, RuleLevel>; codeScope?: CodeScope; followSymlinks?: boolean }

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
      if (!FORMATS.has(a.format)) throw new UsageError(`unknown format '${a.format}' (text, json, sarif, github)`);
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
    else if (x.startsWith('-') && x !== '-') throw new UsageError(`unknown option '${x}'`);
    else a.paths.push(x);
  }
  return a;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv);
  const files = findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: (p, m) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`) });
  const opts: ServiceOptions = { rules: args.rules, codeScope: args.codeScope };
  const { reports, unreadable } = checkFiles(files, opts, io, args.paths);
  const out = args.format === 'json' ? formatJson(reports)
    : args.format === 'sarif' ? formatSarif(reports, VERSION, pathToFileURL(io.cwd).href)
    : args.format === 'github' ? formatGithub(reports)
    : formatText(reports, { color: io.color });
  io.stdout(out);
  const c = count(reports);
  if (unreadable) { io.stderr(`${unreadable} file${unreadable === 1 ? '' : 's'} could not be read\n`); return 2; }
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
}
