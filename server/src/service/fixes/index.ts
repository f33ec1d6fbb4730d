import type { CodeAction, CodeActionContext, Range, TextEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from '../context';

/** TODO: one fixer per diagnostic code, dispatched on `code`, payload from `data` (conventions C6). */
export function quickFixes(_ctx: FeatureContext, _range: Range, _context: CodeActionContext): CodeAction[] { return []; }
/** TODO: every preferred fix, non-overlapping. */
export function fixAll(_ctx: FeatureContext, _diagnostics: readonly import('vscode-languageserver-types').Diagnostic[]): TextEdit[] { return []; }
