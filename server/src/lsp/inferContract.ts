/**
 * `mcpAql/inferContract` (MCP-AQL: Infer Contract from Transcript…): a transcript's text → a new
 * adapter's text, by the service. Nothing is read from or written to disk here; the client opens the
 * result beside the transcript.
 */
import { ErrorCodes, ResponseError } from 'vscode-languageserver';
import { InferContract } from '../protocol';
import type { ServerContext } from './context';

export function registerInferContract(ctx: ServerContext): void {
  ctx.connection.onRequest(InferContract.type, p => {
    if (typeof p?.text !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'mcpAql/inferContract needs the transcript text');
    const name = typeof p.name === 'string' && /^[a-z][a-z0-9-]*$/.test(p.name) ? p.name : undefined;
    const r = ctx.service.inferContract({ transcripts: [p.text], name });
    return { text: r.text, failures: r.failures, codes: r.kinds.map(k => k.code) };
  });
}
