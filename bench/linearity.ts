/**
 * Is a run's CPU linear in the number of files (docs/performance.md)? Two readings of the same rows, sizes ascending:
 *
 * - CPU per file (`cpu(n) / n`) at each size: flat only when the fixed cost of a run (the process, each thread's
 *   start and its JIT warm-up: about 1 s of CPU for the `yaml` floor itself on this machine) is small against the
 *   work, so it falls with the size for any tool, the floor included;
 * - CPU per added file between two consecutive sizes (`(cpu(b) - cpu(a)) / (b - a)`): the slope, which a fixed cost
 *   does not touch. A run whose slope grows with the size (work per problem that reads the whole workspace, as in the
 *   issue) is not linear; a flat slope is linear whatever the start-up.
 *
 * For each reading, the figures and their largest distance from their median (0.15 = ±15 %).
 */
export interface SizedCpu {
  readonly n: number;
  readonly cpuMs: number;
}

export interface Spread {
  /** The figures, in ms per file, in the order of the sizes (or of the steps between them). */
  readonly perFile: number[];
  /** The largest |x / median − 1| of the figures (0 with fewer than two). */
  readonly worst: number;
  /** For the slope: the sizes of each step, `a→b`. */
  readonly steps?: string[];
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spread(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = median(xs);
  return Math.max(...xs.map(x => Math.abs(x / m - 1)));
}

function ascending(rows: readonly SizedCpu[]): SizedCpu[] {
  const s = [...rows].sort((a, b) => a.n - b.n);
  for (let i = 1; i < s.length; i++) if (s[i]!.n === s[i - 1]!.n) throw new Error(`two rows of ${s[i]!.n} files`);
  return s;
}

/** CPU per file at each size. */
export function perFileSpread(rows: readonly SizedCpu[]): Spread {
  const perFile = ascending(rows).map(r => r.cpuMs / r.n);
  return { perFile, worst: spread(perFile) };
}

/** CPU per added file between consecutive sizes. */
export function slopeSpread(rows: readonly SizedCpu[]): Spread {
  const s = ascending(rows);
  const perFile: number[] = [],
    steps: string[] = [];
  for (let i = 1; i < s.length; i++) {
    perFile.push((s[i]!.cpuMs - s[i - 1]!.cpuMs) / (s[i]!.n - s[i - 1]!.n));
    steps.push(`${s[i - 1]!.n}→${s[i]!.n}`);
  }
  return { perFile, worst: spread(perFile), steps };
}
