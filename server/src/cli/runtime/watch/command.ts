/**
 * `mcp-aql-errors watch [--contract <adapter…>] [--record file.responses.jsonl] [--format F] [-o file]
 * -- <server command…>`: a transparent stdio proxy. The host starts us instead of the
 * server; every byte goes through unchanged, in order, in both directions (streams piped, with their
 * back-pressure); the server's stderr is its own (inherited). This thread only forwards: once a chunk is
 * forwarded, a copy is posted to the judging thread (cli/runtime/watch/judge.ts, cli/runtime/watch/worker.ts), which
 * writes one line per finding to stderr, appends every response to --record, and the summary and the
 * report on exit; a throw in it is logged once and checking stops, the session goes on. The server's
 * exit code is ours; a signal that ended it ends us the same way.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { OWN_GROUP, signalGroup, stopGroup } from '../../../node/processGroup';
import { createAdapterService } from '../../../service';
import { deps } from '../../deps';
import { escapeControls } from '../../format';
import type { Io } from '../../io';
import { parseRuntimeArgs, readAdapters } from '../args';
import { WatchJudge } from './judge';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export function runWatch(argv: readonly string[], io: Io): Promise<number> {
  const args = parseRuntimeArgs('watch', argv, ['--record']);
  const adapters = readAdapters(createAdapterService(deps), args.contract, io);
  const log = (s: string) => io.stderr(`mcp-aql-errors watch: ${escapeControls(s)}\n`);

  return new Promise<number>(done => {
    // In a process group of its own: when the server exits, what it left running (a child holding its
    // output, which kept the pipe open and us waiting) is stopped with it (node/processGroup.ts).
    const child = spawn(args.command, [...args.commandArgs], { stdio: ['pipe', 'pipe', 'inherit'], detached: OWN_GROUP });
    child.on('exit', () => {
      if (child.pid !== undefined) void stopGroup(child.pid);
    });
    // Started after the spawn: the server starts while the judge loads.
    const judge = new WatchJudge(
      {
        cwd: io.cwd,
        adapters,
        rules: args.rules,
        record: args.record === undefined ? undefined : { name: args.record, path: resolve(io.cwd, args.record) },
        outputFile: args.outputFile,
        format: args.format,
      },
      log,
    );
    // As a terminal's Ctrl+C would: to the server's whole group.
    const forward = (sig: NodeJS.Signals) => () => void (child.pid === undefined ? child.kill(sig) : signalGroup(child.pid, sig));
    const handlers = SIGNALS.map(s => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    // The pipes' own listeners come first: a chunk is forwarded before its copy is posted.
    process.stdin.pipe(child.stdin);
    child.stdout.pipe(process.stdout, { end: false });
    process.stdin.on('data', (c: Buffer) => judge.client(c));
    child.stdout.on('data', (c: Buffer) => judge.server(c));
    child.stdin.on('error', () => {}); // the server closed its input: it is exiting, 'close' follows
    process.stdout.on('error', () => void (child.pid !== undefined && stopGroup(child.pid))); // the host is gone
    let failed = false;
    child.on('error', e => {
      failed = true;
      judge.stop();
      for (const [s, h] of handlers) process.off(s, h);
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      io.stderr(`mcp-aql-errors watch: cannot start '${escapeControls(args.command)}': ${e.message}\n`);
      done(2);
    });
    child.on('close', (code, signal) => {
      if (failed) return;
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      // Every copy is posted by now (the server's output ended before 'close'): the judge ends with them.
      void judge.finish().then(() => {
        for (const [s, h] of handlers) process.off(s, h);
        if (signal) {
          process.kill(process.pid, signal); // end as the server ended
          return;
        }
        done(code ?? 1);
      });
    });
  });
}
