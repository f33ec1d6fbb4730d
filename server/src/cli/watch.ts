/**
 * `mcp-aql-errors watch [--contract <adapter…>] [--record file.responses.jsonl] [--format F] [-o file]
 * -- <server command…>` (issue 24): a transparent stdio proxy. The host starts us instead of the
 * server; every byte goes through unchanged, in order, in both directions (streams piped, with their
 * back-pressure); the server's stderr is its own (inherited). The checker reads copies of the bytes
 * (watchChecker.ts, watchTracker.ts) after they were forwarded, writes one line per finding to stderr, appends every
 * response to --record, and a summary on exit; a throw in it is logged once and checking stops, the
 * session goes on. The server's exit code is ours; a signal that ended it ends us the same way.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { escapeControls } from './format/escape';
import type { Io } from './io';
import { render, writeOutputFile } from './output';
import type { FileReport } from './report';
import { loadContract, parseRuntimeArgs } from './runtimeArgs';
import { WatchChecker } from './watchChecker';
import { WatchTracker } from './watchTracker';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export function runWatch(argv: readonly string[], io: Io): Promise<number> {
  const args = parseRuntimeArgs('watch', argv, ['--record']);
  const loaded = loadContract(args.contract, io);
  const recordPath = args.record === undefined ? undefined : resolve(io.cwd, args.record);
  const log = (s: string) => io.stderr(`mcp-aql-errors watch: ${escapeControls(s)}\n`);
  let findings = 0,
    errors = 0,
    recordBroken = false;
  const tracker = new WatchTracker(
    loaded,
    args.rules,
    {
      finding(tool, id, f) {
        findings++;
        if (f.level === 'error') errors++;
        log(`${tool} (id ${id}): ${f.level} ${f.code}: ${f.message}`);
      },
      response(line) {
        if (!recordPath || recordBroken) return;
        try {
          appendFileSync(recordPath, line + '\n');
        } catch (e) {
          recordBroken = true;
          log(`cannot write --record '${args.record}': ${(e as Error).message}; recording stopped`);
        }
      },
    },
    args.outputFile !== undefined,
  );
  const checker = new WatchChecker(tracker, log);

  return new Promise<number>(done => {
    const child = spawn(args.command, [...args.commandArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
    const forward = (sig: NodeJS.Signals) => () => void child.kill(sig);
    const handlers = SIGNALS.map(s => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    process.stdin.pipe(child.stdin);
    child.stdout.pipe(process.stdout, { end: false });
    process.stdin.on('data', (c: Buffer) => checker.client(c));
    child.stdout.on('data', (c: Buffer) => checker.server(c));
    child.stdin.on('error', () => {}); // the server closed its input: it is exiting, 'close' follows
    process.stdout.on('error', () => child.kill('SIGTERM')); // the host is gone
    let failed = false;
    child.on('error', e => {
      failed = true;
      for (const [s, h] of handlers) process.off(s, h);
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      io.stderr(`mcp-aql-errors watch: cannot start '${escapeControls(args.command)}': ${e.message}\n`);
      done(2);
    });
    child.on('close', (code, signal) => {
      if (failed) return;
      checker.flush();
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      log(
        `${tracker.calls} tool call${tracker.calls === 1 ? '' : 's'} checked, ${findings} finding${findings === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'})${checker.unchecked ? `; ${checker.unchecked} bytes passed on unchecked` : ''}`,
      );
      try {
        writeReport();
      } catch (e) {
        log(`cannot write the report: ${(e as Error).message}`);
      }
      for (const [s, h] of handlers) process.off(s, h);
      if (signal) {
        process.kill(process.pid, signal); // end as the server ended
        return;
      }
      done(code ?? 1);
    });
  });

  function writeReport(): void {
    if (!args.outputFile) return;
    // The tools/call answers of this session, one a line (the record also holds other responses).
    const path = resolve(io.cwd, 'watch.responses.jsonl');
    const doc = TextDocument.create(pathToFileURL(path).href, 'json', 1, tracker.transcript);
    const report: FileReport = {
      path,
      rel: relative(io.cwd, path).split(sep).join('/'),
      uri: doc.uri,
      text: tracker.transcript,
      diagnostics: loaded.service.answerDiagnostics(doc, tracker.answers, loaded.contract, { rules: args.rules }),
    };
    writeOutputFile(io, args.outputFile, render(args.format, [report], io, false, 'watch transcript'));
  }
}
