/**
 * `mcp-aql-errors probe [--contract <adapter…>] [--allow-writes] [--sandbox] [--root DIR] [--timeout ms]
 * [--list] [--format F] [-o file] [--record file.responses.jsonl] -- <server command…>` (docs/cli.md,
 * "probe"): an active conformance run. The server is started through a session (../session: the SDK's
 * client over stdio; in the sandbox, sandbox.ts), its tools listed, and each call the plan builds to
 * fail (service `planProbe`: the schema's failures and the tools' own — missing paths inside the
 * server's roots, roots.ts — to read-only tools unless the sandbox or --allow-writes) is sent and its
 * answer judged. The findings are placed on the transcript — each request and its answer, one JSON-RPC
 * message a line, which `verify` reads as is — and reported with the coverage (coverage.ts) in every
 * `check` format; the text and JSON reports group findings and give each call a command that sends it
 * again (report.ts). Exit 1 on an error.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseScenarios, type PlacedAnswer, type PlannedCall, type ProbePlan, type Scenario } from '../../../service';
import { deps, VERSION } from '../../deps';
import { readText } from '../../files';
import { InputError } from '../../args';
import { escapeControls, jsonText, neutralizeCommands } from '../../format';
import type { Io } from '../../io';
import { outKind, render, writeFileAtomically, writeOutputFile } from '../../output';
import { openSession, type McpSession } from '../session';
import { count, type FileReport } from '../../report';
import { loadContract, parseRuntimeArgs, type LoadedContract, type RuntimeArgs } from '../args';
import { coverageOf, summaryLine, type CallRecord, type ToolCoverage } from './coverage';
import { callAt, probeJsonExtra, probeText, replayCommand, type SentCall } from './report';
import { serverRoots } from './roots';
import { sandboxed } from './sandbox';

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
  const scenarios = args.scenarios === undefined ? [] : readScenarios(args.scenarios, io.cwd);
  const roots = serverRoots(args.roots, args.commandArgs, io.cwd);
  const box = args.sandbox && !args.list ? sandboxed(args.command, args.commandArgs, io.cwd) : undefined;
  const session = openSession(
    { transport: 'stdio', command: box?.command ?? args.command, args: box?.args ?? args.commandArgs, cwd: io.cwd },
    VERSION,
  );
  const handshake: string[] = [];
  session.onTraffic((direction, message) => {
    if (direction === 'sent' && handshake.length < 2 && /"method":"(?:initialize|notifications\/initialized)"/.test(message))
      handshake.push(message);
  });
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
    return await probeWith(session, args, loaded, io, { roots, scenarios, handshake, sandbox: box !== undefined });
  } finally {
    for (const [s, f] of handlers) process.off(s, f);
    box?.dispose();
  }
}

/** The scenarios file, read; its mistakes, each with its line and column, are one usage error (exit 2). */
function readScenarios(path: string, cwd: string): Scenario[] {
  const { scenarios, problems } = parseScenarios(readText(resolve(cwd, path), cwd), deps.registry.categories.map(c => c.name));
  if (problems.length)
    throw new InputError(
      `--scenarios: ${problems.length} mistake${problems.length === 1 ? '' : 's'} in ${escapeControls(path)}, nothing sent:\n${problems
        .map(p => `${escapeControls(path)}:${p.line}:${p.column}: ${escapeControls(p.message)}`)
        .join('\n')}`,
    );
  if (!scenarios.length) throw new InputError(`--scenarios: ${escapeControls(path)} holds no scenario`);
  return scenarios;
}

interface ProbeRun {
  readonly roots: readonly string[];
  readonly scenarios: readonly Scenario[];
  /** The handshake as sent (initialize, initialized), for the commands that send a call again. */
  readonly handshake: readonly string[];
  readonly sandbox: boolean;
}

