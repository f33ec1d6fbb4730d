/**
 * Runs every JSONTestSuite file (test/fixtures/jsontestsuite) through the service's JSON reader and
 * the three readers built on it, and prints one JSON line per file. Run in a child process by
 * jsonTestSuite.test.ts, so that a hang or a crash is bounded by its timeout.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { jsonSyntaxErrors } from '../../server/src/service/parse/jsonSyntax';
import { scanJson } from '../../server/src/service/parse/scanJson';
import { parseJson } from '../../server/src/service/verify/json';
import { newService } from './helpers';

const dir = join(__dirname, '..', 'fixtures', 'jsontestsuite');
const service = newService();
const contract = service.contract([]);
for (const name of readdirSync(dir).sort()) {
  if (!name.endsWith('.json')) continue;
  const text = readFileSync(join(dir, name), 'utf8');
  const r = parseJson(text);
  let scan: string;
  try {
    scan = scanJson(text, 0, text.length).k;
  } catch (e) {
    scan = (e as { unsupported?: boolean }).unsupported ? 'unsupported' : `threw ${String(e)}`;
  }
  const doc = TextDocument.create(`file:///w/${name.replace(/\.json$/, '.responses.json')}`, 'json', 1, text);
  const verify = service
    .verifyResponses(doc, contract)
    .filter(d => d.code === 'verify.json-syntax')
    .map(d => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]);
  const syntax = jsonSyntaxErrors(text).map(e => [e.start, e.end]);
  const out = {
    name,
    length: text.length,
    object: /^[ \t\n\r]*\{/.test(text),
    ok: r.ok,
    offset: r.ok ? undefined : r.offset,
    verify,
    syntax,
    scan,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}
