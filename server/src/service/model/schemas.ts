/**
 * The JSON schemas the service is given, compiled when a feature first needs them (tens of ms): validation
 * the adapter schema, previews and the simulator the envelope schemas; loading a contract and judging
 * answers (`watch`, `probe`) none (test/service/lazySchemas.test.ts). One Ajv instance holds them all,
 * made on the first compile. The editor's server is given the adapter schema's validators compiled when
 * it was built (ServiceDeps.validators, scripts/schema-validators.mjs): its first check compiles nothing.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { EnvelopeValidators } from './context';

/** What the checks validate with: the whole adapter schema, and one error_codes entry / error_mapping value. */
export interface AdapterValidators {
  readonly validateSchema: ValidateFunction;
  readonly validateEntry?: { readonly code: ValidateFunction; readonly mapping: ValidateFunction };
}

export interface CompiledSchemas {
  /** The adapter schema's validators, compiled on the first call. */
  adapter(): AdapterValidators;
  /** The envelope schemas' validators by dialect id, all compiled on the first `get`. */
  readonly envelopes: EnvelopeValidators;
  /** `definitions.detailType.enum` of the adapter schema (completion of details types). */
  readonly detailTypes: string[] | undefined;
}

export function compileSchemas(
  schema: object,
  envelopeSchemas: Readonly<Record<string, object>> | undefined,
  precompiled?: AdapterValidators,
): CompiledSchemas {
  // The schemas are ours and checked against their meta-schema by test/service/lazySchemas.test.ts, not on every
  // start: compiling the meta-schema to check them was two thirds of the adapter schema's compile (~50 ms of a
  // one-file `check`). scripts/schema-validators.mjs compiles with these options too.
  let instance: Ajv | undefined;
  const ajv = () => (instance ??= new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false }));
  let adapter: AdapterValidators | undefined = precompiled;
  let envelopes: ReadonlyMap<string, ValidateFunction> | undefined;
  return {
    adapter: () => (adapter ??= { validateSchema: ajv().compile(schema), validateEntry: entryValidators(ajv(), schema) }),
    envelopes: {
      get: id => (envelopes ??= new Map(Object.entries(envelopeSchemas ?? {}).map(([k, s]) => [k, ajv().compile(s)] as const))).get(id),
    },
    detailTypes: detailTypesOf(schema),
  };
}

/** Validators of one error_codes entry and one error_mapping value, when the schema has the expected shape. */
function entryValidators(ajv: Ajv, schema: object): { code: ValidateFunction; mapping: ValidateFunction } | undefined {
  const id = (schema as { $id?: string }).$id;
  const props = (schema as { properties?: Record<string, { additionalProperties?: unknown }> }).properties;
  if (!id || !props?.error_codes?.additionalProperties || !props.error_mapping?.additionalProperties) return undefined;
  try {
    return {
      code: ajv.compile({ $ref: `${id}#/properties/error_codes/additionalProperties` }),
      mapping: ajv.compile({ $ref: `${id}#/properties/error_mapping/additionalProperties` }),
    };
  } catch {
    return undefined;
  }
}

/** `definitions.detailType.enum` of the adapter schema (completion of details types). */
function detailTypesOf(schema: object): string[] | undefined {
  const e = (schema as { definitions?: { detailType?: { enum?: unknown[] } } }).definitions?.detailType?.enum;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : undefined;
}
