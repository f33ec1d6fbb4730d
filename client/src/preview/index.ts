// The Error Envelope Preview view (issue 4): registered by extension.ts. TODO(owner: preview).
import type * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';

export function registerPreview(_context: vscode.ExtensionContext, _client: BaseLanguageClient): void { /* issue 4 */ }
