/**
 * This thread's collections, for `check`'s pool (cli/check/pool.ts) and `watch`'s judge (cli/runtime/watch/judge.ts):
 * scavenges without helper threads, and a full collection on demand for the main thread, whose heap has
 * V8's default limits rather than a worker's `resourceLimits`.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Young-generation collections without helper threads, for the whole process (V8 reads the flag at each
 * collection; it is safe to set at run time, unlike `--single-threaded-gc`, which aborts V8 when set
 * after start). The pool keeps every core busy, and a parallel scavenge waits for helper threads that
 * then get no core: at 10,000 files the run took 24-25 s of wall time against 13-16 s without, on the
 * same CPU time (bench/workspaceNotes.md, 2026-11-26).
 */
export function serialScavenges(): void {
  setFlagsFromString('--no-parallel-scavenge');
}

let collector: (() => void) | null | undefined;
/** The heap used after this thread's last `fullCollection`. */
let usedAfterCollection = 0;

/**
 * A full collection of this thread's heap now (V8's `gc`, exposed at run time in a context of its own:
 * the program's global gets no `gc`). The main thread's heap takes V8's defaults, so it is collected
 * rarely and grows to what the run left behind (the index pass's declarations, references and texts):
 * at 20,000 files it held 190 MB for about 60 live. Returns whether it ran.
 */
export function fullCollection(): boolean {
  if (collector === undefined)
    try {
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as () => void;
      setFlagsFromString('--no-expose-gc'); // contexts made later (a worker's, a `vm` one) get no `gc`
    } catch {
      collector = null;
    }
  if (!collector) return false;
  collector();
  usedAfterCollection = getHeapStatistics().used_heap_size;
  return true;
}

/** How much more heap this thread uses than after its last `fullCollection` (all of it before the first). */
export function grownSinceCollection(): number {
  return getHeapStatistics().used_heap_size - usedAfterCollection;
}
