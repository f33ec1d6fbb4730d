/**
 * code.declared-elsewhere: said where the ambiguity is real — on a use of a custom code (an
 * error_mapping `code:`) in a file that does not declare it, while two or more other files within its
 * code scope do (which declaration it gets then depends on the file names). Adapters that each declare
 * and use their own code of one name (a repository of adapters for different APIs) are correct and get
 * nothing; neither do the declaring files. Inline documents, two or three in one workspace.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createWorkspaceIndex, type AdapterService, type ServiceOptions } from '../../server/src/service';
import { fixture, newService } from './helpers';

const md = (t: string) => `---\n${t}---\n\n# Notes\n`;

/** A workspace of these documents, each indexed as the server and the CLI index it. */
function workspaceOf(...docs: TextDocument[]): AdapterService {
  const index = createWorkspaceIndex();
  const s = newService(index);
  for (const d of docs) index.update(d.uri, s.declaredCodes(d), s.codeOccurrences(d));
  return s;
}

const only = (ds: Diagnostic[]) => ds.filter(d => d.code === 'code.declared-elsewhere');
const declares = (code: string) => `error_codes:\n  ${code}:\n    category: NOT_FOUND\n`;

type Form = { name: string; ext: string; wrap: (t: string) => string; lang: string };
const FORMS: Form[] = [
  { name: 'yaml', ext: '.adapter.yaml', wrap: t => t, lang: 'yaml' },
  { name: 'markdown', ext: '-adapter.md', wrap: md, lang: 'markdown' },
];
const docIn = (f: Form, name: string, body: string) => TextDocument.create(`file:///w/${name}${f.ext}`, f.lang, 1, f.wrap(body));

for (const f of FORMS) {
  test(`${f.name}: two adapters that each declare and use their own code of one name: no warning on either`, () => {
    const body = `${declares('NOT_FOUND_NOTE')}error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n`;
    const a = docIn(f, 'github', body);
    const b = docIn(f, 'stripe', body);
    const s = workspaceOf(a, b);
    assert.deepEqual(s.validate(a), []);
    assert.deepEqual(s.validate(b), []);
  });

  test(`${f.name}: a file that uses a code two other files declare gets the warning on its use, the declaring files none`, () => {
    const a = docIn(f, 'a-notes', declares('NOT_FOUND_NOTE'));
    const b = docIn(f, 'b-notes', `${declares('NOT_FOUND_NOTE')}error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n`);
    const c = fixture(
      f.wrap(
        'error_mapping:\n  404:\n    - condition: "response.body.gone == true"\n      code: [[NOT_FOUND_NOTE]]\n    - code: [[NOT_FOUND_NOTE]]\n',
      ),
      {
        uri: `file:///w/c-user${f.ext}`,
      },
    );
    const s = workspaceOf(a, b, c.doc);
    assert.deepEqual(s.validate(a), []);
    assert.deepEqual(s.validate(b), [], 'b uses its own declaration');
    const ds = s.validate(c.doc);
    const nameA = `a-notes${f.ext}`,
      nameB = `b-notes${f.ext}`;
    const message = `Which NOT_FOUND_NOTE? ${nameA} and ${nameB} both declare it, and this mapping gets the declaration of ${nameA} (the file name that sorts first): renaming a file would change it. Declare NOT_FOUND_NOTE in one file only, or in this file.`;
    const keyLine = f.name === 'markdown' ? 2 : 1;
    const key = { start: { line: keyLine, character: 2 }, end: { line: keyLine, character: 16 } };
    assert.deepEqual(
      ds.map(d => ({ code: d.code, severity: d.severity, range: d.range, message: d.message, related: d.relatedInformation })),
      c.spans.map(range => ({
        code: 'code.declared-elsewhere',
        severity: 2,
        range,
        message,
        related: [
          { location: { uri: a.uri, range: key }, message: 'NOT_FOUND_NOTE is declared here: this declaration is the one used' },
          { location: { uri: b.uri, range: key }, message: 'NOT_FOUND_NOTE is declared here too' },
        ],
      })),
    );
  });
}

test('json: the warning sits on the "code" value, quotes included', () => {
  const decl = '{\n  "error_codes": {\n    "NOT_FOUND_NOTE": { "category": "NOT_FOUND" }\n  }\n}\n';
  const a = TextDocument.create('file:///w/a.adapter.json', 'json', 1, decl);
  const b = TextDocument.create('file:///w/b.adapter.json', 'json', 1, decl);
  const c = fixture('{\n  "error_mapping": {\n    "404": { "code": [["NOT_FOUND_NOTE"]] }\n  }\n}\n', { uri: 'file:///w/c.adapter.json' });
  const s = workspaceOf(a, b, c.doc);
  assert.deepEqual(
    s.validate(c.doc).map(d => [d.code, d.range]),
    [['code.declared-elsewhere', c.spans[0]]],
  );
  assert.deepEqual(s.validate(a), []);
  assert.deepEqual(s.validate(b), []);
});

