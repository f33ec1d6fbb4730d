/**
 * Resolving code names and the details keys a template may use: a custom code of this file, a
 * registry code, or one declared in another workspace file (within the code scope), in that order (with the alias table for built-in
 * templates, digest C-7).
 */
import type { CodeDef, DetailDecl, MappingEntry } from '../model/model';
import type { RegistryCode, RegistryIndex } from '../model/registry';
import type { CodeDeclaration, WorkspaceCodes } from '../model/workspace';
import { closestScored, mergeScored } from '../util/closest';
import { ObjectMemo } from '../util/objectMemo';

export type ResolvedCode =
  | { readonly source: 'file'; readonly code: string; readonly def: CodeDef; readonly category?: string; readonly kind: 'error' }
  | {
      readonly source: 'workspace';
      readonly code: string;
      readonly decl: CodeDeclaration;
      readonly category?: string;
      readonly kind: 'error';
    }
  | {
      readonly source: 'registry';
      readonly code: string;
      readonly reg: RegistryCode;
      readonly category: string;
      readonly kind: 'error' | 'warning';
    };

interface Resolver {
  code(name: string): ResolvedCode | undefined;
  /** All code names known (registry, file, workspace), for suggestions; with `prefix`, those starting with it (case-insensitive). */
  allNames(prefix?: string): string[];
  /**
   * "Did you mean": the at most `limit` known code names (as allNames gives them) that `accept` takes,
   * nearest to `word` (util/closest.ts). Other files' names come from the workspace's name index when it
   * has one, so the answer costs the same in a workspace of 20,000 files as in one of 20.
   */
  nearest(word: string, limit: number, accept: (name: string) => boolean): string[];
}

/** The first declaration of each code name, per model (checks of one validation share it). */
const localCache = new ObjectMemo<readonly CodeDef[], Map<string, CodeDef>>('codesByName');

export function createResolver(codes: readonly CodeDef[], registry: RegistryIndex, workspace: WorkspaceCodes, uri: string): Resolver {
  let local = localCache.get(codes);
  if (!local) {
    local = new Map<string, CodeDef>();
    for (const c of codes) if (!local.has(c.name)) local.set(c.name, c);
    localCache.set(codes, local);
  }
  const byName = local;
  return {
    code(name) {
      return resolveIn(byName.get(name), name, registry, workspace, uri);
    },
    allNames(prefix) {
      const p = prefix?.toUpperCase() ?? '';
      const names = new Set<string>();
      const put = (n: string) => {
        if (!p || n.toUpperCase().startsWith(p)) names.add(n);
      };
      for (const c of registry.byCode.keys()) put(c);
      for (const c of byName.keys()) put(c);
      if (workspace.names) for (const n of workspace.names(uri, prefix)) names.add(n);
      else for (const d of workspace.allDeclarations(uri)) put(d.code);
      return [...names];
    },
    nearest(word, limit, accept) {
      if (!workspace.nearNames) return closestScored(word, this.allNames().filter(accept), limit).map(([c]) => c);
      const local = [...registry.byCode.keys(), ...byName.keys()].filter(accept);
      return mergeScored([closestScored(word, local, limit), workspace.nearNames(word, limit, uri, accept)], limit).map(([c]) => c);
    },
  };
}

/**
 * A code name resolved: this file's own declaration `def` when it has one, then the registry (a
 * redefinition in another file, code.redefines-registry there, never leaks here), then other files.
 */
export function resolveIn(
  def: CodeDef | undefined,
  name: string,
  registry: RegistryIndex,
  workspace: WorkspaceCodes,
  uri: string,
): ResolvedCode | undefined {
  if (def) return { source: 'file', code: name, def, category: categoryOf(def), kind: 'error' };
  const reg = registry.byCode.get(name);
  if (reg) return { source: 'registry', code: name, reg, category: reg.category, kind: reg.kind };
  const decl = firstDeclaration(workspace.declarations(name, uri));
  if (decl) return { source: 'workspace', code: name, decl, category: decl.category, kind: 'error' };
  return undefined;
}

/**
 * When several other files declare one name, the one whose URI sorts first (then the first in that
 * file): the answer does not depend on the order files were indexed in (server and CLI agree).
 */
export function firstDeclaration(ds: readonly CodeDeclaration[]): CodeDeclaration | undefined {
  let best = ds[0];
  for (const d of ds) if (d.uri < best!.uri) best = d;
  return best;
}

export function categoryOf(def: CodeDef): string | undefined {
  const v = def.category?.value;
  return typeof v === 'string' ? v.replace(/_$/, '') : undefined;
}

export interface VisibleKey {
  readonly name: string;
  readonly type?: string;
}

/**
 * The details keys a template of `entry` sees, or undefined when they cannot be known (a mapping entry
 * whose code is unknown). Registry codes add the alias placeholders of their built-in template.
 */
export function visibleKeys(
  entry: { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry },
  resolver: Resolver,
  registry: RegistryIndex,
): Map<string, VisibleKey> | undefined {
  const out = new Map<string, VisibleKey>();
  const addDecl = (ds: readonly Pick<DetailDecl, 'name' | 'type'>[]) => {
    for (const d of ds) if (!out.has(d.name)) out.set(d.name, { name: d.name, type: d.type });
  };
  if (entry.kind === 'code') {
    addDecl(entry.def.details);
    return out;
  }
  const m = entry.entry;
  addDecl(m.details);
  const name = m.code?.value;
  if (!name) return m.details.length ? out : undefined;
  const r = resolver.code(name);
  if (!r) return undefined;
  if (r.source === 'file') addDecl(r.def.details);
  else if (r.source === 'workspace') addDecl(r.decl.details);
  else {
    for (const [k, spec] of Object.entries(r.reg.details ?? {})) if (!out.has(k)) out.set(k, { name: k, type: spec.type });
    for (const [alias, a] of Object.entries(registry.data.template_aliases?.[name] ?? {})) {
      if (!out.has(alias)) out.set(alias, { name: alias, type: r.reg.details?.[a.key]?.type });
    }
  }
  return out;
}

export const isStringType = (t: string | undefined): boolean => t === undefined || t === 'string' || t === 'unknown';
