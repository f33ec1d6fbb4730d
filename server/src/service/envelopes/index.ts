/** Envelope previews in four dialects and the upstream-response simulator (design s4, issue 4). */
export * from './types';
export { preview, previewSubject } from './render';
export { simulate } from './simulate';
