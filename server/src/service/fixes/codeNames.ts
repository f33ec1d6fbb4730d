/** Fixers for the diagnostics of checks/codeNames.ts. */
import type { Fixer } from './types';

export const codeNamesFixers: Record<string, Fixer> = {};
