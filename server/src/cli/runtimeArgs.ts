/**
 * The arguments of `watch` and `probe` (issue 24): options, then `--` and the server's command. The
 * contract (`--contract <adapter…>`, files or folders as `check` takes them) is optional: without it
 * answers are judged by the MCP-level rules and the registry alone.
 */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, isCode, type AdapterOperation, type AdapterService, type Contract, type RuleLevel } from '../service';
import { FORMATS } from './args';
import { deps } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls } from './format/escape';
import type { Io } from './io';
import { readText } from './verify';

export interface RuntimeArgs {
  readonly command: string;
  readonly commandArgs: readonly string[];
  readonly contract: readonly string[];
  readonly format: string;
  readonly rules: Record<string, RuleLevel>;
  readonly outputFile?: string;
  readonly record?: string;
  readonly timeout: number;
  readonly allowWrites: boolean;
  readonly list: boolean;
}

const LEVELS = ['off', 'hint', 'information', 'warning', 'error'];

/** `allowed`: the options this command takes beyond --contract, --format, -o and --rule. */
export function parseRuntimeArgs(cmd: 'watch' | 'probe', argv: readonly string[], allowed: readonly string[]): RuntimeArgs {
  const dash = argv.indexOf('--');
  if (dash < 0 || dash === argv.length - 1)
    throw new UsageError(`${cmd} needs the server's command after '--' (${cmd} [options] -- node server.js)`);
  const opts = argv.slice(0, dash);
  const a = {
    contract: [] as string[],
    format: 'text',
    rules: {} as Record<string, RuleLevel>,
    timeout: 5000,
    allowWrites: false,
    list: false,
  };
  let outputFile: string | undefined, record: string | undefined;
  for (let i = 0; i < opts.length; i++) {
    const x = opts[i]!;
    const eq = x.startsWith('--') ? x.indexOf('=') : -1;
    const name = eq > 0 ? x.slice(0, eq) : x;
    const value = () => {
      const v = eq > 0 ? x.slice(eq + 1) : opts[++i];
      if (v === undefined || (eq < 0 && v.startsWith('-'))) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (!['--contract', '--format', '-o', '--output-file', '--rule', ...allowed].includes(name))
      throw new UsageError(`${cmd}: unknown option '${x}'${x.startsWith('-') ? '' : " (the server's command goes after '--')"}`);
    if (name === '--contract') {
      a.contract.push(value());
      while (eq < 0 && i + 1 < opts.length && !opts[i + 1]!.startsWith('-')) a.contract.push(opts[++i]!);
    } else if (name === '--format') {
      a.format = value();
      if (!(FORMATS as readonly string[]).includes(a.format)) throw new UsageError(`unknown format '${a.format}' (${FORMATS.join(', ')})`);
    } else if (name === '-o' || name === '--output-file') outputFile = value();
    else if (name === '--record') record = value();
    else if (name === '--rule') {
      const [code, level] = value().split('=');
      if (!code || !isCode(code)) throw new UsageError(`--rule: unknown diagnostic code '${code ?? ''}'`);
      if (!level || !LEVELS.includes(level)) throw new UsageError(`--rule ${code}: level must be ${LEVELS.join(', ')}`);
      a.rules[code] = level as RuleLevel;
    } else if (name === '--timeout') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 600_000) throw new UsageError('--timeout takes milliseconds, 1 to 600000');
      a.timeout = n;
    } else if (name === '--allow-writes') a.allowWrites = true;
    else if (name === '--list') a.list = true;
  }
  return { ...a, outputFile, record, command: argv[dash + 1]!, commandArgs: argv.slice(dash + 2) };
}

export interface LoadedContract {
  readonly service: AdapterService;
  readonly contract: Contract;
  readonly operations: readonly AdapterOperation[];
  /** A contract was given: the server claims MCP-AQL. */
  readonly claimsMcpAql: boolean;
}

export function loadContract(paths: readonly string[], io: Io): LoadedContract {
  const service = createAdapterService(deps);
  const adapters: TextDocument[] = [];
  const note = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  if (paths.length)
    for (const f of findFiles(paths, io.cwd, { onNote: note })) {
      const doc = TextDocument.create(pathToFileURL(f.path).href, 'yaml', 1, readText(f.path, io.cwd));
      if (service.isAdapter(doc)) adapters.push(doc);
      else if (f.explicit) throw new UsageError(`--contract: '${escapeControls(relative(io.cwd, f.path))}' is not an adapter file`);
    }
  if (paths.length && !adapters.length) throw new UsageError(`--contract: no adapter files in ${paths.join(' ')}`);
  return {
    service,
    contract: service.contract(adapters),
    operations: service.operations(adapters),
    claimsMcpAql: adapters.length > 0,
  };
}
