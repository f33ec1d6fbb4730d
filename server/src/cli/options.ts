/**
 * Every command's options, declared once: the parser (`parseOptions`), `<command> --help` and the
 * README's option tables (test/cli/conventions.test.ts compares them) all read these lists.
 */
import { UsageError } from './files';

export interface OptionSpec {
  /** The long name first (`--output-file`), then aliases (`-o`). */
  readonly names: readonly string[];
  /** The value's placeholder (`P`, `code=level`); none for a flag. */
  readonly value?: string;
  /** The plain arguments right after the value are values too (`--contract a.md b.md`). */
  readonly many?: true;
  readonly help: string;
}

export interface CommandSpec {
  readonly synopsis: string;
  /** What the command does, in a line or two (the top-level usage and `<command> --help`). */
  readonly about?: string;
  /** `--` ends the options: what follows is the server's command (watch, probe) or paths (diff). */
  readonly dashes?: true;
  readonly options: readonly OptionSpec[];
}

const HELP: OptionSpec = { names: ['--help', '-h'], help: "this command's options" };
const COLOR: OptionSpec[] = [
  { names: ['--color'], help: 'colour the text report even when standard output is not a terminal (also FORCE_COLOR=1)' },
  { names: ['--no-color'], help: 'never colour (also NO_COLOR=1)' },
];
export const FORMATS = ['text', 'compact', 'json', 'sarif', 'github', 'junit', 'checkstyle', 'codeclimate'] as const;
/** `probe` also writes the error-readiness table (docs/cli.md, "The error-readiness table"): a row per server. */
export const PROBE_FORMATS = [...FORMATS, 'markdown', 'html'] as const;
const REPORT: OptionSpec[] = [
  {
    names: ['--format', '-f'],
    value: 'F',
    help: `${FORMATS.join(', ')} (default text); repeatable, each -o goes with the -f before it`,
  },
  { names: ['--output-file', '-o'], value: 'P', help: 'write the report of the -f before it to P (folders created, written whole)' },
  { names: ['--quiet', '-q'], help: 'report errors only' },
  { names: ['--max-warnings'], value: 'N', help: 'exit 1 when there are more than N warnings' },
  {
    names: ['--fail-severity', '-F'],
    value: 'L',
    help: 'the lowest level that makes the exit status 1: error (default), warning, information, hint',
  },
  {
    names: ['--rule'],
    value: 'code=level',
    help: "set a code's level: off, hint, information (info), warning (warn), error; or 0 off, 1 warning, 2 error; repeatable",
  },
  { names: ['--follow-symlinks'], help: 'follow symbolic links that lead outside the working directory' },
  ...COLOR,
];

/** `watch` and `probe`: the contract, the report and the record (their options before `--`). */
const runtimeOptions = (formats: readonly string[]): OptionSpec[] => [
  {
    names: ['--contract'],
    value: 'P…',
    many: true,
    help: 'the adapters (files or folders) the answers are judged against; without it, the MCP-level rules and the registry',
  },
  { names: ['--format'], value: 'F', help: `${formats.join(', ')} (default text)` },
  { names: ['--output-file', '-o'], value: 'P', help: 'write the report to P (folders created, written whole)' },
  { names: ['--record'], value: 'P', help: 'append every response to the JSON Lines file P (verify reads it)' },
  {
    names: ['--infer'],
    value: 'P',
    help: 'after the session, write the contract inferred from the failures seen to P (merged into P when it exists)',
  },
  { names: ['--rule'], value: 'code=level', help: "set a code's level, as check's --rule; repeatable" },
];

