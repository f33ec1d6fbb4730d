/**
 * Machine output: one array of files with their diagnostics (0-based LSP ranges and 1-based line/column);
 * `omitted` counts what the per-file cap left out (only when it cut); `uri` is the file's percent-encoded file: URI (what `fileURLToPath` — node/bytePaths `pathFromUri` for a name that is not UTF-8 — turns back into the path).
 */
import { messageText, severityName, type FileReport } from '../report';

/** One file's entry of the array. */
export const jsonFile = (r: FileReport) => ({
  file: r.rel,
  uri: r.uri,
  diagnostics: r.diagnostics.map(d => ({
    code: d.code,
    severity: severityName(d),
    message: messageText(d),
    range: d.range,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    href: d.codeDescription?.href,
  })),
  ...(r.omitted ? { omitted: r.omitted } : {}),
});

export function formatJson(reports: readonly FileReport[]): string {
  return JSON.stringify(reports.map(jsonFile), null, 2) + '\n';
}
