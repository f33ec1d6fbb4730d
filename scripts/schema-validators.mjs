// The adapter schema's validators as code, generated when the bundles are built (esbuild.js) instead of
// compiled by Ajv when the first adapter is validated: Ajv's compile was the largest part of a fresh
// server's first check (docs/performance.md, "First diagnostics"). The same Ajv options as
// server/src/service/model/schemas.ts, so the validators and their errors are the same
// (test/service/precompiledSchemas.test.ts compares them).
import Ajv from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';

const standaloneCode = standalone.default;

/** Keys of the two entry validators (one error_codes entry, one error_mapping value) in the generated module. */
const CODE_ENTRY = 'mcp-aql:code-entry';
const MAPPING_ENTRY = 'mcp-aql:mapping-entry';

/**
 * CommonJS source exporting `validateSchema` (the whole adapter schema) and, when the schema has the
 * expected shape, `code` and `mapping` (schemas.ts `entryValidators`). It requires Ajv's small runtime
 * helpers (`ajv/dist/runtime/...`), which the bundle includes.
 */
export function adapterValidatorsCode(schema) {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false, code: { source: true } });
  ajv.addSchema(schema);
  const id = schema.$id;
  const refs = { validateSchema: id };
  const props = schema.properties;
  if (id && props?.error_codes?.additionalProperties && props.error_mapping?.additionalProperties) {
    ajv.addSchema({ $ref: `${id}#/properties/error_codes/additionalProperties` }, CODE_ENTRY);
    ajv.addSchema({ $ref: `${id}#/properties/error_mapping/additionalProperties` }, MAPPING_ENTRY);
    refs.code = CODE_ENTRY;
    refs.mapping = MAPPING_ENTRY;
  }
  return standaloneCode(ajv, refs);
}
