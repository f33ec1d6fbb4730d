// The server entry of the web extension (vscode.dev): the same startServer in a Web Worker, speaking
// LSP over postMessage. The browser build (esbuild.js) gives the LSP layer no file system
// (server/src/browser/noFileSystem.ts): its workspace index holds the open documents only.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import registry from '../../schemas/error-registry.json';
import schema from '../../schemas/adapter.schema.json';
import { code, mapping, validateSchema } from 'mcp-aql:adapter-validators';
import { envelopeSchemas } from './envelopeSchemas';
import { startServer } from './lsp/startServer';
import type { Registry } from './service';

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

// The LSP layer yields between slices of long work with setImmediate, which a Web Worker lacks.
const g = globalThis as { setImmediate?: (f: (...a: unknown[]) => void, ...a: unknown[]) => unknown };
g.setImmediate ??= (f, ...a) => setTimeout(f, 0, ...a);

startServer(createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self)), {
  registry: registry as unknown as Registry,
  schema,
  envelopeSchemas,
  validators: { validateSchema, validateEntry: code && mapping ? { code, mapping } : undefined },
});
