// The server entry: creates the connection and hands it to startServer — or, in the workspace scan's thread
// (node/indexThread.ts, the same script started again), serves the scan's files. Nothing else.
import { join } from 'node:path';
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import registry from '../../schemas/error-registry.json';
import schema from '../../schemas/adapter.schema.json';
import { code, mapping, validateSchema } from 'mcp-aql:adapter-validators';
import { envelopeSchemas } from './envelopeSchemas';
import { lifecycleOptions, startServer } from './lsp/startServer';
import { createAdapterService, type Registry, type ServiceDeps } from './service';
import { INDEX_THREAD_MARK, IndexThread, serveIndexing } from './node/indexThread';

const deps: ServiceDeps = {
  registry: registry as unknown as Registry,
  schema,
  envelopeSchemas,
  validators: { validateSchema, validateEntry: code && mapping ? { code, mapping } : undefined },
};
const thread = workerData as { mark?: string; port?: MessagePort } | undefined;
if (!isMainThread && thread?.mark === INDEX_THREAD_MARK && thread.port) serveIndexing(createAdapterService(deps), thread.port);
else
  startServer(createConnection(ProposedFeatures.all, lifecycleOptions()), deps, {
    // dist/server.js, the loader beside this bundle (it gives the thread the code cache too).
    indexThread: () => new IndexThread(join(__dirname, 'server.js')),
  });
