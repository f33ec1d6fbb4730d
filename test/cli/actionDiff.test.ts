/**
 * The GitHub Action's `mode: diff`, on a recorded pull_request event payload, against
 * a real git repository (base commit = v1, working tree = v2), with a fake comment poster: nothing is
 * sent. The step is also run the way the runner runs it (bash, inputs through env), with no token.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ROOT, run, tempTree } from './helpers';

interface Step {
  name: string;
  if?: string;
  shell: string;
  run: string;
  env: Record<string, string>;
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default: string }>;
  runs: { steps: Step[] };
};
const FIX = join(ROOT, 'test/fixtures/evolution');
interface ActionDiff {
  MARKER: string;
  main(deps: {
    env: Record<string, string>;
    cwd: string;
    fetch: unknown;
    stdout: (s: string) => void;
    stderr: (s: string) => void;
  }): Promise<number>;
}
const script = () => import(join(ROOT, 'scripts/action-diff.mjs')) as Promise<ActionDiff>;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();

/** A repository whose base commit holds v1 and whose working tree (the pull request's head) holds v2, and the event for it. */
function pullRequest(): { dir: string; sha: string; eventPath: string } {
  const dir = tempTree({});
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 't@example.com');
  git(dir, 'config', 'user.name', 't');
  git(dir, 'config', 'commit.gpgsign', 'false');
  cpSync(join(FIX, 'v1'), join(dir, 'adapters'), { recursive: true });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'v1');
  const sha = git(dir, 'rev-parse', 'HEAD');
  rmSync(join(dir, 'adapters'), { recursive: true });
  cpSync(join(FIX, 'v2'), join(dir, 'adapters'), { recursive: true });
  const event = readFileSync(join(ROOT, 'test/fixtures/action/pull_request.json'), 'utf8').replace('BASE_SHA_PLACEHOLDER', sha);
  const eventPath = join(dir, '..', `${dir.split('/').pop()}-event.json`);
  writeFileSync(eventPath, event);
  return { dir, sha, eventPath };
}

interface Call {
  url: string;
  method: string;
  body?: string;
  auth: string;
}
const BOT = 'github-actions[bot]';
/** GitHub as the workflow's GITHUB_TOKEN sees it: `/user` refused (403), comments listed, writes answered with `status`. */
function fakeFetch(existing: { id: number; body: string; user?: { login: string } }[], status = 200) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: { method: string; body?: string; headers: Record<string, string> }) => {
    calls.push({ url, method: init.method, body: init.body, auth: init.headers.authorization! });
    if (url.endsWith('/user')) return { ok: false, status: 403, json: async () => ({ message: 'Resource not accessible by integration' }) };
    const ok = init.method === 'GET' || status < 300;
    return { ok, status: ok ? 200 : status, json: async () => (init.method === 'GET' ? existing : { id: 7 }) };
  };
  return { calls, fetch };
}

test("action.yml: mode diff is its own step (inputs through env); the check step doesn't run in it", () => {
  assert.equal(action.inputs.mode!.default, 'check');
  const [check, diff] = action.runs.steps;
  assert.equal(check!.if, "inputs.mode != 'diff'");
  assert.equal(diff!.if, "inputs.mode == 'diff'");
  assert.equal(diff!.shell, 'bash');
  assert.ok(!diff!.run.includes('${{'), 'no expression pasted into the script');
  assert.equal(diff!.env.GITHUB_TOKEN, '${{ github.token }}');
});

