import type { Location, Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from './context';
import type { CodeOccurrence } from './workspace';

/** TODO: every code name written in this file (declaration keys, mapping `code:` values). */
export function codeOccurrences(_ctx: FeatureContext): CodeOccurrence[] { return []; }
export function definition(_ctx: FeatureContext, _at: Position): Location[] { return []; }
export function references(_ctx: FeatureContext, _at: Position, _includeDeclaration: boolean): Location[] { return []; }
export function prepareRename(_ctx: FeatureContext, _at: Position): { range: Range; placeholder: string } | null { return null; }
export function rename(_ctx: FeatureContext, _at: Position, _newName: string): WorkspaceEdit | null { return null; }
