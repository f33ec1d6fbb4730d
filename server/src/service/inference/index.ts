/** Contracts from traffic (docs/cli.md, "Inferring a contract"): transcripts → an adapter's error blocks. */
import { isMap, isScalar, parseDocument } from 'yaml';
import type { Contract } from '../contract/contract';
import type { RegistryIndex } from '../model/registry';
import { FailureReader, failuresOf } from './failures';
import { kindsOf, type InferredKind } from './kinds';
import { renderKinds, type RenderResult } from './render';

export type { InferredKind } from './kinds';
export type { Retry } from '../model/retry';
export { InferRenderError, type RenderResult } from './render';
export { FailureReader, failuresOf, MAX_GROUPS, SAMPLES_PER_GROUP, type Failure } from './failures';
export { inferTemplate } from './template';

export interface InferRequest {
  /** Transcripts: JSON Lines texts of JSON-RPC messages (requests and responses). */
  readonly transcripts?: readonly string[];
  /** Or transcripts already read line by line (a file of any size: FailureReader). */
  readonly reader?: FailureReader;
  /** An adapter's YAML text to add to; its entries are kept as written. */
  readonly existing?: string;
  /** The new adapter's `name` (without `existing`). */
  readonly name?: string;
}

export interface InferResult extends RenderResult {
  readonly kinds: readonly InferredKind[];
  readonly failures: number;
}

/** `registryContract`: the registry's codes as a contract (buildContract of no adapter). */
export function inferContract(req: InferRequest, registry: RegistryIndex, registryContract: Contract): InferResult {
  const failures = [...(req.reader?.failures() ?? []), ...failuresOf(req.transcripts ?? [])];
  const kinds = kindsOf(failures, registry, registryContract, declaredIn(req.existing));
  const total = failures.reduce((n, f) => n + (f.count ?? 1), 0);
  return { ...renderKinds(kinds, registry, req.existing, req.name), kinds, failures: total };
}

/** The codes an adapter's text declares in `error_codes`, with their message templates (names a new kind must not take, templates it may fit). */
function declaredIn(text: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (text === undefined) return out;
  const codes = parseDocument(text).get('error_codes', true);
  if (!isMap(codes)) return out;
  for (const p of codes.items) {
    if (!isScalar(p.key)) continue;
    const t = isMap(p.value) ? p.value.get('message_template', true) : undefined;
    out.set(String(p.key.value), isScalar(t) && typeof t.value === 'string' ? [t.value] : []);
  }
  return out;
}
