/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const templates: Check = {
  name: 'templates',
  run() { /* not yet implemented */ },
};
