/**
 * `mcp-aql-errors types`: the generated TypeScript compiles against correct envelopes and rejects
 * incorrect ones with the expected error; the generated JSON Schema (ajv) does the same.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import ts from 'typescript';
import { run, tempTree } from './helpers';

/** Type-check `sample` (importing './generated') in a temporary folder; the diagnostics as "TS<code>: message". */
function compile(generated: string, sample: string): string[] {
  const dir = tempTree({ 'generated.ts': generated, 'sample.ts': sample });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    lib: ['lib.es2022.d.ts'],
  };
  const program = ts.createProgram([join(dir, 'sample.ts')], options);
  return ts.getPreEmitDiagnostics(program).map(d => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${line}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

let generated: string | undefined;
async function shopTypes(): Promise<string> {
  if (generated) return generated;
  const dir = tempTree({ 'shop.adapter.yaml': readFileSync(join(__dirname, '..', '..', 'examples', 'shop.adapter.yaml'), 'utf8') });
  const r = await run(['types', 'shop.adapter.yaml', '--include-registry', '-o', 'shop-errors.ts'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, '');
  assert.match(r.err, /wrote shop-errors\.ts/);
  return (generated = readFileSync(join(dir, 'shop-errors.ts'), 'utf8'));
}

const header = "import type { McpAqlError, McpAqlErrorEnvelope, McpAqlSuccessEnvelope } from './generated';\n";

test('types --lang ts: correct envelopes compile, narrowing on the code types the details', async () => {
  const gen = await shopTypes();
  const sample =
    header +
    `
const a: McpAqlErrorEnvelope = { success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o' not found", details: { order_id: 'o' } } };
const b: McpAqlErrorEnvelope = { success: false, error: { code: 'PERMISSION_DENIED', message: 'Permission denied' } };
const c: McpAqlErrorEnvelope = { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'API rate limit exceeded', details: { limit: 1, remaining: 0, window: 'hour', resets_at: 'x', retry_after_seconds: 5 } } };
const w: McpAqlSuccessEnvelope<string[]> = { success: true, data: [], warnings: [{ code: 'RATE_LIMIT_QUOTA_WARNING', message: 'Approaching quota limit', details: { metric: 'm', current: 1, warn_threshold: 2 }, severity: 'low' }] };
export function available(e: McpAqlError): number | undefined {
  if (e.code === 'CONFLICT_OUT_OF_STOCK') { const sku: string = e.details.sku; return e.details.available + sku.length; }
  return undefined;
}
export const all = [a, b, c, w];
`;
  assert.deepEqual(compile(gen, sample), []);
});

test('types --lang ts: incorrect envelopes fail to compile with the expected error', async () => {
  const gen = await shopTypes();
  const cases: [string, RegExp][] = [
    [`{ code: 'NOT_FOUND_ORDER', message: 'm', details: { order_id: 1 } }`, /TS2322: .*Type 'number' is not assignable to type 'string'/],
    [
      `{ code: 'NOT_FOUND_ORDER', message: 'm', details: {} }`,
      /TS2322: .*Property 'order_id' is missing in type '\{\}' but required in type 'NotFoundOrderDetails'/,
    ],
    [
      `{ code: 'NOT_FOUND_ORDER', message: 'm', details: { order_id: 'o', colour: 'red' } }`,
      /TS2322: .*Object literal may only specify known properties, and 'colour' does not exist in type 'NotFoundOrderDetails'/,
    ],
    [
      `{ code: 'NOT_FOUND_ORDR', message: 'm', details: { order_id: 'o' } }`,
      /TS2820: Type '"NOT_FOUND_ORDR"' is not assignable to type .* Did you mean '"NOT_FOUND_ORDER"'\?/,
    ],
    [
      `{ code: 'NOT_FOUND_ORDER', message: 'm' }`,
      /TS2322: .*Property 'details' is missing in type .* but required in type 'NotFoundOrderError'/,
    ],
    [
      `{ code: 'RATE_LIMIT_EXCEEDED', message: 'm', details: { limit: 1, remaining: 0, window: 'week', resets_at: 'x', retry_after_seconds: 5 } }`,
      /TS2322: .*Type '"week"' is not assignable to type '"day" \| "hour" \| "minute" \| "second"'/,
    ],
    [
      `{ code: 'RATE_LIMIT_QUOTA_WARNING', message: 'm', details: { metric: 'm', current: 1, warn_threshold: 2 } }`,
      /TS2322: Type '"RATE_LIMIT_QUOTA_WARNING"' is not assignable to type/,
    ],
  ];
  // One program, one case a line (line 1 is the import): each line must fail with its own error.
  const errors = compile(
    gen,
    header + cases.map(([error], i) => `export const e${i}: McpAqlErrorEnvelope = { success: false, error: ${error} };\n`).join(''),
  );
  cases.forEach(([error, expected], i) => {
    const mine = errors.filter(e => e.startsWith(`${i + 2}: `));
    assert.ok(
      mine.some(e => expected.test(e)),
      `${error}\n→ ${mine.join('\n') || 'compiled'}`,
    );
  });
  assert.equal(errors.filter(e => !/^[2-8]: /.test(e)).length, 0, errors.join('\n'));
});

test('types --lang json-schema: ajv accepts correct envelopes and rejects incorrect ones', async () => {
  const r = await run(['types', 'examples/github-adapter.md', '--lang', 'json-schema']);
  assert.equal(r.code, 0, r.err);
  const schema = JSON.parse(r.out);
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.deepEqual(Object.keys(schema.definitions), [
    'RATE_LIMIT_ABUSE_DETECTED',
    'NOT_FOUND_REPOSITORY',
    'CONFLICT_REPOSITORY_EXISTS',
    'PERMISSION_DENIED',
    'INTERNAL_ERROR',
    'RATE_LIMIT_EXCEEDED',
  ]);
  const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);
  const ok = (error: object) => validate({ success: false, error });
  assert.ok(
    ok({ code: 'NOT_FOUND_REPOSITORY', message: "Repository 'o/r' not found", details: { owner: 'o', repo: 'r' } }),
    JSON.stringify(validate.errors),
  );
  assert.ok(ok({ code: 'RATE_LIMIT_ABUSE_DETECTED', message: 'm', details: { reason: 'r' } }), 'retry_after_seconds is optional');
  assert.ok(ok({ code: 'INTERNAL_ERROR', message: 'm' }), 'no required details: details optional');
  const bad: [object, string][] = [
    [{ code: 'NOT_FOUND_REPOSITORY', message: 'm', details: { owner: 'o' } }, "must have required property 'repo'"],
    [{ code: 'RATE_LIMIT_ABUSE_DETECTED', message: 'm', details: { reason: 'r', retry_after_seconds: 1.5 } }, 'must be integer'],
    [
      { code: 'NOT_FOUND_REPOSITORY', message: 'm', details: { owner: 'o', repo: 'r', branch: 'b' } },
      'must NOT have additional properties',
    ],
    [{ code: 'NOT_FOUND_REPOSITRY', message: 'm' }, 'must be equal to constant'],
    [{ code: 'INTERNAL_ERROR', message: '' }, 'must NOT have fewer than 1 characters'],
  ];
  for (const [error, message] of bad) {
    assert.equal(ok(error), false, JSON.stringify(error));
    assert.ok(
      validate.errors!.some(e => e.message === message),
      `${JSON.stringify(error)}: ${JSON.stringify(validate.errors!.map(e => e.message))}`,
    );
  }
  assert.equal(validate({ success: true, data: {} }), false, 'no warning codes without --include-registry: only failures');
});

test('types --lang json-schema --include-registry: warning codes ride in a success envelope', async () => {
  const r = await run(['types', 'examples/weather.adapter.json', '--lang', 'json-schema', '--include-registry']);
  const validate = new Ajv({ strict: true, allErrors: true }).compile(JSON.parse(r.out));
  const warning = {
    code: 'VALIDATION_TRUNCATED_WARNING',
    message: 'Response truncated to 10 items',
    details: { field: 'items', original_count: 50, truncated_count: 10, limit: 10 },
    severity: 'low',
  };
  assert.ok(validate({ success: true, data: [], warnings: [warning] }), JSON.stringify(validate.errors));
  const { severity: _severity, ...asError } = warning;
  assert.equal(validate({ success: false, error: asError }), false, 'a warning code is never an error');
  assert.equal(
    validate({ success: true, data: [], warnings: [{ code: 'NOT_FOUND_CITY', message: 'm', details: { city: 'c' } }] }),
    false,
    'an error code is never a warning',
  );
  assert.ok(
    validate({ success: false, error: { code: 'CONFLICT_ALREADY_EXISTS', message: 'm', details: { anything: 1 } } }),
    'the registry declares no details for it: any key',
  );
});

test('types: usage errors and non-adapters', async () => {
  assert.equal((await run(['types'])).code, 2);
  assert.match((await run(['types', 'examples/shop.adapter.yaml', '--lang', 'py'])).err, /--lang takes 'ts' or 'json-schema'/);
  assert.match((await run(['types', 'README.md'])).err, /'README.md' is not an adapter file/);
  const r = await run(['types', 'examples/weather.adapter.json']);
  assert.equal(r.code, 0);
  assert.match(r.out, /export interface NotFoundCityDetails \{\n  city: string;\n\}/);
  assert.match(r.out, /export type McpAqlError =\n {2}\| NotFoundCityError\n {2}\| InternalErrorError\n {2}\| RateLimitExceededError;/);
});

test('types: code names that collide once camel-cased, and keys that are not identifiers, still compile', async () => {
  const dir = tempTree({
    'x.adapter.yaml': [
      'error_codes:',
      '  NOT_FOUND__AB:',
      '    category: NOT_FOUND',
      '    details: { "order-id": string, kind: { type: string, enum: [a, b] } }',
      '  NOT_FOUND_AB:',
      '    category: NOT_FOUND',
      '    details: { n: { type: integer, required: false } }',
      '',
    ].join('\n'),
  });
  const r = await run(['types', 'x.adapter.yaml'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /export interface NotFoundAb2Error \{\n {2}code: "NOT_FOUND_AB";/);
  assert.match(r.out, / {2}"order-id": string;\n {2}kind: "a" \| "b";/);
  const errors = compile(
    r.out,
    "import type { McpAqlErrorEnvelope } from './generated';\n" +
      [
        `export const a: McpAqlErrorEnvelope = { success: false, error: { code: 'NOT_FOUND__AB', message: 'm', details: { 'order-id': 'o', kind: 'a' } } };`,
        `export const b: McpAqlErrorEnvelope = { success: false, error: { code: 'NOT_FOUND_AB', message: 'm' } };`,
        `export const c: McpAqlErrorEnvelope = { success: false, error: { code: 'NOT_FOUND_AB', message: 'm', details: { n: '1' } } };`,
      ].join('\n') +
      '\n',
  );
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /^4: TS2322: .*Type 'string' is not assignable to type 'number'/);
});

test('types on an adapter with errors: the errors on stderr as check prints them, exit 1, nothing written', async () => {
  const dir = tempTree({
    'x.adapter.yaml': [
      'error_codes:',
      '  NOT_FOUND_X:',
      '    category: NOT_FOUNDD',
      'error_mapping:',
      '  404: { code: NOT_FOUND_X }',
      '',
    ].join('\n'),
    'ok.adapter.yaml': ['error_codes:', '  NOT_FOUND_Y:', '    category: NOT_FOUND', ''].join('\n'),
  });
  const check = await run(['check', 'x.adapter.yaml', '--no-color'], dir);
  assert.equal(check.code, 1);
  for (const argv of [['x.adapter.yaml'], ['ok.adapter.yaml', 'x.adapter.yaml', '-o', 'gen/errors.ts']]) {
    const r = await run(['types', ...argv], dir);
    assert.equal(r.code, 1, argv.join(' '));
    assert.equal(r.out, '');
    assert.equal(r.err, check.out + 'mcp-aql-errors types: the adapters have errors: no types written\n', argv.join(' '));
  }
  assert.ok(!existsSync(join(dir, 'gen')));
  const ok = await run(['types', 'ok.adapter.yaml'], dir);
  assert.equal(ok.code, 0, ok.err);
});
