/**
 * What a check worker's validation sees of other files (ARCHITECTURE.md, "One workspace path"): not every declaration of the
 * workspace, which each worker would hold (the run's peak memory), but
 *
 * - per batch, the declarations of the codes its files reference or declare (the index pass knows
 *   them: `WorkspaceIndex.dependsOn`), in full (`slim`): everything resolution and
 *   `code.declared-elsewhere` read;
 * - once per run, every declared name with the files that declare it, and nothing else: what "did you
 *   mean" (`nearNames`) and the code scope's filter of its candidates (`declarations(n).some(inScope)`,
 *   which reads only the URI) read.
 *
 * A name the batch needs is answered from the batch's declarations, any other from the names. The main
 * thread's side, `DeclarationsByCode`, sorts and packs the names once (workspace/nameIndex.ts
 * `packNames`) and picks each batch's declarations.
 */
import {
  createNameIndex,
  createWorkspaceIndex,
  emptyWorkspace,
  packNames,
  PackedNameList,
  type CodeDeclaration,
  type PackedNames,
  type WorkspaceCodes,
} from '../../service';
import { packDeclarations, unpackDeclarations } from './declarationsPack';

/** Every declared name per file: `[uri, names][]`, in the run's file order. */
export type NamesPerFile = [string, readonly string[]][];

/**
 * The declarations of a run (adapters in run order), looked up by code name, for one batch at a time.
 * `allNames`: every declared name per file, when `declarations` holds only those some files need (`check --cache`).
 * The names are sorted and packed once here (`names`, what every thread gets), and lookups by name read
 * them: no map of every name on this thread.
 */
export class DeclarationsByCode {
  /** Every declared name of the run with its files, sorted and packed (`packNames`): what each thread gets once. */
  readonly names: PackedNames;
  private readonly list: PackedNameList;
  /** A file of `names` → its position in `declarations` (when `allNames` lists the files otherwise). */
  private readonly at?: Int32Array;
  private declarations: readonly (readonly [string, readonly CodeDeclaration[]])[];
  constructor(declarations: readonly (readonly [string, readonly CodeDeclaration[]])[], allNames?: NamesPerFile) {
    this.declarations = declarations;
    this.names = packNames(allNames ?? declarations.map(([uri, ds]) => [uri, ds.map(d => d.code)] as const));
    this.list = new PackedNameList(this.names);
    if (allNames) {
      const position = new Map(declarations.map(([uri], i) => [uri, i] as const));
      this.at = Int32Array.from(allNames, ([uri]) => position.get(uri) ?? -1);
    }
  }

  /** The positions in `declarations` of the files declaring `code`, in order. */
  private filesOf(code: string): number[] {
    const i = this.list.indexOf(code);
    if (i < 0) return [];
    const files = [...this.list.holders(i)];
    return this.at ? files.map(f => this.at![f]!).filter(f => f >= 0) : files;
  }

  /**
   * The codes of `refs` (what `uri` declares or references) whose declarations a batch holding `uri` needs:
   * not those only `uri` itself declares. The file reads those from its own model, and the run's names
   * already answer that no other file declares them (`code.declared-elsewhere`, the code scope).
   */
  needs(uri: string, refs: readonly string[]): string[] {
    return refs.filter(code => {
      const i = this.list.indexOf(code);
      if (i < 0) return true;
      const h = this.list.holders(i);
      return !(h.length === 1 && this.names.uris[h[0]!] === uri);
    });
  }

  /**
   * Drop every declaration of a code not in `codes` (those no batch will ask for: `needs` of every file).
   * The names stay; in a generated workspace of 20,000 files 7 % of the declarations remain.
   */
  keepOnly(codes: ReadonlySet<string>): void {
    this.declarations = this.declarations.map(
      ([uri, ds]) => [uri, ds.some(d => !codes.has(d.code)) ? ds.filter(d => codes.has(d.code)) : ds] as const,
    );
  }

  /**
   * A validation's declarations: each file's needs (`needs`) worked out once, and only the declarations
   * some batch needs kept (`keepOnly`), so the caller can drop `declarations` and `refs` once this returns.
   */
  static forRun(
    declarations: readonly (readonly [string, readonly CodeDeclaration[]])[],
    uris: readonly string[],
    refs: (uri: string) => readonly string[],
    allNames?: NamesPerFile,
  ): { byCode: DeclarationsByCode; needs: Map<string, string[]> } {
    const byCode = new DeclarationsByCode(declarations, allNames);
    const needs = new Map(uris.map(uri => [uri, byCode.needs(uri, refs(uri))] as const));
    byCode.keepOnly(new Set([...needs.values()].flat()));
    return { byCode, needs };
  }

  /** Declarations held (`keepOnly` counted by the tests). */
  get held(): number {
    return this.declarations.reduce((n, [, ds]) => n + ds.length, 0);
  }

  /** Every declaration of these code names, by file in the run's order (each file's own order kept). */
  forCodes(codes: Iterable<string>): [string, CodeDeclaration[]][] {
    const wanted = new Set(codes);
    const files = new Set<number>();
    for (const c of wanted) for (const i of this.filesOf(c)) files.add(i);
    return [...files]
      .sort((a, b) => a - b)
      .map(i => {
        const [uri, ds] = this.declarations[i]!;
        return [uri, ds.filter(d => wanted.has(d.code))] as [string, CodeDeclaration[]];
      })
      .filter(([, ds]) => ds.length);
  }

  /** The packed declarations a batch needs (`forCodes`). */
  packFor(codes: Iterable<string>): string {
    return packDeclarations(this.forCodes(codes));
  }
}

/** A worker's view of the workspace: the names of the run, and the declarations of the current batch. */
export class BatchWorkspace implements WorkspaceCodes {
  private all: WorkspaceCodes = emptyWorkspace;
  private batch = createWorkspaceIndex();
  private inBatch = new Set<string>();
  /** Declarations received, for the tests: the last batch's count. */
  received = 0;

  /** The run's names (`DeclarationsByCode.names`), once: sorted already, so no thread sorts them. */
  useNames(names: PackedNames): void {
    this.all = createNameIndex(names);
  }

  /** The batch's declarations (`DeclarationsByCode.packFor`), replacing the last batch's. */
  setBatch(json: string): void {
    this.useBatch(unpackDeclarations(json));
  }

  useBatch(declarations: readonly [string, readonly CodeDeclaration[]][]): void {
    this.batch = createWorkspaceIndex();
    this.received = 0;
    for (const [uri, decls] of declarations) {
      this.batch.update(uri, decls, []);
      this.received += decls.length;
    }
    this.inBatch = new Set(this.batch.names!());
  }

  declarations(code: string, exceptUri?: string): readonly CodeDeclaration[] {
    return (this.inBatch.has(code) ? this.batch : this.all).declarations(code, exceptUri);
  }
  *allDeclarations(exceptUri?: string): Iterable<CodeDeclaration> {
    for (const d of this.all.allDeclarations(exceptUri)) if (!this.inBatch.has(d.code)) yield d;
    yield* this.batch.allDeclarations(exceptUri);
  }
  names(exceptUri?: string, prefix?: string): Iterable<string> {
    return this.all.names?.(exceptUri, prefix) ?? [];
  }
  nearNames(word: string, limit: number, exceptUri: string | undefined, accept: (name: string) => boolean): [string, number][] {
    return this.all.nearNames?.(word, limit, exceptUri, accept) ?? [];
  }
  occurrences(): readonly never[] {
    return [];
  }
}
