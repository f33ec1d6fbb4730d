/** Streamable HTTP servers for the run-time tests, on 127.0.0.1 only (test/fixtures/servers/loopbackOnly.js). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './helpers';

/** A port free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise(done => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** server-everything's Streamable HTTP mode (it listens on every interface when given a port alone: kept on loopback). */
export async function startEverything(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--require',
      join(ROOT, 'test/fixtures/servers/loopbackOnly.js'),
      join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
      'streamableHttp',
    ],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/listening on port/.test(err)) done();
    });
    child.on('exit', code => fail(new Error(`server-everything exited ${code}: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** The server that speaks only 2026-07-28, over Streamable HTTP (its own slips there: test/fixtures/servers/modernServer.mjs). */
export async function startModernHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'test/fixtures/servers/modernServer.mjs'), 'http', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on port (\d+)/.exec(err);
      if (m) done(Number(m[1]));
    });
    child.on('exit', code => fail(new Error(`modernServer exited ${code}: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/**
 * A real server on the current revision over Streamable HTTP: @upstash/context7-mcp in its HTTP mode,
 * kept on loopback, its Prometheus endpoint off (OTEL_SDK_DISABLED). Its tools ask context7.com, so
 * the tests send it only calls that fail its input schema: they never reach its fetch.
 */
export async function startContext7(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--require',
      join(ROOT, 'test/fixtures/servers/loopbackOnly.js'),
      join(ROOT, 'node_modules/@upstash/context7-mcp/dist/index.js'),
      '--transport',
      'http',
      '--port',
      String(port),
    ],
    { env: { ...process.env, OTEL_SDK_DISABLED: 'true', CONTEXT7_API_KEY: 'ctx7sk-dummy' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/running on HTTP/.test(err)) done();
    });
    child.on('exit', code => fail(new Error(`context7-mcp exited ${code}: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}
