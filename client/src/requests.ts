/**
 * Custom requests by their typed objects (server/src/protocol.ts), so the compiler checks the
 * parameters and the result at both ends. vscode-languageclient bundles its own copy of
 * vscode-jsonrpc, whose RequestType is a different class: the request goes by its method name, typed
 * from the shared object.
 */
import type { BaseLanguageClient } from 'vscode-languageclient';
import type { RequestType, RequestType0 } from 'vscode-languageserver-protocol';

export function send<R>(client: BaseLanguageClient, type: RequestType0<R, void>): Promise<R>;
export function send<P, R>(client: BaseLanguageClient, type: RequestType<P, R, void>, params: P): Promise<R>;
export function send(client: BaseLanguageClient, type: { readonly method: string }, params?: unknown): Promise<unknown> {
  return params === undefined ? client.sendRequest(type.method) : client.sendRequest(type.method, params);
}
