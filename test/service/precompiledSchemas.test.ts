/**
 * The adapter schema's validators generated when the server is built (scripts/schema-validators.mjs,
 * ServiceDeps.validators) find what Ajv's compile at run time finds: the same errors from the validators,
 * the same diagnostics from a service given them, and no compile (the schema's keys are never listed).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type AdapterValidators } from '../../server/src/service';
import { loadDeps, ROOT, yamlDoc } from './helpers';

/** The generated module, loaded as the bundle loads it (a CommonJS module). */
async function generated(schema: object): Promise<AdapterValidators> {
  const { adapterValidatorsCode } = (await import(join(ROOT, 'scripts/schema-validators.mjs'))) as {
    adapterValidatorsCode(schema: object): string;
  };
  const module = { exports: {} as Record<string, AdapterValidators['validateSchema'] | undefined> };
  const wrapped = runInThisContext(`(function (exports, require, module) { ${adapterValidatorsCode(schema)}\n})`) as (
    ...a: unknown[]
  ) => void;
  wrapped(module.exports, require, module);
  const { validateSchema, code, mapping } = module.exports;
  assert.ok(validateSchema && code && mapping, 'the three validators');
  return { validateSchema, validateEntry: { code, mapping } };
}

/** Values that break the schema in every way the checks report (types, enums, required, unknown keys), and valid ones. */
const VALUES: unknown[] = [
  {},
  { error_codes: { VALIDATION_X: { category: 'VALIDATION', message_template: 'x', details: { id: 'string' } } } },
  { error_codes: { VALIDATION_X: { mesage_template: 'x', condition: { a: 1 }, details: { field: 'strng', n: { type: 7 } } } } },
  { error_codes: { A: null, B: [], C: { category: 5, retryable: 'yes', maps_from_http: ['x', 700] } } },
  { error_mapping: { 403: [{ code: 'PERMISSION_DENIED', conditon: 'x' }], 404: { message_template: 'gone' }, 500: 'INTERNAL' } },
  { error_mapping: [], error_codes: 'none' },
];

test('the generated validators report what Ajv compiled at run time reports, error for error', async () => {
  const schema = loadDeps().schema;
  const pre = await generated(schema);
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  const runtime = ajv.compile(schema);
  const id = (schema as { $id: string }).$id;
  const code = ajv.compile({ $ref: `${id}#/properties/error_codes/additionalProperties` });
  const mapping = ajv.compile({ $ref: `${id}#/properties/error_mapping/additionalProperties` });
  let failures = 0;
  for (const v of VALUES) {
    assert.equal(pre.validateSchema(v), runtime(v), JSON.stringify(v));
    assert.deepEqual(pre.validateSchema.errors ?? null, runtime.errors ?? null, JSON.stringify(v));
    failures += runtime.errors?.length ?? 0;
    const o = v as { error_codes?: unknown; error_mapping?: unknown };
    for (const [validate, block, against] of [
      [pre.validateEntry!.code, o.error_codes, code],
      [pre.validateEntry!.mapping, o.error_mapping, mapping],
    ] as const)
      for (const entry of block && typeof block === 'object' ? Object.values(block) : []) {
        assert.equal(validate(entry), against(entry), JSON.stringify(entry));
        assert.deepEqual(validate.errors ?? null, against.errors ?? null, JSON.stringify(entry));
      }
  }
  assert.ok(failures > 10, `the values break the schema (${failures} errors)`);
});

test('a service given the generated validators publishes the same diagnostics and compiles no schema', async () => {
  const deps = loadDeps();
  let listed = 0;
  const schema = new Proxy(deps.schema, {
    ownKeys(t) {
      listed++;
      return Reflect.ownKeys(t);
    },
  });
  const withPre = createAdapterService({ ...deps, schema, validators: await generated(deps.schema) });
  const plain = createAdapterService(deps);
  const doc = TextDocument.create(
    'file:///w/shop.adapter.yaml',
    'yaml',
    1,
    yamlDoc(
      'name: shop',
      'type: adapter',
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    mesage_template: "x"',
      '    condition: { a: 1 }',
      '    details:',
      '      field: strng',
      '  BASE: &base',
      '    category: NOT_FOUND',
      '    retryable: maybe',
      '  OTHER: *base',
      'error_mapping:',
      '  403:',
      '    - code: PERMISSION_DENIED',
      '      conditon: "response.status == 403"',
      '  404:',
      '    message_template: "gone"',
    ),
  );
  listed = 0;
  const got = withPre.validate(doc);
  assert.equal(listed, 0, 'no compile of the adapter schema');
  assert.deepEqual(got, plain.validate(doc));
  assert.ok(got.filter(d => String(d.code).startsWith('schema.')).length >= 5, JSON.stringify(got.map(d => d.code)));
});
