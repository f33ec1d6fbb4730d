/**
 * Why a server did not start or could not be reached, in words a user can act on. The SDK's own
 * messages name its step, not the cause: a server that never answers gives "Request timed out" after
 * the handshake's waits, and an HTTP endpoint that is down gives "fetch failed" with the reason (a
 * refused connection, an unknown host, a port fetch refuses) only in the error's `cause`.
 */
export function startFailure(e: unknown, waitMs: number): string {
  const message = e instanceof Error ? e.message : String(e);
  const causes: string[] = [];
  let cause = e instanceof Error ? (e as { cause?: unknown }).cause : undefined;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 4; depth++) {
    const text = cause instanceof Error ? cause.message : String(cause);
    if (text && !message.includes(text) && !causes.includes(text)) causes.push(text);
    cause = cause instanceof Error ? (cause as { cause?: unknown }).cause : undefined;
  }
  const seconds = Math.round(waitMs / 100) / 10;
  if (/^(MCP error -32001: )?Request timed out$/.test(message))
    return `the server did not answer the handshake (${seconds} s for each request: server/discover, then initialize): is it an MCP server, or is it waiting for something (a network, a credential, input)?`;
  return causes.length ? `${message} (${causes.join(': ')})` : message;
}
