/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const schema: Check = {
  name: 'schema',
  run() { /* not yet implemented */ },
};
