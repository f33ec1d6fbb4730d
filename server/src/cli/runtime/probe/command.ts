/**
 * `mcp-aql-errors probe [--contract <adapter…>] [--allow-writes] [--sandbox] [--root DIR] [--scenarios P]
 * [--timeout ms] [--list] [--format F] [-o file] [--record file.responses.jsonl] [--infer P] (--config <file>
 * [--server <name> | --all] | --url <U> [--header 'N: V'] | -- <server command…>)` (docs/cli.md,
 * "probe"): an active conformance run. The server is started or connected to through a session
 * (../session: the SDK's client, either protocol era, stdio or Streamable HTTP; in the sandbox,
 * sandbox.ts), its tools listed, and each call the plan builds to fail (service `planProbe`: the
 * schema's failures and the tools' own — missing paths inside the server's roots, roots.ts — to
 * read-only tools unless the sandbox or --allow-writes), then the user's scenarios, are sent and each
 * answer judged; a server with resources is also asked for one that does not exist. The findings are
 * placed on the transcript — each request and its answer, one JSON-RPC message a line, which `verify`
 * reads as is; the negotiated revision and era as a `runtime.session` hint on its start; over HTTP,
 * each exchange's HTTP facts — and reported with the coverage (coverage.ts) in every `check` format;
 * the text and JSON reports group findings and give each call a command that sends it again
 * (report.ts). Exit 1 on an error. `--all`: every server of the config file, one transcript each
 * (with `--record`, one file each: recordFileOf), in one report.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseScenarios, type PlacedAnswer, type PlannedCall, type ProbePlan, type Scenario, type ToolInfo } from '../../../service';
import { InputError } from '../../args';
import { deps, VERSION } from '../../deps';
import { readText } from '../../files';
import { escapeControls, jsonText, neutralizeCommands } from '../../format';
import type { Io } from '../../io';
import { outKind, render, writeFileAtomically, writeOutputFile } from '../../output';
import { openSession, type McpSession } from '../session';
import { targetName, targetsOf, type NamedTarget } from '../targets';
import { count, type FileReport } from '../../report';
import { loadContract, parseRuntimeArgs, type LoadedContract, type RuntimeArgs } from '../args';
import { coverageOf, summaryLine, type CallRecord, type ToolCoverage } from './coverage';
import { compactWithCoverage, githubWithCoverage, junitWithCoverage, type CoverageRun } from './coverageFormats';
import { callAt, curlCommand, probeJsonExtra, probeText, replayCommand, type SentCall } from './report';
import { failedRow, readinessHtml, readinessMarkdown, readinessRow } from './readiness';
import { serverRoots } from './roots';
import { startFailure } from './startFailure';
import { sandboxed } from './sandbox';
import { InferSink } from '../../inferSink';

/** The report's file: the transcript of this run (written by -o only in the report's format). */
export const PROBE_TRANSCRIPT = 'probe.responses.jsonl';
/** With --all, each server's transcript: probe.<name>.responses.jsonl. */
const transcriptOf = (name: string) => `probe.${fileWord(name)}.responses.jsonl`;
const fileWord = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * Where `--record` writes one server's transcript. With several servers, one file each (a transcript
 * is JSON-RPC lines that `verify` reads as is, so no line can carry a server's name): the server's name
 * goes before `.responses.jsonl` (or the last extension), `rec.responses.jsonl` → `rec.notes.responses.jsonl`.
 */
