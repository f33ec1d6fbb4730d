import type { CodeLens, DocumentSymbol } from 'vscode-languageserver-types';
import type { FeatureContext } from './context';
import type { CodeDeclaration } from './workspace';

/** TODO: outline of error_codes / error_mapping. */
export function documentSymbols(_ctx: FeatureContext): DocumentSymbol[] { return []; }
/** TODO: "Preview envelope" on each code and mapping entry. */
export function codeLenses(_ctx: FeatureContext): CodeLens[] { return []; }
/** TODO: the custom codes this file declares, for the workspace index. */
export function declaredCodes(_ctx: FeatureContext): CodeDeclaration[] { return []; }
