/** SARIF 2.1.0: one run, the rules we know, one result per diagnostic. */
import { allCodes, codeInfo, docsHref } from '../../service';
import { encodeSegment } from '../../node/bytePaths';
import { messageText, severityName, type FileReport } from '../report';

const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/**
 * A relative path as a relative URI reference: every segment percent-encoded, so `#`, `?`, `%`, a
 * leading `c:` and control characters stay part of the path (docs/robustness.md), and a byte of a name that is not UTF-8 is `%FF`; resolved against %SRCROOT%.
 */
const relativeUri = (rel: string): string => rel.split('/').map(encodeSegment).join('/');

export function formatSarif(reports: readonly FileReport[], version: string, rootUri: string): string {
  const rules = allCodes.map(c => ({
    id: c,
    name: c,
    shortDescription: { text: codeInfo[c].summary },
    helpUri: docsHref(c),
    defaultConfiguration: { level: LEVEL[codeInfo[c].level === 'information' ? 'info' : codeInfo[c].level] ?? 'warning' },
  }));
  const ruleIndex = new Map(allCodes.map((c, i) => [c as string, i]));
  const results = reports.flatMap(r =>
    r.diagnostics.map(d => ({
      ruleId: String(d.code),
      ...(ruleIndex.has(String(d.code)) ? { ruleIndex: ruleIndex.get(String(d.code)) } : {}),
      level: LEVEL[severityName(d)] ?? 'warning',
      message: { text: messageText(d) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: relativeUri(r.rel), uriBaseId: '%SRCROOT%' },
            region: {
              startLine: d.range.start.line + 1,
              startColumn: d.range.start.character + 1,
              endLine: d.range.end.line + 1,
              endColumn: d.range.end.character + 1,
            },
          },
        },
      ],
    })),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcp-aql-errors', version, informationUri: 'https://github.com/mcp-aql/mcp-aql-errors', rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri.endsWith('/') ? rootUri : rootUri + '/' } },
        artifacts: reports.map(r => ({ location: { uri: relativeUri(r.rel), uriBaseId: '%SRCROOT%' } })),
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
