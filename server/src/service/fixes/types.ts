/** One fixer per diagnostic code (conventions C6): pure, stateless, payload from Diagnostic.data. */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';

/**
 * Returns the code actions for one diagnostic, the preferred one marked `isPreferred`.
 * Returns [] when the document has moved on (the text under the range is not what `data` expects).
 */
export type Fixer = (ctx: FeatureContext, d: Diagnostic) => CodeAction[];
