/**
 * The language server forked by the client's loader (client/src/earlyServer.ts) and handed to the client's start
 * (client/src/serverOwner.ts, languageClient.ts): forked once, with the flags, arguments and environment the client
 * itself forks with; handed over once; a process gone, failed or never forked → a fresh fork; nothing forked under a
 * debugger, without server.js beside the loader, or in the build's run; never left running: ended when never taken,
 * killed when it outlives a stop, gone when the extension host dies; the real server, held before the client
 * listens, sends nothing meanwhile and answers `initialize` once taken.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  InitializeRequest,
  ShutdownRequest,
  ExitNotification,
} from 'vscode-languageserver-protocol/node';
import { debugging, forkServer, startEarlyServer, takeEarlyServer } from '../../client/src/earlyServer';
import { ServerOwner } from '../../client/src/serverOwner';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../../server/src/protocol';
// @ts-expect-error: a JavaScript module without types
import { VSCODE_STAND_IN } from '../../scripts/code-cache.mjs';
import { tempDir } from '../tempDirs';

const ROOT = join(__dirname, '..', '..');

/** A stand-in server.js: tells how it was started when asked ('who'), prints a line on each stream, runs until killed. */
const WHO = `process.on('message', m => {
  if (m === 'who') process.send({ argv: process.argv.slice(2), execArgv: process.execArgv, env: process.env, cwd: process.cwd() });
});
process.stdout.write('out line\\n');
process.stderr.write('err line\\n');
setInterval(() => {}, 1000);`;

function serverDir(source = WHO): string {
  const dir = tempDir('mcp-aql-early-server-');
  writeFileSync(join(dir, 'server.js'), source);
  return dir;
}

// A held process and its channel do not keep Node running (earlyServer.ts): a timer does, until it exits.
const exited = (p: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve({ code: p.exitCode, signal: p.signalCode });
    const keep = setInterval(() => undefined, 1000);
    p.once('exit', (code, signal) => {
      clearInterval(keep);
      resolve({ code, signal });
    });
  });

const ask = (p: ChildProcess) =>
  new Promise<{ argv: string[]; execArgv: string[]; env: Record<string, string>; cwd: string }>(resolve => {
    p.once('message', m => resolve(m as never));
    p.send('who');
  });

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, f: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!f()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

test('the loader forks once, as the client forks, and hands the process over once', async () => {
  const dir = serverDir();
  const held = startEarlyServer(dir, []);
  assert.ok(held, 'forked');
  assert.equal(startEarlyServer(dir, []), undefined, 'a second call forks nothing while one is held');
  const taken = takeEarlyServer();
  assert.equal(taken?.process, held.process);
  assert.equal(taken.forkedAt, held.forkedAt);
  assert.equal(takeEarlyServer(), undefined, 'handed over once');
  const who = await ask(taken.process);
  assert.deepEqual(who.argv, ['--node-ipc', `--clientProcessId=${process.pid}`]);
  assert.deepEqual(who.execArgv, [...SERVER_EXEC_ARGV]);
  for (const [k, v] of Object.entries({ ...SERVER_ENV, ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ASAR: '1' })) assert.equal(who.env[k], v, k);
  assert.equal(who.cwd, process.cwd(), "the extension host's working folder");
  taken.process.kill();
  await exited(taken.process);
});

test('the client forks in its working folder, with the same flags and arguments', async () => {
  const dir = serverDir();
  const p = forkServer(join(dir, 'server.js'), dir);
  const who = await ask(p);
  assert.deepEqual(who.argv, ['--node-ipc', `--clientProcessId=${process.pid}`]);
  assert.deepEqual(who.execArgv, [...SERVER_EXEC_ARGV]);
  assert.equal(who.cwd, dir);
  p.kill();
  await exited(p);
});

test('a process that exited, or whose spawn failed, is not handed over: the client forks a fresh one', async () => {
  const early = startEarlyServer(serverDir('process.exit(3)'), []);
  assert.ok(early);
  assert.equal((await exited(early.process)).code, 3);
  let forks = 0;
  const log = { info: () => undefined, error: () => undefined };
  const owner = new ServerOwner(log);
  const fresh = serverDir();
  const got = owner.next(() => (forks++, forkServer(join(fresh, 'server.js'))));
  assert.equal(forks, 1);
  assert.equal(got.early, undefined);
  assert.notEqual(got.process, early.process);
  got.process.kill();
  await exited(got.process);

  // A spawn that failed emits 'error' (and no 'exit'): not handed over, and not left running.
  const failed = startEarlyServer(serverDir(), []);
  assert.ok(failed);
  failed.process.emit('error', new Error('spawn failed'));
  assert.equal(takeEarlyServer(), undefined);
  assert.equal((await exited(failed.process)).signal, 'SIGTERM');
});

