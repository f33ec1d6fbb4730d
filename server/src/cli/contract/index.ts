/** What a contract offers clients: `diff` (two versions compared), `docs` (the error reference), `types` (TypeScript and JSON Schema). */
export { runContractDiff } from './diff';
export { runDocs } from './docs';
export { runInfer } from './infer';
export { runTypes } from './types';