test('mode diff on a recorded pull_request event: annotations, job summary, one comment created then updated; exit 1 on breaking', async () => {
  const { dir, sha, eventPath } = pullRequest();
  const summary = join(dir, '..', `${dir.split('/').pop()}-summary.md`);
  try {
    const { main, MARKER } = await script();
    const expected = await run(['diff', '--base', sha, '--format', 'markdown', '--', 'adapters'], dir);
    assert.equal(expected.code, 1, expected.err);
    assert.ok(expected.out.startsWith(MARKER));
    const env = {
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_TOKEN: 'tkn',
      GITHUB_API_URL: 'https://api.example.test',
      GITHUB_STEP_SUMMARY: summary,
      MCP_AQL_PATHS: 'adapters',
      MCP_AQL_ARGS: '',
    };
    let out = '';
    const first = fakeFetch([{ id: 3, body: 'an unrelated comment' }]);
    const code = await main({ env, cwd: dir, fetch: first.fetch, stdout: (s: string) => void (out += s), stderr: () => {} });
    assert.equal(code, 1);
    assert.deepEqual(
      first.calls.map(c => [c.method, c.url, c.auth]),
      [
        ['GET', 'https://api.example.test/user', 'Bearer tkn'],
        ['GET', 'https://api.example.test/repos/octo-org/shop-adapters/issues/42/comments?per_page=100&page=1', 'Bearer tkn'],
        ['POST', 'https://api.example.test/repos/octo-org/shop-adapters/issues/42/comments', 'Bearer tkn'],
      ],
    );
    assert.equal(JSON.parse(first.calls[2]!.body!).body, expected.out);
    assert.equal(readFileSync(summary, 'utf8'), expected.out);
    const annotations = out.split('\n').filter(l => l.startsWith('::'));
    assert.equal(annotations.length, 10);
    assert.equal(
      annotations[0],
      '::error file=adapters/shop.adapter.yaml,line=38,col=7,title=breaking%3A details.type-widened::CONFLICT_OUT_OF_STOCK details.available: type integer → number',
    );
    assert.match(out, /mcp-aql-errors diff: comment created\n$/);
    // The next push updates the action's own comment instead of adding one.
    const second = fakeFetch([
      { id: 3, body: 'an unrelated comment', user: { login: 'contributor' } },
      { id: 99, body: `${MARKER}\nold report`, user: { login: BOT } },
    ]);
    await main({ env, cwd: dir, fetch: second.fetch, stdout: () => {}, stderr: () => {} });
    assert.deepEqual(second.calls.map(c => [c.method, c.url]).slice(2), [
      ['PATCH', 'https://api.example.test/repos/octo-org/shop-adapters/issues/comments/99'],
    ]);
    // A fork's read-only token: a warning, the report stays in the summary, the exit status is the diff's.
    let warned = '';
    const fork = fakeFetch([], 403);
    assert.equal(await main({ env, cwd: dir, fetch: fork.fetch, stdout: (s: string) => void (warned += s), stderr: () => {} }), 1);
    assert.match(warned, /::warning title=mcp-aql-errors diff::could not comment on the pull request \(creating the comment: HTTP 403\)/);
    // --fail-on none through args: exit 0, still a report.
    const none = fakeFetch([]);
    assert.equal(
      await main({ env: { ...env, MCP_AQL_ARGS: '--fail-on none' }, cwd: dir, fetch: none.fetch, stdout: () => {}, stderr: () => {} }),
      0,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(eventPath, { force: true });
    rmSync(summary, { force: true });
  }
});

test('mode diff outside a pull request, or with a forged base, is exit 2 and posts nothing', async () => {
  const { main } = await script();
  const dir = tempTree({
    'push.json': JSON.stringify({ ref: 'refs/heads/main' }),
    'forged.json': JSON.stringify({
      pull_request: { number: 1, base: { sha: '--upload-pack=touch x' } },
      repository: { full_name: 'a/b' },
    }),
  });
  try {
    for (const f of ['push.json', 'forged.json']) {
      let err = '';
      const { calls, fetch } = fakeFetch([]);
      const code = await main({
        env: { GITHUB_EVENT_PATH: join(dir, f), GITHUB_TOKEN: 't' },
        cwd: dir,
        fetch,
        stdout: () => {},
        stderr: (s: string) => void (err += s),
      });
      assert.equal(code, 2);
      assert.equal(err, 'mcp-aql-errors diff: mode diff runs on pull_request events (the event has no pull_request.base.sha)\n');
      assert.deepEqual(calls, []);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the diff step run as the runner runs it (bash, env only; no token: no comment, nothing sent)', () => {
  const { dir, eventPath } = pullRequest();
  const summary = join(dir, '..', `${dir.split('/').pop()}-summary.md`);
  try {
    const step = action.runs.steps.find(s => s.if === "inputs.mode == 'diff'")!;
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default])),
      paths: 'adapters',
    };
    const expr = (s: string) =>
      s.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.action_path|github\.token)\s*\}\}/g, (_, _w, name?: string) =>
        name ? (inputs[name] ?? '') : _.includes('token') ? '' : ROOT,
      );
    const env = Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expr(v)]));
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ...env, GITHUB_EVENT_PATH: eventPath, GITHUB_STEP_SUMMARY: summary },
    });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout.split('\n').filter(l => l.startsWith('::')).length, 10);
    assert.ok(!r.stdout.includes('comment'), 'no token: no comment attempted');
    assert.match(
      readFileSync(summary, 'utf8'),
      /^<!-- mcp-aql-errors diff -->\n### MCP-AQL error contract: 5 breaking, 2 dangerous, 3 safe\n/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(eventPath, { force: true });
    rmSync(summary, { force: true });
  }
});

