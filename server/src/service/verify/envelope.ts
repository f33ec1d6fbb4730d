/**
 * The checks of one MCP-AQL envelope against the contract: shape (ADR-006), code known, kind (error
 * vs warning), message from a template, details present, typed and declared.
 */
import { Code } from '../codes';
import type { Problem, RelatedSpan } from '../checks/types';
import type { Contract, ContractCode } from '../contract/contract';
import { DELAY_KEYS } from '../model/retry';
import { closest } from '../util/closest';
import { kindName, member, toValue, type JsonEntry, type JsonNode } from './json';
import { judgeMessage } from './message';

export type Emit = (p: Problem) => void;
type Str = JsonNode & { kind: 'string' };

export interface EnvelopeVerdict {
  readonly success?: boolean;
  /** The failure's code when it is a string. */
  readonly code?: string;
  readonly contractCode?: ContractCode;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9_]*$/;
const shape = (emit: Emit, n: { start: number; end: number }, message: string) =>
  emit({ code: Code.VerifyEnvelopeShape, start: n.start, end: n.end, message });
const keySpan = (e: JsonEntry) => ({ start: e.keyStart, end: e.keyEnd });
/** Where a missing key is reported: the object's opening brace. */
const brace = (n: JsonNode) => ({ start: n.start, end: n.start + 1 });

function onlyKeys(emit: Emit, n: JsonNode & { kind: 'object' }, allowed: readonly string[], what: string): void {
  for (const e of n.entries)
    if (!allowed.includes(e.key)) shape(emit, keySpan(e), `'${e.key}' is not a key of ${what} (allowed: ${allowed.join(', ')}).`);
}

export function verifyEnvelope(env: JsonNode & { kind: 'object' }, contract: Contract, emit: Emit): EnvelopeVerdict {
  const success = member(env, 'success');
  if (!success) {
    shape(emit, brace(env), "An MCP-AQL envelope needs 'success' (true or false).");
    return {};
  }
  if (success.value.kind !== 'boolean') {
    shape(emit, success.value, `'success' must be true or false, not ${kindName(success.value)}.`);
    return {};
  }
  if (success.value.value) {
    onlyKeys(emit, env, ['success', 'data', 'warnings'], 'a success envelope');
    if (!member(env, 'data')) shape(emit, brace(env), "A success envelope needs 'data' (ADR-006).");
    const w = member(env, 'warnings');
    if (w && w.value.kind !== 'array') shape(emit, w.value, `'warnings' must be a list, not ${kindName(w.value)}.`);
    else if (w && w.value.kind === 'array') for (const item of w.value.items) entry(item, 'warning', contract, emit);
    return { success: true };
  }
  onlyKeys(emit, env, ['success', 'error', 'confirmation'], 'a failure envelope');
  const err = member(env, 'error');
  if (!err) {
    shape(emit, brace(env), "A failure envelope ('success': false) needs 'error' with code and message.");
    return { success: false };
  }
  const r = entry(err.value, 'error', contract, emit);
  return { success: false, ...r };
}

/** One `error` object or one item of `warnings`. */
function entry(n: JsonNode, as: 'error' | 'warning', contract: Contract, emit: Emit): { code?: string; contractCode?: ContractCode } {
  if (n.kind !== 'object') {
    shape(emit, n, `An ${as === 'error' ? "'error'" : 'item of warnings'} must be an object with code and message, not ${kindName(n)}.`);
    return {};
  }
  onlyKeys(
    emit,
    n,
    as === 'error' ? ['code', 'message', 'details'] : ['code', 'message', 'details', 'severity'],
    as === 'error' ? "'error'" : 'a warning',
  );
  const code = member(n, 'code'),
    message = member(n, 'message'),
    details = member(n, 'details');
  if (as === 'warning') {
    const sev = member(n, 'severity');
    if (sev && !(sev.value.kind === 'string' && ['low', 'medium', 'high'].includes(sev.value.value)))
      shape(emit, sev.value, "'severity' must be low, medium or high.");
  }
  if (!message) shape(emit, brace(n), `${as === 'error' ? "'error'" : 'A warning'} needs 'message'.`);
  else if (message.value.kind !== 'string' || !message.value.value)
    shape(
      emit,
      message.value,
      `'message' must be a non-empty string${message.value.kind === 'string' ? '' : `, not ${kindName(message.value)}`}.`,
    );
  if (details && details.value.kind !== 'object')
    shape(emit, details.value, `'details' must be an object, not ${kindName(details.value)}.`);
  if (!code) {
    shape(emit, brace(n), `${as === 'error' ? "'error'" : 'A warning'} needs 'code'.`);
    return {};
  }
  if (code.value.kind !== 'string') {
    shape(emit, code.value, `'code' must be a string, not ${kindName(code.value)}.`);
    return {};
  }
  if (!UPPER_SNAKE.test(code.value.value)) {
    shape(emit, code.value, `'${code.value.value}' is not an MCP-AQL code (^[A-Z][A-Z0-9_]*$).`);
    return { code: code.value.value };
  }
  const cc = checkCode(code.value, as, contract, emit);
  if (!cc) return { code: code.value.value };
  checkMessageAndDetails(
    cc,
    code.value,
    message?.value.kind === 'string' && message.value.value ? message.value : undefined,
    details?.value.kind === 'object' ? details.value : undefined,
    details,
    emit,
  );
  if (as === 'error') checkRetry(cc, code.value, details?.value.kind === 'object' ? details.value : undefined, emit);
  return { code: code.value.value, contractCode: cc };
}

