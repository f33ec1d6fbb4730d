/**
 * What `check --cache` keys its file, entries and results by (cli/cache/checkCache.ts): a content hash, the tool
 * that made the results, and a result's dependency key — the declarations (in any file) of each code
 * name a file references, and the set of all names when its diagnostics read them.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from 'vscode-languageserver-types';
import { Code, type CodeDeclaration } from '../../service';
import type { Entry } from './shape';
import { deps, VERSION } from '../deps';

/**
 * SHA-256, not SHA-1: a cached result is reused for any text of the same hash, and SHA-1 collisions with a
 * chosen prefix are within reach, so a clean file could be swapped for a colliding broken one of the same size.
 */
export const contentHash = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * What made the cached results besides the files and their options: the tool's version, and the
 * registry and adapter schema it carries (a build with other data under the same version number).
 */
export const toolKey = (): string => `${VERSION} ${contentHash(JSON.stringify(deps.registry) + '\0' + JSON.stringify(deps.schema))}`;

/** Whether diagnostics read every declared name (a mapping.unknown-code's "did you mean"). */
export const readsAllNames = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some(d => d.code === Code.MappingUnknownCode);

const declSig = (d: CodeDeclaration) =>
  `${d.uri}|${d.code}|${d.category ?? ''}|${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}|${d.mapsFromHttp.join('+')}|${d.template ?? ''}`;

/**
 * The version of the cross-file facts a file's diagnostics read: every declaration of each code it
 * references (its own included: they change only with its content, which is keyed already), and the
 * set of all names (`allNames`, its fingerprint) when it has a mapping.unknown-code. Each code's text is
 * made again for each file that references it (most are referenced by one or two): kept, they would hold
 * some 30 MB at 10,000 files.
 */
export function dependencyKey(
  refs: readonly string[],
  diagnostics: readonly Diagnostic[],
  byCode: ReadonlyMap<string, readonly CodeDeclaration[]>,
  allNames: () => string,
): string {
  const parts = [...refs].sort().map(code => `${code}=${(byCode.get(code) ?? []).map(declSig).join(';')}`);
  if (readsAllNames(diagnostics)) parts.push(`*=${allNames()}`);
  return contentHash(parts.join('\n'));
}

/** The code names of an entry's declarations (`encodeDecls`), or undefined when the text has the wrong shape. */
export function namesIn(decls: string): string[] | undefined {
  try {
    const x: unknown = JSON.parse(decls);
    if (!Array.isArray(x)) return undefined;
    const out: string[] = [];
    for (const d of x) {
      if (!Array.isArray(d) || typeof d[0] !== 'string') return undefined;
      out.push(d[0]);
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * The code names whose declarations may differ between the last run's workspace and this one: every
 * name of a file whose declarations changed, that left the workspace or joined it. Undefined when the
 * last run's workspace cannot be rebuilt exactly from the entries (`last`: its fingerprint; its
 * adapters' entries hold `wsfp === last` and come first, in its order) or when the files both runs
 * share are in another order (a name's declarations are listed in run order). A result that read
 * none of these names, and not every name, is current without its dependency key being made again.
 */
export function changedSince(
  last: string,
  entries: ReadonlyMap<string, Entry>,
  adapters: readonly string[],
  unchanged: (uri: string, declFp: string) => boolean,
  namesNow: (uri: string) => readonly string[] | undefined,
): Set<string> | undefined {
  const position = new Map(adapters.map((u, i) => [u, i] as const));
  const changed = new Set<string>();
  const inLast = new Set<string>();
  const parts: string[] = [];
  let previous = -1;
  for (const [u, e] of entries) {
    if (!e.adapter || e.wsfp !== last) continue;
    inLast.add(u);
    parts.push(u, '\0', e.declFp, '\n');
    const at = position.get(u);
    if (at !== undefined) {
      if (at < previous) return undefined;
      previous = at;
      if (unchanged(u, e.declFp)) continue;
      const now = namesNow(u);
      if (!now) return undefined;
      for (const n of now) changed.add(n);
    }
    const old = namesIn(e.decls);
    if (!old) return undefined;
    for (const n of old) changed.add(n);
  }
  if (contentHash(parts.join('')) !== last) return undefined;
  for (const u of adapters) {
    if (inLast.has(u)) continue;
    const now = namesNow(u);
    if (!now) return undefined;
    for (const n of now) changed.add(n);
  }
  return changed;
}
