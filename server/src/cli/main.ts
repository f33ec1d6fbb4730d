/**
 * The command line (design s5): a thin adapter over the service. Exit 0 clean, 1 problems at error
 * level (or over --max-warnings), 2 bad usage or unreadable input.
 */
import { runCheck } from './check';
import { deps, VERSION } from './deps';
import { UsageError } from './files';
import { escapeControls } from './format/escape';
import { processIo, type Io } from './io';
import { runPreview } from './preview';
import { runRegistry } from './registryCommand';
import { runTypes } from './types';
import { runVerify } from './verify';

export const USAGE = `Usage:
  mcp-aql-errors check [paths|globs…] [--format text|json|sarif|github] [--max-warnings N] [--rule code=level]… [--code-scope workspace|folder|file]
                       [--follow-symlinks]
  mcp-aql-errors preview <file> [--code X] [--dialect mcp-aql|mcp-tool-result|json-rpc|atlas-gate|all]
                         [--status N --body JSON] [--format text|json] [--follow-symlinks]
  mcp-aql-errors verify <adapters…> <responses…> [--format text|json|sarif|github] [--max-warnings N] [--rule code=level]…
  mcp-aql-errors types <adapter…> [--lang ts|json-schema] [-o file] [--include-registry]
  mcp-aql-errors registry [--json]
  mcp-aql-errors --help | --version
`;

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--version' || cmd === '-v') { io.stdout(VERSION + '\n'); return 0; }
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') { io.stdout(USAGE); return cmd === undefined ? 2 : 0; }
    if (cmd === 'check') return runCheck(rest, io);
    if (cmd === 'registry') return runRegistry(rest, io, deps.registry);
    if (cmd === 'preview') return await runPreview(rest, io);
    if (cmd === 'verify') return runVerify(rest, io);
    if (cmd === 'types') return runTypes(rest, io);
    throw new UsageError(`unknown command '${cmd}'`);
  } catch (e) {
    if (e instanceof UsageError) { io.stderr(`mcp-aql-errors: ${escapeControls(e.message)}\n\n${USAGE}`); return 2; }
    io.stderr(`mcp-aql-errors: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), processIo()).then(code => { process.exitCode = code; });
}
