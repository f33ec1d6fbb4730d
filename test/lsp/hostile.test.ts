/**
 * Hostile inputs sent to the built server over stdio: each request is answered within 2 s,
 * the server stays alive and its memory stays bounded; bad text is reported where it stands.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { overStdio, PLAIN } from './harness';
import { readFileSync } from 'node:fs';

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms))]);

function bomb(indent: string): string {
  let out = `${indent}a0: &a [400, 400, 400, 400, 400, 400, 400, 400, 400]\n`;
  for (let i = 1; i < 9; i++)
    out += `${indent}a${i}: &${String.fromCharCode(97 + i)} [${Array(9)
      .fill('*' + String.fromCharCode(96 + i))
      .join(', ')}]\n`;
  return out;
}

const CASES: [string, string][] = [
  ['alias bomb at the top level', 'error_codes: {}\n' + bomb('')],
  [
    'alias bomb under maps_from_http and details',
    'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details: &d { x: string }\n    maps_from_http: &a [400]\n' +
      bomb('  ')
        .replace(/^  a0: &a /m, '  a0: &z ')
        .replace(/\*a\b/g, '*z') +
      '  VALIDATION_Y:\n    category: VALIDATION\n    details: *d\n    maps_from_http: *i\n',
  ],
  [
    '5 MB file that is one big mapping',
    'error_codes:\n' +
      Array.from(
        { length: 25_600 },
        (_, i) =>
          `  VALIDATION_E${String(i).padStart(6, '0')}:\n    category: VALIDATION\n    description: "Generated entry ${i}: padding so that the file reaches five megabytes like the peers' stress case"\n    message_template: "Request '{resource_id}' failed in entry ${i} of the big file"\n    details: { resource_id: string }\n`,
      ).join(''),
  ],
  ['nesting 10,000 deep', 'error_codes:\n  VALIDATION_DEEP:\n    details: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n'],
  [
    'a 1 MB single line',
    'error_codes:\n  VALIDATION_LONG:\n    category: VALIDATION\n    message_template: "' + 'x'.repeat(1_000_000) + '"\n',
  ],
  ['lone surrogate and U+FFFD', 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    message_template: "caf\uFFFD \uD800"\n'],
  ['CRLF and BOM', '\uFEFFerror_codes:\r\n  bad_name:\r\n    category: VALIDATION\r\n'],
];

test('hostile inputs: every request answered within 2 s, server alive, memory bounded', { timeout: 120_000 }, async () => {
  const c = await overStdio(PLAIN);
  try {
    for (const [i, [name, text]] of CASES.entries()) {
      const uri = `file:///ws/hostile-${i}.adapter.yaml`;
      await c.open(uri, text);
      const ds: Diagnostic[] = await within(
        c.waitForDiagnostics(uri, () => true, 10_000),
        10_000,
        `${name}: diagnostics`,
      );
      const h = await within(
        c.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } }) as Promise<Hover | null>,
        2000,
        `${name}: hover`,
      );
      await within(
        c.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 14 } }),
        2000,
        `${name}: completion`,
      );
      await within(c.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }), 2000, `${name}: symbols`);
      void h;
      if (name.startsWith('alias bomb'))
        assert.ok(
          ds.some(d => d.code === 'yaml.alias-limit'),
          `${name}: ${ds.map(d => d.code).join(',')}`,
        );
      if (name.startsWith('5 MB'))
        assert.deepEqual(
          ds.map(d => d.code),
          ['file.too-large'],
        );
      if (name.startsWith('lone')) assert.deepEqual(ds.filter(d => d.code === 'text.invalid-character').length, 2);
      if (name.startsWith('CRLF'))
        assert.ok(ds.some(d => d.code === 'code.name-format' && d.range.start.line === 1 && d.range.start.character === 2));
      await c.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
    const status = readFileSync(`/proc/${c.proc.pid}/status`, 'utf8') as string;
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
    assert.ok(hwm < 1024, `peak memory ${hwm} MB`);
    assert.equal(c.proc.exitCode, null, 'server alive');
  } finally {
    await c.close();
  }
});

test('invalid UTF-8 bytes inside the transport become U+FFFD and are reported where they stand', { timeout: 30_000 }, async () => {
  const c = await overStdio(PLAIN);
  try {
    const uri = 'file:///ws/bytes.adapter.yaml';
    const text = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    message_template: "caf@@"\n';
    const body = Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'textDocument/didOpen',
        params: { textDocument: { uri, languageId: 'yaml', version: 1, text } },
      }),
      'utf8',
    );
    const at = body.indexOf('@@');
    body[at] = 0xc3;
    body[at + 1] = 0x28; // an invalid two-byte sequence
    c.proc.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    c.proc.stdin!.write(body);
    const ds = await within(
      c.waitForDiagnostics(uri, d => d.length > 0, 10_000),
      10_000,
      'diagnostics',
    );
    const bad = ds.filter(d => d.code === 'text.invalid-character');
    assert.ok(bad.length >= 1);
    assert.equal(bad[0]!.range.start.line, 3);
  } finally {
    await c.close();
  }
});

test('garbage requests get errors, not a dead server', { timeout: 30_000 }, async () => {
  const c = await overStdio(PLAIN);
  try {
    await assert.rejects(c.conn.sendRequest('textDocument/hover', { nonsense: true }) as Promise<unknown>).catch(() => undefined);
    await c.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: 'file:///never-opened.adapter.yaml' },
      position: { line: 0, character: 0 },
    });
    await c.conn.sendRequest('mcpAql/simulate', { uri: 'file:///never-opened.adapter.yaml', status: 403 });
    const reg = (await c.conn.sendRequest('mcpAql/registry')) as { codes: unknown[] };
    assert.equal(reg.codes.length, 37);
  } finally {
    await c.close();
  }
});