/** `watch` and `probe`: which server, other than a command after `--`. */
const TARGET: OptionSpec[] = [
  {
    names: ['--config'],
    value: 'P',
    help: "a host's MCP config: VS Code's mcp.json (servers), Claude Desktop's or Cursor's (mcpServers)",
  },
  { names: ['--server'], value: 'NAME', help: 'the server of --config (needed when it has more than one)' },
];

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  check: {
    synopsis: 'check [paths|globs…] [options]',
    options: [
      ...REPORT,
      { names: ['--code-scope'], value: 'S', help: "which other files' codes a file sees: workspace (default), folder, file" },
      { names: ['--ignore-pattern'], value: 'G', help: 'skip files matching glob G (relative to the working directory); repeatable' },
      {
        names: ['--no-error-on-unmatched-pattern'],
        help: 'a glob that matches nothing, or no adapter file at all, is not an error (exit 0)',
      },
      { names: ['--jobs'], value: 'N', help: 'worker threads (default: all cores from 1,500 files; 1: this thread)' },
      { names: ['--cache'], help: 'reuse results of unchanged files (.mcp-aql-cache.json; equal to a full check)' },
      { names: ['--cache-location'], value: 'P', help: 'the cache file (implies --cache)' },
      { names: ['--fix'], help: 'apply the safe fixes and write the files that changed' },
      { names: ['--fix-dry-run'], help: 'print the safe fixes as a unified diff; write nothing' },
      { names: ['--stdin'], help: 'check standard input (with --fix: print the fixed text)' },
      { names: ['--stdin-filename'], value: 'P', help: 'the path standard input stands for (kind, config, report)' },
      { names: ['--config', '-c'], value: 'P', help: 'use this config file instead of looking up .mcp-aql.yaml/.yml/.json' },
      { names: ['--no-config'], help: 'use no config file' },
      { names: ['--print-config'], value: 'P', help: 'print the options that apply to file P (JSON) and exit' },
      HELP,
    ],
  },
  verify: { synopsis: 'verify <adapters…> <responses…> [options]', options: [...REPORT, HELP] },
  preview: {
    synopsis: 'preview <file> [options]',
    options: [
      { names: ['--code'], value: 'X', help: "the code to render (default the file's first custom code); an unknown code is an error" },
      { names: ['--dialect'], value: 'D', help: 'mcp-aql, mcp-tool-result, json-rpc, atlas-gate or all (default)' },
      { names: ['--status'], value: 'N', help: 'simulate an upstream response with this HTTP status' },
      { names: ['--body'], value: 'JSON', help: "the simulated response's body (with --status)" },
      { names: ['--format', '-f'], value: 'F', help: 'text (default) or json' },
      { names: ['--mirror-confirmation'], help: 'include the confirmation object the client must send back' },
      { names: ['--follow-symlinks'], help: 'follow a symbolic link that leads outside the working directory' },
      HELP,
    ],
  },
  types: {
    synopsis: 'types <adapter…> [options]',
    options: [
      { names: ['--lang'], value: 'L', help: 'ts (default) or json-schema' },
      {
        names: ['--output-file', '-o', '--out'],
        value: 'P',
        help: 'write to P (folders created, written whole) instead of standard output',
      },
      { names: ['--include-registry'], help: 'every registry code, not only those the error_mapping targets' },
      HELP,
    ],
  },
  diff: {
    dashes: true,
    synopsis: 'diff <old> <new> [options] | diff --base <revision> [paths…] [options]',
    about:
      'every change to the error contract, classified breaking, dangerous or safe (docs/contract-diff.md);\nexit 1 when a change reaches --fail-on (default breaking)',
    options: [
      {
        names: ['--base'],
        value: 'REV',
        help: 'compare git revision REV with the working tree (the paths given, or the working directory)',
      },
      { names: ['--format'], value: 'F', help: 'text (default), json, markdown, sarif, github' },
      { names: ['--fail-on'], value: 'L', help: 'the change that makes the exit status 1: breaking (default), dangerous, none' },
      { names: ['--output-file', '-o'], value: 'P', help: 'write the report to P (folders created, written whole)' },
      { names: ['--config', '-c'], value: 'P', help: 'use this config file instead of looking up .mcp-aql.yaml/.yml/.json' },
      { names: ['--no-config'], help: 'use no config file' },
      { names: ['--follow-symlinks'], help: 'follow symbolic links that lead outside the working directory' },
      HELP,
    ],
  },
  docs: {
    synopsis: 'docs <adapter…> [options]',
    about: "the adapters' error reference: one section per code, the error_mapping tables",
    options: [
      { names: ['--format'], value: 'F', help: 'markdown (default) or html (one self-contained page)' },
      { names: ['--out', '-o'], value: 'DIR', help: 'write DIR/error-reference.md (or .html) instead of standard output' },
      { names: ['--config', '-c'], value: 'P', help: 'use this config file instead of looking up .mcp-aql.yaml/.yml/.json' },
      { names: ['--no-config'], help: 'use no config file' },
      { names: ['--follow-symlinks'], help: 'follow symbolic links that lead outside the working directory' },
      HELP,
    ],
  },
  infer: {
    synopsis: 'infer <transcript.jsonl…> [options]',
    about: "an adapter's error_codes / error_mapping from the failures in recorded JSON-RPC traffic (probe --record, watch --record)",
    options: [
      {
        names: ['--output-file', '-o', '--out'],
        value: 'P',
        help: 'write the adapter to P (folders created, written whole) instead of standard output',
      },
      {
        names: ['--merge'],
        value: 'P',
        help: 'add the new codes to the YAML adapter P, its entries and comments kept; written back to P unless -o',
      },
      { names: ['--name'], value: 'N', help: "the new adapter's name (default inferred)" },
      HELP,
    ],
  },
  watch: {
    dashes: true,
    synopsis: 'watch [options] (--config <file> [--server <name>] | --listen <addr> --url <U> | -- <server command…>)',
    about: 'a transparent proxy for an MCP server (stdio, or Streamable HTTP with --listen): findings on stderr, one a line',
    options: [
      ...TARGET,
      ...runtimeOptions(FORMATS),
      { names: ['--url'], value: 'U', help: 'the Streamable HTTP server the proxy forwards to (with --listen)' },
      { names: ['--listen'], value: 'ADDR', help: 'serve the proxy at ADDR (PORT or HOST:PORT; host 127.0.0.1 when not given)' },
      {
        names: ['--print-config'],
        help: 'print the --config file with watch put in front of --server (an http server: with --listen), and exit',
      },
      HELP,
    ],
  },
  probe: {
    dashes: true,
    synopsis: 'probe [options] (--config <file> [--server <name> | --all] | --url <U> | -- <server command…>)',
    about:
      "calls built to fail (the schema's and the tools' own: missing paths and ids), sent to the server's read-only tools; exit 1 on a finding at error level",
    options: [
      ...TARGET,
      { names: ['--all'], help: 'probe every server of --config, into one report' },
      { names: ['--url'], value: 'U', help: "the server's Streamable HTTP endpoint (http:// or https://)" },
      { names: ['--header'], value: "'N: V'", help: 'an HTTP header sent with every request to --url; repeatable' },
      ...runtimeOptions(PROBE_FORMATS),
      { names: ['--timeout'], value: 'MS', help: 'the longest wait for an answer, 1 to 600000 ms (default 5000)' },
      {
        names: ['--allow-writes'],
        help: 'also call the tools that are not marked read-only, with calls that fail the schema and leave their other parameters out',
      },
      {
        names: ['--sandbox'],
        help: 'run the server with no network, a throwaway home and working folder, the file system read-only (Linux namespaces), and call every tool',
      },
      {
        names: ['--scenarios'],
        value: 'P',
        help: 'also send the calls of the YAML or JSON file P, each judged against the outcome it expects (failure or success, code, category, channel)',
      },
      {
        names: ['--root'],
        value: 'DIR',
        help: "a folder the server was given, where missing paths are made up (default: the server's arguments that are folders); repeatable",
      },
      { names: ['--list'], help: 'print the plan (JSON with --format json) and send nothing' },
      HELP,
    ],
  },
  registry: { synopsis: 'registry [options]', options: [{ names: ['--json'], help: 'the registry as JSON' }, HELP] },
  init: { synopsis: 'init', options: [HELP] },
};

