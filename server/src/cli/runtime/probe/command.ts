/**
 * `mcp-aql-errors probe [--contract <adapter…>] [--allow-writes] [--timeout ms] [--list] [--format F]
 * [-o file] [--record file.responses.jsonl] (--config <file> [--server <name> | --all] | --url <U>
 * [--header 'N: V'] | -- <server command…>)` (docs/cli.md, "probe"): an active conformance run. The server is started or
 * connected to through a session (../session: the SDK's client, either protocol era, stdio or
 * Streamable HTTP), its tools listed, and each call the plan builds to fail (service `planProbe`:
 * read-only tools only unless --allow-writes) is sent and its answer judged; a server with resources
 * is also asked for one that does not exist. The report is the transcript — each request and its
 * answer, one JSON-RPC message a line, which `verify` reads as is — with the findings on it (the
 * negotiated revision and era as a `runtime.session` hint on its start; over HTTP, each exchange's
 * HTTP facts), in every `check` format; exit 1 on an error. `--all`: every server of the config file,
 * one transcript each, in one report.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PlacedAnswer, PlannedCall, ProbePlan, ToolInfo } from '../../../service';
import { VERSION } from '../../deps';
import { escapeControls, jsonText } from '../../format';
import type { Io } from '../../io';
import { outKind, render, writeFileAtomically, writeOutputFile } from '../../output';
import { openSession, type McpSession } from '../session';
import { targetName, targetsOf, type NamedTarget } from '../targets';
import { count, type FileReport } from '../../report';
import { loadContract, parseRuntimeArgs, type LoadedContract, type RuntimeArgs } from '../args';

/** The report's file: the transcript of this run (written by -o only in the report's format). */
export const PROBE_TRANSCRIPT = 'probe.responses.jsonl';
/** With --all, each server's transcript: probe.<name>.responses.jsonl. */
const transcriptOf = (name: string) => `probe.${name.replace(/[^\w.-]+/g, '_')}.responses.jsonl`;
/** The resource a server with resources is asked for: none has it. */
export const NO_SUCH_RESOURCE = 'mcp-aql-probe://no-such-resource';

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
  const targets = targetsOf(args, io);
  const reports: FileReport[] = [];
  let failed = false;
  for (const t of targets) {
    const r = await probeOne(t, args, loaded, io, targets.length > 1);
    if (r === 'failed') failed = true;
    else if (r !== 'listed') reports.push(r);
  }
  if (args.list) return failed ? 2 : 0;
  if (reports.length) {
    const out = render(args.format, reports, io, io.color, 'probe transcript');
    if (args.outputFile) writeOutputFile(io, args.outputFile, out);
    else io.stdout(out, outKind(args.format));
  }
  if (failed) return 2;
  return count(reports).errors > 0 ? 1 : 0;
}

/** One server probed: its report, or it could not be started ('failed', said on stderr), or --list printed its plan. */
async function probeOne(
  t: NamedTarget,
  args: RuntimeArgs,
  loaded: LoadedContract,
  io: Io,
  several: boolean,
): Promise<FileReport | 'failed' | 'listed'> {
  const session = openSession(t.target, VERSION);
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
    return await probeWith(session, t, args, loaded, io, several);
  } finally {
    for (const [s, f] of handlers) process.off(s, f);
  }
}

