/**
 * The command line (design s5): a thin adapter over the service. Exit 0 clean, 1 problems at error
 * level (or over --max-warnings), 2 bad usage or unreadable input.
 */
import { isMainThread } from 'node:worker_threads';
import { InputError } from './args';
import { runCheck } from './check'; // also the check worker's script
import { deps, VERSION } from './deps';
import { UsageError } from './files';
import { escapeControls } from './format';
import { endOnClosedOutput, guardIo, processIo, type Io } from './io';
import { runInit, runPreview, runRegistry } from './authoring';
import { commandHelp, COMMANDS } from './options';
import { runContractDiff, runDocs, runInfer, runTypes } from './contract';
import { runVerify } from './verify';
import { runProbe, runWatch } from './runtime'; // also watch's judging thread's script

/** The top-level help: every command's synopsis and what it does, then check's options (each command has its own --help). */
const USAGE = `Usage: mcp-aql-errors <command> [options]   (mcp-aql-errors <command> --help for its options)
${Object.values(COMMANDS)
  .map(c => `  mcp-aql-errors ${c.synopsis}${c.about ? `\n${c.about.replace(/^/gm, '      ')}` : ''}`)
  .join('\n')}
  mcp-aql-errors --help | --version

${commandHelp('check')}
Exit status: 0 no problem at error level, 1 problems at error level (or at --fail-severity, or more
warnings than --max-warnings), 2 bad usage, an invalid config file or unreadable input.
`;

/** The arguments a command reads as its own: for watch, probe and diff, those before `--`. */
const ownArgs = (cmd: string, rest: readonly string[]): readonly string[] =>
  COMMANDS[cmd]!.dashes && rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;

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
    if (Object.hasOwn(COMMANDS, cmd) && cmd !== 'check' && cmd !== 'verify' && ownArgs(cmd, rest).some(x => x === '--help' || x === '-h')) {
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
    if (cmd === 'infer') return runInfer(rest, io);
    if (cmd === 'watch') return await runWatch(rest, io);
    // The MCP SDK (and zod) load only when probe opens a session (runtime/session/index.ts).
    if (cmd === 'probe') return await runProbe(rest, io);
    throw new UsageError(`unknown command '${cmd}'`);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line for bad usage (and where to read the usage); an invalid config file lists its problems.
      const hint =
        e instanceof InputError ? '' : ` (mcp-aql-errors ${cmd !== undefined && Object.hasOwn(COMMANDS, cmd) ? `${cmd} ` : ''}--help)`;
      io.stderr(`mcp-aql-errors: ${escapeControls(e.message, { keepLineBreaks: e instanceof InputError })}${hint}\n`);
      return 2;
    }
    io.stderr(`mcp-aql-errors: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

if (require.main === module && isMainThread) {
  endOnClosedOutput();
  main(process.argv.slice(2), processIo()).then(code => {
    process.exitCode = code;
  });
}
