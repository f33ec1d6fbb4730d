/**
 * JUnit XML for CI test reports: one testsuite per file, one failing testcase per diagnostic (named
 * after its code), one passing testcase for a clean file. Errors and warnings are failures; information
 * and hints are passing testcases that carry the message in <system-out> (they fail nothing elsewhere either).
 */
import { messageText, severityName, type FileReport } from '../report';
import { xmlEscape as x } from './xml';

export function formatJunit(reports: readonly FileReport[]): string {
  const suites: string[] = [];
  let tests = 0,
    failures = 0;
  for (const r of reports) {
    let failed = 0;
    const cases = r.diagnostics.map(d => {
      const where = `${r.rel}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
      const fails = (d.severity ?? 1) <= 2;
      if (fails) failed++;
      const body = x(`${where} ${severityName(d)} ${messageText(d)} [${String(d.code)}]`);
      return (
        `    <testcase classname="${x(r.rel)}" name="${x(`${String(d.code)} (${d.range.start.line + 1}:${d.range.start.character + 1})`)}" time="0">\n` +
        (fails
          ? `      <failure type="${x(severityName(d))}" message="${x(messageText(d))}">${body}</failure>\n`
          : `      <system-out>${body}</system-out>\n`) +
        '    </testcase>'
      );
    });
    const n = Math.max(1, cases.length);
    tests += n;
    failures += failed;
    suites.push(
      `  <testsuite name="${x(r.rel)}" tests="${n}" failures="${failed}" errors="0" skipped="0" time="0">\n` +
        (cases.length ? cases.join('\n') : `    <testcase classname="${x(r.rel)}" name="mcp-aql-errors" time="0"/>`) +
        '\n  </testsuite>',
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-aql-errors" tests="${tests}" failures="${failures}" errors="0" time="0">\n` +
    suites.map(s => s + '\n').join('') +
    '</testsuites>\n'
  );
}
