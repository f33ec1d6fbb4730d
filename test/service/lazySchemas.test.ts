/**
 * The service compiles its JSON schemas when a feature first needs them, not when it is created
 * (`watch` and `probe` judge answers without any of them, and `check` needs the adapter
 * schema only; compiling all of them took 70 ms of `watch`'s start-up). Counted by watching which
 * schemas Ajv lists the keys of: it does so to compile a schema, not to run the compiled validator.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService } from '../../server/src/service';
import { loadDeps, yamlDoc } from './helpers';

/** A copy of the deps whose schemas record, by name, that their keys were listed. */
function watchedDeps(read: Set<string>) {
  const deps = loadDeps();
  const watched = (name: string, schema: object): object =>
    new Proxy(schema, {
      ownKeys(t) {
        read.add(name);
        return Reflect.ownKeys(t);
      },
    });
  return {
    ...deps,
    schema: watched('adapter', deps.schema),
    envelopeSchemas: Object.fromEntries(Object.entries(deps.envelopeSchemas!).map(([id, s]) => [id, watched(id, s)])),
  };
}

const ADAPTER = yamlDoc(
  'name: shop',
  'type: adapter',
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  '    message_template: "Order \'{order_id}\' not found"',
  '    details:',
  '      order_id: { type: string, required: true }',
  '  VALIDATION_X:',
  '    category: VALIDATION',
  '    mesage_template: "x"',
);

test('no schema is compiled to load a contract and judge an answer (watch, probe)', () => {
  const read = new Set<string>();
  const service = createAdapterService(watchedDeps(read));
  const doc = TextDocument.create('file:///w/shop.adapter.yaml', 'yaml', 1, ADAPTER);
  assert.ok(service.isAdapter(doc));
  const contract = service.contract([doc]);
  service.operations([doc]);
  const response = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Error: no' }], isError: false } });
  const findings = service.judgeAnswer({ tool: 'get_order', response, claimsMcpAql: true }, contract);
  assert.deepEqual(
    findings.map(f => f.code),
    ['runtime.unflagged-failure'],
  );
  assert.deepEqual([...read], []);
});

test('validation compiles the adapter schema only; a preview compiles the envelope schemas; each once', () => {
  const read = new Set<string>();
  const service = createAdapterService(watchedDeps(read));
  const doc = TextDocument.create('file:///w/shop.adapter.yaml', 'yaml', 1, ADAPTER);
  assert.ok(service.validate(doc).some(d => d.code === 'schema.unknown-key'));
  assert.deepEqual([...read], ['adapter']);
  const preview = service.preview(doc, { position: { line: 3, character: 4 } });
  assert.ok(preview, 'a preview of NOT_FOUND_ORDER');
  assert.deepEqual([...read].sort(), ['adapter', 'atlas-gate', 'json-rpc', 'mcp-aql', 'mcp-tool-result']);
  read.clear();
  service.validate(TextDocument.create('file:///w/shop.adapter.yaml', 'yaml', 2, ADAPTER + '\n'));
  service.preview(doc, { position: { line: 3, character: 4 } });
  assert.deepEqual([...read], [], 'compiled once per service');
});

test('the adapter and envelope schemas are valid against their meta-schema (the service does not check them when it starts)', () => {
  const deps = loadDeps();
  const ajv = new Ajv({ strict: false });
  for (const [name, schema] of [['adapter', deps.schema] as const, ...Object.entries(deps.envelopeSchemas!)]) {
    assert.equal(ajv.validateSchema(schema), true, `${name}: ${ajv.errorsText(ajv.errors)}`);
  }
});
