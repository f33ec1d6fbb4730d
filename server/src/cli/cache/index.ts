/** `check --cache`: what a run keeps of each file (hashes, declarations, diagnostics), stored and refused safely. */
export { CheckCache, contentHash, readsAllNames } from './checkCache';
export { defaultCacheFile } from './store';
