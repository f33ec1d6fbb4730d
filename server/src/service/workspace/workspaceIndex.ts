/**
 * An in-memory index of every adapter file's custom codes and code occurrences, implementing
 * WorkspaceCodes. Pure data: the LSP layer and the CLI feed it what the service extracted from each
 * file (declaredCodes / codeOccurrences); nothing here reads a file.
 */
import type { CodeDeclaration, CodeOccurrence, WorkspaceCodes } from '../model/workspace';

export interface WorkspaceIndex extends WorkspaceCodes {
  /** Replace what is known of one file. */
  update(uri: string, declarations: readonly CodeDeclaration[], occurrences: readonly CodeOccurrence[]): void;
  remove(uri: string): void;
  uris(): string[];
  /** The declarations of one file. */
  declaredIn(uri: string): readonly CodeDeclaration[];
  /** A view that leaves out one file (the one being checked, whose live text the service reads itself). */
  except(uri: string): WorkspaceCodes;
}

export function createWorkspaceIndex(): WorkspaceIndex {
  const decls = new Map<string, readonly CodeDeclaration[]>();
  const occs = new Map<string, readonly CodeOccurrence[]>();
  const byCode = new Map<string, Set<string>>(); // code → uris that declare or use it

  const unlink = (uri: string) => {
    for (const d of decls.get(uri) ?? []) byCode.get(d.code)?.delete(uri);
    for (const o of occs.get(uri) ?? []) byCode.get(o.code)?.delete(uri);
  };
  const link = (uri: string, code: string) => {
    let s = byCode.get(code);
    if (!s) byCode.set(code, (s = new Set()));
    s.add(uri);
  };

  const index: WorkspaceIndex = {
    update(uri, declarations, occurrences) {
      unlink(uri);
      decls.set(uri, declarations);
      occs.set(uri, occurrences);
      for (const d of declarations) link(uri, d.code);
      for (const o of occurrences) link(uri, o.code);
    },
    remove(uri) { unlink(uri); decls.delete(uri); occs.delete(uri); },
    uris: () => [...decls.keys()],
    declaredIn: uri => decls.get(uri) ?? [],
    declarations(code, exceptUri) {
      const out: CodeDeclaration[] = [];
      for (const uri of byCode.get(code) ?? []) {
        if (uri === exceptUri) continue;
        for (const d of decls.get(uri) ?? []) if (d.code === code) out.push(d);
      }
      return out;
    },
    *allDeclarations(exceptUri) {
      for (const [uri, list] of decls) if (uri !== exceptUri) yield* list;
    },
    occurrences(code, exceptUri) {
      const out: CodeOccurrence[] = [];
      for (const uri of byCode.get(code) ?? []) {
        if (uri === exceptUri) continue;
        for (const o of occs.get(uri) ?? []) if (o.code === code) out.push(o);
      }
      return out;
    },
    except: uri => ({
      declarations: (code, ex) => index.declarations(code, ex ?? uri).filter(d => d.uri !== uri),
      allDeclarations: function* (ex) { for (const d of index.allDeclarations(ex ?? uri)) if (d.uri !== uri) yield d; },
      occurrences: (code, ex) => index.occurrences(code, ex ?? uri).filter(o => o.uri !== uri),
    }),
  };
  return index;
}
