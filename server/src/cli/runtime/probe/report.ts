/**
 * The probe's report beyond the findings on the transcript: the calls (each with its request and a
 * command that sends it again), the coverage, and a text layout that groups alike findings (per rule
 * and tool: a count, one example, the tools) so a hundred read in a screen. Positions in the transcript
 * are cited only when `--record` wrote it.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { PlannedCall } from '../../../service';
import { escapeControls } from '../../format';
import { messageText, severityName, type FileReport } from '../../report';
import type { ToolCoverage } from './coverage';

export interface SentCall {
  readonly n: number;
  readonly call: PlannedCall;
  /** The request as sent (one JSON-RPC line). */
  readonly request: string;
  /** 0-based lines of the request and of its answer in the transcript. */
  readonly requestLine: number;
  readonly answerLine?: number;
}

/** A word for the shell, single-quoted. */
const quote = (s: string) => (/^[\w./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * A command that sends the call again to the server over stdio, after the handshake the probe made:
 * the lines on standard input, the server's answers on standard output.
 */
export function replayCommand(handshake: readonly string[], request: string, command: string, args: readonly string[]): string {
  return `printf '%s\\n' ${[...handshake, request].map(quote).join(' ')} | ${[command, ...args].map(quote).join(' ')}`;
}

/** The call a diagnostic of the transcript belongs to (its request or answer line). */
export function callAt(calls: readonly SentCall[], d: Diagnostic): SentCall | undefined {
  if (d.code === SESSION) return undefined; // the session's note, on the transcript's start: no call's
  const line = d.range.start.line;
  return calls.find(c => c.requestLine === line || c.answerLine === line);
}

const ORDER = ['error', 'warning', 'info', 'hint'];
/** The negotiated revision and era, a hint on the transcript's start: the report's first line, not a finding. */
const SESSION = 'runtime.session';
const kindsText = (r: ToolCoverage) => (r.kinds.length ? `: ${r.kinds.join(', ')}` : '');

export function coverageText(coverage: readonly ToolCoverage[]): string {
  const name = (r: ToolCoverage) => escapeControls(r.operation ? `${r.tool} ${r.operation}` : r.tool);
  const width = Math.min(40, Math.max(...coverage.map(r => name(r).length), 4));
  const lines = coverage.map(r => {
    const head = name(r).padEnd(width);
    const done = r.planned
      ? `${r.planned} planned, ${r.sent} sent, ${r.answered} answered${kindsText(r)}${r.listed ? '' : ' (not a listed tool)'}`
      : 'not called';
    const left = r.skipped.map(s => `${s.kind ? `no ${s.kind}: ` : ''}${escapeControls(s.reason)}`);
    return `  ${head}  ${done}${left.length ? `\n  ${' '.repeat(width)}  ${left.join('\n  ' + ' '.repeat(width) + '  ')}` : ''}`;
  });
  return `Coverage (per tool: the calls planned, sent and answered; what was left out and why)\n${lines.join('\n')}\n`;
}

/**
 * The text report: findings grouped by rule and tool, the worst first; each group its count, the
 * tools, one example with its request and the command that sends it again; then the coverage.
 */
export function probeText(
  report: FileReport,
  calls: readonly SentCall[],
  coverage: readonly ToolCoverage[],
  replay: (c: SentCall) => string,
  recorded: string | undefined,
): string {
  interface Group {
    readonly severity: string;
    readonly code: string;
    readonly tools: string[];
    readonly items: { d: Diagnostic; call?: SentCall }[];
  }
  const groups = new Map<string, Group>();
  const session = report.diagnostics.find(d => d.code === SESSION);
  const findings = report.diagnostics.filter(d => d !== session);
  for (const d of findings) {
    const call = callAt(calls, d);
    const severity = severityName(d);
    const key = `${severity}\0${String(d.code)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { severity, code: String(d.code), tools: [], items: [] }));
    if (call && !g.tools.includes(call.call.tool)) g.tools.push(call.call.tool);
    g.items.push({ d, call });
  }
  const out: string[] = [];
  const sorted = [...groups.values()].sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity) || a.code.localeCompare(b.code));
  for (const { severity, code, tools, items } of sorted) {
    const shown =
      tools
        .slice(0, 8)
        .map(t => escapeControls(t))
        .join(', ') + (tools.length > 8 ? `, and ${tools.length - 8} more` : '');
    out.push(
      `${severity}  ${code}  ×${items.length}${tools.length ? `, on ${tools.length} tool${tools.length === 1 ? '' : 's'}: ${shown}` : ''}`,
    );
    const ex = items[0]!;
    out.push(`  e.g. ${escapeControls(messageText(ex.d))}`);
    if (ex.call) {
      out.push(`    request: ${escapeControls(ex.call.request)}`);
      out.push(`    again:   ${escapeControls(replay(ex.call))}`);
    }
    if (recorded !== undefined) {
      const at = items.slice(0, 10).map(i => `${i.d.range.start.line + 1}:${i.d.range.start.character + 1}`);
      out.push(`    in ${escapeControls(recorded)} at ${at.join(', ')}${items.length > 10 ? ', …' : ''}`);
    }
  }
  const counts = ORDER.map(s => [s, findings.filter(d => severityName(d) === s).length] as const).filter(([, n]) => n);
  const head = findings.length
    ? `${findings.length} finding${findings.length === 1 ? '' : 's'} (${counts.map(([s, n]) => `${n} ${s}${n === 1 || s === 'info' ? '' : 's'}`).join(', ')}) on ${calls.length} call${calls.length === 1 ? '' : 's'}`
    : `No problems on ${calls.length} call${calls.length === 1 ? '' : 's'}`;
  const intro = session ? `${escapeControls(messageText(session))}\n` : '';
  return `${intro}${head}\n${out.length ? out.join('\n') + '\n' : ''}\n${coverageText(coverage)}`;
}

/** The JSON report's file entry, each diagnostic with the number of its call, and the probe's calls and coverage. */
export function probeJsonExtra(calls: readonly SentCall[], coverage: readonly ToolCoverage[], replay: (c: SentCall) => string) {
  return {
    calls: calls.map(c => ({
      n: c.n,
      tool: c.call.tool,
      ...(c.call.operation ? { operation: c.call.operation } : {}),
      kind: c.call.case.kind,
      label: c.call.case.label,
      request: c.request,
      answered: c.answerLine !== undefined,
      replay: replay(c),
    })),
    coverage,
  };
}

/**
 * The same over Streamable HTTP: one POST with curl. The values of the user's headers are not printed
 * (a report is shared; a token is not): each stands as a shell variable to set. On 2026-07-28 a request
 * stands alone (its revision in `_meta`, its method in `Mcp-Method`); a handshake-era server may also
 * want the session the handshake opened (`Mcp-Session-Id`).
 */
export function curlCommand(url: string, headers: Readonly<Record<string, string>>, request: string, revision: string): string {
  let method = '';
  try {
    method = String((JSON.parse(request) as { method?: unknown }).method ?? '');
  } catch {
    // our own request: always JSON
  }
  const h = [
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...(revision >= '2026-07-28' && method ? [`Mcp-Method: ${method}`] : [`MCP-Protocol-Version: ${revision}`]),
  ].map(x => `-H ${quote(x)}`);
  const own = Object.keys(headers).map(n => `-H "${n}: $${n.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}"`);
  return ['curl', '-sS', '-X', 'POST', quote(url), ...h, ...own, '--data', quote(request)].join(' ');
}
