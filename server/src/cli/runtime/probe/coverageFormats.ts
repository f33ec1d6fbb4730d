/**
 * The probe's coverage (coverage.ts) in the report formats that `check` also writes, each in its own
 * idiom (docs/cli.md, "probe"): JUnit a testsuite per server with a testcase per call sent and a
 * skipped testcase per call or tool left out (with why); GitHub a notice with the summary and a line
 * per tool; compact a line per tool after the problems. Checkstyle and Code Climate have no place for
 * what was not a problem: every element they hold is an issue an importer counts, so they carry none.
 * Every server string is escaped for the format, and no line can pass for a workflow command.
 */
import { escapeControls, escData, escProp, neutralizeCommands, shownPath, xmlEscape as x } from '../../format';
import { summaryLine, type ToolCoverage } from './coverage';
import type { SentCall } from './report';

export interface CoverageRun {
  /** The config's name of the server, when several were probed. */
  readonly name?: string;
  /** The transcript's name in the report. */
  readonly rel: string;
  readonly calls: readonly SentCall[];
  readonly coverage: readonly ToolCoverage[];
  readonly exited: boolean;
  readonly sandbox: boolean;
}

const toolName = (r: { tool: string; operation?: string }) => (r.operation ? `${r.tool} ${r.operation}` : r.tool);
const summaryOf = (run: CoverageRun) => `${summaryLine(run.coverage, run.exited)}${run.sandbox ? ' (in the sandbox)' : ''}`;

/** One line per tool (and operation): planned, sent, answered, the kinds of call, what was left out and why. */
function toolLine(r: ToolCoverage): string {
  const done = r.planned
    ? `${r.planned} planned, ${r.sent} sent, ${r.answered} answered${r.kinds.length ? ` (${r.kinds.join(', ')})` : ''}`
    : 'not called';
  const left = r.skipped.map(s => `${s.kind ? `no ${s.kind}` : 'left out'}: ${s.reason}`);
  return `${toolName(r)}: ${done}${left.length ? `; ${left.join('; ')}` : ''}`;
}

/** The JUnit report with a coverage testsuite per server before `</testsuites>`, the root's count raised. */
export function junitWithCoverage(out: string, runs: readonly CoverageRun[]): string {
  let added = 0;
  const suites = runs.map(run => {
    const cases: string[] = [];
    let skipped = 0;
    const testcase = (cls: string, name: string, skip?: string) => {
      if (skip !== undefined) skipped++;
      cases.push(
        skip === undefined
          ? `    <testcase classname="${x(cls)}" name="${x(name)}" time="0"/>`
          : `    <testcase classname="${x(cls)}" name="${x(name)}" time="0">\n      <skipped message="${x(skip)}"/>\n    </testcase>`,
      );
    };
    for (const c of run.calls)
      testcase(toolName(c.call), `call ${c.n}: ${c.call.case.label}`, c.answerLine === undefined ? 'sent, no answer' : undefined);
    for (const r of run.coverage) {
      const unsent = r.planned - r.sent;
      for (let i = 0; i < unsent; i++)
        testcase(
          toolName(r),
          `a planned call not sent (${i + 1} of ${unsent})`,
          run.exited ? 'not sent: the server exited' : 'not sent: the run stopped at its call limit',
        );
      for (const s of r.skipped) testcase(toolName(r), s.kind ? `${s.kind} left out` : 'not called', s.reason);
    }
    added += cases.length;
    const name = `probe coverage: ${run.name ?? run.rel}`;
    return (
      `  <testsuite name="${x(name)}" tests="${cases.length}" failures="0" errors="0" skipped="${skipped}" time="0">\n` +
      `    <properties>\n      <property name="summary" value="${x(summaryOf(run))}"/>\n    </properties>\n` +
      (cases.length ? cases.join('\n') + '\n' : '') +
      '  </testsuite>\n'
    );
  });
  const raised = out.replace(
    /^(<testsuites name="mcp-aql-errors" tests=")(\d+)"/m,
    (_, head: string, n: string) => `${head}${Number(n) + added}"`,
  );
  const at = raised.lastIndexOf('</testsuites>');
  return neutralizeCommands(raised.slice(0, at) + suites.join('') + raised.slice(at), 'xml');
}

/** The annotations, then a notice per server: the summary, a line per tool. */
export function githubWithCoverage(out: string, runs: readonly CoverageRun[]): string {
  const notices = runs.map(run => {
    const title = `probe coverage${run.name !== undefined ? ` of ${run.name}` : ''}`;
    // A server's line break stays `\n` inside its line: only ours separate the lines.
    const text = [summaryOf(run), ...run.coverage.map(r => escapeControls(toolLine(r)))].join('\n');
    return `::notice title=${escProp(title)}::${escData(text)}\n`;
  });
  return neutralizeCommands(out + notices.join(''), 'text', { own: true });
}

/** The problems, then the coverage: a summary line and a line per tool, for each server. */
export function compactWithCoverage(out: string, runs: readonly CoverageRun[]): string {
  const lines = runs.flatMap(run => {
    const where = shownPath(run.rel);
    return [
      `${where}: coverage, ${escapeControls(summaryOf(run))}`,
      ...run.coverage.map(r => `${where}: coverage, ${escapeControls(toolLine(r))}`),
    ];
  });
  return neutralizeCommands(`${out}${out ? '\n' : ''}${lines.join('\n')}\n`, 'text');
}
