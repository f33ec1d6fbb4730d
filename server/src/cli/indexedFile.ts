/** What indexing a file gives (the check's first pass, and what the cache keeps of it), and why a file could not be read. */
import type { CodeDeclaration } from '../service';

export interface IndexedFile {
  readonly uri: string;
  readonly adapter: boolean;
  readonly decls: readonly CodeDeclaration[];
  readonly refs: string[];
}

/** A file that could not be read (node/readRegularFile's reasons). */
export interface ReadFailure {
  readonly path: string;
  readonly reason: 'missing' | 'not-regular' | 'too-large' | 'error';
  readonly message: string;
}
