// The typed message protocol between the preview view (host) and its page (conventions C12).
// Type-only: shared with client/webview, erased from both bundles.
import type { EnvelopePreview, SimulationResult, VerifyResponseResult } from '../../../server/src/protocol';

export interface RegistryEntry {
  readonly code: string;
  readonly category: string;
  readonly kind: string;
  readonly template: string | null;
}

export type ToWebview =
  | { readonly kind: 'render'; readonly uri: string; readonly file: string; readonly preview: EnvelopePreview; readonly mirror: boolean }
  | { readonly kind: 'simulation'; readonly result: SimulationResult | null; readonly error?: string }
  | { readonly kind: 'registry'; readonly reason: string; readonly codes: readonly RegistryEntry[] }
  | { readonly kind: 'empty'; readonly reason: string }
  | { readonly kind: 'verification'; readonly result: VerifyResponseResult | null; readonly error?: string };

export type FromWebview =
  | { readonly kind: 'ready' }
  | { readonly kind: 'setSample'; readonly key: string; readonly value: string }
  | { readonly kind: 'resetSamples' }
  | { readonly kind: 'toggleMirror'; readonly on: boolean }
  | { readonly kind: 'simulate'; readonly status: number; readonly body: string; readonly headers: string }
  | { readonly kind: 'reveal'; readonly code: string }
  | { readonly kind: 'copy'; readonly text: string }
  | { readonly kind: 'verify'; readonly text: string };

/** Validate a message from the page before the host acts on it: the page is not trusted. */
export function parseFromWebview(m: unknown): FromWebview | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const o = m as Record<string, unknown>;
  const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  switch (o.kind) {
    case 'ready':
    case 'resetSamples':
      return { kind: o.kind };
    case 'setSample':
      return str(o.key, 200) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(o.key as string) && str(o.value, 100_000)
        ? { kind: 'setSample', key: o.key as string, value: o.value as string }
        : undefined;
    case 'toggleMirror':
      return typeof o.on === 'boolean' ? { kind: 'toggleMirror', on: o.on } : undefined;
    case 'simulate':
      return Number.isInteger(o.status) &&
        (o.status as number) >= 100 &&
        (o.status as number) <= 599 &&
        str(o.body, 1_000_000) &&
        str(o.headers, 100_000)
        ? { kind: 'simulate', status: o.status as number, body: o.body as string, headers: o.headers as string }
        : undefined;
    case 'reveal':
      return str(o.code, 200) && /^[A-Z][A-Z0-9_]*$/.test(o.code as string) ? { kind: 'reveal', code: o.code as string } : undefined;
    case 'copy':
      return str(o.text, 2_000_000) ? { kind: 'copy', text: o.text as string } : undefined;
    case 'verify':
      return str(o.text, 4_000_000) ? { kind: 'verify', text: o.text as string } : undefined;
    default:
      return undefined;
  }
}
