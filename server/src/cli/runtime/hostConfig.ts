/**
 * The MCP servers a host's config file declares, for `probe` / `watch --config <file> --server <name>`
 * (docs/cli.md, "The host's config"): VS Code's `mcp.json` (`servers`, each `type: stdio` with command,
 * args, env, cwd or `type: http` with url and headers), Claude Desktop's and Cursor's (`mcpServers`, a
 * command or a url). Variables a host fills in are filled the same way where they need no host:
 * `${workspaceFolder}`, `${userHome}`, `${env:NAME}`, and `${NAME}` / `${NAME:-default}` in an
 * `mcpServers` file; `${input:…}` asks the user in VS Code, so it is an error here.
 */
import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import { UsageError } from '../files';
import { escapeControls } from '../format';
import { entryOf, JsoncError, lineCol, readJsonc, type JsoncEntry, type JsoncNode } from './jsonc';

export type ServerTarget =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export interface HostServer {
  readonly name: string;
  /** What to start or connect to, read when asked for: a bad entry of another server is not this one's error. */
  target(): ServerTarget;
  /** The server's entry in the file (for --print-config). */
  readonly entry: JsoncEntry;
}

export interface HostConfig {
  readonly path: string;
  /** The path as messages show it (relative to the working directory). */
  readonly shown: string;
  readonly text: string;
  /** `servers` (VS Code) or `mcpServers` (Claude Desktop, Cursor, Claude Code). */
  readonly key: 'servers' | 'mcpServers';
  readonly servers: readonly HostServer[];
}

export function readHostConfig(path: string, text: string, env: NodeJS.ProcessEnv = process.env, shown = path): HostConfig {
  const where = (at: number) => `${escapeControls(shown)}:${lineCol(text, at)}`;
  let root: JsoncNode;
  try {
    root = readJsonc(text);
  } catch (e) {
    if (e instanceof JsoncError) throw new UsageError(`${where(e.offset)}: not a JSON config file: ${e.message}`);
    throw e;
  }
  const block = entryOf(root, 'servers') ?? entryOf(root, 'mcpServers');
  if (!block || block.value.kind !== 'object')
    throw new UsageError(
      `${escapeControls(shown)}: no MCP servers in it: a host's config has 'servers' (VS Code's mcp.json) or 'mcpServers' (Claude Desktop, Cursor) mapping names to servers`,
    );
  const key = block.key as 'servers' | 'mcpServers';
  const folder = basename(dirname(path)) === '.vscode' ? dirname(dirname(path)) : dirname(path);
  const fill = (s: string, at: number): string =>
    s.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
      if (name === 'workspaceFolder') return folder;
      if (name === 'userHome') return homedir();
      if (name.startsWith('env:')) return env[name.slice(4)] ?? '';
      if (name.startsWith('input:'))
        throw new UsageError(`${where(at)}: ${whole} is asked of the user by VS Code; give the value in the file or through \${env:NAME}`);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(name);
      if (key === 'mcpServers' && m) return env[m[1]!] ?? m[2] ?? '';
      return whole;
    });
  const servers = block.value.entries.map(e => ({ name: e.key, target: () => targetOf(e, fill, where), entry: e }));
  return { path, shown, text, key, servers };
}

function targetOf(e: JsoncEntry, fill: (s: string, at: number) => string, where: (at: number) => string): ServerTarget {
  const bad = (at: number, m: string) => new UsageError(`${where(at)}: server '${escapeControls(e.key)}': ${m}`);
  if (e.value.kind !== 'object') throw bad(e.value.start, 'an object expected (command and args, or url)');
  const s = e.value;
  const str = (k: string): string | undefined => {
    const v = entryOf(s, k)?.value;
    if (v === undefined) return undefined;
    if (v.kind !== 'string') throw bad(v.start, `'${k}' must be a string`);
    return fill(v.value, v.start);
  };
  const map = (k: string): Record<string, string> => {
    const v = entryOf(s, k)?.value;
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    if (v === undefined) return out;
    if (v.kind !== 'object') throw bad(v.start, `'${k}' must map names to strings`);
    for (const x of v.entries) {
      if (x.value.kind === 'null') continue;
      if (x.value.kind !== 'string' && x.value.kind !== 'number' && x.value.kind !== 'boolean')
        throw bad(x.value.start, `'${k}.${x.key}' must be a string`);
      out[x.key] = x.value.kind === 'string' ? fill(x.value.value, x.value.start) : String(x.value.value);
    }
    return out;
  };
  const type = str('type');
  const url = str('url') ?? str('serverUrl');
  const command = str('command');
  if (type === 'sse')
    throw bad(
      entryOf(s, 'type')!.value.start,
      "type 'sse' is the HTTP+SSE transport of 2024-11-05, which probe and watch do not speak; Streamable HTTP is type 'http'",
    );
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http' && type !== 'streamableHttp')
    throw bad(entryOf(s, 'type')!.value.start, `unknown type '${escapeControls(type)}' (stdio or http)`);
  if (
    type === 'http' ||
    type === 'streamable-http' ||
    type === 'streamableHttp' ||
    (type === undefined && url !== undefined && command === undefined)
  ) {
    if (url === undefined) throw bad(s.start, "an http server needs 'url'");
    if (!/^https?:\/\//i.test(url))
      throw bad(entryOf(s, 'url')!.value.start, `'url' must be http:// or https://, not '${escapeControls(url)}'`);
    return { kind: 'http', url, headers: map('headers') };
  }
  if (command === undefined) throw bad(s.start, "a stdio server needs 'command'");
  const argsNode = entryOf(s, 'args')?.value;
  const args: string[] = [];
  if (argsNode !== undefined) {
    if (argsNode.kind !== 'array') throw bad(argsNode.start, "'args' must be a list of strings");
    for (const a of argsNode.items) {
      if (a.kind !== 'string' && a.kind !== 'number') throw bad(a.start, "'args' must be a list of strings");
      args.push(a.kind === 'string' ? fill(a.value, a.start) : String(a.value));
    }
  }
  return { kind: 'stdio', command, args, env: map('env'), cwd: str('cwd') };
}

/** The named server, or a usage error that lists the names. */
export function pickServer(config: HostConfig, name: string): HostServer {
  const s = config.servers.find(x => x.name === name);
  if (s) return s;
  const names = config.servers.map(x => x.name);
  throw new UsageError(
    `${escapeControls(config.shown)}: no server '${escapeControls(name)}' in '${config.key}'${names.length ? ` (${names.map(n => escapeControls(n)).join(', ')})` : ' (it is empty)'}`,
  );
}
