/**
 * The run-time commands' way to a server: `openSession` gives the session for a target — stdio or
 * Streamable HTTP, either protocol era — on the MCP SDK's 2.x client (clientSession.ts), in a bundle of
 * its own (`dist/probe-session.js`, esbuild.js), loaded only when a session is opened, so no other
 * command reads or compiles the SDK.
 */
import { InputError } from '../../args';
import type { McpSession, SessionTarget } from './session';
import type { ClientSession } from './clientSession';

export type { CallOutcome, Direction, HttpTarget, McpSession, Negotiated, SessionTarget, StdioTarget, TrafficListener } from './session';

function sessionClass(): typeof ClientSession {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when a session opens, not at start-up
    return (require('./clientSession') as typeof import('./clientSession')).ClientSession;
  } catch (e) {
    if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
    throw new InputError(
      'probe: this build has no MCP client (dist/probe-session.js is missing beside the command line); use the npm package, or `npm ci && npm run build` in this checkout',
    );
  }
}

/** A session to `target`, not yet started. */
export function openSession(target: SessionTarget, version: string): McpSession {
  return new (sessionClass())(target, version);
}