export function recordFileOf(record: string, several: boolean, name: string): string {
  if (!several) return record;
  const slash = Math.max(record.lastIndexOf('/'), record.lastIndexOf('\\'));
  const base = record.slice(slash + 1);
  const cut = base.endsWith('.responses.jsonl')
    ? base.length - '.responses.jsonl'.length
    : base.lastIndexOf('.') > 0
      ? base.lastIndexOf('.')
      : base.length;
  return `${record.slice(0, slash + 1)}${base.slice(0, cut)}.${fileWord(name)}${base.slice(cut)}`;
}
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
  const scenarios = args.scenarios === undefined ? [] : readScenarios(args.scenarios, io.cwd);
  const targets = targetsOf(args, io);
  if (args.record !== undefined && targets.length > 1) {
    // One file per server: two names that make the same file would overwrite each other's transcript.
    const seen = new Map<string, string>();
    for (const t of targets) {
      const name = targetName(t);
      const file = recordFileOf(args.record, true, name);
      const other = seen.get(file);
      if (other !== undefined)
        throw new InputError(
          `probe --record: the servers '${escapeControls(other)}' and '${escapeControls(name)}' would both be recorded in ${escapeControls(file)}`,
        );
      seen.set(file, name);
    }
  }
  if (args.sandbox && targets.some(t => t.target.transport === 'http'))
    throw new InputError('probe --sandbox runs the server it starts: not a Streamable HTTP server (--url, or an http server of --config)');
  const runs: ProbeRun[] = [];
  /** Every server in the config's order, those that could not be started included (the readiness table's rows). */
  const outcomes: (ProbeRun | ProbeFailure)[] = [];
  let failed = false;
  for (const t of targets) {
    const r = await probeOne(t, args, loaded, io, targets.length > 1, scenarios);
    if (r === 'listed') continue;
    outcomes.push(r);
    if ('failed' in r) failed = true;
    else runs.push(r);
  }
  if (args.list) return failed ? 2 : 0;
  if (args.infer !== undefined && runs.length) {
    // --infer: the contract of the failures this run saw (inferSink.ts).
    const sink = new InferSink(args.infer, io.cwd);
    for (const r of runs) sink.transcript(r.report.text);
    io.stderr(`mcp-aql-errors probe: ${escapeControls(sink.finish())}\n`);
  }
  const table = args.format === 'markdown' || args.format === 'html';
  if (runs.length || (table && outcomes.length)) {
    const out = table ? readinessOutput(args.format, outcomes) : probeOutput(args, runs, io);
    if (args.outputFile) writeOutputFile(io, args.outputFile, out);
    else io.stdout(out, outKind(args.format));
  }
  if (failed) return 2;
  return count(runs.map(r => r.report)).errors > 0 ? 1 : 0;
}

/** The scenarios file, read; its mistakes, each with its line and column, are one usage error (exit 2). */
function readScenarios(path: string, cwd: string): Scenario[] {
  const { scenarios, problems } = parseScenarios(
    readText(resolve(cwd, path), cwd),
    deps.registry.categories.map(c => c.name),
  );
  if (problems.length)
    throw new InputError(
      `--scenarios: ${problems.length} mistake${problems.length === 1 ? '' : 's'} in ${escapeControls(path)}, nothing sent:\n${problems
        .map(p => `${escapeControls(path)}:${p.line}:${p.column}: ${escapeControls(p.message)}`)
        .join('\n')}`,
    );
  if (!scenarios.length) throw new InputError(`--scenarios: ${escapeControls(path)} holds no scenario`);
  return scenarios;
}

/** A server that could not be started or reached, and why (said on stderr too). */
interface ProbeFailure {
  readonly server: string;
  readonly failed: string;
}

/** One server's run: its report on the transcript, the calls sent, the coverage, how to send a call again. */
interface ProbeRun {
  readonly name?: string;
  /** As the readiness table names it: the config's name, or the command or URL. */
  readonly server: string;
  readonly revision: string;
  readonly era: string;
  /** The server exited during the run. */
  readonly exited: boolean;
  readonly sandbox: boolean;
  readonly report: FileReport;
  readonly calls: readonly SentCall[];
  readonly coverage: readonly ToolCoverage[];
  readonly replay: (c: SentCall) => string;
}

const readinessOf = (r: ProbeRun) =>
  readinessRow({
    server: r.server,
    revision: r.revision,
    era: r.era,
    diagnostics: r.report.diagnostics,
    coverage: r.coverage,
    exited: r.exited,
    sandbox: r.sandbox,
  });

/** The error-readiness table (readiness.ts): a row per server, in the order probed. */
function readinessOutput(format: string, outcomes: readonly (ProbeRun | ProbeFailure)[]): string {
  const rows = outcomes.map(o => ('failed' in o ? failedRow(o.server, o.failed) : readinessOf(o)));
  return format === 'html' ? readinessHtml(rows, VERSION) : readinessMarkdown(rows);
}

