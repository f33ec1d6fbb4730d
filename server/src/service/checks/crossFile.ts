/**
 * code.declared-elsewhere: a use of a custom code (an error_mapping `code:`) in a file that does not
 * declare it, while two or more other files in its code scope do. Which declaration the mapping gets
 * then depends on the files' names (the URI that sorts first wins, workspace/resolve.ts): a silent
 * slip, said on the use. Files that each declare and use their own code of one name (adapters for
 * different APIs) are correct: a file's own declaration always wins, so nothing is said there, nor on
 * the declaring files. Registry codes are code.redefines-registry's. Only files count: an unsaved
 * document (the walkthrough's example, a scratch buffer) neither gets this warning nor counts as a
 * declaring file.
 *
 * Its cost is the error_mapping entries (one look-up in the index per code this file does not declare),
 * not the file's codes, so the kept checks (incremental.ts) run it as it is on every validation.
 */
import { Code } from '../codes';
import type { MappingEntry } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import type { CodeDeclaration, WorkspaceCodes } from '../model/workspace';
import { firstDeclaration } from '../workspace/resolve';
import type { Check, Problem, RelatedSpan } from './types';

const isFile = (uri: string): boolean => uri.startsWith('file:');

/** The most files a message names (the related information lists up to MAX_RELATED declarations). */
const MAX_NAMED = 5;
const MAX_RELATED = 8;

export const crossFile: Check = {
  name: 'crossFile',
  run({ model, registry, workspace }, emit) {
    if (!isFile(model.uri) || !model.mappings.length) return;
    const here = new Set<string>();
    for (const c of model.codes) here.add(c.name);
    ambiguousUses(model.mappings, name => here.has(name), registry, workspace, model.uri, emit);
  },
};

/** code.declared-elsewhere of every mapping entry; `declaresHere`: does this file declare the name. */
export function ambiguousUses(
  mappings: readonly MappingEntry[],
  declaresHere: (name: string) => boolean,
  registry: RegistryIndex,
  workspace: WorkspaceCodes,
  uri: string,
  emit: (p: Problem) => void,
): void {
  if (!isFile(uri)) return;
  for (const m of mappings) {
    const code = m.code;
    if (!code || declaresHere(code.value) || registry.byCode.has(code.value)) continue;
    const all = workspace.declarations(code.value, uri);
    if (all.length < 2) continue;
    const ds = all.filter(d => isFile(d.uri) && d.uri !== uri);
    const uris = [...new Set(ds.map(d => d.uri))].sort();
    if (uris.length < 2) continue;
    const used = firstDeclaration(ds)!;
    const label = labels(uris);
    const named =
      uris.length > MAX_NAMED
        ? [...uris.slice(0, MAX_NAMED - 1).map(label), `${uris.length - MAX_NAMED + 1} other files`]
        : uris.map(label);
    const list = `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
    emit({
      code: Code.CodeDeclaredElsewhere,
      start: code.span.start,
      end: code.span.end,
      message: `Which ${code.value}? ${list} ${uris.length === 2 ? 'both declare' : 'declare'} it, and this mapping gets the declaration of ${label(used.uri)} (the file name that sorts first): renaming a file would change it. Declare ${code.value} in one file only, or in this file.`,
      related: related(code.value, used, ds),
    });
  }
}

/** The declarations, the one used first, then by file (each file's own order kept). */
function related(name: string, used: CodeDeclaration, ds: readonly CodeDeclaration[]): RelatedSpan[] {
  const rest = ds.filter(d => d !== used).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return [used, ...rest].slice(0, MAX_RELATED).map(d => ({
    start: 0,
    end: 0,
    uri: d.uri,
    range: d.range,
    message: d === used ? `${name} is declared here: this declaration is the one used` : `${name} is declared here too`,
  }));
}

/**
 * How a message names each file: its name, or as many of its last path segments as tell it from the
 * others (`x/errors.adapter.yaml`, `y/errors.adapter.yaml`).
 */
function labels(uris: readonly string[]): (uri: string) => string {
  const parts = new Map(
    uris.map(
      u =>
        [
          u,
          u
            .replace(/^[a-z][a-z0-9+.-]*:\/*/i, '')
            .split('/')
            .map(decode),
        ] as const,
    ),
  );
  const tail = (u: string, k: number) => parts.get(u)!.slice(-k).join('/');
  const depth = new Map<string, number>(uris.map(u => [u, 1]));
  for (let round = 0; round < 64; round++) {
    const seen = new Map<string, string[]>();
    for (const u of uris) {
      const t = tail(u, depth.get(u)!);
      seen.set(t, [...(seen.get(t) ?? []), u]);
    }
    let more = false;
    for (const group of seen.values())
      if (group.length > 1)
        for (const u of group)
          if (depth.get(u)! < parts.get(u)!.length) {
            depth.set(u, depth.get(u)! + 1);
            more = true;
          }
    if (!more) break;
  }
  return u => (parts.has(u) ? tail(u, depth.get(u)!) : decode(u.slice(u.lastIndexOf('/') + 1)));
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
