/**
 * The condition language (ours; design s2, docs/conditions.md): `or`/`and`/`not`, parentheses,
 * comparisons `== != > >= < <= contains startswith endswith in`, literals, paths from the roots
 * response.status, response.body…, response.headers…, params…. Interpreted, never evaluated as code.
 */
import type { ConditionError } from './ast';
import { evaluate, type ConditionContext } from './interpreter';
import { parseCondition } from './parser';

export { ROOTS, type ConditionError, type Expr } from './ast';
export { parseCondition, paths } from './parser';
export type { ConditionContext } from './interpreter';

interface ConditionEvaluation {
  readonly value: boolean;
  /** Each comparison with its operand values, e.g. `response.body.message ("abuse …") contains 'abuse' → true`. */
  readonly steps: readonly string[];
  readonly error?: ConditionError;
}

export function evaluateCondition(source: string, ctx: ConditionContext): ConditionEvaluation {
  const parsed = parseCondition(source);
  if (!parsed.expr) return { value: false, steps: [], error: parsed.error };
  const steps: string[] = [];
  const value = evaluate(parsed.expr, ctx, steps);
  return { value, steps };
}
