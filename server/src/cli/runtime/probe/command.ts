/**
 * `mcp-aql-errors probe [--contract <adapter…>] [--allow-writes] [--timeout ms] [--list] [--format F]
 * [-o file] [--record file.responses.jsonl] -- <server command…>` (docs/cli.md, "probe"): an active conformance run. The server is started
 * through a session (../session: the SDK's client over stdio), its tools listed, and each call the plan builds to fail
 * (service `planProbe`: read-only tools only unless --allow-writes) is sent and its answer judged.
 * The report is the transcript — each request and its answer, one JSON-RPC message a line, which
 * `verify` reads as is — with the findings on it, in every `check` format; exit 1 on an error.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PlacedAnswer, PlannedCall, ProbePlan } from '../../../service';
import { VERSION } from '../../deps';
import { escapeControls, jsonText } from '../../format';
import type { Io } from '../../io';
import { outKind, render, writeFileAtomically, writeOutputFile } from '../../output';
import { openSession, type McpSession } from '../session';
import { count, type FileReport } from '../../report';
import { loadContract, parseRuntimeArgs, type LoadedContract, type RuntimeArgs } from '../args';

/** The report's file: the transcript of this run (written by -o only in the report's format). */
export const PROBE_TRANSCRIPT = 'probe.responses.jsonl';

const START_TIMEOUT = 10_000;
/** The calls sent at most; the summary says how many the plan had. */
export const MAX_CALLS = 1000;

const callName = (c: PlannedCall) => (c.operation ? `${c.tool} ${c.operation}` : c.tool);

function planText(plan: ProbePlan): string {
  const lines = plan.calls.map(c => `call  ${callName(c)}: ${c.case.label} ${JSON.stringify(c.arguments)}`);
  for (const s of plan.skipped) lines.push(`skip  ${s.operation ? `${s.tool} ${s.operation}` : s.tool}: ${s.reason}`);
  return lines.map(l => escapeControls(l)).join('\n') + '\n';
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export async function runProbe(argv: readonly string[], io: Io): Promise<number> {
  const args = parseRuntimeArgs('probe', argv, ['--allow-writes', '--timeout', '--list', '--record']);
  const loaded = loadContract(args.contract, io);
  const session = openSession({ transport: 'stdio', command: args.command, args: args.commandArgs, cwd: io.cwd }, VERSION);
  // Stopped (the editor's Cancel, Ctrl+C): the server is stopped first — the SDK ends its input, then
  // SIGTERM, then SIGKILL — so none outlives us, and we end by the same signal.
  const handlers = SIGNALS.map(sig => {
    const h = () => {
      for (const [s, f] of handlers) process.off(s, f);
      void session.close().finally(() => process.kill(process.pid, sig));
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  try {
    return await probeWith(session, args, loaded, io);
  } finally {
    for (const [s, f] of handlers) process.off(s, f);
  }
}

async function probeWith(session: McpSession, args: RuntimeArgs, loaded: LoadedContract, io: Io): Promise<number> {
  const fail = (what: string, e: unknown) => {
    const tail = session.stderr.length
      ? `\nthe server's last stderr lines:\n${session.stderr.map(l => `  ${escapeControls(l)}`).join('\n')}`
      : '';
    io.stderr(`mcp-aql-errors probe: ${what}: ${escapeControls(e instanceof Error ? e.message : String(e))}${tail}\n`);
    return 2;
  };
  let tools;
  try {
    // Starting (initialize, tools/list) gets at least 10 s: a short --timeout is for the calls.
    tools = await session.start(Math.max(args.timeout, START_TIMEOUT));
  } catch (e) {
    await session.close();
    return fail(`cannot start '${args.command}' as an MCP server`, e);
  }
  const plan = loaded.service.planProbe(tools, loaded.operations, args.allowWrites);
  if (args.list) {
    await session.close();
    io.stdout(args.format === 'json' ? jsonText(plan) : planText(plan));
    return 0;
  }
  const listed = new Set(tools.map(t => t.name));
  let transcript = '';
  const answers: PlacedAnswer[] = [];
  let sent = 0;
  // A server that lists thousands of tools does not keep a CI job busy forever.
  for (const call of plan.calls.slice(0, MAX_CALLS)) {
    const outcome = await session.call(call.tool, call.arguments, args.timeout);
    sent++;
    const at = transcript.length;
    transcript += outcome.request + '\n';
    if (outcome.kind === 'answer') {
      const exchange = {
        response: outcome.response,
        tool: call.tool,
        listed: listed.has(call.tool),
        claimsMcpAql: loaded.claimsMcpAql,
        probe: call.case,
      };
      answers.push({ at: transcript.length, exchange });
      transcript += outcome.response + '\n';
    } else answers.push({ at, end: at + outcome.request.length, silence: outcome.kind, tool: call.tool, what: call.case.label });
    if (outcome.kind === 'exited') break;
  }
  const stillUp = !session.closed;
  await session.close();
  // --record: the transcript is written (whole), and the report's positions are that file's.
  const path = resolve(io.cwd, args.record ?? PROBE_TRANSCRIPT);
  if (args.record !== undefined) writeFileAtomically(io, args.record, transcript);
  const doc = TextDocument.create(pathToFileURL(path).href, 'json', 1, transcript);
  const report: FileReport = {
    path,
    rel: relative(io.cwd, path).split(sep).join('/'),
    uri: doc.uri,
    text: transcript,
    diagnostics: loaded.service.answerDiagnostics(doc, answers, loaded.contract, { rules: args.rules }),
  };
  const out = render(args.format, [report], io, io.color, 'probe transcript');
  if (args.outputFile) writeOutputFile(io, args.outputFile, out);
  else io.stdout(out, outKind(args.format));
  io.stderr(
    `mcp-aql-errors probe: ${sent} of ${plan.calls.length} call${plan.calls.length === 1 ? '' : 's'} sent to ${listed.size} tool${listed.size === 1 ? '' : 's'} (${plan.skipped.length} skipped: --list shows why)${stillUp ? '' : '; the server exited'}\n`,
  );
  return count([report]).errors > 0 ? 1 : 0;
}
