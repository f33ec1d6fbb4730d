/**
 * One config file, the same results in the CLI (dist/cli.js) and in the language server (in memory):
 * rule levels, ignore globs and the size limit; editor settings and CLI flags override it alike.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { inMemory, RICH, ROOT } from './harness';
import { tempDir } from '../tempDirs';

const CONFIG =
  ['rules:', '  template.unquoted-placeholder: "off"', '  code.redefines-registry: error', 'ignore: [vendor/**]', 'maxFileSize: 2048'].join(
    '\n',
  ) + '\n';
const FILES: Record<string, string> = {
  'api/a.adapter.yaml':
    'error_codes:\n  PERMISSION_DENIED:\n    category: PERMISSION\n    message_template: No {who}\n    details:\n      who: string\nerror_mapping:\n  404: { code: NOT_FOUND_REPOSITRY }\n',
  'vendor/v.adapter.yaml': 'error_mapping:\n  404: { code: NOT_FOUND_NOPE }\n',
  'big.adapter.yaml': 'error_codes:\n' + '#'.repeat(3000) + '\n',
};

function tree(config: string | undefined): string {
  const dir = tempDir('mcp-aql-config-');
  const files = config === undefined ? FILES : { ...FILES, '.mcp-aql.yaml': config };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

type Row = [string, string, number, number, number];
const rows = (file: string, ds: { code?: unknown; severity?: number; range: Diagnostic['range'] }[]): Row[] =>
  ds.map(d => [file, String(d.code), d.severity ?? 1, d.range.start.line, d.range.start.character]);

function cli(dir: string, extra: string[] = []): Row[] {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'check', '.', '--format', 'json', ...extra], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const sev: Record<string, number> = { error: 1, warning: 2, info: 3, hint: 4 };
  return (
    JSON.parse(r.stdout) as { file: string; diagnostics: { code: string; severity: string; range: Diagnostic['range'] }[] }[]
  ).flatMap(f =>
    rows(
      f.file,
      f.diagnostics.map(d => ({ ...d, severity: sev[d.severity] })),
    ),
  );
}

async function server(
  dir: string,
  settings: Record<string, unknown> = {},
  after?: (pull: (f: string) => Promise<Diagnostic[]>, notify: (m: string, p: unknown) => Promise<void>) => Promise<void>,
): Promise<Row[]> {
  const c = await inMemory(RICH, settings);
  try {
    const pull = async (f: string) =>
      (
        (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: pathToFileURL(join(dir, f)).href } })) as {
          items: Diagnostic[];
        }
      ).items;
    for (const f of Object.keys(FILES)) await c.open(pathToFileURL(join(dir, f)).href, readFileSync(join(dir, f), 'utf8'));
    if (after) await after(pull, (m, p) => c.conn.sendNotification(m, p));
    const out: Row[] = [];
    for (const f of Object.keys(FILES).sort()) out.push(...rows(f, await pull(f)));
    return out;
  } finally {
    await c.close();
  }
}

test('the same config file gives the same diagnostics in the CLI and in the server', async () => {
  const dir = tree(CONFIG);
  const fromCli = cli(dir);
  assert.deepEqual(fromCli, [
    ['api/a.adapter.yaml', 'code.redefines-registry', 1, 1, 2],
    ['api/a.adapter.yaml', 'mapping.unknown-code', 1, 7, 15],
    ['big.adapter.yaml', 'file.too-large', 2, 0, 0],
  ]);
  assert.deepEqual(await server(dir), fromCli);
  // Without the file: the defaults, in both.
  const plain = tree(undefined);
  const noConfig = cli(plain);
  assert.deepEqual(
    noConfig.map(r => r[0] + ' ' + r[1]),
    [
      'api/a.adapter.yaml code.redefines-registry',
      'api/a.adapter.yaml template.unquoted-placeholder',
      'api/a.adapter.yaml mapping.unknown-code',
      'vendor/v.adapter.yaml mapping.unknown-code',
    ],
  );
  assert.deepEqual(await server(plain), noConfig);
});

test('editor settings and CLI flags override the file the same way', async () => {
  const dir = tree(CONFIG);
  const fromCli = cli(dir, ['--rule', 'template.unquoted-placeholder=warning', '--rule', 'code.redefines-registry=off']);
  assert.deepEqual(
    fromCli.map(r => r[0] + ' ' + r[1] + ' ' + r[2]),
    [
      'api/a.adapter.yaml template.unquoted-placeholder 2',
      'api/a.adapter.yaml mapping.unknown-code 1',
      'big.adapter.yaml file.too-large 2',
    ],
  );
  assert.deepEqual(await server(dir, { rules: { 'template.unquoted-placeholder': 'warning', 'code.redefines-registry': 'off' } }), fromCli);
  // A size setting left at its default does not override the file; one that differs does.
  assert.deepEqual(await server(dir, { maxFileSize: 4.5 * 1024 * 1024 }), cli(dir));
  const big = await server(dir, { maxFileSize: 1024 * 1024 });
  assert.ok(!big.some(r => r[1] === 'file.too-large'));
});

test('the server shows config.invalid on an open config file and picks up a changed file', async () => {
  const dir = tree(CONFIG);
  const configUri = pathToFileURL(join(dir, '.mcp-aql.yaml')).href;
  const c = await inMemory(RICH);
  try {
    await c.open(configUri, 'rules:\n  template.unquoted: "off"\ncodeScope: everywhere\n');
    const { items } = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: configUri } })) as {
      items: Diagnostic[];
    };
    assert.deepEqual(
      items.map(d => [d.code, d.range.start.line, d.range.start.character]),
      [
        ['config.invalid', 1, 2],
        ['config.invalid', 2, 11],
      ],
    );
  } finally {
    await c.close();
  }
  const changed = await server(dir, {}, async (pull, notify) => {
    assert.ok(!(await pull('api/a.adapter.yaml')).some(d => d.code === 'template.unquoted-placeholder'));
    writeFileSync(join(dir, '.mcp-aql.yaml'), 'rules:\n  mapping.unknown-code: "off"\n');
    await notify('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: 2 }] });
    await new Promise(r => setTimeout(r, 50));
  });
  assert.deepEqual(changed, cli(dir));
  assert.deepEqual(
    changed.map(r => r[1]),
    ['code.redefines-registry', 'template.unquoted-placeholder'],
  );
});

test('codeScope in the config file: the same narrowing in the CLI and the server; --code-scope and the setting override it', async () => {
  const dir = tempDir('mcp-aql-scope-');
  const files: Record<string, string> = {
    '.mcp-aql.yaml': 'codeScope: file\n',
    'a.adapter.yaml': 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n',
    'b.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n',
  };
  for (const [p, t] of Object.entries(files)) writeFileSync(join(dir, p), t);
  const lsp = async (settings: Record<string, unknown>) => {
    const c = await inMemory(RICH, settings);
    try {
      for (const f of ['a.adapter.yaml', 'b.adapter.yaml']) await c.open(pathToFileURL(join(dir, f)).href, files[f]!);
      const out: Row[] = [];
      for (const f of ['a.adapter.yaml', 'b.adapter.yaml']) {
        const r = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: pathToFileURL(join(dir, f)).href } })) as {
          items: Diagnostic[];
        };
        out.push(...rows(f, r.items));
      }
      return out;
    } finally {
      await c.close();
    }
  };
  const narrowed = cli(dir);
  assert.deepEqual(
    narrowed.map(r => `${r[0]} ${r[1]}`),
    ['b.adapter.yaml mapping.unknown-code'],
  );
  assert.deepEqual(await lsp({}), narrowed);
  assert.deepEqual(cli(dir, ['--code-scope', 'workspace']), []);
  assert.deepEqual(await lsp({ codeScope: 'folder' }), []);
});

test("the server's workspace scan honours the config file: an ignored folder declares nothing", async () => {
  const dir = tempDir('mcp-aql-scan-');
  const files: Record<string, string> = {
    '.mcp-aql.yaml': 'ignore: [vendor/**]\n',
    'vendor/v.adapter.yaml': 'error_codes:\n  NOT_FOUND_VENDORED:\n    category: NOT_FOUND\n',
    'ok/decl.adapter.yaml': 'error_codes:\n  NOT_FOUND_DECLARED:\n    category: NOT_FOUND\n',
    'b.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_DECLARED\n  410:\n    code: NOT_FOUND_VENDORED\n',
  };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  const fromCli = cli(dir);
  assert.deepEqual(
    fromCli.map(r => `${r[0]} ${r[1]} ${r[3]}`),
    ['b.adapter.yaml mapping.unknown-code 4'],
  );
  const c = await inMemory(RICH, {}, [pathToFileURL(dir).href]);
  try {
    const uri = pathToFileURL(join(dir, 'b.adapter.yaml')).href;
    await c.open(uri, files['b.adapter.yaml']!);
    let got: Row[] = [];
    for (let i = 0; i < 100; i++) {
      const r = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: Diagnostic[] };
      got = rows('b.adapter.yaml', r.items);
      if (got.length === 1) break; // the scan found ok/decl.adapter.yaml
      await new Promise(res => setTimeout(res, 50));
    }
    assert.deepEqual(got, fromCli);
  } finally {
    await c.close();
  }
});
