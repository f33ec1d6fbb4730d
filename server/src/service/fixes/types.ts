/** One fixer per diagnostic code (conventions C6): pure, stateless, payload from Diagnostic.data. */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { Code, PayloadOf } from '../codes';
import type { FeatureContext } from '../model/context';

/**
 * Returns the code actions for one diagnostic, the preferred one marked `isPreferred`. `data` is the
 * diagnostic's payload, typed by its code (codes.ts `Payloads`), so a check and its fixes agree by type.
 * Returns [] when the document has moved on (the text under the range is not what `data` expects).
 */
export type Fixer<C extends Code> = (ctx: FeatureContext, d: Diagnostic, data: NonNullable<PayloadOf<C>>) => CodeAction[];

/** At most one fixer per code. */
export type Fixers = { readonly [C in Code]?: Fixer<C> };
