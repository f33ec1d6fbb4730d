/** Fixers for the diagnostics of checks/conditions.ts. */
import type { Fixer } from './types';

export const conditionsFixers: Record<string, Fixer> = {};
