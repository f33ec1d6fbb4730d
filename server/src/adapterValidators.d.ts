/**
 * The adapter schema's validators compiled when the bundle is built: esbuild.js makes this module from
 * schemas/adapter.schema.json with scripts/schema-validators.mjs. Only the bundles' entries import it
 * (main.ts, browserMain.ts); code run from source compiles the schema with Ajv instead.
 */
declare module 'mcp-aql:adapter-validators' {
  import type { ValidateFunction } from 'ajv';
  export const validateSchema: ValidateFunction;
  /** One error_codes entry and one error_mapping value; absent when the schema has another shape. */
  export const code: ValidateFunction | undefined;
  export const mapping: ValidateFunction | undefined;
}
