/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const mappings: Check = {
  name: 'mappings',
  run() { /* not yet implemented */ },
};