/**
 * A declared `retry:` kept by the answer (docs/spec-decisions.md, "Retry"): retry-after-delay carries its
 * delay in the details, the others promise none. A category's default is not judged.
 */
export function checkRetry(cc: ContractCode, code: Str, details: (JsonNode & { kind: 'object' }) | undefined, emit: Emit): void {
  if (!cc.retryDeclared || !cc.retry) return;
  const delay = details?.entries.find(e => DELAY_KEYS.includes(e.key) || e.key.toLowerCase() === 'retry-after');
  if (cc.retry === 'retry-after-delay' && !delay)
    emit({
      code: Code.VerifyRetryDelay,
      start: code.start,
      end: code.end,
      message: `${cc.code} is retry-after-delay, but this answer carries no delay: put retryAfterMs, retry_after_seconds or Retry-After in its details.`,
    });
  else if (cc.retry !== 'retry-after-delay' && delay)
    emit({
      code: Code.VerifyRetryDelay,
      start: delay.keyStart,
      end: delay.keyEnd,
      message: `${cc.code} is ${cc.retry}, but this answer promises a retry after a delay ('${delay.key}'): drop it, or declare retry: retry-after-delay.`,
    });
}

const declaredHere = (cc: ContractCode): RelatedSpan[] =>
  cc.location ? [{ start: 0, end: 0, uri: cc.location.uri, range: cc.location.range, message: `${cc.code} is declared here` }] : [];

/** Is the code known, and of the kind it is sent as? */
export function checkCode(code: Str, as: 'error' | 'warning', contract: Contract, emit: Emit): ContractCode | undefined {
  const name = code.value;
  const cc = contract.codes.get(name);
  if (!cc) {
    const near = closest(name, contract.codes.keys());
    emit({
      code: Code.VerifyUnknownCode,
      start: code.start,
      end: code.end,
      data: { code: name, suggestions: near },
      message: `'${name}' is neither declared by ${contract.adapters.length === 1 ? 'the adapter' : 'the adapters'} nor a registry code.${near.length ? ` Did you mean ${near.join(', ')}?` : ''}`,
    });
    return undefined;
  }
  if (as === 'error' && cc.kind === 'warning') {
    emit({
      code: Code.VerifyWarningAsError,
      start: code.start,
      end: code.end,
      message: `${name} is a warning-only code: send it in 'warnings' of a success envelope, never as 'error'.`,
    });
  } else if (as === 'warning' && cc.kind === 'error') {
    emit({
      code: Code.VerifyErrorAsWarning,
      start: code.start,
      end: code.end,
      related: declaredHere(cc),
      message: `${name} is an error code: it fails the operation ('success': false, 'error'), it is not a warning.`,
    });
  }
  return cc;
}

