/** User + system CPU time of a process so far, in ms (Linux /proc; 0 elsewhere): the proxy benches' CPU per message. */
import { readFileSync } from 'node:fs';

export function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s (CLK_TCK)
  } catch {
    return 0;
  }
}
