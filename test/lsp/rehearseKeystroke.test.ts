/**
 * The keystroke rehearsed after an open (lsp/rehearseKeystroke.ts): the edit and its undo go through the service's
 * incremental parse and checks on a copy of the document; afterwards, and after the keystrokes that follow, the
 * service says exactly what a fresh service says of the same text (diagnostics, document symbols, hover and
 * completion), LF and CRLF; nothing is rehearsed where no entry key line is found.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PieceDocument } from '../../server/src/lsp/pieceDocument';
import { rehearsalSite, rehearseKeystroke } from '../../server/src/lsp/rehearseKeystroke';
import { PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { parseChunked } from '../../server/src/service/parse/chunkedParse';
import { docOf, generatedAdapter, newService } from '../service/helpers';

/** Parsed in chunks whatever the size, as a large file is: the incremental parse and checks run. */
const CHUNKED = { chunkThreshold: 0 };

const generate = (n: number, eol: string): string =>
  generatedAdapter(n, {
    eol,
    flawed: true,
    head: ['# the codes', 'error_codes:', '  # first', ''],
    tail: ['error_mapping:', '  400:', '    code: VALIDATION_E1', '  409:', '    code: NOT_A_CODE'],
  });

function sameAsFresh(service: ReturnType<typeof newService>, doc: TextDocument, what: string): void {
  const fresh = newService();
  const text = doc.getText();
  const freshDoc = docOf(text, doc.uri, doc.version);
  assert.deepEqual(service.validate(doc, CHUNKED), fresh.validate(freshDoc, CHUNKED), what);
  assert.deepEqual(service.documentSymbols(doc, CHUNKED), fresh.documentSymbols(freshDoc, CHUNKED), what);
  for (const word of ['VALIDATION_E3', 'NOT_A_CODE', 'category'])
    for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
      const pos = doc.positionAt(i + 2);
      assert.deepEqual(service.hover(doc, pos, CHUNKED), fresh.hover(freshDoc, pos, CHUNKED), `${what}: ${word} at ${i}`);
      assert.deepEqual(service.complete(doc, pos, CHUNKED), fresh.complete(freshDoc, pos, CHUNKED), `${what}: completion ${word} at ${i}`);
    }
}

for (const eol of ['\n', '\r\n'])
  test(`a rehearsed keystroke leaves what a fresh service says, then and after typing (${eol === '\n' ? 'LF' : 'CRLF'})`, async () => {
    const uri = 'file:///w/rehearsed.adapter.yaml';
    const service = newService();
    const doc = new PieceDocument(uri, 'yaml', 1, generate(8, eol), 64);
    const before = service.validate(doc, CHUNKED);
    const site = rehearsalSite(doc)!;
    assert.equal(doc.getText().slice(site - 15, site + eol.length), `  VALIDATION_E0:${eol}`.slice(-15 - eol.length));
    // The site takes the keystroke path (parse/patchEntry.ts), the one the first keystroke takes.
    const text = doc.getText();
    const state = parseChunked(text, 0, PARSE_OPTIONS, undefined)!.state;
    const typed = text.slice(0, site) + ' ' + text.slice(site);
    assert.equal(parseChunked(typed, 0, PARSE_OPTIONS, state, { start: site, oldEnd: site, newEnd: site + 1 })?.path, 'entry');
    const validated: number[] = [];
    const ok = await rehearseKeystroke(
      doc,
      () => doc,
      (u, from, to, edits) => service.edited(u, from, to, edits),
      async d => {
        validated.push(d.version);
        if (d.version !== doc.version) assert.equal(d.getText(), doc.getText().slice(0, site) + ' ' + doc.getText().slice(site));
        return service.validate(d, CHUNKED);
      },
    );
    assert.equal(ok, true);
    assert.deepEqual(validated, [-1, 1], 'the rehearsed version, then the document again');
    assert.equal(doc.version, 1);
    assert.deepEqual(service.validate(doc, CHUNKED), before);
    sameAsFresh(service, doc, 'after the rehearsal');
    // Keystrokes after it: in the first entry, in a later one, in a mapping.
    for (const [i, word] of ['(entry 0)', '(entry 5)', 'NOT_A_CODE'].entries()) {
      const at = doc.getText().indexOf(word) + 1;
      service.edited(uri, doc.version, doc.version + 1, [{ start: at, end: at, text: 'x' }]);
      doc.edit(at, at, 'x');
      doc.version++;
      sameAsFresh(service, doc, `keystroke ${i + 1}`);
    }
  });

test('no rehearsal without an entry key line under error_codes, or when the document changed meanwhile', async () => {
  const flow = new PieceDocument('file:///w/flow.adapter.yaml', 'yaml', 1, 'name: x\nerror_codes: { A_B: { category: VALIDATION } }\n');
  assert.equal(rehearsalSite(flow), undefined);
  const none = new PieceDocument('file:///w/none.adapter.yaml', 'yaml', 1, 'name: x\n');
  assert.equal(rehearsalSite(none), undefined);
  let validated = 0;
  assert.equal(
    await rehearseKeystroke(
      flow,
      () => flow,
      () => assert.fail('no edit'),
      async () => validated++,
    ),
    false,
  );
  assert.equal(validated, 0);

  const uri = 'file:///w/changed.adapter.yaml';
  const service = newService();
  const doc = new PieceDocument(uri, 'yaml', 1, generate(4, '\n'), 64);
  service.validate(doc, CHUNKED);
  const seen: number[] = [];
  const ok = await rehearseKeystroke(
    doc,
    () => doc,
    (u, from, to, edits) => service.edited(u, from, to, edits),
    async d => {
      seen.push(d.version);
      const r = service.validate(d, CHUNKED);
      // A keystroke of the user's arrives while the rehearsed version is validated.
      const at = doc.getText().indexOf('(entry 2)') + 1;
      service.edited(uri, 1, 2, [{ start: at, end: at, text: 'y' }]);
      doc.edit(at, at, 'y');
      doc.version = 2;
      return r;
    },
  );
  assert.equal(ok, false);
  assert.deepEqual(seen, [-1], 'the document itself is not validated by the rehearsal then');
  sameAsFresh(service, doc, 'the user keystroke after an interrupted rehearsal');
});
