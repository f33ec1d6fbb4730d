/** The only list of checks. One file per concern; each emits offsets (conventions C7). */
import { aliases } from './aliases';
import { codeNames } from './codeNameChecks';
import { conditions } from './conditionChecks';
import { crossFile } from './crossFile';
import { duplicateKeys } from './duplicateKeys';
import { httpStatus } from './httpStatus';
import { mappings } from './mappingChecks';
import { schema } from './schemaChecks';
import { templates } from './templateChecks';
import { text } from './text';
import type { Check } from './types';
import { yamlSyntax } from './yamlSyntax';

export const checks: readonly Check[] = [
  yamlSyntax,
  text,
  aliases,
  duplicateKeys,
  schema,
  codeNames,
  templates,
  httpStatus,
  mappings,
  conditions,
  crossFile,
];
