/** The built CLI in a child process, for inputs that could hang or abort it. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers';

/** The built CLI (dist/cli.js) in a child process, bounded by a generous timeout: a hang fails, never blocks. */
export function cliBundle(
  args: string[],
  cwd: string,
  timeout = 20_000,
): { code: number | null; signal: string | null; out: string; err: string; timedOut: boolean } {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  return {
    code: r.status,
    signal: r.signal,
    out: r.stdout,
    err: r.stderr,
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
}
