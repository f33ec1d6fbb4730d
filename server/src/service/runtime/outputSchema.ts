/**
 * Would a 1.x MCP SDK client reject this tool result? Its `Client.callTool` validates `structuredContent`
 * against the tool's `outputSchema` whenever both are there — an error result (`isError: true`) too —
 * and throws instead of returning the result, so the model never sees the failure. The same Ajv
 * settings as that client (`strict: false`, all errors), without its format checks. A schema Ajv
 * cannot compile is not judged. Compiled on first use, per schema text (a few hundred at most).
 */
import Ajv, { type ValidateFunction } from 'ajv';

const MAX_KEPT = 500;
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction | null>();

function validatorFor(schema: object): ValidateFunction | null {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (v !== undefined) return v;
  ajv ??= new Ajv({ strict: false, validateSchema: false, allErrors: true, validateFormats: false });
  try {
    v = ajv.compile(schema);
  } catch {
    v = null; // a schema the client could not compile either: its own error, not this rule's
  }
  if (compiled.size >= MAX_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, v);
  return v;
}

/** The first reason `value` fails `schema`, or undefined when it passes (or the schema is unusable). */
export function outputSchemaRejects(schema: unknown, value: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const validate = validatorFor(schema);
  if (!validate || validate(value)) return undefined;
  const e = validate.errors?.[0];
  return e ? `${e.instancePath || '(root)'} ${e.message ?? 'is not allowed'}` : 'does not match';
}
