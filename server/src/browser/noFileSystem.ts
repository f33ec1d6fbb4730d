/**
 * What `node:fs`, `node:path`, `node:url` and `node:child_process` are in the browser build of the server (esbuild.js maps
 * them here): there is no file system. Every file system call throws, which the LSP layer already
 * treats as "file not readable": the workspace scan finds nothing, a watched-file event changes
 * nothing, no config file is found, Validate Workspace checks the open documents. So the workspace
 * index holds the open documents only. The path helpers are plain POSIX string functions.
 */
const none = (what: string) => (): never => {
  throw new Error(`${what}: no file system in the browser build`);
};

export const readFileSync = none('readFileSync');
export const readdirSync = none('readdirSync');
export const statSync = none('statSync');
export const lstatSync = none('lstatSync');
export const fstatSync = none('fstatSync');
export const openSync = none('openSync');
export const closeSync = none('closeSync');
export const realpathSync = none('realpathSync');
export const constants: Record<string, number> = {};
export const fileURLToPath = none('fileURLToPath');
export const pathToFileURL = none('pathToFileURL');
/** No git either (Compare Contract answers with this error). */
export const spawnSync = none('spawnSync');

export const sep = '/';
export const isAbsolute = (p: string): boolean => p.startsWith('/');
export const join = (...parts: string[]): string => parts.join('/').replace(/\/+/g, '/');
export const dirname = (p: string): string => {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i);
};
export function relative(from: string, to: string): string {
  const a = from.split('/').filter(Boolean),
    b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
