/** `diff` reports for code scanning and CI logs: SARIF 2.1.0 (one rule per kind of change) and GitHub workflow commands. */
import { createHash } from 'node:crypto';
import { CHANGE_RULE_INFO, CHANGE_RULES, type ContractChange, type Severity } from '../../service';
import { escapeControls } from './escape';
import type { ChangeReport } from './changes';

const SARIF_LEVEL: Record<Severity, string> = { breaking: 'error', dangerous: 'warning', safe: 'note' };
const relativeUri = (rel: string): string => rel.split('/').map(encodeURIComponent).join('/');

/** Only changes with a place in the working files get a location (the old side's files may not exist). */
const located = (c: ContractChange, r: ChangeReport) =>
  c.at && r.labels.has(c.at.uri) ? { place: c.at, file: r.labels.get(c.at.uri)! } : undefined;

export function formatChangesSarif(r: ChangeReport, version: string, rootUri: string, newUris: ReadonlySet<string>): string {
  const rules = CHANGE_RULES.map(id => ({
    id,
    name: id,
    shortDescription: { text: CHANGE_RULE_INFO[id].title },
    fullDescription: { text: CHANGE_RULE_INFO[id].why },
    defaultConfiguration: { level: SARIF_LEVEL[CHANGE_RULE_INFO[id].severity] },
    properties: { tags: [CHANGE_RULE_INFO[id].severity] },
  }));
  const results = r.changes.map(c => {
    const l = located(c, r);
    return {
      ruleId: c.rule,
      ruleIndex: CHANGE_RULES.indexOf(c.rule),
      level: SARIF_LEVEL[c.severity],
      message: { text: c.message },
      ...(l && newUris.has(l.place.uri)
        ? {
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: relativeUri(l.file), uriBaseId: '%SRCROOT%' },
                  region: {
                    startLine: l.place.range.start.line + 1,
                    startColumn: l.place.range.start.character + 1,
                    endLine: l.place.range.end.line + 1,
                    endColumn: l.place.range.end.character + 1,
                  },
                },
              },
            ],
          }
        : {}),
      // The same change in two runs is one result to code scanning: its rule and what it says.
      partialFingerprints: { 'mcpAqlErrors/v1': createHash('sha256').update(`${c.rule}\0${c.message}`).digest('hex').slice(0, 32) },
      properties: {
        severity: c.severity,
        ...(c.before !== undefined ? { before: c.before } : {}),
        ...(c.after !== undefined ? { after: c.after } : {}),
      },
    };
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcp-aql-errors diff', version, informationUri: 'https://github.com/mcp-aql/mcp-aql-errors', rules } },
        automationDetails: { id: 'mcp-aql-errors/diff/' },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri.endsWith('/') ? rootUri : rootUri + '/' } },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

const escData = (s: string) => escapeControls(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => escapeControls(s).replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
const GH_LEVEL: Record<Severity, string> = { breaking: 'error', dangerous: 'warning', safe: 'notice' };

export function formatChangesGithub(r: ChangeReport, newUris: ReadonlySet<string>): string {
  return r.changes
    .map(c => {
      const l = located(c, r);
      const props = [
        ...(l && newUris.has(l.place.uri)
          ? [`file=${escProp(l.file)}`, `line=${l.place.range.start.line + 1}`, `col=${l.place.range.start.character + 1}`]
          : []),
        `title=${escProp(`${c.severity}: ${c.rule}`)}`,
      ].join(',');
      return `::${GH_LEVEL[c.severity]} ${props}::${escData(c.message)}\n`;
    })
    .join('');
}
