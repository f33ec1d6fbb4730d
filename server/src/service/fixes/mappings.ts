/** Fixers for the diagnostics of checks/mappings.ts. */
import type { Fixer } from './types';

export const mappingsFixers: Record<string, Fixer> = {};
