/**
 * The temporary files the CLI's writers create beside the files they replace (safeWrite.ts, the cache's
 * store), removed when the run is interrupted (docs/robustness.md, "Nothing lost on the new surface"). A file is written whole
 * into a new file beside it, then renamed over it; a SIGINT, SIGTERM or SIGHUP arriving meanwhile used to
 * end the process with the new file left in the checkout. From the first temporary file on, the process
 * takes those signals itself: the handler runs when the current synchronous write is done (Node runs it
 * on the event loop), removes what is still listed, and — when nothing else listens for the signal —
 * raises it again without the handler, so the process ends by the signal as it would have. Writers that
 * go on for many files (`--fix`) yield between files so that an interruption is not held back.
 */
import { unlinkSync } from 'node:fs';

const live = new Set<string | Buffer>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/** Remove every listed file (a file already gone is fine). */
function removeAll(): void {
  for (const p of live)
    try {
      unlinkSync(p);
    } catch {
      /* already renamed or removed */
    }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  if (process.listenerCount(signal) > 1) return; // the command has its own handling (probe, watch): it ends the run
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', removeAll);
  installed = false;
  process.kill(process.pid, signal);
}

/** `path` is a temporary file from now until `settled(path)`. */
export function tracked<T extends string | Buffer>(path: T): T {
  live.add(path);
  if (!installed) {
    installed = true;
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', removeAll);
  }
  return path;
}

/** `path` was renamed into place or removed: nothing to clean. */
export function settled(path: string | Buffer): void {
  live.delete(path);
}

/** The temporary files listed now (for tests). */
export const liveTemporaryFiles = (): number => live.size;

const immediate = (): Promise<void> => new Promise(done => setImmediate(done));

/**
 * A full turn of the event loop, so that a signal that arrived during the last write is handled here:
 * Node reads signals in the loop's poll phase, and only a second `setImmediate` is sure to come after one.
 */
export async function yieldTurn(): Promise<void> {
  await immediate();
  await immediate();
}
