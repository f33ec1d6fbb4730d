/** Fixers for the diagnostics of checks/templates.ts. */
import type { Fixer } from './types';

export const templatesFixers: Record<string, Fixer> = {};