async function probeWith(
  session: McpSession,
  t: NamedTarget,
  args: RuntimeArgs,
  loaded: LoadedContract,
  io: Io,
  several: boolean,
): Promise<FileReport | 'failed' | 'listed'> {
  const name = targetName(t);
  const fail = (what: string, e: unknown) => {
    const tail = session.stderr.length
      ? `\nthe server's last stderr lines:\n${session.stderr.map(l => `  ${escapeControls(l)}`).join('\n')}`
      : '';
    io.stderr(`mcp-aql-errors probe: ${escapeControls(what)}: ${escapeControls(e instanceof Error ? e.message : String(e))}${tail}\n`);
    return 'failed' as const;
  };
  let tools: ToolInfo[];
  try {
    // Starting (discover or initialize, tools/list) gets at least 10 s: a short --timeout is for the calls.
    tools = await session.start(Math.max(args.timeout, START_TIMEOUT));
  } catch (e) {
    await session.close();
    return fail(t.target.transport === 'http' ? `cannot reach '${name}' as an MCP server` : `cannot start '${name}' as an MCP server`, e);
  }
  const plan = loaded.service.planProbe(tools, loaded.operations, args.allowWrites);
  const negotiated = session.negotiated!;
  if (args.list) {
    await session.close();
    if (several)
      io.stdout(
        args.format === 'json'
          ? jsonText({ server: name, revision: negotiated.revision, plan })
          : `# ${escapeControls(name)}\n${planText(plan)}`,
      );
    else io.stdout(args.format === 'json' ? jsonText(plan) : planText(plan));
    return 'listed';
  }
  const listed = new Set(tools.map(x => x.name));
  const schemas = new Map(tools.map(x => [x.name, x.outputSchema] as const));
  const revision = negotiated.revision;
  let transcript = '';
  const answers: PlacedAnswer[] = [
    {
      at: 0,
      end: 0,
      session: { revision, era: negotiated.era, transport: t.target.transport, server: negotiated.server, configName: t.name },
    },
  ];
  /** Each request line by its JSON-RPC id, to place an HTTP exchange's findings on it. */
  const lines = new Map<string, { at: number; end: number }>();
  const place = (request: string) => {
    const at = transcript.length;
    transcript += request + '\n';
    try {
      const id = (JSON.parse(request) as { id?: unknown }).id;
      if (id !== undefined) lines.set(JSON.stringify(id), { at, end: at + request.length });
    } catch {
      // our own request: always JSON
    }
    return at;
  };
  let sent = 0;
  // A server that lists thousands of tools does not keep a CI job busy forever.
  for (const call of plan.calls.slice(0, MAX_CALLS)) {
    const outcome = await session.call(call.tool, call.arguments, args.timeout);
    sent++;
    const at = place(outcome.request);
    if (outcome.kind === 'answer') {
      const exchange = {
        response: outcome.response,
        tool: call.tool,
        listed: listed.has(call.tool),
        claimsMcpAql: loaded.claimsMcpAql,
        probe: call.case,
        revision,
        outputSchema: schemas.get(call.tool),
      };
      answers.push({ at: transcript.length, exchange });
      transcript += outcome.response + '\n';
    } else answers.push({ at, end: at + outcome.request.length, silence: outcome.kind, tool: call.tool, what: call.case.label });
    if (outcome.kind === 'exited') break;
  }
  // A server with resources: one that none has (the missing-resource code of its revision).
  if (!session.closed && negotiated.capabilities.resources !== undefined) {
    const outcome = await session.request('resources/read', { uri: NO_SUCH_RESOURCE }, args.timeout);
    place(outcome.request);
    if (outcome.kind === 'answer') {
      const exchange = {
        response: outcome.response,
        tool: NO_SUCH_RESOURCE,
        method: 'resources/read',
        claimsMcpAql: loaded.claimsMcpAql,
        revision,
      };
      answers.push({ at: transcript.length, exchange });
      transcript += outcome.response + '\n';
    }
  }
  // Over Streamable HTTP on 2026-07-28: the requests a server must refuse at the HTTP level.
  if (!session.closed)
    for (const x of await session.sendRefusable(args.timeout)) {
      place(x.request);
      if (x.response !== undefined) transcript += x.response + '\n';
    }
  const stillUp = !session.closed;
  await session.settled();
  for (const http of session.httpExchanges) {
    const line = http.requests.map(r => lines.get(r.id)).find(Boolean) ?? { at: 0, end: 0 };
    answers.push({ ...line, http: { ...http, revision } }); // judged by what the server speaks
  }
  await session.close();
  // --record: the transcript is written (whole), and the report's positions are that file's.
  const path = resolve(io.cwd, args.record ?? (several ? transcriptOf(name) : PROBE_TRANSCRIPT));
  if (args.record !== undefined) writeFileAtomically(io, args.record, transcript);
  const doc = TextDocument.create(pathToFileURL(path).href, 'json', 1, transcript);
  const report: FileReport = {
    path,
    rel: relative(io.cwd, path).split(sep).join('/'),
    uri: doc.uri,
    text: transcript,
    diagnostics: loaded.service.answerDiagnostics(doc, answers, loaded.contract, { rules: args.rules }),
  };
  io.stderr(
    `mcp-aql-errors probe: ${several ? `${escapeControls(name)}: ` : ''}MCP ${escapeControls(revision)} (${negotiated.era} era); ${sent} of ${plan.calls.length} call${plan.calls.length === 1 ? '' : 's'} sent to ${listed.size} tool${listed.size === 1 ? '' : 's'} (${plan.skipped.length} skipped: --list shows why)${stillUp ? '' : '; the server exited'}\n`,
  );
  return report;
}
