/**
 * `check` streams its report in sorted path order, file by file, with the bytes a
 * whole report has; and the pipeline (index scan, declarations to the workers, batches, streaming)
 * gives exactly what a plain pass gives — every file indexed from its full model, then validated one
 * by one — on a generated workspace with cross-file codes and broken files, with --jobs 1 and 2.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileText, pathOf, workspaceFiles } from '../../bench/genWorkspace';
import { main } from '../../server/src/cli/main';
import { render } from '../../server/src/cli/output';
import { packDeclarations, slim, unpackDeclarations } from '../../server/src/cli/check/declarationsPack';
import type { FileReport } from '../../server/src/cli/report';
import { reportStream } from '../../server/src/cli/check/reportStream';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration } from '../../server/src/service';
import { loadDeps } from '../service/helpers';
import { tempTree } from './helpers';

const N = 90;
function generated(): Record<string, string> {
  const files = workspaceFiles(N);
  // A code declared in two files (the first by URI wins), an alias (the index scan falls back to the model), a non-adapter.
  files['pkg0000/twice.adapter.yaml'] = 'error_codes:\n  NOT_FOUND_SVC3_E0:\n    category: CONFLICT\n    details: { other: string }\n';
  files['pkg0001/alias.adapter.yaml'] =
    'error_codes:\n  A_CODE: &a\n    category: VALIDATION\n  B_CODE: *a\nerror_mapping:\n  400:\n    code: B_CODE\n    message_template: "{nope}"\n';
  files['pkg0002/notes.yaml'] = 'just: notes\n';
  return files;
}

/** The plain pass: every file's full model indexed, then each file validated, in sorted path order. */
function plainReports(dir: string, files: Record<string, string>): FileReport[] {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...loadDeps(), workspace: index });
  const paths = Object.keys(files)
    .map(p => join(dir, p))
    .sort();
  const docs = paths.map(p => TextDocument.create(pathToFileURL(p).href, 'yaml', 0, readFileSync(p, 'utf8')));
  const adapters = docs.filter(d => service.isAdapter(d));
  for (const d of adapters) index.update(d.uri, service.declaredCodes(d), service.codeOccurrences(d));
  return adapters.map(d => {
    const diagnostics = service.validate(d);
    const path = paths[docs.indexOf(d)]!;
    return { path, rel: relative(dir, path), uri: d.uri, text: d.getText(), diagnostics };
  });
}

async function cli(argv: string[], cwd: string, onOut?: (s: string, n: number) => void) {
  const chunks: string[] = [];
  let err = '';
  const code = await main(argv, {
    cwd,
    color: false,
    stdout: s => {
      chunks.push(s);
      onOut?.(s, chunks.length);
    },
    stderr: s => {
      err += s;
    },
  });
  return { code, out: chunks.join(''), chunks, err };
}

