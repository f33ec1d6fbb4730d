/**
 * Nothing a checkout contains may forge a GitHub workflow command or switch them off.
 * The runner reads `::cmd …::data` at the start of a line (after .NET's TrimStart, so leading spaces
 * and no-break spaces count) and the legacy `##[cmd]data` anywhere in a line. Only our own `github`
 * annotations may look like either; every other line of every command and format, on stdout, stderr
 * or an --output-file, must not.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMATS } from '../../server/src/cli/args';
import { neutralizeCommands } from '../../server/src/cli/format/commands';
import { main } from '../../server/src/cli/main';
import { run, tempTree } from './helpers';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** .NET's Char.IsWhiteSpace, which the runner's TrimStart removes before looking for `::`. */
const LEAD = /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*::/;
const OWN = /^::(?:error|warning|notice) file=[^\r\n:,]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^\r\n:,]*::[^\r\n]*$/;

/** Every line the runner would take for a workflow command, except our own annotations. */
function forged(s: string, ownAllowed = false): string[] {
  return s.split(/\r\n|\r|\n/).filter(l => (LEAD.test(l) || l.includes('##[')) && !(ownAllowed && OWN.test(l)));
}

const sneaky = '\n::error title=forged::inner\n##[error]legacy';
const ADAPTER = `error_codes:
  VALIDATION_X:
    category: VALIDATION
    description: ${JSON.stringify('desc' + sneaky)}
    message_template: ${JSON.stringify("bad '{nope}'" + sneaky)}
    details:
      ${JSON.stringify('k' + sneaky)}: string
error_mapping:
  404:
    code: NOT_FOUND_REPOSITRY
`;
/** The same hostile text in an adapter `check` accepts, so that `types` generates from it. */
const CLEAN = `error_codes:
  VALIDATION_X:
    category: VALIDATION
    description: ${JSON.stringify('desc' + sneaky)}
    message_template: ${JSON.stringify('bad' + sneaky)}
    details:
      ${JSON.stringify('k' + sneaky)}: string
`;
const NAMES = [
  '::stop-commands::x.adapter.yaml',
  '::error title=forged::y.adapter.yaml',
  ' ::warning::lead space.adapter.yaml',
  '\u00a0::notice::nbsp.adapter.yaml',
  'mid##[error]legacy.adapter.yaml',
  '::error file=x,line=1,col=1,endLine=1,endColumn=1,title=t::whole.adapter.yaml',
  '::add-mask::dir/inside.adapter.yaml',
];

function hostileTree(): string {
  const dir = tempTree(Object.fromEntries(NAMES.map(n => [n, ADAPTER])));
  dirs.push(dir);
  writeFileSync(join(dir, '::error::plain.yaml'), 'a: 1\n');
  writeFileSync(join(dir, '::stop-commands::clean.adapter.yaml'), CLEAN);
  writeFileSync(
    join(dir, 'responses.jsonl'),
    JSON.stringify({ success: false, error: { code: 'VALIDATION_X', message: 'x' + sneaky } }) + '\n',
  );
  return dir;
}

test('the neutralizer: leading ::, whitespace before it and ##[ anywhere, per output syntax; our own annotations kept', () => {
  assert.equal(
    neutralizeCommands('::stop-commands::t\n  ::error::x\na ##[error]b\nok\n'),
    '\\x3a:stop-commands::t\n  \\x3a:error::x\na #\\x23[error]b\nok\n',
  );
  assert.equal(neutralizeCommands('"a ##[error]b"', 'json'), '"a #\\u0023[error]b"');
  assert.equal(JSON.parse(neutralizeCommands('"a ##[error]b"', 'json')), 'a ##[error]b');
  assert.equal(neutralizeCommands('<a b="##[x]"/>', 'xml'), '<a b="#&#35;[x]"/>');
  const own = '::error file=a.yaml,line=1,col=1,endLine=1,endColumn=2,title=x.y::m ##[error]';
  assert.equal(neutralizeCommands(own + '\n', 'text', { own: true }), own + '\n');
  assert.equal(neutralizeCommands(own + '\n'), '\\x3a:error file=a.yaml,line=1,col=1,endLine=1,endColumn=2,title=x.y::m #\\x23[error]\n');
});

test('check: no forged command line in any format, on stdout, stderr or --output-file', async () => {
  const dir = hostileTree();
  for (const format of FORMATS) {
    const r = await run(['check', '::error::plain.yaml', '.', '--format', format], dir);
    assert.equal(r.code, 1, format + r.err);
    assert.deepEqual(forged(r.out, format === 'github'), [], format);
    assert.deepEqual(forged(r.err), [], format);
    if (format === 'github')
      assert.equal(
        r.out
          .trimEnd()
          .split('\n')
          .filter(l => !OWN.test(l)).length,
        0,
        r.out,
      );
    if (format === 'json' || format === 'sarif' || format === 'codeclimate') JSON.parse(r.out);
    const o = await run(['check', '.', '--format', format, '-o', 'out/report'], dir);
    assert.deepEqual(forged(readFileSync(join(dir, 'out/report'), 'utf8'), format === 'github'), [], format);
    assert.deepEqual(forged(o.err), []);
  }
  const text = await run(['check', '::error::plain.yaml', '.'], dir);
  assert.ok(text.out.includes('\n./::stop-commands::x.adapter.yaml:5:29  error'), text.out);
  assert.ok(
    text.out.includes('\n./\\u00a0::notice::nbsp.adapter.yaml\n') || text.out.includes('\n./\u00a0::notice::nbsp.adapter.yaml\n'),
    text.out,
  );
  assert.ok(text.out.includes('mid#\\x23[error]legacy.adapter.yaml:'), text.out);
  assert.match(text.err, /^\.\/::error::plain\.yaml: not an adapter file/m);
});

