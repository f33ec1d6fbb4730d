/** The error reference (`mcp-aql-errors docs`; docs/cli.md, "Error reference"): contract → markdown or one self-contained HTML page. */
import { buildContract } from '../contract/contract';
import type { EnvelopePreview } from '../envelopes/types';
import { buildSnapshot, type SnapshotInput } from '../evolution/snapshot';
import type { RegistryIndex } from '../model/registry';
import { referenceHtml } from './html';
import { referenceMarkdown } from './markdown';
import { buildReference } from './reference';

export { referenceHtml } from './html';
export { referenceMarkdown } from './markdown';
export { buildReference, codeAnchor, type Reference, type ReferenceCode } from './reference';

/** What `docs` is asked for. */
export interface ReferenceRequest {
  readonly format: 'markdown' | 'html';
  /** File names for the header. */
  readonly sources: readonly string[];
  readonly version: string;
}

/** The last segment of a URI's path, decoded: how the reference names an adapter that has no `name`. */
export const fileName = (uri: string): string => {
  const last =
    uri
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/** The reference of these adapter models; `previewOf(code, declaring uri)` gives a code's example envelopes. */
export function errorReference(
  inputs: readonly SnapshotInput[],
  registry: RegistryIndex,
  previewOf: (code: string, uri: string | undefined) => EnvelopePreview | undefined,
  req: ReferenceRequest,
): string {
  const contract = buildContract(inputs, registry);
  const previews = new Map<string, EnvelopePreview | undefined>();
  for (const c of contract.codes.values()) if (c.source === 'custom' || c.mapped) previews.set(c.code, previewOf(c.code, c.location?.uri));
  const r = buildReference(contract, buildSnapshot(contract, inputs), registry, previews, req);
  return req.format === 'html' ? referenceHtml(r) : referenceMarkdown(r);
}
