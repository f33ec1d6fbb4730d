/** One bench's section of bench/REPORT.md: the `## ` heading on the markdown's first line, replaced where it is or appended. */
export function replaceSection(report: string, markdown: string): string {
  const heading = markdown.slice(0, markdown.indexOf('\n'));
  const at = report.indexOf('\n' + heading + '\n');
  const next = at < 0 ? -1 : report.indexOf('\n## ', at + 2);
  const before = at < 0 ? report : report.slice(0, at);
  const after = next < 0 ? '' : report.slice(next);
  return `${before.trimEnd()}\n\n${markdown.trimEnd()}\n${after}`;
}
