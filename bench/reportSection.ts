import { readFileSync, writeFileSync } from 'node:fs';

/** One bench's section of bench/REPORT.md: the `## ` heading on the markdown's first line, replaced where it is or appended. */
export function replaceSection(report: string, markdown: string): string {
  const heading = markdown.slice(0, markdown.indexOf('\n'));
  const at = report.indexOf('\n' + heading + '\n');
  const next = at < 0 ? -1 : report.indexOf('\n## ', at + 2);
  const before = at < 0 ? report : report.slice(0, at);
  const after = next < 0 ? '' : report.slice(next);
  return `${before.trimEnd()}\n\n${markdown.trimEnd()}\n${after}`;
}

/** A bench's section rebuilt from its saved results, or '' when there are none (bench/run.ts rewrites the whole report). */
export function savedSection<T>(resultsPath: string, markdown: (results: T) => string): string {
  try {
    return `\n${markdown(JSON.parse(readFileSync(resultsPath, 'utf8')) as T)}`;
  } catch {
    return '';
  }
}

/** Prints a bench's section and, unless `dry`, saves its results and puts the section into the report. */
export function publish(results: unknown, markdown: string, paths: { results: string; report: string }, dry: boolean): void {
  process.stdout.write(`\n${markdown}`);
  if (dry) return;
  writeFileSync(paths.results, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(paths.report, replaceSection(readFileSync(paths.report, 'utf8'), markdown));
}
