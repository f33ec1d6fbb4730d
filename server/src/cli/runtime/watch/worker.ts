/**
 * `watch`'s judging thread (dist/cli.js is its script, started with WATCH_MARK): it takes the
 * copies of the forwarded chunks from shared memory every POLL_MS while they come (backing off to
 * IDLE_POLL_MS when none do), in order (cli/runtime/watch/gate.ts, cli/runtime/watch/ring.ts), rebuilds the lines, matches requests and
 * answers, judges each answer (cli/runtime/watch/checker.ts, cli/runtime/watch/tracker.ts), writes the finding lines to
 * standard error and the responses to --record itself (cli/runtime/watch/lines.ts: batched, never through the
 * forwarding thread), and at the end — every copy posted before it judged — the summary line and the
 * report (-o). Its counts live in shared memory, so the forwarding thread can still give the summary if
 * this thread dies. On Linux it runs at a lower priority (JUDGE_NICE below the forwarding thread, set before the bundle loads,
 * cli/runtime/watch/judge.ts; a thread's nice value is its own there): when the cores are busy, the forwarding
 * thread, the client and the server run first.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type RuleLevel } from '../../../service';
import { deps } from '../../deps';
import { escapeControls } from '../../format';
import { guardIo, type Io } from '../../io';
import { render, writeOutputFile } from '../../output';
import type { FileReport } from '../../report';
import { contractOf, type AdapterText } from '../args';
import { summaryLine, WatchChecker, type Dir } from './checker';
import { LinesOut } from './lines';
import { RecordFile } from './record';
import { CUT, RingReader, SERVER, type RingMemory } from './ring';
import { WatchTracker } from './tracker';

/** Marks a worker thread started for `watch`. */
export const WATCH_MARK = 'mcp-aql-watch-worker';
/** How much lower than the forwarding thread the judging thread and V8's helper threads run (Linux: nice values; cli/runtime/watch/judge.ts). */
export const JUDGE_NICE = 10;

/** How often the judge looks for copies while they come, and at most when none do (ms). */
const POLL_MS = 20,
  IDLE_POLL_MS = 80;

/** Shared counters (Int32Array): tool calls judged, findings, findings at error level. */
export const CALLS = 0,
  FINDINGS = 1,
  ERRORS = 2,
  COUNTERS = 3;

export interface WatchWorkerData {
  readonly mark: typeof WATCH_MARK;
  readonly cwd: string;
  readonly adapters: readonly AdapterText[];
  readonly rules: Record<string, RuleLevel>;
  /** --record as given, and resolved. */
  readonly record?: { readonly name: string; readonly path: string };
  readonly outputFile?: string;
  readonly format: string;
  readonly counters: SharedArrayBuffer;
  readonly ring: RingMemory;
  /** Where the chunks of BIG bytes or more come (cli/runtime/watch/gate.ts). */
  readonly port: MessagePort;
}

/** From the forwarding thread, on the worker's own port: the end (with the bytes it passed on unchecked). */
export interface ToJudge {
  readonly end: number;
}

function runWatchWorker(d: WatchWorkerData): void {
  const counts = new Int32Array(d.counters);
  const err = new LinesOut(
    () => 2,
    4096,
    () => {},
  ); // standard error gone: nothing to tell, nowhere to tell it
  const io: Io = guardIo({
    cwd: d.cwd,
    color: false,
    env: process.env,
    stdout() {
      throw new Error("watch's judge never writes to standard output (the server's messages go there)");
    },
    stderr: s => err.text(s),
  });
  const log = (s: string) => io.stderr(`mcp-aql-errors watch: ${escapeControls(s)}\n`);
  const file = d.record && new RecordFile(d.cwd, d.record.path, d.record.name, log);
  const record =
    file &&
    new LinesOut(
      () => file.open(),
      1 << 20,
      e => log(`cannot write --record '${d.record!.name}': ${e.message}; recording stopped`),
      undefined,
      fd => file.current(fd),
    );
  const loaded = contractOf(createAdapterService(deps), d.adapters);
  const tracker = new WatchTracker(
    loaded,
    d.rules,
    {
      finding(tool, id, f) {
        Atomics.add(counts, FINDINGS, 1);
        if (f.level === 'error') Atomics.add(counts, ERRORS, 1);
        log(`${tool} (id ${id}): ${f.level} ${f.code}: ${f.message}`);
      },
      response: line => record?.text(line + '\n'),
      judged: () => void Atomics.add(counts, CALLS, 1),
    },
    d.outputFile !== undefined,
  );
  const checker = new WatchChecker(tracker, log);
  const ring = new RingReader(d.ring);
  const fromPort = (): Uint8Array => {
    const m = receiveMessageOnPort(d.port);
    if (!m) throw new Error('a marker in the ring without its bytes on the port');
    return m.message as Uint8Array;
  };
  const take = (): number => {
    const copies = ring.take(fromPort);
    for (const [flags, bytes] of copies) checker.push((flags & SERVER) as Dir, bytes, (flags & CUT) !== 0);
    return copies.length;
  };
  let wait = POLL_MS;
  let timer = setTimeout(function poll() {
    wait = take() ? POLL_MS : Math.min(wait * 2, IDLE_POLL_MS);
    timer = setTimeout(poll, wait);
  }, wait);
  parentPort!.once('message', (m: ToJudge) => {
    clearTimeout(timer);
    take(); // every copy was handed over before the end was posted
    record?.end(true);
    log(summaryLine(tracker.calls, Atomics.load(counts, FINDINGS), Atomics.load(counts, ERRORS), m.end));
    try {
      writeReport();
    } catch (e) {
      log(`cannot write the report: ${(e as Error).message}`);
    }
    err.end(false);
    parentPort!.postMessage('done');
    parentPort!.close();
    d.port.close();
  });

  function writeReport(): void {
    if (!d.outputFile) return;
    // The tools/call answers of this session, one a line (the record also holds other responses).
    const path = resolve(d.cwd, 'watch.responses.jsonl');
    const doc = TextDocument.create(pathToFileURL(path).href, 'json', 1, tracker.transcript);
    const report: FileReport = {
      path,
      rel: relative(d.cwd, path).split(sep).join('/'),
      uri: doc.uri,
      text: tracker.transcript,
      diagnostics: loaded.service.answerDiagnostics(doc, tracker.answers, loaded.contract, { rules: d.rules }),
    };
    writeOutputFile(io, d.outputFile, render(d.format, [report], io, false, 'watch transcript'));
  }
}

if (!isMainThread && (workerData as { mark?: string } | undefined)?.mark === WATCH_MARK) runWatchWorker(workerData as WatchWorkerData);
