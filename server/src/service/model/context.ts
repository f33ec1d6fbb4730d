/** What every editor feature receives: the model of the document and the injected data. */
import type { ValidateFunction } from 'ajv';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel } from './model';
import type { RegistryIndex } from './registry';
import type { WorkspaceCodes } from './workspace';

export interface FeatureContext {
  readonly doc: TextDocument;
  readonly model: AdapterModel;
  readonly registry: RegistryIndex;
  readonly workspace: WorkspaceCodes;
  /** The details types of schemas/adapter.schema.json (`definitions.detailType.enum`), for completion. */
  readonly detailTypes?: readonly string[];
  /** Compiled envelope schemas by dialect id (from ServiceDeps.envelopeSchemas). */
  readonly envelopeValidators?: EnvelopeValidators;
}

/** The envelope schemas' validators by dialect id, compiled on the first `get`. */
export interface EnvelopeValidators {
  get(id: string): ValidateFunction | undefined;
}
