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
import { runPreview } from './preview';
import { runRegistry } from './registryCommand';
import { runTypes } from './types';
import { runVerify } from './verify';

const USAGE = `Usage:
  mcp-aql-errors check [paths|globs…] [options]
      --format F            text (default), json, sarif, github, junit, checkstyle, codeclimate
      -o, --output-file P   write the report to P instead of standard output
      -q, --quiet           report errors only
      --max-warnings N      exit 1 when there are more than N warnings
      --rule code=level     set a code's level (off, hint, information, warning, error); repeatable
      --code-scope S        which other files' codes a file sees: workspace (default), folder, file
      --follow-symlinks     follow symbolic links that lead outside the working directory
      --jobs N              worker threads (default: all cores for a few hundred files or more; 1: this thread)
      --cache               reuse results of unchanged files (.mcp-aql-cache.json; equal to a full check)
      --cache-location P    the cache file (implies --cache)
      --fix                 apply the safe fixes and write the files that changed
      --fix-dry-run         print the safe fixes as a unified diff; write nothing
      --stdin               check standard input (with --fix: print the fixed text)
      --stdin-filename P    the path standard input stands for (kind, config, report)
      -c, --config P        use this config file instead of looking up .mcp-aql.yaml/.yml/.json
      --no-config           use no config file
      --print-config P      print the options that apply to file P (JSON) and exit
  mcp-aql-errors preview <file> [--code X] [--dialect mcp-aql|mcp-tool-result|json-rpc|atlas-gate|all]
                         [--status N --body JSON] [--format text|json] [--follow-symlinks]
  mcp-aql-errors verify <adapters…> <responses…> [--format text|json|sarif|github] [--max-warnings N] [--rule code=level]…
  mcp-aql-errors types <adapter…> [--lang ts|json-schema] [-o file] [--include-registry]
  mcp-aql-errors registry [--json]
  mcp-aql-errors --help | --version

Exit status: 0 no problem at error level, 1 problems at error level (or more warnings than
--max-warnings), 2 bad usage, an invalid config file or unreadable input.
`;

export async function main(argv: readonly string[], outside: Io): Promise<number> {
  const io = guardIo(outside);
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--version' || cmd === '-v') {
      io.stdout(VERSION + '\n');
      return 0;
    }
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      io.stdout(USAGE);
      return cmd === undefined ? 2 : 0;
    }
    if (cmd === 'check') return await runCheck(rest, io);
    if (cmd === 'registry') return runRegistry(rest, io, deps.registry);
    if (cmd === 'preview') return await runPreview(rest, io);
    if (cmd === 'verify') return runVerify(rest, io);
    if (cmd === 'types') return runTypes(rest, io);
    throw new UsageError(`unknown command '${cmd}'`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(
        `mcp-aql-errors: ${escapeControls(e.message, { keepLineBreaks: e instanceof InputError })}\n${e instanceof InputError ? '' : `\n${USAGE}`}`,
      );
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
