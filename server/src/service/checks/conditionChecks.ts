/**
 * condition.syntax and condition.unknown-root, for every `condition` of error_codes and
 * error_mapping entries. Error columns are exact inside quoted, escaped and folded strings.
 */
import { Code, type UnknownRootData } from '../codes';
import { closest } from '../util/closest';
import { parseCondition, paths, ROOTS } from '../condition';
import type { StringValue } from '../model/model';
import { flat } from '../parse/flat';
import { valueOffsets } from '../parse/scalarOffsets';
import type { Check, Problem } from './types';

export const conditions: Check = {
  name: 'conditions',
  run({ model }, emit) {
    for (const c of model.codes) if (c.condition) conditionProblems(c.condition, emit);
    for (const m of model.mappings) if (m.condition) conditionProblems(m.condition, emit);
  },
};

/**
 * Condition texts found to have no problem: a condition's problems depend on its text alone, and the same
 * condition is written in many entries and files. At most CLEAN_MAX texts of up to CLEAN_LENGTH characters
 * (copies, not slices of a file's text), then the set starts afresh.
 */
const clean = new Set<string>();
const CLEAN_MAX = 4096;
const CLEAN_LENGTH = 256;

/** condition.* of one condition string: reads that string only. */
export function conditionProblems(cond: StringValue, emit: (p: Problem) => void): void {
  if (clean.has(cond.value)) return;
  if (!problems(cond, emit) && cond.value.length <= CLEAN_LENGTH) {
    if (clean.size >= CLEAN_MAX) clean.clear();
    clean.add(flat(cond.value));
  }
}

/** For tests: how many condition texts were parsed. */
export const conditionChecksTesting = { parsed: 0 };

/** Emits condition.* of `cond`; whether there was any. */
function problems(cond: StringValue, emit: (p: Problem) => void): boolean {
  conditionChecksTesting.parsed++;
  let offsets: ((i: number) => number) | undefined;
  const at = (i: number) => (offsets ??= valueOffsets(cond))(i);
  const parsed = parseCondition(cond.value);
  if (parsed.error) {
    const e = parsed.error;
    const start = at(e.start);
    const end = e.end > e.start ? at(e.end - 1) + 1 : start;
    emit({ code: Code.ConditionSyntax, start, end: Math.max(end, start), message: `Condition: ${e.message}.` });
    return true;
  }
  let found = false;
  for (const p of paths(parsed.expr!)) {
    const root = p.segments.length > 1 && p.segments[0] === 'response' ? `response.${p.segments[1]}` : String(p.segments[0]);
    if ((ROOTS as readonly string[]).includes(root)) continue;
    // `request.body.x`: the second segment names a part of the response, so the first is meant to be `response`.
    const part = p.segments[1];
    const suggestions =
      root !== 'response' && (part === 'status' || part === 'body' || part === 'headers') ? ['response'] : closest(root, ROOTS, 2);
    const meant = suggestions[0] === 'response' ? `response.${String(part)}` : suggestions[0];
    found = true;
    emit({
      code: Code.ConditionUnknownRoot,
      start: at(p.rootLoc.start),
      end: at(p.rootLoc.end - 1) + 1,
      message: `${meant ? `Did you mean ${meant}? ` : ''}Unknown root '${root}': a condition reads ${ROOTS.join(', ')}.`,
      data: { root, suggestions } satisfies UnknownRootData,
    });
  }
  return found;
}
