/**
 * The markdown report of a contract diff (the pull-request comment, the editor's Compare Contract
 * document); every string from an adapter goes through util/markdownText.ts.
 */
import type { ContractChange } from './compare';
import { RULES, SEVERITIES, type Severity } from './rules';
import type { Place } from './snapshot';
import { mdCode, mdText } from '../util/markdownText';

/** The marker the GitHub Action looks for to update its own comment instead of adding another. */
export const REPORT_MARKER = '<!-- mcp-aql-errors diff -->';

const code = mdCode;
const cell = mdText;

const ICON: Record<Severity, string> = { breaking: '🔴', dangerous: '🟠', safe: '🟢' };

export const placeLabel = (p: Place | undefined, labels: ReadonlyMap<string, string>): string | undefined =>
  p ? `${labels.get(p.uri) ?? p.uri}:${p.range.start.line + 1}:${p.range.start.character + 1}` : undefined;

export function tallyChanges(changes: readonly ContractChange[]): Record<Severity, number> {
  const t: Record<Severity, number> = { breaking: 0, dangerous: 0, safe: 0 };
  for (const c of changes) t[c.severity]++;
  return t;
}

export const changesSummary = (changes: readonly ContractChange[]): string => {
  const t = tallyChanges(changes);
  return changes.length ? SEVERITIES.map(s => `${t[s]} ${s}`).join(', ') : 'no change to the error contract';
};

/** `labels`: uri → how the report names the file; `title`: what was compared (`main → working tree`). */
export function changesMarkdown(changes: readonly ContractChange[], labels: ReadonlyMap<string, string>, title: string): string {
  const out = [REPORT_MARKER, `### MCP-AQL error contract: ${changesSummary(changes)}`, '', `Compared ${cell(title)}.`];
  for (const s of SEVERITIES) {
    const list = changes.filter(c => c.severity === s);
    if (!list.length) continue;
    out.push('', `#### ${ICON[s]} ${s[0]!.toUpperCase()}${s.slice(1)} (${list.length})`, '', '| rule | change | where |', '|---|---|---|');
    for (const c of list) {
      const where = placeLabel(c.at, labels) ?? (c.was ? `was ${placeLabel(c.was, labels)}` : '');
      out.push(`| ${code(c.rule)} | ${cell(c.message)} | ${where ? code(where) : ''} |`);
    }
  }
  const used = [...new Set(changes.filter(c => c.severity !== 'safe').map(c => c.rule))];
  if (used.length) {
    out.push('', '<details><summary>Why these are breaking or dangerous</summary>', '');
    for (const id of used) out.push(`- ${code(id)}: ${cell(RULES[id].why)}`);
    out.push('', '</details>');
  }
  return out.join('\n') + '\n';
}
