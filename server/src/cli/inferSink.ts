/**
 * `watch --infer P` and `probe --infer P` (docs/cli.md, "Inferring a contract"): the traffic of the
 * session goes, line by line, into a FailureReader as it passes (watch: both directions, as copies
 * after forwarding; probe: its transcript), and when the session ends the contract inferred from the
 * failures seen is written to P through the one writer (safeWrite.ts writeOutput).
 *
 * P that already exists is merged into, as `infer --merge` does: every byte of it stays and only the
 * kinds of failure it does not declare are added — nothing written by hand is ever replaced, so a
 * second session adds what the first did not see. A JSON adapter, a file that is not an adapter
 * mapping, a symbolic link: refused, the file as it was. No failure seen: nothing written.
 */
import { lstatSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { createAdapterService, DEFAULT_MAX_FILE_SIZE, FailureReader, InferRenderError } from '../service';
import { lineSplitter } from '../node/readLines';
import { readRegularFile } from '../node/readRegularFile';
import { deps } from './deps';
import { UsageError } from './files';
import { escapeControls } from './format';
import { writeOutput } from './safeWrite';

type Splitter = ReturnType<typeof lineSplitter>;

export class InferSink {
  private readonly reader = new FailureReader();
  private readonly fromClient: Splitter;
  private readonly fromServer: Splitter;
  private readonly decoders = { client: new TextDecoder(), server: new TextDecoder() };

  /** `out`: the file to write (as the user gave it), `cwd`: what it is relative to. */
  constructor(
    private readonly out: string,
    private readonly cwd: string,
  ) {
    const h = { line: (t: string) => this.reader.line(t), tooLong: () => {} };
    this.fromClient = lineSplitter(DEFAULT_MAX_FILE_SIZE, h);
    this.fromServer = lineSplitter(DEFAULT_MAX_FILE_SIZE, h);
  }

  /** Bytes the client sent (requests): each direction is cut into lines on its own. */
  client(chunk: Uint8Array): void {
    this.fromClient.push(this.decoders.client.decode(chunk, { stream: true }));
  }

  /** Bytes the server sent (answers). */
  server(chunk: Uint8Array): void {
    this.fromServer.push(this.decoders.server.decode(chunk, { stream: true }));
  }

  /** A whole transcript (probe's). */
  transcript(text: string): void {
    const s = lineSplitter(DEFAULT_MAX_FILE_SIZE, { line: t => this.reader.line(t), tooLong: () => {} });
    s.push(text);
    s.end();
    this.reader.endTranscript();
  }

  /**
   * The session is over: the contract written (or why not), as one line for the log (not yet escaped).
   * Throws UsageError when it cannot be written.
   */
  finish(): string {
    this.fromClient.push(this.decoders.client.decode());
    this.fromClient.end();
    this.fromServer.push(this.decoders.server.decode());
    this.fromServer.end();
    // Raw in the line returned (the caller's log escapes it), escaped in an error.
    const shown = relative(this.cwd, resolve(this.cwd, this.out)) || this.out;
    if (this.reader.total === 0) return `--infer: no failure seen, ${shown} not written`;
    const existing = this.existing();
    let r;
    try {
      r = createAdapterService(deps).inferContract({
        reader: this.reader,
        existing,
        name: existing === undefined ? nameOf(this.out) : undefined,
      });
    } catch (e) {
      if (e instanceof InferRenderError) throw new UsageError(`cannot write --infer '${escapeControls(shown)}': ${e.message}`);
      throw e;
    }
    writeOutput(this.cwd, this.out, r.text, '--infer');
    const n = this.reader.total;
    return (
      `--infer: ${n} failure${n === 1 ? '' : 's'}, ${r.kinds.length} kind${r.kinds.length === 1 ? '' : 's'} of failure; ` +
      `${existing === undefined ? 'wrote' : 'merged into'} ${shown}` +
      (r.added.length ? `; added ${r.added.join(', ')}` : '') +
      (r.kept.length ? `; kept as written ${r.kept.join(', ')}` : '')
    );
  }

  /** The adapter already at `out`, to merge into; undefined when nothing is there. */
  private existing(): string | undefined {
    const path = resolve(this.cwd, this.out);
    // A link is never read to merge into (it may lead out of the checkout): the one writer refuses it.
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
    const r = readRegularFile(path);
    if (r.ok) return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
    // Nothing there, or a link, a folder, a device: the one writer writes, or says why it will not.
    if (r.reason === 'missing' || r.reason === 'not-regular') return undefined;
    // A file that cannot be read is never replaced by one that forgot it.
    throw new UsageError(`cannot write --infer '${escapeControls(this.out)}': it cannot be read to merge into (${r.message})`);
  }
}

/** The new adapter's name: the file's (`notes.adapter.yaml` → `notes`) when it is one, else `inferred`. */
function nameOf(out: string): string {
  const n = basename(out).replace(/\.adapter\.ya?ml$|\.ya?ml$/i, '');
  return /^[a-z][a-z0-9-]*$/.test(n) ? n : 'inferred';
}