test('nothing is forked under a debugger, without server.js beside the loader, or in the build run', () => {
  const dir = serverDir();
  for (const flag of ['--inspect', '--inspect=6009', '--inspect-brk', '--inspect-brk=9229', '--debug', '--debug-brk=1']) {
    assert.equal(debugging([flag]), true, flag);
    assert.equal(startEarlyServer(dir, ['--max-old-space-size=512', flag]), undefined, flag);
  }
  for (const flag of ['--inspect-port=9229', '--max-semi-space-size=4', '--debugger']) assert.equal(debugging([flag]), false, flag);
  assert.equal(startEarlyServer(tempDir('mcp-aql-no-server-'), []), undefined);
  process.env.MCP_AQL_WRITE_CODE_CACHE = join(dir, 'x.cache');
  try {
    assert.equal(startEarlyServer(dir, []), undefined);
  } finally {
    delete process.env.MCP_AQL_WRITE_CODE_CACHE;
  }
  assert.equal(takeEarlyServer(), undefined);
});

test('a process never taken is ended after the wait', async () => {
  const held = startEarlyServer(serverDir(), [], 300);
  assert.ok(held);
  assert.equal((await exited(held.process)).signal, 'SIGTERM');
  assert.equal(takeEarlyServer(), undefined);
});

test("the owner takes the loader's process first, logs the output and exit, and kills a server that outlives a stop", async () => {
  const lines: string[] = [];
  const log = { info: (l: string) => lines.push(`info ${l}`), error: (l: string) => lines.push(`error ${l}`) };
  const dir = serverDir();
  const early = startEarlyServer(dir, []);
  assert.ok(early);
  let forks = 0;
  const owner = new ServerOwner(log, undefined, 200);
  const fork = () => (forks++, forkServer(join(dir, 'server.js')));
  const first = owner.next(fork);
  assert.equal(first.process, early.process);
  assert.equal(forks, 0);
  await until('the output', () => lines.includes('info out line') && lines.includes('error err line'));
  // A restart: the next start forks anew; the previous process, which ignores `exit`, is killed after the grace.
  const second = owner.next(fork);
  assert.equal(forks, 1);
  assert.equal(second.early, undefined);
  assert.equal((await exited(first.process)).signal, 'SIGKILL');
  owner.stopped();
  assert.equal((await exited(second.process)).signal, 'SIGKILL');
  await until('the exit logged', () => lines.filter(l => l === 'error Server process exited with signal SIGKILL.').length === 2);
});

test(
  'the real server, held before the client listens, sends nothing meanwhile, answers initialize, and ends on exit',
  { timeout: 60_000 },
  async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'server.js')), 'npm run build first');
    const held = startEarlyServer(join(ROOT, 'dist'), []);
    assert.ok(held);
    const early: unknown[] = [];
    const spy = (m: unknown) => early.push(m);
    held.process.on('message', spy);
    await new Promise(r => setTimeout(r, 1500)); // booted meanwhile
    held.process.off('message', spy);
    assert.deepEqual(early, [], 'nothing sent before the client listens');
    const taken = takeEarlyServer();
    assert.equal(taken?.process, held.process);
    const server = taken.process;
    const connection = createProtocolConnection(new IPCMessageReader(server), new IPCMessageWriter(server));
    connection.listen();
    const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
    assert.ok(result.capabilities.textDocumentSync !== undefined);
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    assert.equal((await exited(server)).code, 0);
    connection.dispose();
  },
);

test('the server forked by the loader ends when the extension host dies', { timeout: 60_000 }, async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'client.js')), 'npm run build first');
  // A stand-in extension host: loads dist/client.js (which forks dist/server.js beside it), prints the server's pid,
  // and waits to be killed.
  const host = spawn(
    process.execPath,
    [
      '-e',
      `${VSCODE_STAND_IN as string}
require(process.argv[1]);
process.stdout.write(String(globalThis[Symbol.for('mcp-aql.earlyServer')].process.pid) + '\\n');
setInterval(() => {}, 1000);`,
      join(ROOT, 'dist', 'client.js'),
    ],
    { env: { ...process.env, MCP_AQL_WRITE_CODE_CACHE: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = await new Promise<number>(resolve => host.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  assert.ok(running(pid));
  assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), new RegExp(`dist/server\\.js\\0--node-ipc\\0--clientProcessId=${host.pid}`));
  // Booted: its top level ran (the watch on the extension host is the server's own, vscode-languageserver's).
  await new Promise(r => setTimeout(r, 1500));
  host.kill('SIGKILL');
  await until('the server to end', () => !running(pid), 15_000);
});
