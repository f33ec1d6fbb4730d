/**
 * `diff` reports (issue 25): text, json and markdown (the pull-request comment). Every string from an
 * adapter is escaped for where it goes: control characters in text, `|`, `<`, `` ` `` and line breaks
 * in markdown (a comment must not gain HTML, links or mentions it did not write).
 */
import { CHANGE_RULE_INFO, SEVERITIES, type ContractChange, type Place, type Severity } from '../../service';
import { escapeControls } from './escape';

export interface ChangeReport {
  readonly changes: readonly ContractChange[];
  /** uri → the file as the report names it. */
  readonly labels: ReadonlyMap<string, string>;
  /** What was compared, e.g. `main → working tree`. */
  readonly title: string;
}

export const placeText = (p: Place | undefined, labels: ReadonlyMap<string, string>): string | undefined =>
  p ? `${labels.get(p.uri) ?? p.uri}:${p.range.start.line + 1}:${p.range.start.character + 1}` : undefined;

export function tally(changes: readonly ContractChange[]): Record<Severity, number> {
  const t: Record<Severity, number> = { breaking: 0, dangerous: 0, safe: 0 };
  for (const c of changes) t[c.severity]++;
  return t;
}

const summary = (changes: readonly ContractChange[]): string => {
  const t = tally(changes);
  return changes.length ? SEVERITIES.map(s => `${t[s]} ${s}`).join(', ') : 'no change to the error contract';
};

export function formatChangesText(r: ChangeReport): string {
  const lines: string[] = [];
  for (const c of r.changes) {
    lines.push(`${c.severity.toUpperCase().padEnd(9)} ${c.rule}  ${escapeControls(c.message)}`);
    const at = placeText(c.at, r.labels);
    const was = placeText(c.was, r.labels);
    if (at) lines.push(`          at ${escapeControls(at)}`);
    if (was) lines.push(`          was ${escapeControls(was)}`);
  }
  lines.push(`${escapeControls(r.title)}: ${summary(r.changes)}`);
  return lines.join('\n') + '\n';
}

export function formatChangesJson(r: ChangeReport): string {
  const changes = r.changes.map(c => ({
    ...c,
    ...(c.at ? { atFile: r.labels.get(c.at.uri) } : {}),
    ...(c.was ? { wasFile: r.labels.get(c.was.uri) } : {}),
  }));
  return JSON.stringify({ compared: r.title, summary: tally(r.changes), changes }, null, 2) + '\n';
}

/** The marker the GitHub Action looks for to update its own comment instead of adding another. */
export const MARKDOWN_MARKER = '<!-- mcp-aql-errors diff -->';

/** Inline code that cannot be closed early, nor carry HTML, a line break or a table cell border. */
const code = (s: string): string => {
  const clean = escapeControls(s).replace(/\|/g, '\\|');
  const ticks = Math.max(0, ...[...clean.matchAll(/`+/g)].map(m => m[0].length)) + 1;
  const fence = '`'.repeat(ticks);
  return `${fence}${clean.startsWith('`') || clean.endsWith('`') ? ` ${clean} ` : clean}${fence}`;
};
/** Plain table-cell text: markdown and HTML characters backslash-escaped, `@` kept from mentioning. */
const cell = (s: string): string =>
  escapeControls(s)
    .replace(/[\\`*_{}[\]()#+!|<>~&]/g, m => `\\${m}`)
    .replace(/@/g, '@\u200b');

const ICON: Record<Severity, string> = { breaking: '🔴', dangerous: '🟠', safe: '🟢' };

export function formatChangesMarkdown(r: ChangeReport): string {
  const out = [MARKDOWN_MARKER, `### MCP-AQL error contract: ${summary(r.changes)}`, '', `Compared ${cell(r.title)}.`];
  for (const s of SEVERITIES) {
    const list = r.changes.filter(c => c.severity === s);
    if (!list.length) continue;
    out.push('', `#### ${ICON[s]} ${s[0]!.toUpperCase()}${s.slice(1)} (${list.length})`, '', '| rule | change | where |', '|---|---|---|');
    for (const c of list) {
      const where = placeText(c.at, r.labels) ?? (c.was ? `was ${placeText(c.was, r.labels)}` : '');
      out.push(`| ${code(c.rule)} | ${cell(c.message)} | ${where ? code(where) : ''} |`);
    }
  }
  const used = [...new Set(r.changes.filter(c => c.severity !== 'safe').map(c => c.rule))];
  if (used.length) {
    out.push('', '<details><summary>Why these are breaking or dangerous</summary>', '');
    for (const id of used) out.push(`- ${code(id)}: ${cell(CHANGE_RULE_INFO[id].why)}`);
    out.push('', '</details>');
  }
  return out.join('\n') + '\n';
}
