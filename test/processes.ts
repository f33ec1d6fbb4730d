/** Child processes in tests: whether one is alive, and a bounded poll for a state to come. */

/** Whether a process is alive (a zombie not yet reaped still counts; poll with `eventually` to wait for its end). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll `f` every 100 ms, at most `bound` ms: a bound on a hang, not a timed assertion. */
export async function eventually(f: () => boolean, bound: number): Promise<boolean> {
  for (const end = Date.now() + bound; Date.now() < end; await new Promise(r => setTimeout(r, 100))) if (f()) return true;
  return f();
}
