/**
 * "MCP-AQL: Probe a Server…" (test/client/probeFindings.test.ts), the pure part: the server command typed by the user
 * split into arguments, and each finding of `probe`'s JSON report placed on the declaration of the
 * adapter it concerns — the error code the answer carried (its `error_codes` entry), else the
 * operation the call named (`- name: op`), else the adapter's first line. No vscode here.
 */

/** A finding of `mcp-aql-errors probe --format json` (1-based lines and columns, as the report has them). */
export interface ReportFinding {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** A finding on the adapter: 0-based range, the message naming the call. */
export interface PlacedFinding {
  readonly line: number;
  readonly character: number;
  readonly endLine: number;
  readonly endCharacter: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** Split a command line like a POSIX shell does for words: spaces, '…' and "…" quotes, backslash escapes. */
export function splitCommand(text: string): string[] | { error: string } {
  const out: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i]!;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i]!;
    else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (quote) return { error: `unclosed ${quote} quote` };
  if (word !== undefined) out.push(word);
  if (!out.length) return { error: 'no command' };
  return out;
}

const parse = (line: string | undefined): unknown => {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
};
const obj = (x: unknown): Record<string, unknown> | undefined =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;

/** The MCP-AQL code an answer carries: an envelope in a text content, structuredContent, or a question-style error. */
export function answerCode(answer: unknown): string | undefined {
  const m = obj(answer);
  const data = obj(obj(m?.error)?.data);
  if (typeof data?.mcp_aql_code === 'string') return data.mcp_aql_code;
  const result = obj(m?.result);
  const envelopes: unknown[] = [result?.structuredContent];
  if (Array.isArray(result?.content))
    for (const c of result.content) if (typeof obj(c)?.text === 'string') envelopes.push(parse(obj(c)!.text as string));
  for (const e of envelopes) {
    const code = obj(obj(e)?.error)?.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The line (0-based) and columns of a pattern's first match, or undefined. */
function find(lines: readonly string[], rx: RegExp): { line: number; start: number; end: number } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const m = rx.exec(lines[i]!);
    if (m?.[1] !== undefined) {
      const start = m.index + m[0].indexOf(m[1]);
      return { line: i, start, end: start + m[1].length };
    }
  }
  return undefined;
}

const escapeRx = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function placeOnAdapter(transcript: string, findings: readonly ReportFinding[], adapterText: string): PlacedFinding[] {
  const tLines = transcript.split('\n');
  const aLines = adapterText.split(/\r?\n/);
  return findings.map(f => {
    const here = parse(tLines[f.line - 1]);
    // A finding is on an answer (its request is the line above) or on a request that got none.
    const isRequest = obj(here)?.method === 'tools/call';
    const request = obj(isRequest ? here : parse(tLines[f.line - 2]));
    const params = obj(request?.params);
    const tool = typeof params?.name === 'string' ? params.name : '?';
    const operation = obj(params?.arguments)?.operation;
    const op = typeof operation === 'string' ? operation : undefined;
    const code = isRequest ? undefined : answerCode(here);
    const at = (code && /^[A-Za-z0-9_]+$/.test(code) ? find(aLines, new RegExp(`^\\s+["']?(${escapeRx(code)})["']?\\s*:`)) : undefined) ??
      (op && /^[A-Za-z0-9_]+$/.test(op)
        ? find(aLines, new RegExp(`^\\s*-?\\s*name:\\s*["']?(${escapeRx(op)})["']?\\s*(?:#.*)?$`))
        : undefined) ?? {
        line: 0,
        start: 0,
        end: aLines[0]?.length ?? 0,
      };
    const call = `${tool}${op ? ` ${op}` : ''}`;
    return {
      line: at.line,
      character: at.start,
      endLine: at.line,
      endCharacter: at.end,
      severity: f.severity,
      code: f.code,
      message: `probe, ${call} (transcript line ${f.line}): ${f.message}`,
    };
  });
}
