/**
 * Retry as part of the contract: `retry:` on an `error_codes` entry, in the vocabulary of the MCP
 * error-registry proposal, and each category's default when a code says nothing
 * (docs/spec-decisions.md, "Retry").
 */
export type Retry = 'do-not-retry' | 'retry-after-change' | 'retry-after-delay';

export const RETRY_VALUES: readonly Retry[] = ['do-not-retry', 'retry-after-change', 'retry-after-delay'];

/** What each value tells a client (completion, hover, the reference). */
export const RETRY_MEANING: Readonly<Record<Retry, string>> = {
  'do-not-retry': 'sending the same call again will fail the same way; a person or a configuration must change something first',
  'retry-after-change': 'send the call again once its input is fixed (another value, another target, a confirmation)',
  'retry-after-delay': 'send the same call again after the delay the answer carries (retryAfterMs, retry_after_seconds or Retry-After)',
};

/** Each registry category's retry when a code declares none. */
export const DEFAULT_RETRY: Readonly<Record<string, Retry>> = {
  VALIDATION: 'retry-after-change',
  NOT_FOUND: 'retry-after-change',
  PERMISSION: 'do-not-retry',
  CONFLICT: 'retry-after-change',
  RATE_LIMIT: 'retry-after-delay',
  TOKEN: 'retry-after-change',
  INTERNAL: 'retry-after-delay',
  SCHEMA: 'do-not-retry',
  BATCH: 'retry-after-change',
  DEPRECATION: 'retry-after-change',
  PERFORMANCE: 'retry-after-delay',
};

export const isRetry = (v: unknown): v is Retry => typeof v === 'string' && (RETRY_VALUES as readonly string[]).includes(v);

/** A code's retry: as declared, else its category's default (undefined for an unknown category). */
export function retryOf(declared: unknown, category: string | undefined): Retry | undefined {
  if (isRetry(declared)) return declared;
  const key = category?.replace(/_$/, '');
  // An own key only: a category named `constructor` has no default.
  return key !== undefined && Object.hasOwn(DEFAULT_RETRY, key) ? DEFAULT_RETRY[key] : undefined;
}

/** Names of a retry delay in an answer: details keys, or a header. */
export const DELAY_KEYS: readonly string[] = [
  'retryAfterMs',
  'retry_after_ms',
  'retry_after_seconds',
  'retryAfter',
  'retry_after',
  'Retry-After',
];
