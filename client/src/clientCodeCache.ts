/**
 * What the client's loader (loadClient.ts, dist/client.js) tells the bundle about its load: the V8 code cache used,
 * refused by V8, or absent, and when the load started and the bundle was compiled (Date.now()). activateWith.ts
 * logs it with the activation's other parts; undefined in a build without the loader (the browser's).
 */
export interface ClientCodeCache {
  readonly state: 'used' | 'rejected' | 'none';
  readonly started: number;
  readonly compiled: number;
}

const KEY = Symbol.for('mcp-aql.clientCodeCache');

export const setClientCodeCache = (c: ClientCodeCache): void => {
  (globalThis as Record<symbol, unknown>)[KEY] = c;
};

export const clientCodeCache = (): ClientCodeCache | undefined => (globalThis as Record<symbol, ClientCodeCache | undefined>)[KEY];
