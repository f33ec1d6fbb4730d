/** Fixers for the diagnostics of checks/schema.ts. */
import type { Fixer } from './types';

export const schemaFixers: Record<string, Fixer> = {};
