/** Which files a `check` run reads: directories walked, globs expanded with our own matcher. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { globToRegExp } from '../service';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e']);
const CANDIDATE = /\.(?:ya?ml|json|jsonl|ndjson|md|markdown)$/i;
const MAX_FILES = 20_000;

export class UsageError extends Error {}

export interface Found { readonly path: string; /** named on the command line, not found by walking */ readonly explicit: boolean }

function walk(dir: string, out: Found[]): void {
  let names: string[];
  try { names = readdirSync(dir); } catch { return; }
  for (const name of names.sort()) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    let st;
    try { st = statSync(p); } catch { continue; }
    if (st.isDirectory()) walk(p, out);
    else if (st.isFile() && CANDIDATE.test(name)) out.push({ path: p, explicit: false });
    if (out.length > MAX_FILES) throw new UsageError(`more than ${MAX_FILES} candidate files under ${dir}; name a smaller folder`);
  }
}

const isGlob = (s: string) => /[*?[{]/.test(s);

export function findFiles(args: readonly string[], cwd: string): Found[] {
  const out: Found[] = [];
  for (const a of args.length ? args : ['.']) {
    if (isGlob(a)) {
      const base = resolve(cwd, a.slice(0, a.search(/[*?[{]/)).replace(/[^/]*$/, '') || '.');
      const all: Found[] = [];
      walk(base, all);
      const rx = globToRegExp(a.replace(/^\.\//, ''));
      const hits = all.filter(f => rx.test(relative(cwd, f.path).split(sep).join('/')));
      if (!hits.length) throw new UsageError(`no file matches '${a}'`);
      out.push(...hits);
      continue;
    }
    const p = resolve(cwd, a);
    let st;
    try { st = statSync(p); } catch { throw new UsageError(`cannot read '${a}': no such file or directory`); }
    if (st.isDirectory()) walk(p, out);
    else out.push({ path: p, explicit: true });
  }
  const seen = new Set<string>();
  return out.filter(f => (seen.has(f.path) ? false : (seen.add(f.path), true)));
}
