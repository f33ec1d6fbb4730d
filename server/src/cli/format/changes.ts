/**
 * `diff` reports (docs/contract-diff.md): text (control characters escaped), json, and markdown (the pull-request
 * comment; rendered by the service, `evolution/report.ts`, which the editor's Compare Contract shares).
 */
import { changesMarkdown, changesSummary, placeLabel, tallyChanges, type ContractChange } from '../../service';
import { escapeControls } from './escape';

export interface ChangeReport {
  readonly changes: readonly ContractChange[];
  /** uri → the file as the report names it. */
  readonly labels: ReadonlyMap<string, string>;
  /** What was compared, e.g. `main → working tree`. */
  readonly title: string;
}

export function formatChangesText(r: ChangeReport): string {
  const lines: string[] = [];
  for (const c of r.changes) {
    lines.push(`${c.severity.toUpperCase().padEnd(9)} ${c.rule}  ${escapeControls(c.message)}`);
    const at = placeLabel(c.at, r.labels);
    const was = placeLabel(c.was, r.labels);
    if (at) lines.push(`          at ${escapeControls(at)}`);
    if (was) lines.push(`          was ${escapeControls(was)}`);
  }
  lines.push(`${escapeControls(r.title)}: ${changesSummary(r.changes)}`);
  return lines.join('\n') + '\n';
}

export function formatChangesJson(r: ChangeReport): string {
  const changes = r.changes.map(c => ({
    ...c,
    ...(c.at ? { atFile: r.labels.get(c.at.uri) } : {}),
    ...(c.was ? { wasFile: r.labels.get(c.was.uri) } : {}),
  }));
  return JSON.stringify({ compared: r.title, summary: tallyChanges(r.changes), changes }, null, 2) + '\n';
}

export const formatChangesMarkdown = (r: ChangeReport): string => changesMarkdown(r.changes, r.labels, r.title);