/** The report in its format: the probe's own text and JSON; the others as `check` writes them, with the coverage where the format has a place for it. */
function probeOutput(args: RuntimeArgs, runs: readonly ProbeRun[], io: Io): string {
  const several = runs.length > 1;
  if (args.format === 'text')
    return neutralizeCommands(
      runs
        .map(
          r =>
            `${several ? `# ${escapeControls(r.name ?? r.report.rel)}\n` : ''}${probeText(r.report, r.calls, r.coverage, r.replay, args.record === undefined ? undefined : several ? r.report.rel : args.record)}`,
        )
        .join('\n'),
      'text',
    );
  const out = render(
    args.format,
    runs.map(r => r.report),
    io,
    io.color,
    'probe transcript',
  );
  if (args.format === 'json') {
    const files = JSON.parse(out) as Record<string, unknown>[];
    return jsonText(
      files.map((file, k) => {
        const r = runs[k]!;
        const diagnostics = (file.diagnostics as object[]).map((d, i) => ({ ...d, call: callAt(r.calls, r.report.diagnostics[i]!)?.n }));
        return {
          ...file,
          diagnostics,
          probe: {
            ...(r.name !== undefined ? { server: r.name } : {}),
            ...probeJsonExtra(r.calls, r.coverage, r.replay),
            // The server's row of the readiness table (a server that did not start has no file here: stderr, exit 2).
            readiness: readinessOf(r),
          },
        };
      }),
    );
  }
  if (args.format === 'sarif') {
    const sarif = JSON.parse(out) as { runs: { properties?: Record<string, unknown> }[] };
    const probe = several ? { servers: runs.map(r => ({ server: r.name, coverage: r.coverage })) } : { coverage: runs[0]!.coverage };
    sarif.runs[0]!.properties = { ...sarif.runs[0]!.properties, probe };
    return jsonText(sarif);
  }
  // The coverage in the formats that have a place for it (coverageFormats.ts; checkstyle and codeclimate have none).
  const covered: CoverageRun[] = runs.map(r => ({
    name: r.name,
    rel: r.report.rel,
    calls: r.calls,
    coverage: r.coverage,
    exited: r.exited,
    sandbox: r.sandbox,
  }));
  if (args.format === 'junit') return junitWithCoverage(out, covered);
  if (args.format === 'github') return githubWithCoverage(out, covered);
  if (args.format === 'compact') return compactWithCoverage(out, covered);
  return out;
}

/** One server probed: its report, or it could not be started (said on stderr), or --list printed its plan. */
async function probeOne(
  t: NamedTarget,
  args: RuntimeArgs,
  loaded: LoadedContract,
  io: Io,
  several: boolean,
  scenarios: readonly Scenario[],
): Promise<ProbeRun | ProbeFailure | 'listed'> {
  const box =
    args.sandbox && !args.list && t.target.transport === 'stdio' ? sandboxed(t.target.command, t.target.args, t.target.cwd) : undefined;
  const session = openSession(
    box && t.target.transport === 'stdio' ? { ...t.target, command: box.command, args: box.args } : t.target,
    VERSION,
  );
  // The handshake as sent (the last initialize and its notification), for the commands that send a call again.
  const handshake: string[] = [];
  session.onTraffic((direction, message) => {
    if (direction !== 'sent') return;
    if (/"method":"initialize"/.test(message)) handshake.splice(0, handshake.length, message);
    else if (/"method":"notifications\/initialized"/.test(message) && handshake.length === 1) handshake.push(message);
  });
  const roots = t.target.transport === 'stdio' ? serverRoots(args.roots, t.target.args, t.target.cwd) : serverRoots(args.roots, [], io.cwd);
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
    return await probeWith(session, t, args, loaded, io, { several, scenarios, roots, handshake, sandbox: box !== undefined });
  } finally {
    for (const [s, f] of handlers) process.off(s, f);
    box?.dispose();
  }
}

