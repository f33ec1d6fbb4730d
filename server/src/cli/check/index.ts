/** `check`: arguments, the file listing, the worker pool and its batches, the in-process path, the report stream. */
export { runCheck } from './command';
// dist/cli.js is also the check worker's script: the worker answers when loaded in a pool thread.
import './worker';
