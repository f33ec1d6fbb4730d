/**
 * JUnit XML for CI test reports: one testsuite per file, one failing testcase per diagnostic (named
 * after its code), one passing testcase for a clean file. Every diagnostic counts as a failure.
 */
import { messageText, severityName, type FileReport } from '../report';
import { xmlEscape as x } from './xml';

export function formatJunit(reports: readonly FileReport[]): string {
  const suites: string[] = [];
  let tests = 0,
    failures = 0;
  for (const r of reports) {
    const cases = r.diagnostics.map(d => {
      const where = `${r.rel}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
      return (
        `    <testcase classname="${x(r.rel)}" name="${x(`${String(d.code)} (${d.range.start.line + 1}:${d.range.start.character + 1})`)}" time="0">\n` +
        `      <failure type="${x(severityName(d))}" message="${x(messageText(d))}">${x(`${where} ${severityName(d)} ${messageText(d)} [${String(d.code)}]`)}</failure>\n` +
        '    </testcase>'
      );
    });
    const n = Math.max(1, cases.length);
    tests += n;
    failures += cases.length;
    suites.push(
      `  <testsuite name="${x(r.rel)}" tests="${n}" failures="${cases.length}" errors="0" skipped="0" time="0">\n` +
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
