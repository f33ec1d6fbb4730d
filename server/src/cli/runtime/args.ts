/**
 * The arguments of `watch` and `probe`: options, then `--` and the server's command. The
 * contract (`--contract <adapter…>`, files or folders as `check` takes them) is optional: without it
 * answers are judged by the MCP-level rules and the registry alone.
 */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type AdapterOperation, type AdapterService, type Contract, type RuleLevel } from '../../service';
import { FORMATS, ruleOption } from '../args';
import { deps } from '../deps';
import { findFiles, UsageError, readText } from '../files';
import { escapeControls } from '../format';
import type { Io } from '../io';
import { parseOptions } from '../options';

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

/**
 * The options before `--` (cli/options.ts: `watch` and `probe`), then the server's command. `_allowed`
 * is kept for the callers: which options each command takes is declared in cli/options.ts.
 */
export function parseRuntimeArgs(cmd: 'watch' | 'probe', argv: readonly string[], _allowed?: readonly string[]): RuntimeArgs {
  const { options, plain, afterDashes } = parseOptions(cmd, argv);
  if (!afterDashes?.length) throw new UsageError(`${cmd} needs the server's command after '--': ${cmd} [options] -- node server.js`);
  if (plain.length) throw new UsageError(`${cmd}: unexpected argument '${plain[0]}' (the server's command goes after '--')`);
  const a = {
    contract: [] as string[],
    format: 'text',
    rules: {} as Record<string, RuleLevel>,
    timeout: 5000,
    allowWrites: false,
    list: false,
  };
  let outputFile: string | undefined, record: string | undefined;
  for (const [name, v] of options) {
    const value = String(v);
    if (name === '--contract') a.contract.push(value);
    else if (name === '--format') {
      if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`unknown format '${value}' (${FORMATS.join(', ')})`);
      a.format = value;
    } else if (name === '--output-file') outputFile = value;
    else if (name === '--record') record = value;
    else if (name === '--rule') {
      const [code, level] = ruleOption(value);
      a.rules[code] = level;
    } else if (name === '--timeout') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 600_000) throw new UsageError('--timeout takes milliseconds, 1 to 600000');
      a.timeout = n;
    } else if (name === '--allow-writes') a.allowWrites = true;
    else if (name === '--list') a.list = true;
  }
  return { ...a, outputFile, record, command: afterDashes[0]!, commandArgs: afterDashes.slice(1) };
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
  return contractOf(service, readAdapters(service, paths, io));
}

/** An adapter file of the contract, as read (`watch` hands these to its judging thread). */
export interface AdapterText {
  readonly uri: string;
  readonly text: string;
}

/** The adapter files named by `--contract` (files or folders), read; bad paths are usage errors. */
export function readAdapters(service: AdapterService, paths: readonly string[], io: Io): AdapterText[] {
  const adapters: AdapterText[] = [];
  const note = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  if (paths.length)
    for (const f of findFiles(paths, io.cwd, { onNote: note })) {
      const doc = TextDocument.create(pathToFileURL(f.path).href, 'yaml', 1, readText(f.path, io.cwd));
      if (service.isAdapter(doc)) adapters.push({ uri: doc.uri, text: doc.getText() });
      else if (f.explicit) throw new UsageError(`--contract: '${escapeControls(relative(io.cwd, f.path))}' is not an adapter file`);
    }
  if (paths.length && !adapters.length) throw new UsageError(`--contract: no adapter files in ${paths.join(' ')}`);
  return adapters;
}

/** The contract of adapter files read by `readAdapters`. */
export function contractOf(service: AdapterService, files: readonly AdapterText[]): LoadedContract {
  const adapters = files.map(f => TextDocument.create(f.uri, 'yaml', 1, f.text));
  return {
    service,
    contract: service.contract(adapters),
    operations: service.operations(adapters),
    claimsMcpAql: adapters.length > 0,
  };
}
