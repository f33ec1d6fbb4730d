/**
 * A server the run-time commands start (`probe`, `watch`) runs in a process group of its own, so that
 * what it starts ends with it (docs/robustness.md, "Nothing lost on the new surface"): a child of the server that still
 * holds its standard output kept our pipe open after the server exited — `probe` and `watch` waited for
 * an end that never came — and outlived the run. The group is the server's pid (spawned `detached`);
 * on Windows, which has no process groups, the server alone is signalled.
 */

/** Spawn options that put the child in a group of its own (not on Windows: `detached` there opens a console). */
export const OWN_GROUP = process.platform !== 'win32';

/** Send `signal` (0: only ask) to every process of the group led by `pid`; false when none is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(OWN_GROUP ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

const pause = (ms: number) => new Promise<void>(done => setTimeout(done, ms));

/** Stop the group: SIGTERM, then SIGKILL to what is left after `grace` ms. Resolves once done. */
export async function stopGroup(pid: number, grace = 2000): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  for (const end = Date.now() + grace; Date.now() < end; await pause(50)) if (!signalGroup(pid, 0)) return;
  signalGroup(pid, 'SIGKILL');
}
