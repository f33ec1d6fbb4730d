import type { Position } from 'vscode-languageserver-types';
import type { FeatureContext } from '../context';

/** TODO (issue 4): the preview of the code under the cursor in the four dialects. */
export interface EnvelopePreview { readonly code: string }
export interface PreviewRequest { readonly position?: Position; readonly code?: string; readonly samples?: Readonly<Record<string, unknown>>; readonly mirrorConfirmation?: boolean }
export interface SimulationRequest { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>>; readonly params?: Readonly<Record<string, unknown>> }
export interface SimulationResult { readonly rule: string }

export function preview(_ctx: FeatureContext, _req: PreviewRequest): EnvelopePreview | undefined { return undefined; }
export function simulate(_ctx: FeatureContext, req: SimulationRequest): SimulationResult { return { rule: `default ${req.status}` }; }
