/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const conditions: Check = {
  name: 'conditions',
  run() { /* not yet implemented */ },
};
