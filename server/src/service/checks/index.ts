/** The only list of checks. One file per concern; each emits offsets (conventions C7). */
import { aliases } from './aliases';
import { codeNames } from './codeNames';
import { conditions } from './conditions';
import { duplicateKeys } from './duplicateKeys';
import { httpStatus } from './httpStatus';
import { mappings } from './mappings';
import { schema } from './schema';
import { templates } from './templates';
import { text } from './text';
import type { Check } from './types';
import { yamlSyntax } from './yamlSyntax';

export const checks: readonly Check[] = [yamlSyntax, text, aliases, duplicateKeys, schema, codeNames, templates, httpStatus, mappings, conditions];