test('one other declaring file is no ambiguity; nor is a file declaring the code it uses, nor a registry code', () => {
  const a = docOf3('a', declares('NOT_FOUND_NOTE') + '  VALIDATION_INVALID_TYPE:\n    category: VALIDATION\n');
  const b = docOf3('b', declares('NOT_FOUND_NOTE') + '  VALIDATION_INVALID_TYPE:\n    category: VALIDATION\n');
  const one = docOf3('c-one', 'error_mapping:\n  404:\n    code: NOT_FOUND_OTHER\n');
  const other = docOf3('d-other', declares('NOT_FOUND_OTHER'));
  // c declares the code itself: its mapping gets its own declaration, whatever a and b say.
  const own = docOf3('c-own', `${declares('NOT_FOUND_NOTE')}error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n`);
  // A registry code: the registry wins (code.redefines-registry is said in a and b).
  const reg = docOf3('c-reg', 'error_mapping:\n  422:\n    code: VALIDATION_INVALID_TYPE\n');
  const s = workspaceOf(a, b, one, other, own, reg);
  for (const d of [one, own, reg]) assert.deepEqual(only(s.validate(d)), [], d.uri);
  assert.deepEqual(only(s.validate(a)), []);
});

test('a third declaring file is named too; the related information lists every declaration', () => {
  const docs = ['b', 'a', 'c'].map(n => docOf3(`${n}-decl`, declares('NOT_FOUND_NOTE')));
  const user = fixture('error_mapping:\n  404:\n    code: [[NOT_FOUND_NOTE]]\n', { uri: 'file:///w/user.adapter.yaml' });
  const s = workspaceOf(...docs, user.doc);
  const [d, ...rest] = s.validate(user.doc);
  assert.deepEqual(rest, []);
  assert.deepEqual(d!.range, user.spans[0]);
  assert.match(
    String(d!.message),
    /^Which NOT_FOUND_NOTE\? a-decl\.adapter\.yaml, b-decl\.adapter\.yaml and c-decl\.adapter\.yaml declare it, and this mapping gets the declaration of a-decl\.adapter\.yaml /,
  );
  assert.deepEqual(
    d!.relatedInformation!.map(r => r.location.uri),
    ['a', 'b', 'c'].map(n => `file:///w/${n}-decl.adapter.yaml`),
  );
});

test('the code scope: declarations outside it do not count', () => {
  const a = TextDocument.create('file:///w/x/a.adapter.yaml', 'yaml', 1, declares('NOT_FOUND_NOTE'));
  const b = TextDocument.create('file:///w/y/b.adapter.yaml', 'yaml', 1, declares('NOT_FOUND_NOTE'));
  const c = TextDocument.create('file:///w/x/c.adapter.yaml', 'yaml', 1, 'error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n');
  const s = workspaceOf(a, b, c);
  const codes = (o?: ServiceOptions) => s.validate(c, o).map(d => d.code);
  assert.deepEqual(codes(), ['code.declared-elsewhere']);
  assert.deepEqual(codes({ codeScope: 'folder' }), [], 'b lies in another folder');
  assert.deepEqual(codes({ codeScope: 'file' }), ['mapping.unknown-code']);
});

test('only files count: an unsaved document neither gets the warning nor counts as a declaring file', () => {
  const a = docOf3('a', declares('NOT_FOUND_NOTE'));
  const unsaved = TextDocument.create('untitled:/w/example.adapter.yaml', 'yaml', 1, declares('NOT_FOUND_NOTE'));
  const user = docOf3('user', 'error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n');
  const scratch = TextDocument.create('untitled:/w/scratch.adapter.yaml', 'yaml', 1, 'error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n');
  const b = docOf3('b', declares('NOT_FOUND_NOTE'));
  assert.deepEqual(only(workspaceOf(a, unsaved, user).validate(user)), []);
  assert.deepEqual(only(workspaceOf(a, b, scratch).validate(scratch)), []);
});

function docOf3(name: string, text: string): TextDocument {
  return TextDocument.create(`file:///w/${name}.adapter.yaml`, 'yaml', 1, text);
}

test('two declaring files of the same name are told apart by their folders', () => {
  const a = TextDocument.create('file:///w/x/errors.adapter.yaml', 'yaml', 1, declares('NOT_FOUND_NOTE'));
  const b = TextDocument.create('file:///w/y/errors.adapter.yaml', 'yaml', 1, declares('NOT_FOUND_NOTE'));
  const c = TextDocument.create('file:///w/x/c.adapter.yaml', 'yaml', 1, 'error_mapping:\n  404:\n    code: NOT_FOUND_NOTE\n');
  const [d] = workspaceOf(a, b, c).validate(c);
  assert.match(
    String(d?.message),
    /^Which NOT_FOUND_NOTE\? x\/errors\.adapter\.yaml and y\/errors\.adapter\.yaml both declare it, and this mapping gets the declaration of x\/errors\.adapter\.yaml /,
  );
});
