/**
 * What a bench's LSP client answers for the server, as the editor's client would: the settings it asks for
 * (`mcpAql` or the whole configuration), capability registrations and progress tokens accepted, log lines
 * dropped. One place for the benches that drive the built server over a connection of their own.
 */
import type { ProtocolConnection } from 'vscode-languageserver-protocol/node';

export function answerAsEditor(conn: ProtocolConnection, settings: Record<string, unknown>): void {
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map(i => (i.section === 'mcpAql' ? settings : i.section === undefined ? { mcpAql: settings } : null)),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('window/logMessage', () => undefined);
}
