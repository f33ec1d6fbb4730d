/**
 * What a run-time session agreed on, as a hint on its transcript (`runtime.session`), so every report
 * format carries the protocol revision and era the server negotiated (docs/spec-decisions.md, "Run
 * time: protocol revisions"): a text, JSON, SARIF, JUnit… report has no other place for it.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';

export interface SessionInfo {
  /** 2024-11-05 … 2026-07-28. */
  readonly revision: string;
  readonly era: 'handshake' | 'stateless';
  readonly transport: 'stdio' | 'http';
  readonly server?: { readonly name?: string; readonly version?: string };
  /** The server's name in a host's config (`--config`), when it came from one. */
  readonly configName?: string;
}

export function sessionNote(s: SessionInfo, start: number, end: number): Problem {
  const who = [s.server?.name, s.server?.version].filter(Boolean).join(' ');
  const era =
    s.era === 'stateless' ? 'the stateless era (server/discover, the revision in each request)' : 'the handshake era (initialize)';
  return {
    code: Code.RuntimeSession,
    start,
    end,
    message: `${s.configName ? `'${s.configName}': ` : ''}MCP ${s.revision}, ${era}, over ${s.transport === 'http' ? 'Streamable HTTP' : 'stdio'}${who ? `, with ${who}` : ''}.`,
  };
}
