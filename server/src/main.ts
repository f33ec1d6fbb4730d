// The server entry: creates the connection and hands it to startServer. Nothing else.
//
// V8 heap settings, measured with bench/lspBench.ts (realistic client, 10,000 codes, 3 fresh servers each,
// medians; 2026-11-23) and none kept: `--heap-growing-percent=20` (settable here) peak RSS 284 → 237 MB, but
// CPU of the open +14 % and of a keystroke 132 → 296 ms (more full collections); 35 %: 253 MB, same costs.
// `--max-semi-space-size=4`: no change in the server (it must be given on the command line; set here it
// does nothing, the young generation is sized when the heap is made). `--optimize-for-size`: 204 MB, but
// keystrokes 2–4 × the CPU.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import registry from '../../schemas/error-registry.json';
import schema from '../../schemas/adapter.schema.json';
import { envelopeSchemas } from './envelopeSchemas';
import { startServer } from './lsp/startServer';
import type { Registry } from './service';

startServer(createConnection(ProposedFeatures.all), { registry: registry as unknown as Registry, schema, envelopeSchemas });
