/** The one interface every check implements (conventions C7): read the model, emit offsets. */
import type { ValidateFunction } from 'ajv';
import type { Range } from 'vscode-languageserver-types';
import type { Code, PayloadOf, RuleLevel } from '../codes';
import type { AdapterModel, OperationParam } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import type { WorkspaceCodes } from '../model/workspace';
import type { createResolver } from '../workspace/resolve';
import type { TextSource } from '../model/textSource';

/** Offsets in this document, or, with `uri`, a ready range in another file of the workspace. */
export interface RelatedSpan {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly uri?: string;
  readonly range?: Range;
}

interface ProblemFields<C extends Code> {
  readonly code: C;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  /** Everything the code's quick fixes need (conventions C6), typed per code in codes.ts. */
  readonly data?: PayloadOf<C>;
  readonly related?: readonly RelatedSpan[];
  /** This problem's default level when it differs from its code's (a user's mcpAql.rules setting still wins). */
  readonly level?: Exclude<RuleLevel, 'off'>;
  /** Tag the diagnostic Deprecated. */
  readonly deprecated?: boolean;
}

/** One problem a check found: a union over the codes, so `data` is checked against the code's payload. */
export type Problem<C extends Code = Code> = C extends Code ? ProblemFields<C> : never;

export interface CheckContext {
  readonly model: AdapterModel;
  readonly registry: RegistryIndex;
  readonly validateSchema: ValidateFunction;
  /** Sub-schemas of one error_codes entry and one error_mapping value, for per-entry validation. */
  readonly validateEntry?: { readonly code: ValidateFunction; readonly mapping: ValidateFunction };
  readonly workspace: WorkspaceCodes;
}

export interface Check {
  /** Shown in internal.rule-failure diagnostics when the check throws. */
  readonly name: string;
  run(ctx: CheckContext, emit: (p: Problem) => void): void;
}

/** Resolves code names: this file's codes, the registry, then other files (workspace/resolve.ts). */
export type Resolver = ReturnType<typeof createResolver>;

/** What the per-entry part of a check reads besides the entry itself (cached per entry: see entryRecords.ts). */
export interface EntryEnv {
  /** The file's text (in pieces when the document is: util/pieceText.ts), read near an entry only. */
  readonly text: TextSource;
  readonly registry: RegistryIndex;
  readonly resolver: Resolver;
  /** The operation parameter of that name (the data of template.unknown-placeholder names it). */
  param(name: string): OperationParam | undefined;
}
