/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const codeNames: Check = {
  name: 'codeNames',
  run() { /* not yet implemented */ },
};
