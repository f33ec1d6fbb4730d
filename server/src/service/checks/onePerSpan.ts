/**
 * Report a problem only once per code and span (the first one wins; used where aliases share a span).
 * An unused details key of shared details is the exception: each entry that does not use the key says so
 * by name, and runChecks' collector folds the later ones into the first as related information.
 */
import { Code } from '../codes';
import type { Problem } from './types';

export function onePerSpan(report: (p: Problem) => void): (p: Problem) => void {
  const emitted = new Set<string>();
  return p => {
    const k = `${p.code}:${p.start}:${p.end}${p.code === Code.TemplateUnusedDetail ? `:${p.message}` : ''}`;
    if (!emitted.has(k)) {
      emitted.add(k);
      report(p);
    }
  };
}
