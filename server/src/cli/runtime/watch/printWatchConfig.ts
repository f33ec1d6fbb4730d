/**
 * `watch --config <file> --server <name> --print-config [--listen 127.0.0.1:PORT]`: the host's config
 * file as it is, byte for byte, but with `watch` put in front of one server, so adopting it is one
 * step. A stdio server's `command` becomes `watch` and its `args` the watch options, `--`, and the
 * server's own command and arguments as the file wrote them (variables left for the host to fill); its
 * env and cwd stay. An http server's `url` becomes the proxy's (`--listen`, the same path), and the
 * proxy's own command line is returned as a note, for the user to start.
 */
import { UsageError } from '../../files';
import { entryOf, plain, type JsoncNode } from '../jsonc';
import type { HostConfig, HostServer } from '../hostConfig';

export interface WatchLaunch {
  /** The program that runs `watch` (node, or the installed command). */
  readonly command: string;
  /** Its arguments up to `watch` (the CLI's script), then `watch` and its options. */
  readonly args: readonly string[];
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The edited file; `note`: what else to do (start the proxy of an http server). */
export function printWatchConfig(
  config: HostConfig,
  server: HostServer,
  launch: WatchLaunch,
  listen?: string,
): { text: string; note?: string } {
  const s = server.entry.value as JsoncNode & { kind: 'object' };
  const target = server.target();
  const edits: Edit[] = [];
  const json = (v: unknown) => JSON.stringify(v);
  if (target.kind === 'stdio') {
    const command = entryOf(s, 'command')!.value;
    const argsEntry = entryOf(s, 'args');
    const own = [plain(command), ...(argsEntry?.value.kind === 'array' ? (plain(argsEntry.value) as unknown[]) : [])];
    const args = [...launch.args, '--', ...own];
    edits.push({ start: command.start, end: command.end, text: json(launch.command) });
    if (argsEntry) edits.push({ start: argsEntry.value.start, end: argsEntry.value.end, text: json(args) });
    else edits.push({ start: command.end, end: command.end, text: `, "args": ${json(args)}` });
    return { text: apply(config.text, edits) };
  }
  if (!listen)
    throw new UsageError(`--print-config: '${server.name}' is an http server: give the proxy's address with --listen 127.0.0.1:PORT`);
  const urlNode = (entryOf(s, 'url') ?? entryOf(s, 'serverUrl'))!.value;
  const upstream = new URL(target.url);
  const proxied = `http://${listen}${upstream.pathname}${upstream.search}`;
  edits.push({ start: urlNode.start, end: urlNode.end, text: json(proxied) });
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const start = [launch.command, ...launch.args, '--listen', listen, '--url', target.url].map(quote).join(' ');
  return { text: apply(config.text, edits), note: `start the proxy before the host connects: ${start}` };
}

function apply(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
