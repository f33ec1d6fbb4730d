/**
 * The editor's workspace scan in a thread of its own: the thread reads each file's index entries (the fast
 * index scan, or the file's model when only that can tell), the server's main thread files them. An opened
 * file's first diagnostics then never wait for the file the scan is reading (a 550 KB adapter: about 150 ms of
 * CPU; docs/performance.md, "First diagnostics"). The thread is the server's own script started again
 * (`workerData.mark`: main.ts serves `serveIndexing` there); a scan starts one and ends it when it is done.
 * On Linux it runs at a lower priority than the rest of the server and the editor (SCAN_THREAD_NICE).
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, IndexEntries, ServiceOptions } from '../service';

/**
 * The scan thread's nice value on Linux (server/src/loadServer.ts sets it): the scan is background work, and an
 * opened file's first diagnostics travel through the server, the extension host and the editor's window while it
 * starts; on 2 cores it took CPU from them (bench/NOTES.md, "eighth sitting"). 10: a tenth of a core's share
 * against a busy process of the default priority.
 */
export const SCAN_THREAD_NICE = 10;

/** workerData.mark of the scan's thread. */
export const INDEX_THREAD_MARK = 'mcp-aql-index-thread';

interface Request {
  readonly id: number;
  readonly uri: string;
  readonly text: string;
  readonly opts: ServiceOptions;
}
interface Reply {
  readonly id: number;
  readonly entries?: IndexEntries;
  readonly error?: string;
}

/** In the thread: answer each file with its entries (none when it is not an adapter); no model is kept. */
export function serveIndexing(service: AdapterService, port: MessagePort): void {
  port.on('message', (m: Request) => {
    let reply: Reply;
    try {
      const doc = TextDocument.create(m.uri, 'yaml', 0, m.text);
      reply = { id: m.id, entries: service.isAdapter(doc, m.opts) ? service.indexEntries(doc, m.opts, { model: false }) : undefined };
    } catch (e) {
      reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    }
    service.forget(m.uri);
    port.postMessage(reply);
  });
}

/** The main thread's end: one file at a time, in order. */
export class IndexThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (e: IndexEntries | undefined) => void; reject: (e: Error) => void }>();
  private failed: Error | undefined;

  /** `script`: the server's entry (dist/server.js), started with the mark and `execArgv` as given. */
  constructor(script: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(script, {
      // `nice`: the loader lowers the thread's priority before anything else (server/src/loadServer.ts).
      workerData: { mark: INDEX_THREAD_MARK, port: port2, nice: SCAN_THREAD_NICE },
      transferList: [port2],
      stdout: true,
      stderr: true,
    });
    const fail = (e: Error) => {
      this.failed ??= e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', code => fail(new Error(`the scan's thread exited (${code})`)));
    this.port.on('message', (r: Reply) => {
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if (r.error !== undefined) w?.reject(new Error(r.error));
      else w?.resolve(r.entries);
    });
  }

  /** The entries of `uri` read from `text` (undefined: not an adapter); rejects when the thread failed. */
  entries(uri: string, text: string, opts: ServiceOptions): Promise<IndexEntries | undefined> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ id, uri, text, opts } satisfies Request);
    });
  }

  /** Ends the thread; a file it is still reading is answered with an error at once. */
  close(): void {
    this.failed ??= new Error(`the scan's thread was closed`);
    for (const w of this.waiting.values()) w.reject(this.failed);
    this.waiting.clear();
    this.port.close();
    void this.worker.terminate();
  }
}
