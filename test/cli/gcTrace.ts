/**
 * `node --trace-gc-nvp` output read by the tests that count how collections ran (counted, not timed):
 * one line per collection, `[pid:isolate] … gc=s … background.scavenge.parallel=ms …`.
 */

/** The scavenges of every thread but the first to collect (the main thread, which collects while the bundle loads). */
export function otherThreadsScavenges(stdout: string): string[] {
  const lines = stdout.split('\n').filter(l => / gc=s /.test(l));
  const isolate = (l: string) => /\[\d+:(0x[0-9a-f]+)\]/.exec(l)?.[1];
  const main = isolate(lines[0] ?? '');
  return lines.filter(l => isolate(l) !== main);
}

/** Those of `lines` in which V8's helper threads took part. */
export const withHelperThreads = (lines: readonly string[]): string[] =>
  lines.filter(l => Number(/ background\.scavenge\.parallel=([\d.]+)/.exec(l)?.[1] ?? 0) > 0);