interface FakeComment {
  id: number;
  body: string;
  user: { login: string } | null;
}
/**
 * A fake GitHub API on 127.0.0.1: `/user` answers as `self` says (a login, or a status such as 403 for
 * GITHUB_TOKEN), the pull request's comments are listed, created and edited in `comments`; every
 * request is recorded.
 */
async function fakeGitHub(self: string | number, comments: FakeComment[]) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const edit = /^\/repos\/octo-org\/shop-adapters\/issues\/comments\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && req.url === '/user')
        return typeof self === 'string' ? send(200, { login: self, type: 'User' }) : send(self, { message: 'no' });
      if (req.method === 'GET' && req.url?.startsWith('/repos/octo-org/shop-adapters/issues/42/comments?')) return send(200, comments);
      if (req.method === 'POST' && req.url === '/repos/octo-org/shop-adapters/issues/42/comments') {
        const c = { id: 1000 + comments.length, body: (JSON.parse(body) as { body: string }).body, user: { login: 'poster' } };
        comments.push(c);
        return send(201, c);
      }
      if (req.method === 'PATCH' && edit) {
        const c = comments.find(x => x.id === Number(edit[1]));
        if (!c) return send(404, { message: 'Not Found' });
        c.body = (JSON.parse(body) as { body: string }).body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { api: `http://127.0.0.1:${port}`, requests, comments, close: () => new Promise<void>(r => server.close(() => r())) };
}

interface PostComment {
  postComment(o: {
    api: string;
    repo: string;
    number: number;
    token: string;
    body: string;
    fetch: typeof fetch;
    log: (s: string) => void;
    author?: string;
  }): Promise<string>;
}

