/**
 * The command line (design s5): a thin adapter over the service. Exit 0 clean, 1 problems at error
 * level (or over --max-warnings), 2 bad usage or unreadable input.
 */
import { isMainThread } from 'node:worker_threads';
import { InputError } from './args';
import './checkWorker'; // dist/cli.js is also the check worker's script
import { runCheck } from './check';
import { deps, VERSION } from './deps';
import { UsageError } from './files';
import { escapeControls } from './format/escape';
import { guardIo, processIo, type Io } from './io';
import { runInit } from './init';
import { commandHelp, COMMANDS } from './options';
import { runContractDiff } from './contractDiff';
import { runDocs } from './docs';
import { runPreview } from './preview';
import { runRegistry } from './registryCommand';
import { runTypes } from './types';
import { runVerify } from './verify';
import { runWatch } from './watch';

/** The top-level help: every command's synopsis, then check's options (each command has its own --help). */
const USAGE = `Usage: mcp-aql-errors <command> [options]   (mcp-aql-errors <command> --help for its options)
${Object.values(COMMANDS)
  .map(c => `  mcp-aql-errors ${c.synopsis}`)
  .join('\n')}
  mcp-aql-errors diff <old> <new> | diff --base <revision> [paths…]
                         [--format text|json|markdown|sarif|github] [--fail-on breaking|dangerous|none]
                         [-o file] [-c config | --no-config] [--follow-symlinks]
      every change to the error contract, classified breaking, dangerous or safe (docs/contract-diff.md);
      exit 1 when a change reaches --fail-on (default breaking)
  mcp-aql-errors docs <adapter…> [-o dir] [--format markdown|html]
      the adapters' error reference: one section per code, the error_mapping tables
  mcp-aql-errors watch [--contract <adapter…>] [--record file.responses.jsonl] [--rule code=level]… [--format F -o file]
                       -- <server command…>
      a transparent stdio proxy for an MCP server: findings on stderr, one a line; the server's exit code
  mcp-aql-errors probe [--contract <adapter…>] [--allow-writes] [--timeout ms] [--list] [--format F] [-o file]
                       [--record file.responses.jsonl] [--rule code=level]… -- <server command…>
      calls built to fail, sent to the server's read-only tools; exit 1 on a finding at error level
  mcp-aql-errors --help | --version

${commandHelp('check')}
Exit status: 0 no problem at error level, 1 problems at error level (or at --fail-severity, or more
warnings than --max-warnings), 2 bad usage, an invalid config file or unreadable input.
`;

/** Commands whose options are not in cli/options.ts (their errors carry no --help hint). */
const KNOWN = new Set(['diff', 'docs', 'watch', 'probe']);

export async function main(argv: readonly string[], outside: Io): Promise<number> {
  const io = guardIo(outside);
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--version' || cmd === '-v') {
      io.stdout(VERSION + '\n');
      return 0;
    }
    if (cmd === 'help' && rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0])) {
      io.stdout(commandHelp(rest[0]));
      return 0;
    }
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      io.stdout(USAGE);
      return cmd === undefined ? 2 : 0;
    }
    if (Object.hasOwn(COMMANDS, cmd) && cmd !== 'check' && cmd !== 'verify' && (rest.includes('--help') || rest.includes('-h'))) {
      io.stdout(commandHelp(cmd));
      return 0;
    }
    if (cmd === 'init') return runInit(rest, io);
    if (cmd === 'check') return await runCheck(rest, io);
    if (cmd === 'registry') return runRegistry(rest, io, deps.registry);
    if (cmd === 'preview') return await runPreview(rest, io);
    if (cmd === 'verify') return runVerify(rest, io);
    if (cmd === 'types') return runTypes(rest, io);
    if (cmd === 'diff') return runContractDiff(rest, io);
    if (cmd === 'docs') return runDocs(rest, io);
    if (cmd === 'watch') return await runWatch(rest, io);
    // Loaded when asked for: the MCP SDK it imports (and zod) cost every other command ~15 ms at start-up.
    if (cmd === 'probe') return await (await import('./probe.js')).runProbe(rest, io);
    throw new UsageError(`unknown command '${cmd}'`);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line for bad usage (and where to read the usage); an invalid config file lists its problems.
      const hint =
        e instanceof InputError || !(cmd === undefined || Object.hasOwn(COMMANDS, cmd) || !KNOWN.has(cmd))
          ? ''
          : ` (mcp-aql-errors ${cmd !== undefined && Object.hasOwn(COMMANDS, cmd) ? `${cmd} ` : ''}--help)`;
      io.stderr(`mcp-aql-errors: ${escapeControls(e.message, { keepLineBreaks: e instanceof InputError })}${hint}\n`);
      return 2;
    }
    io.stderr(`mcp-aql-errors: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

if (require.main === module && isMainThread) {
  main(process.argv.slice(2), processIo()).then(code => {
    process.exitCode = code;
  });
}
