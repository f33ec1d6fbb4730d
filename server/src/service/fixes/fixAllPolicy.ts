/**
 * Which fixes "Fix all" (the command, `source.fixAll.mcp-aql`, and so `editor.codeActionsOnSave`) may
 * apply without a person looking: only local, meaning-preserving ones. Renames of codes (public API),
 * removals, category changes and template insertions change what clients receive, so they stay
 * one-by-one quick fixes. The README's "Fix all" section lists this table.
 */
import type { CodeAction } from 'vscode-languageserver-types';
import type { Code, PayloadOf } from '../codes';

/** Picks the action Fix all applies from a fixer's actions, given the diagnostic's payload. */
type FixAllRule<C extends Code> = (actions: readonly CodeAction[], data: NonNullable<PayloadOf<C>>) => CodeAction | undefined;

/** The preferred action: quoting, which changes no value. */
const preferred =
  <C extends Code>(): FixAllRule<C> =>
  actions =>
    actions.find(a => a.isPreferred);
/** The closest candidate when it is the only one (a typo); with two or more candidates nothing is applied. */
const onlyCandidate =
  <C extends Code>(): FixAllRule<C> =>
  (actions, data) =>
    (data as { suggestions?: readonly unknown[] }).suggestions?.length === 1 ? actions.find(a => a.isPreferred) : undefined;

const FIX_ALL_RULES: { readonly [C in Code]?: FixAllRule<C> } = {
  'template.unquoted-placeholder': preferred(),
  'template.flow-mapping': preferred(),
  'template.comment-cut': preferred(),
  'schema.unknown-key': onlyCandidate(),
  'schema.enum': onlyCandidate(),
  'code.unknown-category': onlyCandidate(),
  'condition.unknown-root': onlyCandidate(),
  // `{repos}` → `{repo}` when `repo` is the one close details key and the name is no operation
  // parameter (then declaring it may be meant): the typo of a key. Declaring and removing stay manual.
  // (the fixer prefers that change exactly then).
  'template.unknown-placeholder': (actions, data) =>
    data.param ? undefined : onlyCandidate<'template.unknown-placeholder'>()(actions, data),
};

/** The action Fix all applies for a diagnostic of `code` with payload `data`, or undefined. */
export function fixAllAction<C extends Code>(
  code: C,
  actions: readonly CodeAction[],
  data: NonNullable<PayloadOf<C>>,
): CodeAction | undefined {
  const rule = FIX_ALL_RULES[code] as FixAllRule<C> | undefined;
  return rule?.(actions, data);
}
