/**
 * The workspace index kept up to date file by file (as the server does on every change) gives the same
 * results as an index built from scratch (as a fresh CLI run does), over random workspace edits.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createWorkspaceIndex, type WorkspaceIndex } from '../../server/src/service';
import { docOf, newService, yamlDoc } from './helpers';

const N = 5;
const uriOf = (i: number) => `file:///w/p${i % 2}/s${i}.adapter.yaml`;
const base = (i: number) =>
  yamlDoc(
    'error_codes:',
    `  NOT_FOUND_S${i}:`,
    '    category: NOT_FOUND',
    `    message_template: "No '{id}' in ${i}"`,
    '    details: { id: string }',
    'error_mapping:',
    '  403:',
    '    code: PERMISSION_DENIED',
    '  404:',
    `    code: NOT_FOUND_S${(i + 1) % N}`,
    `    message_template: "Gone: '{id}'"`,
  );

const edit = fc.record({
  file: fc.integer({ min: 0, max: N - 1 }),
  other: fc.integer({ min: 0, max: N - 1 }),
  kind: fc.constantFrom(
    'declareOther',
    'dropDecls',
    'recategorise',
    'addDetail',
    'renameDetail',
    'useOther',
    'useRegistryRedefined',
    'redefineRegistry',
    'delete',
    'restore',
  ),
});

function apply(text: string | undefined, e: { file: number; other: number; kind: string }): string | undefined {
  const t = text ?? base(e.file);
  switch (e.kind) {
    case 'declareOther':
      return t.replace(
        'error_codes:\n',
        `error_codes:\n  NOT_FOUND_S${e.other}:\n    category: CONFLICT\n    details: { other: string }\n`,
      );
    case 'dropDecls':
      return t.replace(/error_codes:\n(?: {2}\S.*\n(?: {4}.*\n)*)+/, 'error_codes:\n');
    case 'recategorise':
      return t.replace('category: NOT_FOUND', 'category: CONFLICT');
    case 'addDetail':
      return t.replace('details: { id: string }', 'details: { id: string, name: string }');
    case 'renameDetail':
      return t.replace('details: { id: string }', 'details: { key: string }');
    case 'useOther':
      return t.replace(/code: NOT_FOUND_S\d+/, `code: NOT_FOUND_S${e.other}`);
    case 'useRegistryRedefined':
      return t.replace(/code: NOT_FOUND_S\d+/, 'code: RATE_LIMIT_EXCEEDED');
    case 'redefineRegistry':
      return t.replace(
        'error_codes:\n',
        'error_codes:\n  RATE_LIMIT_EXCEEDED:\n    category: RATE_LIMIT\n    details: { bucket: string }\n',
      );
    case 'delete':
      return undefined;
    default:
      return base(e.file);
  }
}

test('incremental index = index from scratch, for every file, over random workspace edits', { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), fc.constantFrom('workspace', 'folder', 'file'), (edits, codeScope) => {
      const texts: (string | undefined)[] = Array.from({ length: N }, (_, i) => base(i));
      const live: WorkspaceIndex = createWorkspaceIndex();
      const s = newService(live);
      const put = (index: WorkspaceIndex, svc: ReturnType<typeof newService>, i: number) => {
        const t = texts[i];
        if (t === undefined) {
          index.remove(uriOf(i));
          return;
        }
        const d = docOf(t, uriOf(i), 1);
        index.update(d.uri, svc.declaredCodes(d), svc.codeOccurrences(d));
      };
      for (let i = 0; i < N; i++) put(live, s, i);
      for (const e of edits) {
        texts[e.file] = apply(texts[e.file], e);
        s.forget(uriOf(e.file));
        put(live, s, e.file);
      }
      const fresh = createWorkspaceIndex();
      const f = newService(fresh);
      for (let i = N - 1; i >= 0; i--) put(fresh, f, i); // another order on purpose
      for (let i = 0; i < N; i++) {
        const t = texts[i];
        if (t === undefined) continue;
        const a = s.validate(docOf(t, uriOf(i), 1), { codeScope });
        const b = f.validate(docOf(t, uriOf(i), 1), { codeScope });
        assert.deepEqual(a, b, `file ${i} after ${JSON.stringify(edits)}`);
      }
    }),
    { numRuns: 150, seed: 1411 },
  );
});
