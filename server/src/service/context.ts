/** What every editor feature receives: the model of the document and the injected data. */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel } from './model';
import type { RegistryIndex } from './registry';
import type { WorkspaceCodes } from './workspace';

export interface FeatureContext {
  readonly doc: TextDocument;
  readonly model: AdapterModel;
  readonly registry: RegistryIndex;
  readonly workspace: WorkspaceCodes;
}
