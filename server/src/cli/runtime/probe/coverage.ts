/**
 * What a probe covered, per tool (and per operation of an MCP-AQL endpoint): the calls planned, sent
 * and answered, the kinds of call, and what was left out and why. Every report format carries it.
 */
import type { PlannedCall, ProbeKind, ProbePlan } from '../../../service';

export interface ToolCoverage {
  readonly tool: string;
  readonly operation?: string;
  /** Listed by the server (false: the probe's own unknown tool). */
  readonly listed: boolean;
  readonly planned: number;
  readonly sent: number;
  readonly answered: number;
  readonly kinds: readonly ProbeKind[];
  readonly skipped: readonly { readonly kind?: ProbeKind; readonly reason: string }[];
}

export interface CallRecord {
  readonly call: PlannedCall;
  readonly answered: boolean;
}

/** The operation a call belongs to (an unknown operation belongs to its endpoint). */
const operationOf = (c: PlannedCall) => (c.case.kind === 'unknown-operation' ? undefined : c.operation);

export function coverageOf(plan: ProbePlan, sent: readonly CallRecord[], listed: ReadonlySet<string>): ToolCoverage[] {
  const rows = new Map<
    string,
    {
      tool: string;
      operation?: string;
      planned: number;
      sent: number;
      answered: number;
      kinds: ProbeKind[];
      skipped: { kind?: ProbeKind; reason: string }[];
    }
  >();
  const row = (tool: string, operation?: string) => {
    const key = JSON.stringify([tool, operation ?? null]);
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { tool, ...(operation ? { operation } : {}), planned: 0, sent: 0, answered: 0, kinds: [], skipped: [] }));
    return r;
  };
  // Every listed tool has a row, in the server's order, called or not.
  for (const t of listed) row(t);
  for (const c of plan.calls) {
    const r = row(c.tool, operationOf(c));
    r.planned++;
    if (!r.kinds.includes(c.case.kind)) r.kinds.push(c.case.kind);
  }
  for (const s of sent) {
    const r = row(s.call.tool, operationOf(s.call));
    r.sent++;
    if (s.answered) r.answered++;
  }
  for (const s of plan.skipped) row(s.tool, s.operation).skipped.push({ ...(s.kind ? { kind: s.kind } : {}), reason: s.reason });
  // Listed tools in the server's order, each followed by its operations; the probe's unknown tool last.
  const order = [...listed];
  const rank = (t: string) => (listed.has(t) ? order.indexOf(t) : order.length);
  return [...rows.values()]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r.tool) - rank(b.r.tool) || (a.r.operation ? 1 : 0) - (b.r.operation ? 1 : 0) || a.i - b.i)
    .map(({ r }) => ({ ...r, listed: listed.has(r.tool) }));
}

/** The one-line summary: calls sent of planned, listed tools reached, what was left out. */
export function summaryLine(coverage: readonly ToolCoverage[], exited: boolean, cap?: number): string {
  const tools = new Map<string, boolean>();
  for (const r of coverage) if (r.listed) tools.set(r.tool, (tools.get(r.tool) ?? false) || r.sent > 0);
  const reached = [...tools.values()].filter(Boolean).length;
  const planned = coverage.reduce((n, r) => n + r.planned, 0);
  const sent = coverage.reduce((n, r) => n + r.sent, 0);
  const notCalled = [...tools.values()].filter(x => !x).length;
  const leftOut = coverage.reduce((n, r) => n + r.skipped.length, 0);
  const unknown = coverage.some(r => !r.listed && r.sent > 0);
  return (
    `${sent} of ${planned} call${planned === 1 ? '' : 's'} sent, to ${reached} of ${tools.size} listed tool${tools.size === 1 ? '' : 's'}` +
    `${unknown ? ' and an unknown tool' : ''}; ${notCalled} tool${notCalled === 1 ? '' : 's'} not called, ${leftOut} kind${leftOut === 1 ? '' : 's'} of call left out (the coverage says why)` +
    (exited ? '; the server exited' : sent < planned && cap !== undefined ? `; stopped at ${cap} calls` : '')
  );
}
