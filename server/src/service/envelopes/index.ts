/** Envelope previews in four dialects and the upstream-response simulator (design s4; docs/dialects.md). */
export * from './types';
export { preview, previewSubject } from './render';
export { simulate } from './simulate';
