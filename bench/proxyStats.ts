/**
 * The arithmetic of the proxy bench (bench/proxyBench.ts), pure so it is tested
 * (test/cli/proxyStats.test.ts): one run's round trips split into the warm-up and the steady state,
 * percentiles of each, and the median of several runs, figure by figure.
 */

/** One run of one variant: what the bench measured. */
export interface RunTimes {
  /** Spawn → the server read its first byte (the `initialize` request), ms. */
  readonly firstByteMs: number;
  /** Spawn → the client read the answer to `initialize`, ms. */
  readonly startupMs: number;
  /** Round trip of each timed message, in the order sent (the handshake is not among them), ms. */
  readonly rtt: readonly number[];
}

export interface RunSummary {
  readonly firstByteMs: number;
  readonly startupMs: number;
  /** The first `warmup` messages (JIT, caches): their p99. */
  readonly warmupP99: number;
  /** Every message after the warm-up. */
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly answered: number;
}

/** The q-quantile (nearest rank) of xs; NaN for none. */
export function percentile(xs: readonly number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** The median of xs (the mean of the two middle ones for an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One run: the warm-up (the first `warmup` messages) apart, percentiles over the steady state. */
export function summarizeRun(run: RunTimes, warmup: number): RunSummary {
  const w = run.rtt.slice(0, warmup);
  const steady = run.rtt.slice(warmup);
  return {
    firstByteMs: run.firstByteMs,
    startupMs: run.startupMs,
    warmupP99: percentile(w, 0.99),
    p50: percentile(steady, 0.5),
    p99: percentile(steady, 0.99),
    p999: percentile(steady, 0.999),
    max: steady.length ? Math.max(...steady) : NaN,
    answered: run.rtt.length,
  };
}

/** Several runs of one variant: the median of each figure (each figure's own median run). */
export function medianOfRuns(runs: readonly RunSummary[]): RunSummary {
  const m = (f: (r: RunSummary) => number) => round(median(runs.map(f)));
  return {
    firstByteMs: m(r => r.firstByteMs),
    startupMs: m(r => r.startupMs),
    warmupP99: m(r => r.warmupP99),
    p50: m(r => r.p50),
    p99: m(r => r.p99),
    p999: m(r => r.p999),
    max: m(r => r.max),
    answered: Math.min(...runs.map(r => r.answered)),
  };
}

/** Milliseconds to the microsecond. */
export const round = (x: number): number => Math.round(x * 1000) / 1000;
