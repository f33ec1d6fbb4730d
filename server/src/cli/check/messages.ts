/**
 * The messages between the check's main thread and its workers (pool.ts, worker.ts): batches to index
 * and validate, and what comes back. Types and the options table only, so both ends import them without
 * importing each other.
 */
import type { PackedNames, ServiceOptions } from '../../service';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ReadFailure } from '../indexedFile';

/** Each file's options: distinct option sets, and for each URI (same order) the index of its set. */
export interface OptionsTable {
  readonly sets: ServiceOptions[];
  readonly of: number[];
}

export type ToWorker =
  /** `paths`: each URI's file (same order), as the main thread listed it: the thread reads it without converting the URI. */
  | { readonly type: 'index'; readonly batch: number; readonly uris: string[]; readonly paths: string[]; readonly opts: OptionsTable }
  /** Every declared name of the run with its files, sorted and packed once (`DeclarationsByCode.names`), once per run. */
  | { readonly type: 'names'; readonly names: PackedNames }
  /** `json`: the declarations of the codes the batch's files reference or declare (`DeclarationsByCode.packFor`). */
  | {
      readonly type: 'validate';
      readonly batch: number;
      readonly uris: string[];
      readonly paths: string[];
      readonly opts: OptionsTable;
      readonly json: string;
    };

/** Each options object's JSON, made once: a run has one object per config file (cli/check/command.ts), not one per file. */
const keyOf = new WeakMap<ServiceOptions, string>();

export function table(uris: readonly string[], opts: (uri: string) => ServiceOptions): OptionsTable {
  const keys = new Map<string, number>(),
    sets: ServiceOptions[] = [];
  const of = uris.map(u => {
    const o = opts(u);
    let k = keyOf.get(o);
    if (k === undefined) keyOf.set(o, (k = JSON.stringify(o)));
    let i = keys.get(k);
    if (i === undefined) {
      keys.set(k, (i = sets.length));
      sets.push(o);
    }
    return i;
  });
  return { sets, of };
}

/** One validated adapter file (non-adapters and unreadable files have none). */
export interface ValidatedFile {
  readonly uri: string;
  readonly diagnostics: Diagnostic[];
  /** The text, for code frames: only when there are diagnostics. */
  readonly text: string;
}

export type FromWorker =
  /** `json`: the batch's files (`packIndexed`). */
  | { readonly type: 'indexed'; readonly batch: number; readonly json: string; readonly failed: ReadFailure[] }
  | {
      readonly type: 'validated';
      readonly batch: number;
      readonly results: ValidatedFile[];
      readonly failed: ReadFailure[];
      /** How many declarations the worker held for the batch (`BatchWorkspace.received`). */
      readonly declarations: number;
    }
  | { readonly type: 'error'; readonly message: string };
