import type { CompletionItem, Position } from 'vscode-languageserver-types';
import type { FeatureContext } from './context';

/** TODO: registry and workspace codes, categories, entry keys, statuses, details keys in `{`, condition roots. */
export function complete(_ctx: FeatureContext, _at: Position): CompletionItem[] {
  return [];
}
