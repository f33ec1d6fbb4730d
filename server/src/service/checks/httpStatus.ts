/** TODO(owner): see checks/index.ts. */
import type { Check } from './types';

export const httpStatus: Check = {
  name: 'httpStatus',
  run() { /* not yet implemented */ },
};
