/**
 * What `check --cache` keys its file, entries and results by (cli/cache.ts): a content hash, the tool
 * that made the results, and a result's dependency key — the declarations (in any file) of each code
 * name a file references, and the set of all names when its diagnostics read them.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from 'vscode-languageserver-types';
import { Code, type CodeDeclaration } from '../service';
import { deps, VERSION } from './deps';

export const contentHash = (text: string): string => createHash('sha1').update(text).digest('hex');

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
