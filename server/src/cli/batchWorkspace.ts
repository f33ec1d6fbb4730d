/**
 * What a check worker's validation sees of other files (issue 23): not every declaration of the
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
 * thread's side, `DeclarationsByCode`, picks each batch's declarations and packs the names.
 */
import { createNameIndex, createWorkspaceIndex, emptyWorkspace, type CodeDeclaration, type WorkspaceCodes } from '../service';
import { packDeclarations, unpackDeclarations } from './declarationsPack';

/** Every declared name per file: `[uri, names][]`, in the run's file order. */
export type PackedNames = [string, readonly string[]][];

/**
 * The declarations of a run (adapters in run order), looked up by code name, for one batch at a time.
 * `allNames`: every declared name per file, when `declarations` holds only those some files need (`check --cache`).
 */
export class DeclarationsByCode {
  /** Code name → the file (its position in the run) declaring it, or the files, in order. */
  private readonly byCode = new Map<string, number | number[]>();
  constructor(
    private readonly declarations: readonly [string, readonly CodeDeclaration[]][],
    private readonly allNames?: PackedNames,
  ) {
    declarations.forEach(([, ds], i) => {
      for (const d of ds) {
        const h = this.byCode.get(d.code);
        if (h === undefined) this.byCode.set(d.code, i);
        else if (typeof h === 'number') {
          if (h !== i) this.byCode.set(d.code, [h, i]);
        } else if (h[h.length - 1] !== i) h.push(i);
      }
    });
  }

  /**
   * The codes of `refs` (what `uri` declares or references) whose declarations a batch holding `uri` needs:
   * not those only `uri` itself declares. The file reads those from its own model, and the run's names
   * already answer that no other file declares them (`code.declared-elsewhere`, the code scope).
   */
  needs(uri: string, refs: readonly string[]): string[] {
    return refs.filter(code => {
      const h = this.byCode.get(code);
      return !(typeof h === 'number' && this.declarations[h]![0] === uri);
    });
  }

  /** Every declaration of these code names, by file in the run's order (each file's own order kept). */
  forCodes(codes: Iterable<string>): [string, CodeDeclaration[]][] {
    const wanted = new Set(codes);
    const files = new Set<number>();
    for (const c of wanted) {
      const h = this.byCode.get(c);
      if (typeof h === 'number') files.add(h);
      else if (h) for (const i of h) files.add(i);
    }
    return [...files]
      .sort((a, b) => a - b)
      .map(i => {
        const [uri, ds] = this.declarations[i]!;
        return [uri, ds.filter(d => wanted.has(d.code))];
      });
  }

  /** The packed declarations a batch needs (`forCodes`). */
  packFor(codes: Iterable<string>): string {
    return packDeclarations(this.forCodes(codes));
  }

  /** Every declared name, per file. */
  names(): PackedNames {
    if (this.allNames) return this.allNames.filter(([, ns]) => ns.length);
    return this.declarations.filter(([, ds]) => ds.length).map(([uri, ds]) => [uri, ds.map(d => d.code)]);
  }

  /** Every declared name, per file: one string for every worker. */
  packNames(): string {
    return JSON.stringify(this.names());
  }
}

/** A worker's view of the workspace: the names of the run, and the declarations of the current batch. */
export class BatchWorkspace implements WorkspaceCodes {
  private all: WorkspaceCodes = emptyWorkspace;
  private batch = createWorkspaceIndex();
  private inBatch = new Set<string>();
  /** Declarations received, for the tests: the last batch's count. */
  received = 0;

  /** The run's names (`DeclarationsByCode.packNames`), once. */
  setNames(json: string): void {
    this.useNames(JSON.parse(json) as PackedNames);
  }

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
