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
import { parseOptions, PROBE_FORMATS } from '../options';

export interface RuntimeArgs {
  /** The server's command after `--` (empty with --url or --config). */
  readonly command: string;
  readonly commandArgs: readonly string[];
  /** --url: a Streamable HTTP server (probe), the upstream (watch). */
  readonly url?: string;
  /** --header, as given, in order. */
  readonly headers: Readonly<Record<string, string>>;
  /** --config, --server, --all. */
  readonly config?: string;
  readonly server?: string;
  readonly all: boolean;
  /** watch: --listen, --print-config. */
  readonly listen?: string;
  readonly printConfig: boolean;
  readonly contract: readonly string[];
  readonly format: string;
  readonly rules: Record<string, RuleLevel>;
  readonly outputFile?: string;
  readonly record?: string;
  /** --infer: the contract inferred from the session's failures is written there (inferSink.ts). */
  readonly infer?: string;
  readonly timeout: number;
  readonly allowWrites: boolean;
  readonly list: boolean;
  /** probe: the folders the server was given (--root), where missing paths are made up. */
  readonly roots: readonly string[];
  /** probe: run the server in the sandbox (no network, a throwaway home, the file system read-only). */
  readonly sandbox: boolean;
  /** probe: the user's calls and the outcomes they expect. */
  readonly scenarios?: string;
}

/**
 * The options before `--` (cli/options.ts: `watch` and `probe`), then the server's command. `_allowed`
 * is kept for the callers: which options each command takes is declared in cli/options.ts.
 */
export function parseRuntimeArgs(cmd: 'watch' | 'probe', argv: readonly string[], _allowed?: readonly string[]): RuntimeArgs {
  const { options, plain, afterDashes } = parseOptions(cmd, argv);
  const a = {
    contract: [] as string[],
    format: 'text',
    rules: {} as Record<string, RuleLevel>,
    timeout: 5000,
    allowWrites: false,
    list: false,
    all: false,
    printConfig: false,
    roots: [] as string[],
    sandbox: false,
  };
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let outputFile: string | undefined,
    record: string | undefined,
    infer: string | undefined,
    url: string | undefined,
    config: string | undefined;
  let server: string | undefined, listen: string | undefined, scenarios: string | undefined;
  for (const [name, v] of options) {
    const value = String(v);
    if (name === '--contract') a.contract.push(value);
    else if (name === '--format') {
      // markdown and html are the probe's error-readiness table: a row per server, not a transcript's findings.
      const formats: readonly string[] = cmd === 'probe' ? PROBE_FORMATS : FORMATS;
      if (!formats.includes(value)) throw new UsageError(`unknown format '${value}' (${formats.join(', ')})`);
      a.format = value;
    } else if (name === '--output-file') outputFile = value;
    else if (name === '--record') record = value;
    else if (name === '--infer') infer = value;
    else if (name === '--rule') {
      const [code, level] = ruleOption(value);
      a.rules[code] = level;
    } else if (name === '--timeout') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 600_000) throw new UsageError('--timeout takes milliseconds, 1 to 600000');
      a.timeout = n;
    } else if (name === '--allow-writes') a.allowWrites = true;
    else if (name === '--list') a.list = true;
    else if (name === '--root') a.roots.push(value);
    else if (name === '--sandbox') a.sandbox = true;
    else if (name === '--scenarios') scenarios = value;
    else if (name === '--url') {
      if (!/^https?:\/\/[^/]/i.test(value) || !URL.canParse(value))
        throw new UsageError(`--url takes an http:// or https:// URL, not '${escapeControls(value)}'`);
      url = value;
    } else if (name === '--header') {
      const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(value);
      if (!m || /[\r\n\0]/.test(m[2]!)) throw new UsageError(`--header takes 'Name: value', not '${escapeControls(value)}'`);
      headers[m[1]!] = m[2]!;
    } else if (name === '--config') config = value;
    else if (name === '--server') server = value;
    else if (name === '--all') a.all = true;
    else if (name === '--listen') listen = value;
    else if (name === '--print-config') a.printConfig = true;
  }
  const command = afterDashes?.[0];
  const ways = [
    command !== undefined && "a command after '--'",
    config !== undefined && '--config',
    url !== undefined && cmd === 'probe' && '--url',
  ].filter(Boolean);
  if (ways.length > 1) throw new UsageError(`${cmd}: give the server one way: ${ways.join(' or ')}`);
  if (!ways.length && !(cmd === 'watch' && url !== undefined))
    throw new UsageError(
      cmd === 'watch'
        ? "watch needs a server: --config <file> [--server <name>], --listen <addr> --url <U>, or its command after '--': watch [options] -- node server.js"
        : "probe needs a server: --config <file> [--server <name> | --all], --url <U>, or its command after '--': probe [options] -- node server.js",
    );
  if (plain.length) throw new UsageError(`${cmd}: unexpected argument '${plain[0]}' (the server's command goes after '--')`);
  if (server !== undefined && config === undefined) throw new UsageError(`${cmd}: --server names a server of --config <file>`);
  if (a.all && (config === undefined || server !== undefined))
    throw new UsageError('probe: --all probes every server of --config <file> (without --server)');
  if (a.list && (a.format === 'markdown' || a.format === 'html'))
    throw new UsageError('probe: --list prints the plan as text or json, not the readiness table');
  if (a.all && infer !== undefined) throw new UsageError('probe: --infer writes the contract of one server, not of --all');
  if (a.list && infer !== undefined) throw new UsageError('probe: --list sends nothing: there is no failure to --infer from');
  if (Object.keys(headers).length && url === undefined) throw new UsageError(`${cmd}: --header goes with --url`);
  if (cmd === 'watch') {
    if (a.printConfig && config === undefined)
      throw new UsageError('watch: --print-config prints the --config <file> with watch in front of a server');
    if (url !== undefined && config !== undefined) throw new UsageError('watch: give the server one way: --config or --url');
    if (url !== undefined && listen === undefined) throw new UsageError('watch: --url is the upstream of the proxy at --listen <addr>');
    if (listen !== undefined && command !== undefined)
      throw new UsageError("watch: --listen is a proxy for a Streamable HTTP server (--url), not for a command after '--'");
  }
  return {
    ...a,
    outputFile,
    record,
    infer,
    url,
    headers,
    config,
    server,
    listen,
    scenarios,
    command: command ?? '',
    commandArgs: afterDashes?.slice(1) ?? [],
  };
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