test(
  'the pipeline equals a plain validate-every-file pass (jobs 1 and 2, every format): same problems, order, bytes, exit code',
  { timeout: 300_000 },
  async () => {
    const files = generated();
    const dir = tempTree(files);
    try {
      const plain = plainReports(dir, files);
      const problems = plain.flatMap(r => r.diagnostics.map(d => String(d.code)));
      assert.ok(problems.filter(c => c === 'mapping.unknown-code').length >= 4, 'broken files report their unknown codes');
      assert.ok(problems.includes('template.unknown-placeholder'));
      const io = { cwd: dir, color: false, stdout: () => {}, stderr: () => {} };
      for (const jobs of ['1', '2'])
        for (const format of ['json', 'text', 'sarif', 'github', 'junit', 'checkstyle', 'codeclimate']) {
          const r = await cli(['check', '.', '--jobs', jobs, '--format', format], dir);
          assert.equal(r.err, '', `${format} jobs ${jobs}`);
          assert.equal(r.code, 1, `${format} jobs ${jobs}`);
          assert.equal(r.out, render(format, plain, io), `${format} jobs ${jobs}`);
        }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'the report streams: a file is printed before later files are validated (jobs 1 and 2), in sorted path order',
  { timeout: 300_000 },
  async () => {
    const files = generated();
    const dir = tempTree(files);
    try {
      const L = N - 3; // a YAML file near the end of the sorted order
      assert.ok(pathOf(L).endsWith('.adapter.yaml'));
      const last = join(dir, pathOf(L));
      for (const jobs of ['1', '2']) {
        writeFileSync(last, fileText(L, N));
        // When the first file's problems are printed, the last file gains an unknown code: a report
        // written after every file was validated would not show it.
        const r = await cli(['check', '.', '--jobs', jobs, '--format', 'json'], dir, (_, n) => {
          if (n === 1) writeFileSync(last, fileText(L, N).replace('code: PERMISSION_DENIED', 'code: LATE_UNKNOWN'));
        });
        assert.ok(r.chunks.length > 2, `jobs ${jobs}: written in pieces`);
        const out = JSON.parse(r.out) as { file: string; diagnostics: { code: string; message: string }[] }[];
        assert.deepEqual(
          out.map(f => f.file),
          [...out.map(f => f.file)].sort(),
        );
        const tail = out.find(f => f.file === pathOf(L))!;
        assert.deepEqual(
          tail.diagnostics.map(d => d.code),
          ['mapping.unknown-code'],
          `jobs ${jobs}`,
        );
        assert.match(tail.diagnostics[0]!.message, /LATE_UNKNOWN/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('the streamed report has the bytes of the whole report, in every format, quiet or not, with or without files', () => {
  const io = { cwd: '/w', color: false, stdout: () => {}, stderr: () => {} };
  const dir = '/w';
  const plain = (() => {
    const files = generated();
    const index = createWorkspaceIndex();
    const service = createAdapterService({ ...loadDeps(), workspace: index });
    const docs = Object.keys(files)
      .sort()
      .map(p => TextDocument.create(pathToFileURL(join(dir, p)).href, 'yaml', 0, files[p]!))
      .filter(d => service.isAdapter(d));
    for (const d of docs) index.update(d.uri, service.declaredCodes(d), service.codeOccurrences(d));
    return docs.map(d => ({ path: d.uri.slice(7), rel: d.uri.slice(10), uri: d.uri, text: d.getText(), diagnostics: service.validate(d) }));
  })();
  for (const reports of [plain, plain.slice(0, 1), plain.filter(r => !r.diagnostics.length), []])
    for (const format of ['json', 'text', 'sarif', 'github', 'junit', 'checkstyle', 'codeclimate'])
      for (const quiet of [false, true])
        for (const color of [false, true]) {
          let out = '';
          const s = reportStream(format, io, x => (out += x), { quiet, color });
          reports.forEach(r => s.file(r));
          s.end();
          const shown = quiet ? reports.map(r => ({ ...r, diagnostics: r.diagnostics.filter(d => (d.severity ?? 1) === 1) })) : reports;
          assert.equal(out, render(format, shown, io, color), `${format} quiet ${quiet} color ${color} (${reports.length} files)`);
        }
});

test('declarations reach the workers packed: unpacked, they are what slim keeps of them', () => {
  const range = { start: { line: 3, character: 2 }, end: { line: 3, character: 9 } };
  const decls: [string, CodeDeclaration[]][] = [
    [
      'file:///w/a%20b.adapter.yaml',
      [
        {
          uri: 'file:///w/a%20b.adapter.yaml',
          code: 'A_CODE',
          range,
          category: 'VALIDATION',
          template: 't',
          details: [],
          mapsFromHttp: [400],
        },
        {
          uri: 'file:///w/a%20b.adapter.yaml',
          code: 'B_CODE',
          range,
          details: [{ name: 'id', type: 'string', required: true, description: 'x' }, { name: 'n' }],
          mapsFromHttp: ['4XX'],
        },
      ],
    ],
    ['file:///w/empty.adapter.json', []],
  ];
  assert.deepEqual(
    unpackDeclarations(packDeclarations(decls)),
    decls.map(([u, ds]) => [u, ds.map(slim)]),
  );
});
