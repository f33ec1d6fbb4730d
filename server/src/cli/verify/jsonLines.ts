/**
 * A JSON Lines log of any size, verified record by record (docs/robustness.md): the file is read in
 * chunks, its lines are verified in batches of about 1 MiB (records are independent, so a batch says
 * what the whole file would), and only the lines a code frame shows are kept. A record longer than
 * `maxRecord` characters is reported (`file.too-large`, on its line) and skipped without being held.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { docsHref, SOURCE, type AdapterService, type Contract, type ServiceOptions } from '../../service';
import { closeSync, readSync } from 'node:fs';
import { openRegularFile, type ReadFailure } from '../../node/readRegularFile';
import type { LineSource } from '../report';

const BATCH_CHARS = 1 << 20;

export const isJsonLinesPath = (path: string): boolean => /\.(?:jsonl|ndjson)$/i.test(path);

export interface StreamedReport {
  readonly diagnostics: Diagnostic[];
  readonly lines: LineSource;
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
  let batchChars = 0;
  let batchStart = 0;
  let lineNo = 0;
  const flush = () => {
    if (!batch.length) return;
    const doc = TextDocument.create(uri, 'json', 1, batch.join('\n'));
    for (const d of service.verifyResponses(doc, contract, opts)) {
      const s = d.range.start.line + batchStart,
        e = d.range.end.line + batchStart;
      diagnostics.push({ ...d, range: { start: { ...d.range.start, line: s }, end: { ...d.range.end, line: e } } });
      for (let l = s - 2; l <= s + 1; l++) {
        if (l < 0) continue;
        const local = l - batchStart;
        if (local >= 0 && local < batch.length) kept.set(l, batch[local]!);
        else if (local < 0) {
          const t = tail[tail.length + local];
          if (t !== undefined) kept.set(l, t);
        } else wanted.add(l);
      }
    }
    tail = batch.slice(-2);
    batchStart += batch.length;
    batch = [];
    batchChars = 0;
  };
  const line = (text: string) => {
    if (wanted.delete(lineNo)) kept.set(lineNo, text);
    if (batchChars + text.length > BATCH_CHARS) flush();
    if (batch.length === 0) batchStart = lineNo;
    batch.push(text);
    batchChars += text.length + 1;
    lineNo++;
  };
  const tooLong = (size: number) => {
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
    batchStart = ++lineNo;
  };
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let pending = '';
  let skipping = -1; // >= 0: inside an over-long record, this many characters so far
  const take = (chunk: string, last: boolean) => {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      const piece = chunk.slice(from, nl < 0 ? chunk.length : nl);
      if (skipping >= 0) skipping += piece.length;
      else if (pending.length + piece.length > maxRecord) {
        skipping = pending.length + piece.length;
        pending = '';
      } else pending += piece;
      if (nl < 0) break;
      if (skipping >= 0) tooLong(skipping);
      else line(pending);
      skipping = -1;
      pending = '';
      from = nl + 1;
    }
    if (last) {
      if (skipping >= 0) tooLong(skipping);
      else if (pending.length || lineNo === 0) line(pending);
      flush();
    }
  };
  const r = readRegularFileInChunks(path, bytes => take(decoder.decode(bytes, { stream: true }), false));
  if (!r.ok) return { error: r.message };
  take(decoder.decode(), true);
  return { diagnostics, lines: { count: lineNo, at: l => kept.get(l) } };
}

/**
 * A regular file read in chunks of `chunkBytes` (the same checks as readRegularFile), for files of any
 * size: memory stays one chunk. `onChunk` gets a view of a reused buffer.
 */
function readRegularFileInChunks(
  path: string,
  onChunk: (bytes: Uint8Array) => void,
  chunkBytes = 1 << 20,
): { readonly ok: true } | ReadFailure {
  const opened = openRegularFile(path);
  if (!opened.ok) return opened;
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const n = readSync(opened.fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      onChunk(buf.subarray(0, n));
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: 'error', message: (e as Error).message };
  } finally {
    closeSync(opened.fd);
  }
}
