/**
 * SARIF 2.1.0: one run, the rules we know, one result per diagnostic. Code scanning tracks a result
 * across runs by its `partialFingerprints` and keeps each command's runs apart by
 * `runAutomationDetails.id` (its category): a result's fingerprint is its rule, its file and the text
 * of its line, with the count of the same before it, so a line added above moves no result.
 */
import { createHash } from 'node:crypto';
import { allCodes, codeInfo, docsHref } from '../../service';
import { encodeSegment } from '../../node/bytePaths';
import { messageText, severityName, type FileReport } from '../report';

const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/**
 * A relative path as a relative URI reference: every segment percent-encoded, so `#`, `?`, `%`, a
 * leading `c:` and control characters stay part of the path (docs/robustness.md), and a byte of a name that is not UTF-8 is `%FF`; resolved against %SRCROOT%.
 */
const relativeUri = (rel: string): string => rel.split('/').map(encodeSegment).join('/');

/** The fingerprint of each diagnostic of a file: rule, path, the trimmed text of its first line, and which one of those it is. */
function fingerprints(r: FileReport): string[] {
  const lines = r.text ? r.text.split(/\r\n|\r|\n/) : undefined;
  const seen = new Map<string, number>();
  return r.diagnostics.map(d => {
    const line = (lines?.[d.range.start.line] ?? r.lines?.at(d.range.start.line) ?? '').trim();
    const key = `${String(d.code)}\0${r.rel}\0${line}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return createHash('sha256').update(`${key}\0${n}`).digest('hex').slice(0, 32);
  });
}

export function formatSarif(reports: readonly FileReport[], version: string, rootUri: string, command = 'check'): string {
  const rules = allCodes.map(c => ({
    id: c,
    name: c,
    shortDescription: { text: codeInfo[c].summary },
    helpUri: docsHref(c),
    defaultConfiguration: { level: LEVEL[codeInfo[c].level === 'information' ? 'info' : codeInfo[c].level] ?? 'warning' },
  }));
  const ruleIndex = new Map(allCodes.map((c, i) => [c as string, i]));
  const results = reports.flatMap(r => {
    const prints = fingerprints(r);
    return r.diagnostics.map((d, i) => ({
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
      partialFingerprints: { 'mcpAqlErrors/v1': prints[i]! },
    }));
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcp-aql-errors', version, informationUri: 'https://github.com/mcp-aql/mcp-aql-errors', rules } },
        automationDetails: { id: `mcp-aql-errors/${command}/` },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri.endsWith('/') ? rootUri : rootUri + '/' } },
        artifacts: reports.map(r => ({ location: { uri: relativeUri(r.rel), uriBaseId: '%SRCROOT%' } })),
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