test('verify, preview, types, registry, --print-config, config errors and usage errors forge nothing', async () => {
  const dir = hostileTree();
  const runs = [
    await run(['verify', '::stop-commands::x.adapter.yaml', 'responses.jsonl'], dir),
    await run(['verify', '::stop-commands::x.adapter.yaml', 'responses.jsonl', '--format', 'json'], dir),
    await run(['verify', '::stop-commands::x.adapter.yaml', 'responses.jsonl', '--format', 'sarif'], dir),
    await run(['preview', '::stop-commands::x.adapter.yaml'], dir),
    await run(['preview', '::stop-commands::x.adapter.yaml', '--format', 'json'], dir),
    await run(['types', '::stop-commands::clean.adapter.yaml'], dir),
    await run(['types', '::stop-commands::clean.adapter.yaml', '--lang', 'json-schema'], dir),
    await run(['types', '::stop-commands::x.adapter.yaml'], dir),
    await run(['check', '--print-config', '::add-mask::dir/inside.adapter.yaml'], dir),
    await run(['check', '--bogus\n::error::usage'], dir),
    await run(['preview', 'nothing\n::error::here'], dir),
  ];
  for (const r of runs) {
    assert.deepEqual(forged(r.out), [], r.out);
    assert.deepEqual(forged(r.err), [], r.err);
  }
  JSON.parse(runs[1]!.out);
  JSON.parse(runs[4]!.out);
  JSON.parse(runs[6]!.out);
  assert.equal(runs[5]!.code, 0, runs[5]!.err);
  assert.match(runs[5]!.out, /#\\x23\[error\]legacy/);
  assert.equal(runs[7]!.code, 1);
  assert.match(runs[7]!.err, /^\.\/::stop-commands::x\.adapter\.yaml:\d+:\d+ {2}error/m);
  const cfg = join(dir, '::error::cfg');
  mkdirSync(cfg);
  writeFileSync(join(cfg, '.mcp-aql.yaml'), `rules:\n  ${JSON.stringify('x\n::error::cfgkey')}: error\n`);
  writeFileSync(join(cfg, 'a.adapter.yaml'), ADAPTER);
  const c = await run(['check', '::error::cfg'], dir);
  assert.equal(c.code, 2);
  assert.deepEqual(forged(c.err), [], c.err);
});

test('raw bytes (--fix-dry-run diff, --stdin --fix text) are unchanged, bracketed by stop-commands under GitHub Actions', async () => {
  const adapter = `error_codes:\n  NOT_FOUND_ORDER:\n    category: NOT_FOUND\n    description: |\n      ::error::forged\n    message_template: "Order {order_id} missing"\n    details:\n      order_id: string\n`;
  const dir = tempTree({ 'o.adapter.yaml': adapter });
  dirs.push(dir);
  const call = async (env: Record<string, string>, argv: string[], stdin?: string) => {
    let out = '';
    const code = await main(argv, {
      cwd: dir,
      color: false,
      env,
      ...(stdin === undefined ? {} : { readStdin: () => Buffer.from(stdin) }),
      stdout: s => void (out += s),
      stderr: () => {},
    });
    return { code, out };
  };
  const plain = await call({}, ['check', '--fix-dry-run']);
  assert.ok(plain.out.includes('\n       ::error::forged\n'), plain.out);
  const gha = await call({ GITHUB_ACTIONS: 'true' }, ['check', '--fix-dry-run']);
  const m = /^::stop-commands::([0-9a-f-]{36})\n([\s\S]*)::\1::\n$/.exec(gha.out);
  assert.ok(m, gha.out);
  assert.equal(m[2], plain.out);
  writeFileSync(join(dir, 'fix.patch'), gha.out);
  assert.equal(spawnSync('git', ['apply', '--check', 'fix.patch'], { cwd: dir }).status, 0, 'git apply takes the bracketed diff');
  const stdinFix = await call({}, ['check', '--stdin', '--fix', '--stdin-filename', 'o.adapter.yaml'], adapter);
  assert.ok(
    stdinFix.out.startsWith('error_codes:\n') &&
      stdinFix.out.includes('\n      ::error::forged\n    message_template: "Order \'{order_id}\' missing"'),
  );
  const stdinGha = await call({ GITHUB_ACTIONS: 'true' }, ['check', '--stdin', '--fix', '--stdin-filename', 'o.adapter.yaml'], adapter);
  assert.equal(stdinGha.out.replace(/^::stop-commands::([0-9a-f-]{36})\n([\s\S]*)::\1::\n$/, '$2'), stdinFix.out);
  assert.notEqual(stdinGha.out, stdinFix.out);
});
