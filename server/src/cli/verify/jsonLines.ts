/**
 * A JSON Lines log of any size, verified record by record (docs/robustness.md): the file is read in
 * chunks, its lines are verified in batches of about 1 MiB (records are independent, so a batch says
 * what the whole file would), and only the lines a code frame shows are kept. A record JSON.parse shows
 * to have no problem (service plainlyClean) goes to its batch as an empty line, which verify skips:
 * only the others are read again with offsets. A record longer than
 * `maxRecord` characters is reported (`file.too-large`, on its line) and skipped without being held.
 *
 * Lines are the editor's (docs/robustness.md "Line ends"): a record ends at LF, but a lone CR inside it
 * (in a string, or as whitespace) breaks the line in VS Code and in the batch's TextDocument, so every
 * line number here, and every line a frame shows, counts it: the same lines as verify of the whole text.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { docsHref, plainlyClean, SOURCE, type AdapterService, type Contract, type ServiceOptions } from '../../service';
import { readLines } from '../../node/readLines';
import type { LineSource } from '../report';

const BATCH_CHARS = 1 << 20;

export const isJsonLinesPath = (path: string): boolean => /\.(?:jsonl|ndjson)$/i.test(path);

export interface StreamedReport {
  readonly diagnostics: Diagnostic[];
  readonly lines: LineSource;
}

/**
 * A record's lines as an editor shows them: it breaks at each lone CR. A CR at the end is the CR of a
 * CRLF line end (or of the file's last line), not a break; it stays on the last line, as before.
 */
function editorLines(text: string): string[] {
  const cr = text.indexOf('\r');
  if (cr < 0 || cr === text.length - 1) return [text];
  const crlf = text.charCodeAt(text.length - 1) === 13;
  const lines = (crlf ? text.slice(0, -1) : text).split('\r');
  if (crlf) lines[lines.length - 1] += '\r';
  return lines;
}

export function verifyJsonLines(
  path: string,
  uri: string,
  service: AdapterService,
  contract: Contract,
  opts: ServiceOptions,
  maxRecord: number,
): StreamedReport | { readonly error: string } {
  const diagnostics: Diagnostic[] = [];
  const kept = new Map<number, string>();
  /** Lines after a batch that frames of its problems show (the next one or two). */
  const wanted = new Set<number>();
  let tail: string[] = []; // the last two lines of the previous batch
  let batch: string[] = [];
  /** The batch's lines as the editor shows them (a record with lone CRs is several). */
  let batchLines: string[] = [];
  /** The batch as verified: a record known clean is an empty line there. */
  let checked: string[] = [];
  let batchChars = 0;
  let batchStart = 0;
  /** The editor line the next record starts on. */
  let lineNo = 0;
  const flush = () => {
    if (!batch.length) return;
    const doc = TextDocument.create(uri, 'json', 1, checked.join('\n'));
    for (const d of service.verifyResponses(doc, contract, opts)) {
      const s = d.range.start.line + batchStart,
        e = d.range.end.line + batchStart;
      diagnostics.push({ ...d, range: { start: { ...d.range.start, line: s }, end: { ...d.range.end, line: e } } });
      for (let l = s - 2; l <= s + 1; l++) {
        if (l < 0) continue;
        const local = l - batchStart;
        if (local >= 0 && local < batchLines.length) kept.set(l, batchLines[local]!);
        else if (local < 0) {
          const t = tail[tail.length + local];
          if (t !== undefined) kept.set(l, t);
        } else wanted.add(l);
      }
    }
    tail = batchLines.slice(-2);
    batch = [];
    batchLines = [];
    checked = [];
    batchChars = 0;
  };
  const line = (text: string) => {
    const lines = editorLines(text);
    if (batchChars + text.length > BATCH_CHARS) flush();
    // After the flush: the frame of a problem on the last line of the batch shows this record's first line.
    for (let k = 0; k < lines.length; k++) if (wanted.delete(lineNo + k)) kept.set(lineNo + k, lines[k]!);
    if (batch.length === 0) batchStart = lineNo;
    batch.push(text);
    for (const l of lines) batchLines.push(l);
    // A clean record keeps only its CRs (each run of other characters a space, which verify skips): the batch's
    // document counts a CR not before LF as a line end.
    checked.push(!plainlyClean(text, contract) ? text : text.indexOf('\r') < 0 ? '' : text.replace(/[^\r]+/g, ' '));
    batchChars += text.length + 1;
    lineNo += lines.length;
  };
  const tooLong = (size: number, loneCrs: number) => {
    flush();
    const message = `This record (line ${lineNo + 1}) has ${size} characters, more than mcpAql.maxFileSize (${maxRecord}); it is not checked.`;
    diagnostics.push({
      range: { start: { line: lineNo, character: 0 }, end: { line: lineNo, character: 0 } },
      severity: DiagnosticSeverity.Warning,
      source: SOURCE,
      code: 'file.too-large',
      codeDescription: { href: docsHref('file.too-large') },
      message,
      data: { size, max: maxRecord },
    });
    kept.set(lineNo, '');
    tail = [];
    lineNo += 1 + loneCrs;
    batchStart = lineNo;
  };
  const r = readLines(path, maxRecord, { line, tooLong });
  if (!r.ok) return { error: r.message };
  flush();
  // A frame shows a line as the editor does: without the CR of its CRLF ending.
  return { diagnostics, lines: { count: lineNo, at: l => kept.get(l)?.replace(/\r$/, '') } };
}