test("the diff comment updates only a comment by the Action's own identity; someone else's comment with the marker is never edited", async () => {
  const { MARKER } = await script();
  const { postComment } = (await script()) as unknown as PostComment;
  const mallory = () => ({ id: 5, body: `${MARKER}\nplanted by a stranger`, user: { login: 'mallory' } });
  const cases: { name: string; self: string | number; author?: string; comments: FakeComment[]; want: string; edited?: number }[] = [
    // GITHUB_TOKEN: /user is refused (403), so the identity is github-actions[bot].
    { name: 'GITHUB_TOKEN, only a stranger has the marker', self: 403, comments: [mallory()], want: 'created' },
    {
      name: "GITHUB_TOKEN, a stranger's marker first, the bot's after",
      self: 403,
      comments: [mallory(), { id: 9, body: `${MARKER}\nold`, user: { login: BOT } }],
      want: 'updated',
      edited: 9,
    },
    { name: 'a deleted user (null)', self: 403, comments: [{ id: 6, body: `${MARKER}\nold`, user: null }], want: 'created' },
    // A personal token: the identity is its user, and the bot's comment is not ours.
    {
      name: "a personal token: the token's user, not the bot",
      self: 'octocat',
      comments: [
        { id: 4, body: `${MARKER}\nbot`, user: { login: BOT } },
        mallory(),
        { id: 8, body: `${MARKER}\nmine`, user: { login: 'octocat' } },
      ],
      want: 'updated',
      edited: 8,
    },
    // The input names the identity: /user is not asked.
    {
      name: 'comment-author given',
      self: 500,
      author: 'shop-bot[bot]',
      comments: [
        { id: 4, body: `${MARKER}\nbot`, user: { login: BOT } },
        { id: 7, body: `${MARKER}\napp`, user: { login: 'shop-bot[bot]' } },
      ],
      want: 'updated',
      edited: 7,
    },
    // /user fails otherwise: the identity is unknown, nothing is listed or edited, a new comment is made.
    { name: '/user answers 500', self: 500, comments: [{ id: 4, body: `${MARKER}\nbot`, user: { login: BOT } }], want: 'created' },
  ];
  for (const c of cases) {
    const before = JSON.stringify(c.comments);
    const gh = await fakeGitHub(c.self, c.comments);
    try {
      const logs: string[] = [];
      const r = await postComment({
        api: gh.api,
        repo: 'octo-org/shop-adapters',
        number: 42,
        token: 'tkn',
        body: `${MARKER}\nnew report`,
        fetch,
        log: s => void logs.push(s),
        author: c.author,
      });
      assert.equal(r, c.want, `${c.name}: ${logs.join('')}`);
      const old = JSON.parse(before) as FakeComment[];
      for (const o of old) {
        const now = gh.comments.find(x => x.id === o.id)!;
        assert.equal(now.body, o.id === c.edited ? `${MARKER}\nnew report` : o.body, `${c.name}: comment ${o.id}`);
      }
      assert.equal(gh.comments.length, old.length + (c.want === 'created' ? 1 : 0), c.name);
      assert.equal(gh.requests.includes('GET /user'), !c.author, `${c.name}: /user asked only without comment-author`);
      assert.ok(!gh.requests.some(q => q.startsWith('PATCH')) || c.edited !== undefined, `${c.name}: nothing edited`);
      if (c.self === 500 && !c.author) assert.ok(!gh.requests.some(q => q.includes('/comments?')), `${c.name}: no listing`);
    } finally {
      await gh.close();
    }
  }
});

test('mode diff end to end against a fake GitHub on 127.0.0.1: a planted marker comment is left alone, the comment-author input reaches the script', async () => {
  const { dir, eventPath } = pullRequest();
  const { main, MARKER } = await script();
  const planted = `${MARKER}\nplanted by a stranger`;
  const gh = await fakeGitHub(403, [{ id: 5, body: planted, user: { login: 'mallory' } }]);
  try {
    const env = { GITHUB_EVENT_PATH: eventPath, GITHUB_TOKEN: 'tkn', GITHUB_API_URL: gh.api, MCP_AQL_PATHS: 'adapters', MCP_AQL_ARGS: '' };
    let out = '';
    assert.equal(await main({ env, cwd: dir, fetch, stdout: (s: string) => void (out += s), stderr: () => {} }), 1);
    assert.match(out, /mcp-aql-errors diff: comment created\n$/);
    assert.equal(gh.comments[0]!.body, planted);
    assert.equal(gh.comments.length, 2);
    assert.ok(gh.comments[1]!.body.startsWith(MARKER));
    // The step passes the input to the script through env.
    const step = action.runs.steps.find(s => s.if === "inputs.mode == 'diff'")!;
    assert.equal(step.env.MCP_AQL_COMMENT_AUTHOR, '${{ inputs.comment-author }}');
    assert.equal(action.inputs['comment-author']!.default, '');
  } finally {
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(eventPath, { force: true });
  }
});
