/**
 * dist/server.js loads the server's bundle with the V8 code cache a production build makes
 * (server/src/loadServer.ts, scripts/code-cache.mjs): a cache made under the client's flags is used; under
 * other flags V8 refuses it and the bundle compiles as usual; a cache made from other bytes is never handed to
 * V8. In every case the server answers and checks. Run on copies of the built files in a folder of its own.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_EXEC_ARGV } from '../../server/src/protocol';
import { tempDir } from '../tempDirs';

const ROOT = join(__dirname, '..', '..');
const BAD = 'name: x\ntype: adapter\nerror_codes:\n  X_ONE:\n    category: BOGUS\n    message_template: "x"\n';

/** Start `server` under `flags`, initialize, open BAD and pull its diagnostics: the log line of initialize, and the codes. */
function session(server: string, flags: readonly string[]): Promise<{ log: string; codes: string[] }> {
  const frame = (o: object) => {
    const s = JSON.stringify(o);
    return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`;
  };
  const uri = pathToFileURL(join(ROOT, 'bad.adapter.yaml')).href;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...flags, server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const timer = setTimeout(() => p.kill(), 30_000);
    let buf = Buffer.alloc(0);
    let log = '';
    let codes: string[] | undefined;
    p.stdout!.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const h = buf.indexOf('\r\n\r\n');
        if (h < 0) return;
        const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, h).toString())?.[1]);
        if (buf.length < h + 4 + len) return;
        const m = JSON.parse(buf.subarray(h + 4, h + 4 + len).toString()) as {
          id?: number;
          method?: string;
          params?: { message?: string };
          result?: { items?: { code: string }[] };
        };
        buf = buf.subarray(h + 4 + len);
        if (m.method === 'window/logMessage' && /initialize \d+ ms/.test(m.params?.message ?? '')) log = m.params!.message!;
        if (m.id === 1 && !m.method) {
          p.stdin!.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
          p.stdin!.write(
            frame({
              jsonrpc: '2.0',
              method: 'textDocument/didOpen',
              params: { textDocument: { uri, languageId: 'yaml', version: 1, text: BAD } },
            }),
          );
          p.stdin!.write(frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/diagnostic', params: { textDocument: { uri } } }));
        } else if (m.id === 2 && !m.method) {
          codes = (m.result?.items ?? []).map(i => i.code);
          p.stdin!.write(frame({ jsonrpc: '2.0', id: 3, method: 'shutdown' }));
        } else if (m.id === 3 && !m.method) p.stdin!.write(frame({ jsonrpc: '2.0', method: 'exit' }));
      }
    });
    p.on('exit', code => {
      clearTimeout(timer);
      if (code === 0 && codes) resolve({ log, codes });
      else reject(new Error(`the server exited with ${code} (log: ${log})`));
    });
    p.stdin!.write(
      frame({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { processId: null, rootUri: null, capabilities: { textDocument: { diagnostic: {} } } },
      }),
    );
  });
}

test(
  'the server bundle with its code cache: used under the client flags, refused under others, ignored for other bytes',
  { timeout: 120_000 },
  async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'server-main.js')), 'npm run build first');
    const dir = tempDir('mcp-aql-code-cache-');
    for (const f of ['server.js', 'server-main.js']) copyFileSync(join(ROOT, 'dist', f), join(dir, f));
    const server = join(dir, 'server.js');
    const none = await session(server, SERVER_EXEC_ARGV);
    assert.match(none.log, /code cache: none/);
    assert.ok(none.codes.includes('code.unknown-category'), none.codes.join());

    const { makeCodeCache } = (await import(join(ROOT, 'scripts/code-cache.mjs'))) as {
      makeCodeCache(server: string, execArgv: readonly string[], out: string): Promise<number>;
    };
    const size = await makeCodeCache(server, SERVER_EXEC_ARGV, join(dir, 'server-main.cache'));
    assert.ok(size > 100_000, `a cache of ${size} bytes`);
    const used = await session(server, SERVER_EXEC_ARGV);
    assert.match(used.log, /code cache: used/);
    assert.deepEqual(used.codes, none.codes);
    const refused = await session(server, []);
    assert.match(refused.log, /code cache: rejected/);
    assert.deepEqual(refused.codes, none.codes);

    // The same length of other bytes (V8 itself checks little more than the length): the loader never hands it over.
    const text = readFileSync(join(dir, 'server-main.js'), 'utf8');
    const at = text.lastIndexOf('[mcp-aql]');
    assert.ok(at > 0);
    writeFileSync(join(dir, 'server-main.js'), `${text.slice(0, at)}[mcp-aqL]${text.slice(at + 9)}`);
    const other = await session(server, SERVER_EXEC_ARGV);
    assert.match(other.log, /code cache: none/);
    assert.deepEqual(other.codes, none.codes);

    // The bundle's own bytes again, and a cache cut right after its header: no cache, not a refused one.
    writeFileSync(join(dir, 'server-main.js'), text);
    writeFileSync(join(dir, 'server-main.cache'), createHash('sha1').update(text).digest());
    const cut = await session(server, SERVER_EXEC_ARGV);
    assert.match(cut.log, /code cache: none/);
    assert.deepEqual(cut.codes, none.codes);
  },
);