async function probeWith(session: McpSession, args: RuntimeArgs, loaded: LoadedContract, io: Io, run: ProbeRun): Promise<number> {
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
  const planned = loaded.service.planProbe(tools, loaded.operations, args.allowWrites, { roots: run.roots, sandbox: args.sandbox });
  // The user's scenarios after the plan's calls: sent as written (their effects are the user's to choose).
  const scenarioOf = new Map<PlannedCall, Scenario>();
  for (const sc of run.scenarios) {
    const call: PlannedCall = {
      tool: sc.tool,
      arguments: sc.arguments,
      case: { kind: 'scenario', label: `the scenario '${sc.name}'`, expected: sc },
    };
    scenarioOf.set(call, sc);
  }
  const plan: ProbePlan = { ...planned, calls: [...planned.calls, ...scenarioOf.keys()] };
  if (args.list) {
    await session.close();
    io.stdout(args.format === 'json' ? jsonText(plan) : planText(plan));
    return 0;
  }
  const listed = new Set(tools.map(t => t.name));
  let transcript = '';
  let line = 0;
  const answers: PlacedAnswer[] = [];
  const calls: SentCall[] = [];
  const records: CallRecord[] = [];
  // A server that lists thousands of tools does not keep a CI job busy forever.
  for (const call of plan.calls.slice(0, MAX_CALLS)) {
    const outcome = await session.call(call.tool, call.arguments, args.timeout);
    const at = transcript.length;
    transcript += outcome.request + '\n';
    const requestLine = line++;
    if (outcome.kind === 'answer') {
      const exchange = {
        response: outcome.response,
        tool: call.tool,
        listed: listed.has(call.tool),
        claimsMcpAql: loaded.claimsMcpAql,
        ...(scenarioOf.has(call) ? { scenario: scenarioOf.get(call) } : { probe: call.case }),
      };
      answers.push({ at: transcript.length, exchange });
      transcript += outcome.response + '\n';
      calls.push({ n: calls.length + 1, call, request: outcome.request, requestLine, answerLine: line++ });
    } else {
      answers.push({ at, end: at + outcome.request.length, silence: outcome.kind, tool: call.tool, what: call.case.label });
      calls.push({ n: calls.length + 1, call, request: outcome.request, requestLine });
    }
    records.push({ call, answered: outcome.kind === 'answer' });
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
  const coverage = coverageOf(plan, records, listed);
  const replay = (c: SentCall) => replayCommand(run.handshake, c.request, args.command, args.commandArgs);
  const out = probeOutput(args, report, io, calls, coverage, replay);
  if (args.outputFile) writeOutputFile(io, args.outputFile, out);
  else io.stdout(out, outKind(args.format));
  io.stderr(`mcp-aql-errors probe: ${summaryLine(coverage, !stillUp, MAX_CALLS)}${run.sandbox ? ' (in the sandbox)' : ''}\n`);
  return count([report]).errors > 0 ? 1 : 0;
}

/** The report in its format: the probe's own text and JSON; the others as `check` writes them, SARIF with the coverage. */
function probeOutput(
  args: RuntimeArgs,
  report: FileReport,
  io: Io,
  calls: readonly SentCall[],
  coverage: readonly ToolCoverage[],
  replay: (c: SentCall) => string,
): string {
  if (args.format === 'text') return neutralizeCommands(probeText(report, calls, coverage, replay, args.record), 'text');
  const out = render(args.format, [report], io, io.color, 'probe transcript');
  if (args.format === 'json') {
    const [file] = JSON.parse(out) as Record<string, unknown>[];
    const diagnostics = (file!.diagnostics as object[]).map((d, i) => ({ ...d, call: callAt(calls, report.diagnostics[i]!)?.n }));
    return jsonText([{ ...file, diagnostics, probe: probeJsonExtra(calls, coverage, replay) }]);
  }
  if (args.format === 'sarif') {
    const sarif = JSON.parse(out) as { runs: { properties?: Record<string, unknown> }[] };
    sarif.runs[0]!.properties = { ...sarif.runs[0]!.properties, probe: { coverage } };
    return jsonText(sarif);
  }
  return out;
}
