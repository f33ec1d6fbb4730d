/**
 * A regular file of any size read line by line (JSON Lines: `verify` of a `.jsonl`, `infer`): read in
 * chunks with the checks of readRegularFile, decoded as UTF-8 across chunk boundaries, cut at `\n`.
 * Memory stays one chunk and one line: a line longer than `maxLine` characters is not held — it is
 * reported by its length (`onTooLong`) and skipped.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile, type ReadFailure } from './readRegularFile';

export interface LineHandlers {
  /** A line, without its `\n`. The last line is given even when empty only if the file is empty (one empty line). */
  line(text: string): void;
  /**
   * A line over `maxLine` characters, by its length, and how many lone CRs it holds (a CR not at its end,
   * where it is a CRLF's): an editor breaks the line at each, so the lines after it are that many lines further.
   */
  tooLong(size: number, loneCrs: number): void;
}

/** The lines of `chunks` (strings, in order) to `h`; `end()` after the last chunk. */
export function lineSplitter(maxLine: number, h: LineHandlers): { push(chunk: string): void; end(): void } {
  let pending = '';
  let skipping = -1; // >= 0: inside an over-long line, this many characters so far
  let crs = 0; // inside an over-long line: its CRs so far
  let endsInCr = false; // inside an over-long line: whether the characters so far end with a CR
  let lines = 0;
  const countCrs = (s: string) => {
    for (let i = s.indexOf('\r'); i >= 0; i = s.indexOf('\r', i + 1)) crs++;
    if (s.length) endsInCr = s.charCodeAt(s.length - 1) === 13;
  };
  const emit = () => {
    if (skipping >= 0) h.tooLong(skipping, crs - (endsInCr ? 1 : 0));
    else h.line(pending);
    lines++;
    skipping = -1;
    crs = 0;
    endsInCr = false;
    pending = '';
  };
  return {
    push(chunk: string) {
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf('\n', from);
        const piece = chunk.slice(from, nl < 0 ? chunk.length : nl);
        if (skipping >= 0) {
          skipping += piece.length;
          countCrs(piece);
        } else if (pending.length + piece.length > maxLine) {
          skipping = pending.length + piece.length;
          countCrs(pending);
          countCrs(piece);
          pending = '';
        } else pending += piece;
        if (nl < 0) break;
        emit();
        from = nl + 1;
      }
    },
    end() {
      if (skipping >= 0 || pending.length || lines === 0) emit();
    },
  };
}

/** The lines of the regular file at `path`, read `chunkBytes` at a time. */
export function readLines(path: string, maxLine: number, h: LineHandlers, chunkBytes = 1 << 20): { readonly ok: true } | ReadFailure {
  const split = lineSplitter(maxLine, h);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const r = readRegularFileInChunks(path, bytes => split.push(decoder.decode(bytes, { stream: true })), chunkBytes);
  if (!r.ok) return r;
  split.push(decoder.decode());
  split.end();
  return r;
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
