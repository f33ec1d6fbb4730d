/**
 * Which server `probe` and `watch` run: a command after `--`, a Streamable HTTP URL (`--url`, with
 * `--header`), or a server of a host's config (`--config <file> [--server <name> | --all]`, hostConfig.ts).
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { readText, UsageError } from '../files';
import { escapeControls } from '../format';
import type { Io } from '../io';
import type { RuntimeArgs } from './args';
import { pickServer, readHostConfig, type HostConfig, type HostServer } from './hostConfig';
import type { SessionTarget } from './session';

export interface NamedTarget {
  /** The server's name in the config file, when it came from one. */
  readonly name?: string;
  readonly target: SessionTarget;
}

export function loadHostConfig(args: RuntimeArgs, io: Io): HostConfig {
  const path = resolve(io.cwd, args.config!);
  return readHostConfig(path, readText(path, io.cwd), process.env, relative(io.cwd, path) || path);
}

/** The server of --config that --server names, or its only one. */
export function chosenServer(config: HostConfig, name: string | undefined): HostServer {
  if (name !== undefined) return pickServer(config, name);
  if (config.servers.length === 1) return config.servers[0]!;
  const names = config.servers.map(s => escapeControls(s.name)).join(', ');
  throw new UsageError(
    config.servers.length
      ? `${escapeControls(config.shown)} has ${config.servers.length} servers: name one with --server (${names})`
      : `${escapeControls(config.shown)}: '${config.key}' is empty`,
  );
}

export function targetOf(config: HostConfig, server: HostServer, io: Io): NamedTarget {
  const t = server.target();
  const folder = dirname(config.path).endsWith('.vscode') ? dirname(dirname(config.path)) : io.cwd;
  if (t.kind === 'http') return { name: server.name, target: { transport: 'http', url: t.url, headers: t.headers } };
  const cwd = t.cwd === undefined ? io.cwd : isAbsolute(t.cwd) ? t.cwd : resolve(folder, t.cwd);
  return { name: server.name, target: { transport: 'stdio', command: t.command, args: t.args, cwd, env: t.env } };
}

export function targetsOf(args: RuntimeArgs, io: Io): NamedTarget[] {
  if (args.config !== undefined) {
    const config = loadHostConfig(args, io);
    const servers = args.all ? config.servers : [chosenServer(config, args.server)];
    if (!servers.length) throw new UsageError(`${escapeControls(config.shown)}: '${config.key}' is empty`);
    return servers.map(s => targetOf(config, s, io));
  }
  if (args.url !== undefined) return [{ target: { transport: 'http', url: args.url, headers: args.headers } }];
  return [{ target: { transport: 'stdio', command: args.command, args: args.commandArgs, cwd: io.cwd } }];
}

/** How a target is named in messages: its config name, its URL, or its command. */
export const targetName = (t: NamedTarget): string => t.name ?? (t.target.transport === 'http' ? t.target.url : t.target.command);