async function probeWith(
  session: McpSession,
  t: NamedTarget,
  args: RuntimeArgs,
  loaded: LoadedContract,
  io: Io,
  run: {
    readonly several: boolean;
    readonly scenarios: readonly Scenario[];
    readonly roots: readonly string[];
    readonly handshake: readonly string[];
    readonly sandbox: boolean;
  },
): Promise<ProbeRun | ProbeFailure | 'listed'> {
  const { several } = run;
  const name = targetName(t);
  const startWait = Math.max(args.timeout, START_TIMEOUT);
  const fail = (what: string, e: unknown): ProbeFailure => {
    const tail = session.stderr.length
      ? `\nthe server's last stderr lines:\n${session.stderr.map(l => `  ${escapeControls(l)}`).join('\n')}`
      : '';
    const why = startFailure(e, startWait);
    io.stderr(`mcp-aql-errors probe: ${escapeControls(what)}: ${escapeControls(why)}${tail}\n`);
    // The table keeps the server's last stderr line: usually why it did not start (a missing command, a crash).
    const last = session.stderr.at(-1);
    return { server: name, failed: `${what}: ${why}${last ? ` (its stderr: ${last})` : ''}` };
  };
  let tools: ToolInfo[];
  try {
    // Starting (discover or initialize, tools/list) gets at least 10 s: a short --timeout is for the calls.
    tools = await session.start(startWait);
  } catch (e) {
    await session.close();
    return fail(t.target.transport === 'http' ? `cannot reach '${name}' as an MCP server` : `cannot start '${name}' as an MCP server`, e);
  }
  const planned = loaded.service.planProbe(tools, loaded.operations, args.allowWrites, { roots: run.roots, sandbox: run.sandbox });
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
  let lineCount = 0;
  const calls: SentCall[] = [];
  const records: CallRecord[] = [];
  const place = (request: string) => {
    const at = transcript.length;
    transcript += request + '\n';
    lineCount++;
    try {
      const id = (JSON.parse(request) as { id?: unknown }).id;
      if (id !== undefined) lines.set(JSON.stringify(id), { at, end: at + request.length });
    } catch {
      // our own request: always JSON
    }
    return at;
  };
  // A server that lists thousands of tools does not keep a CI job busy forever.
  for (const call of plan.calls.slice(0, MAX_CALLS)) {
    const outcome = await session.call(call.tool, call.arguments, args.timeout);
    const requestLine = lineCount;
    const at = place(outcome.request);
    if (outcome.kind === 'answer') {
      const exchange = {
        response: outcome.response,
        tool: call.tool,
        listed: listed.has(call.tool),
        claimsMcpAql: loaded.claimsMcpAql,
        ...(scenarioOf.has(call) ? { scenario: scenarioOf.get(call) } : { probe: call.case }),
        revision,
        outputSchema: schemas.get(call.tool),
      };
      answers.push({ at: transcript.length, exchange });
      transcript += outcome.response + '\n';
      calls.push({ n: calls.length + 1, call, request: outcome.request, requestLine, answerLine: lineCount++ });
    } else {
      answers.push({ at, end: at + outcome.request.length, silence: outcome.kind, tool: call.tool, what: call.case.label });
      calls.push({ n: calls.length + 1, call, request: outcome.request, requestLine });
    }
    records.push({ call, answered: outcome.kind === 'answer' });
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
      lineCount++;
    }
  }
  // Over Streamable HTTP on 2026-07-28: the requests a server must refuse at the HTTP level.
  if (!session.closed)
    for (const x of await session.sendRefusable(args.timeout)) {
      place(x.request);
      if (x.response !== undefined) {
        transcript += x.response + '\n';
        lineCount++;
      }
    }
  const stillUp = !session.closed;
  await session.settled();
  for (const http of session.httpExchanges) {
    const line = http.requests.map(r => lines.get(r.id)).find(Boolean) ?? { at: 0, end: 0 };
    answers.push({ ...line, http: { ...http, revision } }); // judged by what the server speaks
  }
  await session.close();
  // --record: the transcript is written (whole), and the report's positions are that file's.
  const record = args.record === undefined ? undefined : recordFileOf(args.record, several, name);
  const path = resolve(io.cwd, record ?? (several ? transcriptOf(name) : PROBE_TRANSCRIPT));
  if (record !== undefined) writeFileAtomically(io, record, transcript);
  const doc = TextDocument.create(pathToFileURL(path).href, 'json', 1, transcript);
  const report: FileReport = {
    path,
    rel: relative(io.cwd, path).split(sep).join('/'),
    uri: doc.uri,
    text: transcript,
    diagnostics: loaded.service.answerDiagnostics(doc, answers, loaded.contract, { rules: args.rules }),
  };
  const coverage = coverageOf(plan, records, listed);
  const replay = (c: SentCall) =>
    t.target.transport === 'http'
      ? curlCommand(t.target.url, t.target.headers, c.request, revision)
      : replayCommand(run.handshake, c.request, t.target.command, t.target.args);
  io.stderr(
    `mcp-aql-errors probe: ${several ? `${escapeControls(name)}: ` : ''}MCP ${escapeControls(revision)} (${negotiated.era} era); ${summaryLine(coverage, !stillUp, MAX_CALLS)}${run.sandbox ? ' (in the sandbox)' : ''}\n`,
  );
  return {
    ...(t.name !== undefined ? { name: t.name } : several ? { name } : {}),
    // A command without a config name: the command line, so two servers of one runtime stay apart.
    server: t.name ?? (t.target.transport === 'http' ? t.target.url : [t.target.command, ...t.target.args].join(' ')),
    revision,
    era: negotiated.era,
    exited: !stillUp,
    sandbox: run.sandbox,
    report,
    calls,
    coverage,
    replay,
  };
}
