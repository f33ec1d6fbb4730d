/** Report a problem only once per code and span (the first one wins; used where aliases share a span). */
import type { Problem } from './types';

export function onePerSpan(report: (p: Problem) => void): (p: Problem) => void {
  const emitted = new Set<string>();
  return p => {
    const k = `${p.code}:${p.start}:${p.end}`;
    if (!emitted.has(k)) {
      emitted.add(k);
      report(p);
    }
  };
}
