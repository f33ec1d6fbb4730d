/**
 * `probe --sandbox`: the server runs in Linux namespaces made with `unshare` (util-linux): no network
 * (a network namespace whose loopback is down), its own process tree (it and every child end with it),
 * and a file system that is read-only everywhere but a throwaway home and TMPDIR, and a working folder
 * that shows the project while its writes go to the throwaway folder. So
 * every tool can be called, write tools included, and nothing the user has changes. Where namespaces
 * cannot be made the probe stops with a clear error; it never runs the server unsandboxed instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../args';

const UNSHARE = ['--net', '--mount', '--pid', '--fork', '--map-root-user', '--kill-child'];

/**
 * Inside the namespaces: the throwaway folder made a mount of its own; the working folder an overlay
 * of itself whose writes land in the throwaway folder (the server sees the project, changes none of
 * it); every other mount but /proc, /dev and /sys remounted read-only; then the server started there.
 */
const SETUP = `set -e
t=$1; w=$2; shift 2
mount --bind "$t" "$t"
mount -t overlay overlay -o "lowerdir=$w,upperdir=$t/upper,workdir=$t/overlay" "$w"
awk '{print $2}' /proc/self/mounts | while read -r m; do
  m=$(printf '%b' "$m")
  case "$m" in /proc|/proc/*|/dev|/dev/*|/sys|/sys/*|"$t"|"$t"/*|"$w") continue;; esac
  mount -o remount,bind,ro "$m" 2>/dev/null || { echo "mcp-aql-errors sandbox: cannot make $m read-only" >&2; exit 97; }
done
cd "$w"
export HOME="$t/home" TMPDIR="$t/tmp" XDG_CONFIG_HOME="$t/home/.config" XDG_CACHE_HOME="$t/home/.cache" XDG_DATA_HOME="$t/home/.local/share"
exec "$@"
`;

export interface Sandbox {
  readonly command: string;
  readonly args: readonly string[];
  /** The throwaway folder (home, tmp, and what the server wrote to its working folder, in upper/). */
  readonly folder: string;
  dispose(): void;
}

/** Fails with an InputError (exit 2) where the machine cannot make the namespaces. */
export function sandboxed(command: string, args: readonly string[], cwd: string): Sandbox {
  if (process.platform !== 'linux') throw new InputError('probe --sandbox needs Linux namespaces (unshare); this is ' + process.platform);
  const folder = mkdtempSync(join(tmpdir(), 'mcp-aql-probe-sandbox-'));
  const dispose = () => rmSync(folder, { recursive: true, force: true });
  try {
    for (const d of ['home', 'tmp', 'upper', 'overlay']) mkdirSync(join(folder, d));
    // The same namespaces and set-up, with `true` for the server: a machine that refuses says so now.
    const trial = spawnSync('unshare', [...UNSHARE, '--', '/bin/sh', '-c', SETUP, 'sh', folder, cwd, 'true'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (trial.error || trial.status !== 0) {
      const why = trial.error ? trial.error.message : (trial.stderr.trim().split('\n').pop() ?? `exit ${trial.status}`);
      throw new InputError(
        `probe --sandbox: this machine cannot make the sandbox (Linux user, network, mount and PID namespaces with unshare): ${why}. Run without --sandbox (only read-only tools are called), or where namespaces are allowed`,
      );
    }
  } catch (e) {
    dispose();
    throw e;
  }
  return { command: 'unshare', args: [...UNSHARE, '--', '/bin/sh', '-c', SETUP, 'sh', folder, cwd, command, ...args], folder, dispose };
}
