#!/usr/bin/env node
/**
 * The GitHub Action's `mode: diff` (docs/ci.md, "GitHub Actions"): compares the error
 * contract of the pull request with its base commit (`mcp-aql-errors diff --base <sha>`), writes one
 * annotation per change, puts the markdown report in the job summary and on the pull request as one
 * comment (updated in place on the next push: the comment that starts with its marker and was written by
 * the identity the Action posts as). Exits with the diff's status (1: a change reaches --fail-on).
 * Everything outside is injected (`deps`), so a test runs it on a recorded event with a fake poster.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitArgs } from './split-args.mjs';

export const MARKER = '<!-- mcp-aql-errors diff -->';
/** GitHub refuses comment bodies over 65,536 characters. */
const MAX_BODY = 65000;

/** `paths` and `args` split as the check step splits them (shell words, nothing expanded). */
const words = s => splitArgs(s ?? '');

/** The CLI to run: this checkout's (built once), or an npm version. */
function cliCommand(env) {
  if (env.MCP_AQL_VERSION) return ['npx', ['--yes', `mcp-aql-errors@${env.MCP_AQL_VERSION}`]];
  const root = env.MCP_AQL_ACTION_PATH || join(dirname(fileURLToPath(import.meta.url)), '..');
  return [join(root, 'scripts', 'run-cli.sh'), []];
}

const defaultRun = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status ?? 2, stdout: r.stdout ?? '', stderr: r.stderr ?? (r.error ? String(r.error.message) : '') };
};

/** The base commit of a pull_request / pull_request_target event. */
export function baseOf(event) {
  const sha = event?.pull_request?.base?.sha;
  return typeof sha === 'string' && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

export function truncate(body) {
  if (body.length <= MAX_BODY) return body;
  return `${body.slice(0, MAX_BODY)}\n\n… (report cut at ${MAX_BODY} characters; the full report is in the job summary)\n`;
}

/** The login a comment made with the workflow's GITHUB_TOKEN carries. */
export const ACTIONS_BOT = 'github-actions[bot]';

/**
 * Who the Action's comments are written by: the `comment-author` input when set; else the token's own
 * user (`GET /user` answers for a personal or user-to-server token); else, when `/user` is refused with
 * 403 (what an installation token such as GITHUB_TOKEN gets), `github-actions[bot]`. Any other answer
 * leaves it unknown, and then no comment is updated: a new one is created.
 */
export async function commentAuthor({ api, headers, fetch, author }) {
  if (author) return author;
  try {
    const r = await fetch(`${api}/user`, { method: 'GET', headers });
    if (r.ok) {
      const user = await r.json();
      return typeof user?.login === 'string' && user.login ? user.login : undefined;
    }
    return r.status === 403 ? ACTIONS_BOT : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the comment, or updates the one this action wrote before: the first that starts with the
 * marker AND was written by the identity the Action posts as (anyone can paste the marker into a
 * comment; theirs is never edited). Never throws: a fork's read-only token only warns.
 */
export async function postComment({ api, repo, number, token, body, fetch, log, author }) {
  const headers = {
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
    'content-type': 'application/json',
    'user-agent': 'mcp-aql-errors',
  };
  const base = `${api}/repos/${repo}/issues`;
  try {
    const self = await commentAuthor({ api, headers, fetch, author });
    let existing;
    for (let page = 1; page <= 10 && self && !existing; page++) {
      const r = await fetch(`${base}/${number}/comments?per_page=100&page=${page}`, { method: 'GET', headers });
      if (!r.ok) throw new Error(`listing comments: HTTP ${r.status}`);
      const list = await r.json();
      if (!Array.isArray(list)) throw new Error('listing comments: not a list');
      existing = list.find(
        c => Number.isSafeInteger(c?.id) && typeof c.body === 'string' && c.body.startsWith(MARKER) && c.user?.login === self,
      );
      if (list.length < 100) break;
    }
    const r = existing
      ? await fetch(`${base}/comments/${existing.id}`, { method: 'PATCH', headers, body: JSON.stringify({ body }) })
      : await fetch(`${base}/${number}/comments`, { method: 'POST', headers, body: JSON.stringify({ body }) });
    if (!r.ok) throw new Error(`${existing ? 'updating' : 'creating'} the comment: HTTP ${r.status}`);
    return existing ? 'updated' : 'created';
  } catch (e) {
    log(
      `::warning title=mcp-aql-errors diff::could not comment on the pull request (${e.message}); the report is in the job summary. A pull request from a fork gets a read-only token.\n`,
    );
    return 'failed';
  }
}

export async function main(deps = {}) {
  const env = deps.env ?? process.env;
  const cwd = deps.cwd ?? process.cwd();
  const run = deps.run ?? defaultRun;
  const fetch = deps.fetch ?? globalThis.fetch;
  const out = deps.stdout ?? (s => process.stdout.write(s));
  const err = deps.stderr ?? (s => process.stderr.write(s));
  const event = env.GITHUB_EVENT_PATH ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {};
  const base = baseOf(event);
  if (!base) {
    err('mcp-aql-errors diff: mode diff runs on pull_request events (the event has no pull_request.base.sha)\n');
    return 2;
  }
  // A shallow checkout lacks the base commit: fetch that one commit (no hooks run; the sha is checked above).
  if (run('git', ['cat-file', '-e', `${base}^{commit}`], cwd).status !== 0) {
    const f = run('git', ['-c', 'core.hooksPath=/dev/null', 'fetch', '--no-tags', '--depth=1', 'origin', base], cwd);
    if (f.status !== 0) {
      err(`mcp-aql-errors diff: cannot fetch the base commit ${base}: ${f.stderr.trim()}\n`);
      return 2;
    }
  }
  const [cmd, pre] = cliCommand(env);
  // Options first: after `--` everything is a path.
  const options = words(env.MCP_AQL_ARGS);
  const paths = words(env.MCP_AQL_PATHS);
  const argv = (...more) => [...pre, 'diff', '--base', base, ...options, ...more, ...(paths.length ? ['--', ...paths] : [])];
  const md = run(cmd, argv('--format', 'markdown'), cwd);
  if (md.status === 2) {
    err(md.stderr);
    return 2;
  }
  const gh = run(cmd, argv('--format', 'github', '--fail-on', 'none'), cwd);
  out(gh.stdout);
  err(md.stderr);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, md.stdout);
  const number = event.pull_request?.number;
  const repo = event.repository?.full_name;
  if (env.GITHUB_TOKEN && Number.isInteger(number) && typeof repo === 'string' && /^[\w.-]+\/[\w.-]+$/.test(repo)) {
    const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
    const r = await postComment({
      api,
      repo,
      number,
      token: env.GITHUB_TOKEN,
      body: truncate(md.stdout),
      fetch,
      log: out,
      author: (env.MCP_AQL_COMMENT_AUTHOR ?? '').trim(),
    });
    out(`mcp-aql-errors diff: comment ${r}\n`);
  }
  return md.status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(code => {
    process.exitCode = code;
  });
}
