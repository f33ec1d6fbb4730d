/** The data the service needs, inlined into dist/cli.js by esbuild. */
import registry from '../../../schemas/error-registry.json';
import schema from '../../../schemas/adapter.schema.json';
import pkg from '../../../package.json';
import type { Registry, ServiceDeps } from '../service';
import { envelopeSchemas } from '../envelopeSchemas';

export const deps: ServiceDeps = { registry: registry as unknown as Registry, schema, envelopeSchemas };
export const VERSION: string = pkg.version;
