/**
 * `mcp-aql-errors watch [--contract <adapter…>] [--record file.responses.jsonl] [--infer P] [--format F] [-o file]
 * (--config <file> [--server <name>] [--print-config] | --listen <addr> --url <U> | -- <server command…>)`
 * (docs/cli.md, "watch"): a transparent proxy. With `--print-config`, the host's config with watch put in front of the server
 * (printWatchConfig.ts), and nothing run. With `--listen` (or an http server of `--config`), a reverse
 * proxy for Streamable HTTP (httpProxy.ts) until it is stopped (SIGINT, SIGTERM), its copies judged by the
 * same thread; each exchange's HTTP facts are judged here (service `judgeHttp`). Otherwise a stdio proxy: The host starts us instead of the
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
import { createAdapterService, type RuleLevel } from '../../../service';
import { deps } from '../../deps';
import { escapeControls } from '../../format';
import type { Io } from '../../io';
import { UsageError } from '../../files';
import { InferSink } from '../../inferSink';
import { parseRuntimeArgs, readAdapters, type AdapterText, type RuntimeArgs } from '../args';
import { chosenServer, loadHostConfig, targetOf } from '../targets';
import { parseListen, startHttpProxy } from './httpProxy';
import { WatchJudge } from './judge';
import { printWatchConfig } from './printWatchConfig';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** The options a printed config gives watch: the contract (absolute), the rules, the record (absolute). */
function watchOptions(args: RuntimeArgs, io: Io): string[] {
  const out = ['watch'];
  for (const c of args.contract) out.push('--contract', resolve(io.cwd, c));
  for (const [code, level] of Object.entries(args.rules)) out.push('--rule', `${code}=${level}`);
  if (args.record !== undefined) out.push('--record', resolve(io.cwd, args.record));
  if (args.infer !== undefined) out.push('--infer', resolve(io.cwd, args.infer));
  return out;
}

