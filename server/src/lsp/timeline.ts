/**
 * MCP_AQL_TIMELINE=1 in the server's environment (the editor's client passes its own on): the server logs each
 * hop of an opened document's way to its first diagnostics (initialize, initialized, didOpen, the pull asked,
 * the settings it waited for, the answer) with the wall clock in ms, comparable with the client's lines
 * (client/src/timeline.ts) and the editor page's clock; test/e2e/firstDiagnostics.test.ts reads them
 * (bench/NOTES.md, "eighth sitting"). Off: nothing is logged.
 */

// The browser build of the server has no `process`.
const on = typeof process !== 'undefined' && !!process.env?.MCP_AQL_TIMELINE;

/** Log `what` with the time now, when the timeline is on. */
export function timeline(log: (msg: string) => void, what: string): void {
  if (on) log(`timeline ${what} @${Date.now()}`);
}

/** The last segment of a URI, for a timeline line. */
export const baseName = (uri: string): string => uri.split('/').pop() ?? '';
