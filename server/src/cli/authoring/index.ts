/** The commands an adapter author writes with: `init` (a starter config), `preview` (the responses a client gets), `registry` (the codes). */
export { runInit } from './init';
export { runPreview } from './preview';
export { runRegistry } from './registry';
