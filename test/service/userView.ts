/**
 * What the read-once and parse-once identity tests share: the bundled adapter files (test/fixtures and examples,
 * the JSON test suite left out) whose names match a pattern, as [uri, text] pairs, and what a user sees of a text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService } from '../../server/src/service';
import { ROOT } from './helpers';

function adapters(dir: string, name: RegExp, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'jsontestsuite') adapters(p, name, out);
    else if (e.isFile() && name.test(e.name)) out.push(p);
  }
  return out;
}

/** Every fixture and example whose file name matches `name`, as [file URI under file:///w/, text]. */
export function bundledAdapters(name: RegExp): (readonly [string, string])[] {
  return [...adapters(join(ROOT, 'test', 'fixtures'), name), ...adapters(join(ROOT, 'examples'), name)].map(
    p => [`file:///w/${relative(ROOT, p).split('\\').join('/')}`, readFileSync(p, 'utf8')] as const,
  );
}

/** What a user sees of one text: diagnostics, every quick fix at each of them, and Fix all's edits. */
export function seen(service: AdapterService, uri: string, text: string): unknown {
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  const diagnostics = service.validate(doc);
  const fixes = diagnostics.map(d => service.quickFixes(doc, d.range, { diagnostics: [d] }));
  const all = service.fixAll(doc);
  service.forget(uri);
  return { diagnostics, fixes, all };
}
