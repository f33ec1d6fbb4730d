/**
 * MCP_AQL_TIMELINE=1 in the extension host's environment: the client logs each hop of a document's way to its
 * first diagnostics (activation, the server's start, didOpen sent, a pull asked and answered) with the wall
 * clock in ms, comparable with the server's own timeline lines (server/src/lsp/timeline.ts) and the page's
 * clock; test/e2e/firstDiagnostics.test.ts reads them (bench/NOTES.md, "eighth sitting"). The log's own
 * timestamps lag when the extension host is busy, so the time is in the line. Off: nothing is logged.
 */
import type * as vscode from 'vscode';

// The browser build has no `process`.
const on = typeof process !== 'undefined' && !!process.env?.MCP_AQL_TIMELINE;

/** Log `what` with the time now, when the timeline is on. */
export function timeline(output: vscode.LogOutputChannel, what: string): void {
  if (on) output.info(`timeline ${what} @${Date.now()}`);
}

/** Whether the timeline is on (to register listeners only then). */
export const timelineOn = (): boolean => on;

/** The last segment of a URI's path, for a timeline line. */
export const baseName = (uri: { readonly path: string } | string): string =>
  (typeof uri === 'string' ? uri : uri.path).split('/').pop() ?? '';
