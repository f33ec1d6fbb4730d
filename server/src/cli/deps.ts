/** The data the service needs, inlined into dist/cli.js by esbuild. */
import registry from '../../../schemas/error-registry.json';
import schema from '../../../schemas/adapter.schema.json';
import pkg from '../../../package.json';
import type { Registry, ServiceDeps } from '../service';
import { envelopeSchemas } from '../envelopeSchemas';

/** `once`: the CLI reads each text once (no incremental re-parse). */
export const deps: ServiceDeps = { registry: registry as unknown as Registry, schema, envelopeSchemas, once: true };
export const VERSION: string = pkg.version;
