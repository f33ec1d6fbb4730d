import type { Hover, Position } from 'vscode-languageserver-types';
import type { FeatureContext } from './context';

/** TODO: codes, placeholders, statuses. */
export function hover(_ctx: FeatureContext, _at: Position): Hover | null {
  return null;
}
