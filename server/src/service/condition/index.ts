/**
 * The condition language (ours; design s2): `or`/`and`/`not`, parentheses, comparisons
 * `== != > >= < <= contains startswith endswith in`, literals, paths from the roots response.status,
 * response.body…, response.headers…, params…. A parser with exact error columns and an interpreter
 * for the simulator. Nothing is evaluated as code.
 * TODO(owner: mapping/condition checks): implement.
 */

export interface ConditionError { readonly message: string; /** offsets into the condition source */ readonly start: number; readonly end: number }

export interface ConditionContext {
  readonly response: { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> };
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface ConditionEvaluation {
  readonly value: boolean;
  /** Human-readable trace of each comparison, e.g. `response.body.message ("abuse …") contains 'abuse' → true`. */
  readonly steps: readonly string[];
  readonly error?: ConditionError;
}

export function evaluateCondition(source: string, _ctx: ConditionContext): ConditionEvaluation {
  return { value: true, steps: [], error: { message: 'condition language not implemented yet', start: 0, end: source.length } };
}
