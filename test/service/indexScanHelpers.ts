/**
 * For the fast index scan's tests: the fast path (parse/indexScan.ts) next to the full model path
 * (declaredCodes + codeOccurrences of a fresh service) on one text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { scanIndexEntries, type IndexEntries } from '../../server/src/service/parse/indexScan';
import { classify } from '../../server/src/service/parse/sourceFile';
import { newService } from './helpers';

export interface Compared {
  /** undefined: the scan fell back (the model decides). */
  readonly fast: IndexEntries | undefined;
  readonly full: IndexEntries;
}

const service = newService();

/** Both paths on `text` named `uri` (extra globs make any file an adapter). */
export function compare(uri: string, text: string, files: readonly string[] = []): Compared {
  const doc = TextDocument.create(uri, 'yaml', 0, text);
  const cls = classify(uri, text, files);
  const fast = cls && scanIndexEntries(doc, cls);
  const full = { declarations: service.declaredCodes(doc, { files }), occurrences: service.codeOccurrences(doc, { files }) };
  service.forget(uri);
  return { fast, full };
}

/** Every file under `dir` (recursively). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap(n => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export const read = (p: string): string => readFileSync(p, 'utf8');

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDITS = [
  '',
  ' ',
  '  ',
  ':',
  ': ',
  '-',
  '- ',
  '#',
  ' #',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '\n',
  '\r\n',
  '\t',
  '&a',
  '*a',
  '<<: ',
  '|',
  '404',
  'code: X',
  '\\',
];

/** One random edit of `text`: a line deleted, duplicated or re-indented, or a few characters inserted or deleted. */
export function mutate(text: string, r: () => number): string {
  const lines = text.split('\n');
  const at = Math.floor(r() * lines.length);
  switch (Math.floor(r() * 5)) {
    case 0:
      lines.splice(at, 1);
      return lines.join('\n');
    case 1:
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    case 2: {
      const l = lines[at] ?? '';
      lines[at] = r() < 0.5 ? ' '.repeat(1 + Math.floor(r() * 3)) + l : l.replace(/^ {1,2}/, '');
      return lines.join('\n');
    }
    case 3: {
      const i = Math.floor(r() * (text.length + 1));
      return text.slice(0, i) + EDITS[Math.floor(r() * EDITS.length)] + text.slice(i);
    }
    default: {
      const i = Math.floor(r() * text.length);
      return text.slice(0, i) + text.slice(i + 1 + Math.floor(r() * 3));
    }
  }
}
