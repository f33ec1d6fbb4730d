/** `check --fix` / `--fix-dry-run`: every safe fix applied, written whole, or shown as a unified diff. */
export { fixDocuments, stdoutBytes } from './command';
