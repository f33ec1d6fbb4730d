/**
 * The duplicate-key and schema checks remember a verdict on a node only for a model parsed in
 * chunks, the only kind whose nodes a later parse hands on. A model parsed once (the CLI) leaves its
 * nodes as the parser made them, and both kinds of model get the same problems.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { isMap, isPair, isSeq, type Node } from 'yaml';
import { checks } from '../../server/src/service/checks';
import { runChecks } from '../../server/src/service/checks/runChecks';
import { indexRegistry } from '../../server/src/service/model/registry';
import { emptyWorkspace } from '../../server/src/service/model/workspace';
import type { AdapterModel } from '../../server/src/service/model/model';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { loadDeps, yamlDoc } from './helpers';

const TEXT = yamlDoc(
  'name: memo',
  'error_codes:',
  '  NOT_FOUND_ONE:',
  '    category: NOT_FOUND',
  '    message_template: "gone"',
  '    details: {a: string, a: number}',
  '  NOT_FOUND_TWO:',
  '    category: NOT_FOUND',
  '    mesage_template: "gone too"',
  'error_mapping:',
  '  404:',
  '    - code: NOT_FOUND_ONE',
  '    - code: NOT_FOUND_TWO',
);

function context(model: AdapterModel) {
  const deps = loadDeps();
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  const id = (deps.schema as { $id: string }).$id;
  const validateSchema = ajv.compile(deps.schema);
  const validateEntry = {
    code: ajv.compile({ $ref: `${id}#/properties/error_codes/additionalProperties` }),
    mapping: ajv.compile({ $ref: `${id}#/properties/error_mapping/additionalProperties` }),
  };
  return { model, registry: indexRegistry(deps.registry), validateSchema, validateEntry, workspace: emptyWorkspace };
}

/** How many nodes of the model's documents carry a property under a symbol (a remembered verdict). */
function remembered(model: AdapterModel): number {
  let n = 0;
  const walk = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (isPair(x)) return (walk(x.key), walk(x.value));
    if (Object.getOwnPropertySymbols(x).some(s => s.description !== undefined && /noDuplicateKeys|schemaVerdict/.test(s.description))) n++;
    if (isMap(x) || isSeq(x)) for (const it of x.items) walk(it);
  };
  for (const s of model.sections) walk(s.doc.contents as Node | null);
  return n;
}

test('a model parsed once: the checks leave no verdict on its nodes, and say what a chunked model says', () => {
  const once = buildModel('file:///w/memo.adapter.yaml', TEXT, [], { once: true })!;
  const chunked = buildModel('file:///w/memo.adapter.yaml', TEXT, [], {})!;
  assert.equal(once.parseState, undefined);
  assert.notEqual(chunked.parseState, undefined);
  const a = runChecks(checks, context(once));
  const b = runChecks(checks, context(chunked));
  assert.deepEqual(a, b);
  assert.deepEqual(
    a.map(p => p.code),
    ['yaml.duplicate-key', 'schema.unknown-key', 'template.unused-detail', 'template.unused-detail', 'mapping.unreachable-entry'],
  );
  assert.equal(remembered(once), 0);
  assert.ok(remembered(chunked) > 0);
});
