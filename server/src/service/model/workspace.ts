/**
 * What the service knows of other files: the LSP layer's workspace index (or the CLI's file list)
 * implements this. Plain data; the service never reads a file.
 */
import type { Range } from 'vscode-languageserver-types';

interface DeclaredDetail {
  readonly name: string;
  readonly type?: string;
  readonly required?: boolean;
  readonly description?: string;
}

/** A custom code declared in some file's `error_codes`. */
export interface CodeDeclaration {
  readonly uri: string;
  readonly code: string;
  /** The code's key. */
  readonly range: Range;
  readonly category?: string;
  readonly template?: string;
  readonly details: readonly DeclaredDetail[];
  readonly description?: string;
  readonly mapsFromHttp: readonly (number | string)[];
}

/** Every place a code name is written: a declaration key or a `code:` value of error_mapping. */
export interface CodeOccurrence {
  readonly uri: string;
  readonly code: string;
  readonly range: Range;
  readonly kind: 'declaration' | 'reference';
}

/**
 * Which other files' codes a file sees (mcpAql.codeScope, --code-scope): every file of the workspace
 * (default), the files of its own directory, or none.
 */
export type CodeScope = 'workspace' | 'folder' | 'file';
export const CODE_SCOPES: readonly CodeScope[] = ['workspace', 'folder', 'file'];

export interface WorkspaceCodes {
  /** Declarations of `code` in files other than the one being checked. */
  declarations(code: string, exceptUri?: string): readonly CodeDeclaration[];
  /** All declarations in other files (completion). */
  allDeclarations(exceptUri?: string): Iterable<CodeDeclaration>;
  /**
   * The code names declared in other files, each once (cheaper than allDeclarations when only names
   * matter); with `prefix`, only those starting with it (case-insensitive).
   */
  names?(exceptUri?: string, prefix?: string): Iterable<string>;
  /**
   * "Did you mean" over the code names declared in other files: the at most `limit` names that `accept`
   * takes nearest to `word` (util/closest.ts's rule), best first with their distances, from a name
   * index (util/nameTable.ts), so its cost does not grow with the number of names.
   */
  nearNames?(word: string, limit: number, exceptUri: string | undefined, accept: (name: string) => boolean): [string, number][];
  /** Occurrences of `code` in files other than `exceptUri` (references, rename). */
  occurrences(code: string, exceptUri?: string): readonly CodeOccurrence[];
  /** Declarations of `code` that exist but lie outside the code scope (to say so in mapping.unknown-code). */
  outsideScope?(code: string, exceptUri?: string): readonly CodeDeclaration[];
}

export const emptyWorkspace: WorkspaceCodes = {
  declarations: () => [],
  allDeclarations: () => [],
  occurrences: () => [],
};
