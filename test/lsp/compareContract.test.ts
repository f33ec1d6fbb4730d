/**
 * `mcpAql/compareContract` over the real server wiring. The workspace
 * (a git repository: v1 committed, v2 in the working tree) against HEAD gives the CLI's report; an open
 * document's live text counts; a removal points at the first line of the file that held it; a bad
 * revision is an error answer, not a crash.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CompareContract } from '../../server/src/protocol';
import { run, tempTree } from '../cli/helpers';
import { inMemory, RICH, ROOT } from './harness';

const FIX = join(ROOT, 'test/fixtures/evolution');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();

function workspace(): string {
  const dir = tempTree({});
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 't@example.com');
  git(dir, 'config', 'user.name', 't');
  git(dir, 'config', 'commit.gpgsign', 'false');
  cpSync(join(FIX, 'v1'), join(dir, 'adapters'), { recursive: true });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'v1');
  rmSync(join(dir, 'adapters'), { recursive: true });
  cpSync(join(FIX, 'v2'), join(dir, 'adapters'), { recursive: true });
  return dir;
}

test('Compare Contract with HEAD: the CLI report, each change with its place; live text of open documents counts', async () => {
  const dir = workspace();
  const c = await inMemory(RICH, {}, [pathToFileURL(dir).href]);
  try {
    const r = await c.conn.sendRequest(CompareContract.type, { revision: 'HEAD' });
    const cli = await run(['diff', '--base', 'HEAD', '--format', 'markdown'], dir);
    assert.equal(r.title, 'HEAD → working tree');
    assert.equal(r.markdown, cli.out);
    const shop = pathToFileURL(join(dir, 'adapters/shop.adapter.yaml')).href;
    const github = pathToFileURL(join(dir, 'adapters/github-adapter.md')).href;
    assert.deepEqual(r.changes[0], {
      rule: 'details.type-widened',
      severity: 'breaking',
      message: 'CONFLICT_OUT_OF_STOCK details.available: type integer → number',
      uri: shop,
      range: { start: { line: 37, character: 6 }, end: { line: 37, character: 15 } },
    });
    // mapping.status-removed: nothing left in the new file; the diagnostic goes on the first line of the file that held it.
    const removed = r.changes.find(x => x.rule === 'mapping.status-removed')!;
    assert.deepEqual([removed.uri, removed.range], [github, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }]);
    // An unsaved edit in an open document is compared, not the file on disk.
    const text = readFileSync(join(dir, 'adapters/shop.adapter.yaml'), 'utf8').replace('category: CONFLICT', 'category: VALIDATION');
    await c.open(shop, text);
    const live = await c.conn.sendRequest(CompareContract.type, { revision: 'HEAD' });
    const cat = live.changes.find(x => x.rule === 'code.category-changed' && x.message.startsWith('CONFLICT_OUT_OF_STOCK'))!;
    assert.equal(cat.uri, shop);
    assert.equal(cat.range!.start.line, 30); // the code's key
    assert.equal(live.changes.length, r.changes.length + 1);
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Compare Contract with a bad revision, or outside a repository: an error answer; the server keeps answering', async () => {
  const dir = workspace();
  const plain = tempTree({ 'x.adapter.yaml': 'error_codes: {}\n' });
  const c = await inMemory(RICH, {}, [pathToFileURL(dir).href]);
  const d = await inMemory(RICH, {}, [pathToFileURL(plain).href]);
  try {
    for (const revision of ['-p', '--output=x', 'no-such-branch']) {
      await assert.rejects(c.conn.sendRequest(CompareContract.type, { revision }), (e: Error) =>
        /is not a (revision|commit)|git rev-parse failed/.test(e.message),
      );
    }
    await assert.rejects(d.conn.sendRequest(CompareContract.type, { revision: 'HEAD' }), (e: Error) =>
      /git rev-parse failed/.test(e.message),
    );
    const ok = await c.conn.sendRequest(CompareContract.type, { revision: 'HEAD' });
    assert.equal(ok.changes.length, 10);
  } finally {
    await c.close();
    await d.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  }
});