export function checkMessageAndDetails(
  cc: ContractCode,
  code: Str,
  message: Str | undefined,
  details: (JsonNode & { kind: 'object' }) | undefined,
  detailsEntry: JsonEntry | undefined,
  emit: Emit,
  contains = false,
): void {
  // No prototype: a `__proto__` or `constructor` key is an ordinary key, judged once like any other.
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const e of details?.entries ?? []) values[e.key] = toValue(e.value);
  const related = declaredHere(cc);
  // Required keys.
  for (const d of cc.details) {
    if (!d.required || Object.prototype.hasOwnProperty.call(values, d.name)) continue;
    const at = detailsEntry ? keySpan(detailsEntry) : code;
    emit({
      code: Code.VerifyMissingDetail,
      start: at.start,
      end: at.end,
      related,
      data: { code: cc.code, key: d.name },
      message: `details.${d.name}${d.type ? ` (${d.type})` : ''} is required by ${cc.code} and missing.`,
    });
  }
  // Declared and typed.
  for (const e of details?.entries ?? []) {
    const d = cc.details.find(x => x.name === e.key);
    if (!d) {
      if (!cc.openDetails) {
        const near = closest(
          e.key,
          cc.details.map(x => x.name),
        );
        emit({
          code: Code.VerifyUndeclaredDetail,
          start: e.keyStart,
          end: e.keyEnd,
          related,
          data: { code: cc.code, key: e.key },
          message: `details.${e.key} is not declared by ${cc.code}${cc.details.length ? ` (declared: ${cc.details.map(x => x.name).join(', ')})` : ' (it declares no details)'}.${near.length ? ` Did you mean ${near[0]}?` : ''}`,
        });
      }
      continue;
    }
    const problem = typeProblem(d.type, d.enum, e.value);
    if (problem)
      emit({
        code: Code.VerifyDetailType,
        start: e.value.start,
        end: e.value.end,
        related,
        data: { code: cc.code, key: e.key },
        message: `details.${e.key} of ${cc.code} ${problem}.`,
      });
  }
  if (!message) return;
  const v = judgeMessage(message.value, cc, values, contains);
  if (!v || v.kind === 'match') return;
  const tRelated: RelatedSpan[] = v.template.location
    ? [{ start: 0, end: 0, uri: v.template.location.uri, range: v.template.location.range, message: `the template (${v.template.label})` }]
    : related;
  if (v.kind === 'localized') {
    emit({
      code: Code.VerifyMessageLocalized,
      start: message.start,
      end: message.end,
      related: tRelated,
      message: `The message matches no template of ${cc.code} but carries its details values: read as a translation of "${v.rendered}".`,
    });
    return;
  }
  const col = v.at + 1;
  const want = v.expected ? `expected ${JSON.stringify(clip(v.expected))}` : 'expected the message to end here';
  const found =
    v.at < message.value.length
      ? `, found ${JSON.stringify(clip(message.value.slice(v.at, v.at + Math.max(v.expected.length, 12))))}`
      : ', found the end of the message';
  emit({
    code: Code.VerifyMessageMismatch,
    start: message.at(v.at),
    end: v.at >= message.value.length ? message.end : message.at(Math.max(v.end, v.at + 1)),
    related: tRelated,
    data: { code: cc.code, column: col, template: v.template.text },
    message: contains
      ? `The message does not contain ${cc.code}'s message "${clip(v.rendered, 80)}" (${v.template.label}).`
      : `The message diverges from ${cc.code}'s template (${v.template.label}) at column ${col}: ${want}${found}. Template: "${clip(v.template.text, 80)}".`,
  });
}

const clip = (s: string, n = 40) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** Why a value does not fit a declared details type (undefined when it fits). */
function typeProblem(type: string | undefined, allowed: readonly unknown[] | undefined, n: JsonNode): string | undefined {
  const is = (t: string, x: JsonNode): boolean => {
    switch (t) {
      case 'string':
        return x.kind === 'string';
      case 'integer':
        return x.kind === 'number' && Number.isInteger(x.value);
      case 'number':
        return x.kind === 'number';
      case 'boolean':
        return x.kind === 'boolean';
      case 'object':
        return x.kind === 'object';
      case 'array':
        return x.kind === 'array';
      default:
        return true;
    }
  };
  if (type && type.endsWith('[]')) {
    if (n.kind !== 'array') return `must be a list (${type}), not ${kindName(n)}`;
    const bad = n.items.findIndex(x => !is(type.slice(0, -2), x));
    if (bad >= 0) return `must be ${type}: item ${bad} is ${kindName(n.items[bad]!)}`;
  } else if (type && !is(type, n))
    return `must be ${type === 'integer' || type === 'object' || type === 'array' ? 'an' : 'a'} ${type}, not ${kindName(n)}`;
  if (allowed?.length && !allowed.some(a => JSON.stringify(a) === JSON.stringify(toValue(n))))
    return `must be one of ${allowed.map(a => JSON.stringify(a)).join(', ')}, not ${JSON.stringify(toValue(n))}`;
  return undefined;
}