export function runWatch(argv: readonly string[], io: Io): Promise<number> {
  const args = parseRuntimeArgs('watch', argv, ['--record']);
  const log = (s: string) => io.stderr(`mcp-aql-errors watch: ${escapeControls(s)}\n`);
  let command = args.command,
    commandArgs = args.commandArgs,
    cwd: string | undefined,
    env: Readonly<Record<string, string>> | undefined,
    upstream = args.url;
  if (args.config !== undefined) {
    const config = loadHostConfig(args, io);
    const server = chosenServer(config, args.server);
    if (args.printConfig) {
      // This very program, as it was started: the host runs it the same way.
      const launch = { command: process.execPath, args: [process.argv[1]!, ...watchOptions(args, io)] };
      const printed = printWatchConfig(config, server, launch, args.listen);
      io.stdout(printed.text);
      if (printed.note) log(printed.note);
      return Promise.resolve(0);
    }
    const t = targetOf(config, server, io).target;
    if (t.transport === 'http') upstream = t.url;
    else ({ command, args: commandArgs, cwd, env } = t);
  }
  const adapters = readAdapters(createAdapterService(deps), args.contract, io);
  if (upstream !== undefined) {
    if (args.listen === undefined)
      throw new UsageError('watch: an http server is watched through a proxy: give its address with --listen 127.0.0.1:PORT');
    return watchHttp(args, upstream, adapters, io, log);
  }

  return new Promise<number>(done => {
    // In a process group of its own: when the server exits, what it left running (a child holding its
    // output, which kept the pipe open and us waiting) is stopped with it (node/processGroup.ts).
    const child = spawn(command, [...commandArgs], {
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: OWN_GROUP,
      ...(cwd === undefined ? {} : { cwd }),
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    child.on('exit', () => {
      if (child.pid !== undefined) void stopGroup(child.pid);
    });
    // Started after the spawn: the server starts while the judge loads.
    const judge = new WatchJudge(judgeOptions(args, adapters, io), log);
    const sink = args.infer === undefined ? undefined : new InferSink(args.infer, io.cwd);
    // As a terminal's Ctrl+C would: to the server's whole group.
    const forward = (sig: NodeJS.Signals) => () => void (child.pid === undefined ? child.kill(sig) : signalGroup(child.pid, sig));
    const handlers = SIGNALS.map(s => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    // The pipes' own listeners come first: a chunk is forwarded before its copy is posted.
    process.stdin.pipe(child.stdin);
    child.stdout.pipe(process.stdout, { end: false });
    process.stdin.on('data', (c: Buffer) => judge.client(c));
    child.stdout.on('data', (c: Buffer) => judge.server(c));
    if (sink) {
      process.stdin.on('data', (c: Buffer) => sink.client(c));
      child.stdout.on('data', (c: Buffer) => sink.server(c));
    }
    child.stdin.on('error', () => {}); // the server closed its input: it is exiting, 'close' follows
    process.stdout.on('error', () => void (child.pid !== undefined && stopGroup(child.pid))); // the host is gone
    let failed = false;
    child.on('error', e => {
      failed = true;
      judge.stop();
      for (const [s, h] of handlers) process.off(s, h);
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      io.stderr(`mcp-aql-errors watch: cannot start '${escapeControls(command)}': ${e.message}\n`);
      done(2);
    });
    child.on('close', (code, signal) => {
      if (failed) return;
      process.stdin.unpipe(child.stdin);
      process.stdin.destroy(); // the host may keep its end open: nothing more is read
      // Every copy is posted by now (the server's output ended before 'close'): the judge ends with them.
      void judge.finish().then(() => {
        for (const [s, h] of handlers) process.off(s, h);
        if (sink) finishInfer(sink, log);
        if (signal) {
          process.kill(process.pid, signal); // end as the server ended
          return;
        }
        done(code ?? 1);
      });
    });
  });
}

/** What the judging thread is given, over stdio and over HTTP alike: the contract, the rules, the record, the report. */
function judgeOptions(args: RuntimeArgs, adapters: AdapterText[], io: Io) {
  return {
    cwd: io.cwd,
    adapters,
    rules: args.rules,
    record: args.record === undefined ? undefined : { name: args.record, path: resolve(io.cwd, args.record) },
    outputFile: args.outputFile,
    format: args.format,
  };
}

/** `--listen`: the reverse proxy, judged, until a signal ends it (exit 0; 2 when it cannot listen). */
async function watchHttp(args: RuntimeArgs, upstream: string, adapters: AdapterText[], io: Io, log: (s: string) => void): Promise<number> {
  const listen = parseListen(args.listen!);
  if (!listen) throw new UsageError(`--listen takes PORT or HOST:PORT, not '${escapeControls(args.listen!)}'`);
  const service = createAdapterService(deps);
  const judge = new WatchJudge(judgeOptions(args, adapters, io), log);
  const sink = args.infer === undefined ? undefined : new InferSink(args.infer, io.cwd);
  const rules: Record<string, RuleLevel> = args.rules;
  let started;
  try {
    started = await startHttpProxy(listen, new URL(upstream), {
      client: line => {
        judge.client(Buffer.from(line + '\n'));
        sink?.client(Buffer.from(line + '\n'));
      },
      server: line => {
        judge.server(Buffer.from(line + '\n'));
        sink?.server(Buffer.from(line + '\n'));
      },
      http: f => {
        for (const x of service.judgeHttp(f, { rules }))
          log(`${f.method} ${f.rpcMethods.join(', ') || '-'} (HTTP ${f.status}): ${x.level} ${x.code}: ${x.message}`);
      },
      error: m => log(m),
    });
  } catch (e) {
    judge.stop();
    io.stderr(`mcp-aql-errors watch: cannot listen on ${escapeControls(args.listen!)}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const { server, address, flush } = started;
  log(`proxy for ${upstream} at http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`);
  const handlers: [NodeJS.Signals, () => void][] = [];
  const sig = await new Promise<NodeJS.Signals>(stop => {
    for (const s of SIGNALS) {
      const h = () => stop(s);
      handlers.push([s, h]);
      process.on(s, h);
    }
  });
  for (const [s, h] of handlers) process.off(s, h);
  server.close();
  server.closeAllConnections();
  flush(); // the copies of the last turn's traffic, before the judge is told the session is over
  await judge.finish();
  if (sink) finishInfer(sink, log);
  log(`stopped (${sig})`);
  return 0;
}

/** `--infer`: the contract written when the session ends; a failure to write is said, the server's exit stays ours. */
function finishInfer(sink: InferSink, log: (s: string) => void): void {
  try {
    log(sink.finish());
  } catch (e) {
    log(e instanceof Error ? e.message : String(e));
  }
}