/**
 * `--name=value`, `--name value`, `-x value`; flags take no value. Returns the options in order, the
 * plain arguments, and what follows `--` (undefined without one: then `--` is not special to the command).
 */
export function parseOptions(
  cmd: string,
  argv: readonly string[],
): { options: [string, string | true][]; plain: string[]; afterDashes?: string[] } {
  const specs = COMMANDS[cmd]!.options;
  const byName = new Map(specs.flatMap(s => s.names.map(n => [n, s] as const)));
  const options: [string, string | true][] = [];
  const plain: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--' && COMMANDS[cmd]!.dashes) return { options, plain, afterDashes: argv.slice(i + 1) };
    if (!x.startsWith('-') || x === '-') {
      plain.push(x);
      continue;
    }
    const eq = x.startsWith('--') ? x.indexOf('=') : -1;
    const name = eq > 0 ? x.slice(0, eq) : x;
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`${cmd}: unknown option '${name}'`);
    if (!spec.value) {
      if (eq > 0) throw new UsageError(`${name} takes no value`);
      options.push([spec.names[0]!, true]);
      continue;
    }
    const v = eq > 0 ? x.slice(eq + 1) : argv[++i];
    if (v === undefined || (eq < 0 && v.startsWith('-') && v !== '-' && !/^-\d/.test(v))) throw new UsageError(`${name} needs a value`);
    options.push([spec.names[0]!, v]);
    if (spec.many && eq < 0) while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) options.push([spec.names[0]!, argv[++i]!]);
  }
  return { options, plain };
}

/** `<command> --help`: its synopsis and options, one a line. */
export function commandHelp(cmd: string): string {
  const c = COMMANDS[cmd]!;
  const rows = c.options.map(o => [o.names.slice(1).concat(o.names[0]!).join(', ') + (o.value ? ` ${o.value}` : ''), o.help] as const);
  const width = Math.max(...rows.map(r => r[0].length));
  const about = c.about ? `${c.about}\n` : '';
  return `Usage: mcp-aql-errors ${c.synopsis}\n${about}${rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join('\n')}\n`;
}
