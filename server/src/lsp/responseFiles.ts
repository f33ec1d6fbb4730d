/**
 * Recorded-response files (`*.responses.jsonl`, `*.envelope.json`, mcpAql.responseFiles) checked live
 * against the contract of the workspace's adapters (`verify`), and the preview panel's "Verify a
 * response" request. The contract is rebuilt only when an adapter's text changes (open documents by
 * version, others by mtime and size); files are read, never written.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { VerifyResponse, type VerifyResponseResult } from '../protocol';
import type { AdapterService, Contract, ServiceOptions } from '../service';
import type { WorkspaceIndexer } from './workspaceIndexer';

interface DiskText {
  readonly mtime: number;
  readonly size: number;
  readonly doc: TextDocument;
}

export class ResponseFiles {
  private readonly disk = new Map<string, DiskText>();
  private cached: { key: string; contract: Contract } | undefined;

  constructor(
    private readonly service: AdapterService,
    private readonly indexer: WorkspaceIndexer,
    private readonly documents: TextDocuments<TextDocument>,
  ) {}

  /** Diagnostics of a response file, or undefined when `doc` is not one (the caller validates it as an adapter). */
  diagnostics(doc: TextDocument, opts: ServiceOptions): Diagnostic[] | undefined {
    if (!this.service.isResponseFile(doc.uri, opts) || this.service.isAdapter(doc, opts)) return undefined;
    return this.service.verifyResponses(doc, this.contract(opts), opts);
  }

  /** The contract of every adapter the server knows: the index's files and open adapter documents. */
  contract(opts: ServiceOptions, only?: string): Contract {
    const uris = only ? [only] : [...new Set([...this.indexer.index.uris(), ...this.documents.all().map(d => d.uri)])].sort();
    const docs: TextDocument[] = [];
    const key: string[] = [];
    for (const uri of uris) {
      const open = this.documents.get(uri);
      const doc = open ?? this.fromDisk(uri, opts);
      if (!doc || this.service.isResponseFile(uri, opts) || !this.service.isAdapter(doc, opts)) continue;
      docs.push(doc);
      key.push(`${uri}@${open ? `v${open.version}` : `d${this.disk.get(uri)?.mtime}:${this.disk.get(uri)?.size}`}`);
    }
    const k = key.join('\n') + `\n${JSON.stringify(opts.files ?? [])}`;
    if (this.cached?.key !== k) this.cached = { key: k, contract: this.service.contract(docs, opts) };
    return this.cached.contract;
  }

  private fromDisk(uri: string, opts: ServiceOptions): TextDocument | undefined {
    try {
      const path = fileURLToPath(uri);
      const st = statSync(path);
      if (st.size > (opts.maxFileSize ?? 4.5 * 1024 * 1024)) return undefined;
      const hit = this.disk.get(uri);
      if (hit && hit.mtime === st.mtimeMs && hit.size === st.size) return hit.doc;
      const doc = TextDocument.create(uri, 'yaml', 0, readFileSync(path, 'utf8'));
      this.disk.set(uri, { mtime: st.mtimeMs, size: st.size, doc });
      return doc;
    } catch {
      this.disk.delete(uri);
      return undefined;
    }
  }

  /**
   * `mcpAql/verifyResponse`: a pasted response against one adapter (the preview's) or the workspace's.
   * An edit of an adapter re-schedules the open response files (push clients; pull clients re-pull).
   */
  listen(connection: Connection, opts: (uri: string) => Promise<ServiceOptions>, schedule: (uri: string) => void): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.documents.onDidChangeContent(e => {
      if (this.service.isResponseFile(e.document.uri)) return;
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          void Promise.all(
            this.documents.all().map(async d => {
              if (this.service.isResponseFile(d.uri, await opts(d.uri))) schedule(d.uri);
            }),
          ).catch(() => undefined),
        300,
      );
      timer.unref?.();
    });
    connection.onRequest(VerifyResponse.type, async (p): Promise<VerifyResponseResult> => {
      const o = await opts(p.uri ?? 'file:///');
      const adapter = p.uri && this.documents.get(p.uri);
      const contract = this.contract(o, adapter && this.service.isAdapter(adapter, o) ? p.uri : undefined);
      const text = typeof p.text === 'string' ? p.text : '';
      // One JSON value, or JSON Lines when the paste is several values, one a line.
      const lines = text.split('\n').filter(l => l.trim());
      let single = true;
      try {
        JSON.parse(text);
      } catch {
        single = lines.length < 2;
      }
      const doc = TextDocument.create(`untitled:pasted.${single ? 'envelope.json' : 'responses.jsonl'}`, 'json', 1, text);
      return {
        diagnostics: this.service.verifyResponses(doc, contract, o),
        adapters: contract.adapters,
        records: single ? 1 : lines.length,
      };
    });
  }
}
