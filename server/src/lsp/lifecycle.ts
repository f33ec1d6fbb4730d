/**
 * The LSP lifecycle (test/lsp/lifecycle.test.ts): a request before `initialize` is answered with
 * ServerNotInitialized (-32002) and one after `shutdown` with InvalidRequest (-32600); notifications
 * before `initialize` are dropped (but `exit`). vscode-languageserver passes such messages to the
 * handlers; this message strategy reroutes them to two handlers that only answer with the error.
 */
import { ErrorCodes, ResponseError, type Connection, type Message, type MessageStrategy } from 'vscode-languageserver/node';

const NOT_INITIALIZED = '$/mcpAql/notInitialized';
const SHUT_DOWN = '$/mcpAql/shutDown';

interface RequestLike {
  id?: unknown;
  method?: unknown;
}

/** Connection options (`createConnection(features, lifecycleOptions())`) that enforce the lifecycle. */
export function lifecycleOptions(): { messageStrategy: MessageStrategy } {
  let state: 'new' | 'running' | 'shut down' = 'new';
  return {
    messageStrategy: {
      handleMessage(message: Message, next: (message: Message) => void): void {
        const m = message as Message & RequestLike;
        if (typeof m.method !== 'string') return next(message);
        const isRequest = m.id !== undefined;
        if (!isRequest) {
          if (state === 'new' && m.method !== 'exit') return; // dropped, as the protocol says
          return next(message);
        }
        if (m.method === 'initialize' && state === 'new') state = 'running';
        else if (state === 'new') return next({ ...m, method: NOT_INITIALIZED } as Message);
        else if (state === 'shut down') return next({ ...m, method: SHUT_DOWN } as Message);
        else if (m.method === 'shutdown') state = 'shut down';
        next(message);
      },
    },
  };
}

/** The two handlers the strategy reroutes to. */
export function registerLifecycle(connection: Connection): void {
  connection.onRequest(NOT_INITIALIZED, () => {
    throw new ResponseError(ErrorCodes.ServerNotInitialized, 'The server is not initialized: send initialize first.');
  });
  connection.onRequest(SHUT_DOWN, () => {
    throw new ResponseError(ErrorCodes.InvalidRequest, 'The server is shut down: only exit is accepted.');
  });
}
