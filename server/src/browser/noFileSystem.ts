/**
 * What `node:fs`, `node:path` and `node:url` are in the browser build of the server (esbuild.js maps
 * them here): there is no file system. Every read throws, which the LSP layer already treats as "file
 * not readable": the workspace scan finds nothing, a watched-file event changes nothing, Validate
 * Workspace checks the open documents. So the workspace index holds the open documents only.
 */
const none = (what: string) => (): never => { throw new Error(`${what}: no file system in the browser build`); };

export const readFileSync = none('readFileSync');
export const readdirSync = none('readdirSync');
export const statSync = none('statSync');
export const fileURLToPath = none('fileURLToPath');
export const pathToFileURL = none('pathToFileURL');
export const join = (...parts: string[]): string => parts.join('/').replace(/\/+/g, '/');
