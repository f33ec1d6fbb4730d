/** What an answer came to, for a user's scenario: failed or not, on which channel, with which code. */
import { member, parseJson } from '../verify/json';
import type { Channel } from './scenarios';
import { envelopeOf } from './envelopeOf';

export type { Scenario } from './scenarios';

export interface Outcome {
  readonly failed: boolean;
  readonly channel: Channel;
  /** The MCP-AQL code: the envelope's `error.code`, or a JSON-RPC error's `data.mcp_aql_code`. */
  readonly code?: string;
  /** Where the outcome shows: the error, `isError`, or the result. */
  readonly start: number;
  readonly end: number;
}

export function outcomeOf(response: string): Outcome | undefined {
  const r = parseJson(response);
  if (!r.ok || r.node.kind !== 'object') return undefined;
  const error = member(r.node, 'error');
  if (error) {
    const data = member(error.value, 'data');
    const code = data?.value.kind === 'object' ? member(data.value, 'mcp_aql_code') : undefined;
    return {
      failed: true,
      channel: 'json-rpc',
      ...(code?.value.kind === 'string' ? { code: code.value.value } : {}),
      start: error.value.start,
      end: error.value.start + 1,
    };
  }
  const result = member(r.node, 'result');
  if (result?.value.kind !== 'object') return undefined;
  const isError = member(result.value, 'isError');
  const flagged = isError?.value.kind === 'boolean' && isError.value.value;
  const env = envelopeOf(result.value);
  const success = env && member(env, 'success');
  const code = env && member(member(env, 'error')?.value, 'code');
  const failed = flagged || (success?.value.kind === 'boolean' && !success.value.value);
  const at = isError ? isError.value : result.value;
  return {
    failed: !!failed,
    channel: 'tool-result',
    ...(code?.value.kind === 'string' ? { code: code.value.value } : {}),
    start: at.start,
    end: at.kind === 'object' ? at.start + 1 : at.end,
  };
}
