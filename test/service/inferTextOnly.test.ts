/**
 * Text-only failures judged by a contract inferred from them (docs/spec-decisions.md, "Text-only
 * failures in a contract"): at run time (watch, probe --contract) a text that is one of the adapter's
 * own templates is that code — information, not a warning, and held to the probe call's category; a
 * text that is none of them stays a warning that says so; the most specific template wins.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Exchange } from '../../server/src/service';
import { newService, yamlDoc } from './helpers';

const ADAPTER = yamlDoc(
  'name: files',
  'error_codes:',
  '  NOT_FOUND_FILE:',
  '    category: NOT_FOUND',
  '    retry: retry-after-change',
  '    # mcp-aql-disable-next-line template.unquoted-placeholder -- the server words it so',
  '    message_template: "ENOENT: no such file or directory, {op} \'{path}\'"',
  '    details:',
  '      op: { type: string, required: false }',
  '      path: { type: string, required: false }',
  '  VALIDATION_ANY:',
  '    category: VALIDATION',
  '    retry: retry-after-change',
  '    # mcp-aql-disable-next-line template.unquoted-placeholder -- the server words it so',
  '    message_template: "ENOENT: {rest}"',
  '    details:',
  '      rest: { type: string, required: false }',
);
const service = newService();
const contract = service.contract([TextDocument.create('file:///w/files.adapter.yaml', 'yaml', 1, ADAPTER)]);
const registryOnly = service.contract([]);
const answer = (s: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: s }], isError: true } });

function judge(response: string, ex: Partial<Exchange> = {}, withContract = true): string[] {
  const full: Exchange = { tool: 'read_file', claimsMcpAql: withContract, response, ...ex };
  return service.judgeAnswer(full, withContract ? contract : registryOnly).map(f => `${f.code}:${f.level ?? 'default'}:${f.message}`);
}

const missing = "ENOENT: no such file or directory, open '/r/a.txt'";

test("a text that is one of the contract's templates: information naming the code; the most specific template wins", () => {
  assert.deepEqual(judge(answer(missing)), [
    `runtime.text-only-error:information:'read_file' reported a failure as text only (${JSON.stringify(missing)}): the contract's NOT_FOUND_FILE (its template), but no code a client can branch on.`,
  ]);
});

test("a text that is none of the contract's templates: a warning that says so; without a contract, information as before", () => {
  const other = 'Access denied - path outside allowed directories: /etc';
  assert.deepEqual(judge(answer(other)), [
    `runtime.text-only-error:warning:'read_file' reported a failure as text only (${JSON.stringify(other)}): no MCP-AQL envelope, no code a client can branch on, and the text is none of the contract's templates.`,
  ]);
  assert.deepEqual(
    judge(answer(missing), {}, false).map(s => s.split(':').slice(0, 2).join(':')),
    ['runtime.text-only-error:information'],
  );
});

test("probe: the code a text is held to the call's category", () => {
  const wrongType = { kind: 'wrong-type', label: "parameter 'path' of the wrong type (not string)", param: 'path' } as const;
  const r = answer(missing);
  const found = service.judgeAnswer({ tool: 'read_file', claimsMcpAql: true, response: r, probe: wrongType }, contract);
  assert.deepEqual(
    found.map(f => [f.code, f.level, r.slice(f.start, f.end)]),
    [
      ['runtime.text-only-error', 'information', JSON.stringify(missing)],
      ['runtime.wrong-category', 'error', JSON.stringify(missing)],
    ],
  );
  assert.match(
    found[1]!.message,
    /^NOT_FOUND_FILE is NOT_FOUND, but a call with parameter 'path' of the wrong type \(not string\) is VALIDATION/,
  );
  // A not-found call answered so: the category fits, no finding beyond the information.
  const notFound = { kind: 'not-found', label: "a path that does not exist in 'path'", param: 'path' } as const;
  assert.deepEqual(
    service.judgeAnswer({ tool: 'read_file', claimsMcpAql: true, response: r, probe: notFound }, contract).map(f => f.code),
    ['runtime.text-only-error'],
  );
});

test('verify: a text-only failure whose text is a template of the contract is not an unknown shape', () => {
  const doc = TextDocument.create('file:///w/r.jsonl', 'json', 1, answer(missing) + '\n' + answer('Something else') + '\n');
  assert.deepEqual(
    service.verifyResponses(doc, contract).map(d => `${d.range.start.line} ${String(d.code)}`),
    ['1 verify.unknown-shape'],
  );
});
