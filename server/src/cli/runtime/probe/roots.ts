/**
 * The folders a server was given, where the probe makes up the paths that do not exist: `--root`, else
 * the server's arguments that name existing folders (`server-filesystem /srv/data`), resolved against
 * the working directory. A made-up path inside them reaches the tool's own "not found", not its
 * "outside the allowed folders".
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export function serverRoots(explicit: readonly string[], commandArgs: readonly string[], cwd: string): string[] {
  if (explicit.length) return explicit.map(p => resolve(cwd, p));
  const out: string[] = [];
  for (const a of commandArgs) {
    if (a.startsWith('-') || a.includes('\0')) continue;
    const p = isAbsolute(a) ? a : resolve(cwd, a);
    try {
      if (statSync(p).isDirectory()) out.push(p);
    } catch {
      // not a path
    }
  }
  return out;
}
