// The server entry: creates the connection and hands it to startServer. Nothing else.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import registry from '../../schemas/error-registry.json';
import schema from '../../schemas/adapter.schema.json';
import { code, mapping, validateSchema } from 'mcp-aql:adapter-validators';
import { envelopeSchemas } from './envelopeSchemas';
import { lifecycleOptions, startServer } from './lsp/startServer';
import type { Registry } from './service';

startServer(createConnection(ProposedFeatures.all, lifecycleOptions()), {
  registry: registry as unknown as Registry,
  schema,
  envelopeSchemas,
  validators: { validateSchema, validateEntry: code && mapping ? { code, mapping } : undefined },
});
