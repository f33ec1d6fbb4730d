/**
 * The code a text-only failure is, by a contract (docs/spec-decisions.md, "Text-only failures in a
 * contract"): the adapters' own code whose template the text is, with its placeholders as wildcards.
 * Registry codes do not count — the server never named one. When several templates fit, the one that
 * says the most (the longest text outside its placeholders) wins, then the code's name, so the
 * answer does not depend on the order of the adapters.
 */
import type { Contract, ContractCode } from '../contract/contract';
import { judgeMessage } from './message';

const literal = (c: ContractCode) => Math.max(0, ...c.templates.map(t => t.text.replace(/\{[^{}]*\}/g, '').length));

export function textCode(message: string, contract: Contract): ContractCode | undefined {
  let best: ContractCode | undefined;
  for (const c of contract.codes.values()) {
    if (c.source !== 'custom' || judgeMessage(message, c, {})?.kind !== 'match') continue;
    if (!best || literal(c) > literal(best) || (literal(c) === literal(best) && c.code < best.code)) best = c;
  }
  return best;
}
