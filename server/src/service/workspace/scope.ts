/**
 * The code scope (mcpAql.codeScope): a view of the workspace that shows a file only the declarations
 * and uses it may see — all files, the files of its own directory, or none. What lies outside stays
 * reachable through `outsideScope`, so a diagnostic can say where an out-of-scope code is declared.
 */
import type { CodeDeclaration, CodeScope, WorkspaceCodes } from '../model/workspace';

const dirOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/') + 1);

export function scopedWorkspace(ws: WorkspaceCodes, uri: string, scope: CodeScope = 'workspace'): WorkspaceCodes {
  if (scope === 'workspace') return ws;
  const dir = dirOf(uri);
  const inScope = (x: { uri: string }) => scope === 'folder' && dirOf(x.uri) === dir;
  return {
    declarations: (code, except) => ws.declarations(code, except).filter(inScope),
    *allDeclarations(except) {
      for (const d of ws.allDeclarations(except)) if (inScope(d)) yield d;
    },
    occurrences: (code, except) => ws.occurrences(code, except).filter(inScope),
    outsideScope: (code, except) => ws.declarations(code, except).filter((d: CodeDeclaration) => !inScope(d)),
    // The name index, asked for names with a declaration in scope (none at all for the `file` scope).
    nearNames:
      ws.nearNames &&
      ((word, limit, except, accept) =>
        scope === 'file' ? [] : ws.nearNames!(word, limit, except, n => ws.declarations(n, except).some(inScope) && accept(n))),
  };
}
