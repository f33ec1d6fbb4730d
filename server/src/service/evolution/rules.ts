/**
 * The kinds of change to an error contract, each with a stable id, a class and the reason for it
 * (docs/contract-diff.md is this table in prose; test/service/evolutionRules.test.ts keeps them equal).
 * A contract's consumers are the clients that branch on codes, categories and details keys; its
 * producers are the adapter runtimes and anything recorded against it (`verify`). Breaking: a client
 * written against the old contract can now go wrong. Dangerous: the clients keep working, but what
 * they see for some responses changes, or producers must change. Safe: neither.
 */
export type Severity = 'breaking' | 'dangerous' | 'safe';

export interface RuleInfo {
  readonly severity: Severity;
  readonly title: string;
  readonly why: string;
  /** The rules the same edit made backwards is reported as (diff(b, a) of a change of diff(a, b)). */
  readonly mirrors: readonly string[];
}

export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

export const RULES = {
  'adapter.added': {
    severity: 'safe',
    title: 'An adapter was added',
    why: 'New tools; nothing a client relied on changed.',
    mirrors: ['adapter.removed'],
  },
  'adapter.removed': {
    severity: 'breaking',
    title: 'An adapter was removed',
    why: 'Its error_mapping is gone: every upstream status falls back to the default mapping.',
    mirrors: ['adapter.added'],
  },
  'code.added': {
    severity: 'safe',
    title: 'A code was added',
    why: 'Clients that do not know it treat it by its category.',
    mirrors: ['code.removed'],
  },
  'code.removed': {
    severity: 'breaking',
    title: 'A code was removed',
    why: 'Clients that branch on it never see it again; the responses it named now carry another code. A code moved to another file is not removed.',
    mirrors: ['code.added'],
  },
  'code.category-changed': {
    severity: 'breaking',
    title: "A code's category changed",
    why: 'Clients choose their recovery (retry, re-authenticate, give up) by category.',
    mirrors: ['code.category-changed'],
  },
  'code.description-changed': {
    severity: 'safe',
    title: "A code's description changed",
    why: 'Documentation only.',
    mirrors: ['code.description-changed'],
  },
  'code.retry-changed': {
    severity: 'dangerous',
    title: "A code's retry changed",
    why: 'Clients decide whether to send a failed call again, at once, after a change or after the delay the answer carries, by retry: a client built for the old value retries too eagerly or gives up.',
    mirrors: ['code.retry-changed'],
  },
  'code.condition-changed': {
    severity: 'dangerous',
    title: "A code's condition changed",
    why: 'The same upstream response may now get this code, or no longer get it.',
    mirrors: ['code.condition-changed'],
  },
  'code.status-added': {
    severity: 'safe',
    title: 'A code maps from one more HTTP status',
    why: 'The code is produced in more cases; clients already handle it.',
    mirrors: ['code.status-removed'],
  },
  'code.status-removed': {
    severity: 'dangerous',
    title: 'A code maps from one HTTP status fewer',
    why: 'Responses with that status now carry another code.',
    mirrors: ['code.status-added'],
  },
  'code.shadowed-status-added': {
    severity: 'dangerous',
    title: 'A code claims one more HTTP status, which error_mapping answers first',
    why: 'The contract now says the code maps from the status, but an error_mapping entry without a condition for it or its range answers every such response: no client ever gets the code for it (check: mapping.shadowed-status).',
    mirrors: ['code.shadowed-status-removed'],
  },
  'code.shadowed-status-removed': {
    severity: 'safe',
    title: 'A code no longer claims an HTTP status that error_mapping answered first',
    why: 'The code never answered that status: responses with it keep the error_mapping entry’s code.',
    mirrors: ['code.shadowed-status-added'],
  },
  'details.key-added': {
    severity: 'safe',
    title: 'An optional details key was added',
    why: 'Clients ignore keys they do not read.',
    mirrors: ['details.key-removed'],
  },
  'details.required-added': {
    severity: 'dangerous',
    title: 'A details key became required (new, or was optional)',
    why: 'Clients are unaffected, but every producer and recorded response must now send it (verify fails until they do).',
    mirrors: ['details.key-removed', 'details.required-removed'],
  },
  'details.key-removed': {
    severity: 'breaking',
    title: 'A details key was removed',
    why: 'Clients that read it find nothing.',
    mirrors: ['details.key-added', 'details.required-added'],
  },
  'details.required-removed': {
    severity: 'breaking',
    title: 'A required details key became optional',
    why: 'Clients that read it unconditionally may now find it missing.',
    mirrors: ['details.required-added'],
  },
  'details.type-changed': {
    severity: 'breaking',
    title: "A details key's type changed",
    why: 'Clients parse the value as the old type.',
    mirrors: ['details.type-changed'],
  },
  'details.type-widened': {
    severity: 'breaking',
    title: "A details key's type was widened",
    why: 'Clients may receive values the old type excluded (a fraction for an integer, anything for an undeclared type).',
    mirrors: ['details.type-narrowed'],
  },
  'details.type-narrowed': {
    severity: 'dangerous',
    title: "A details key's type was narrowed",
    why: 'Clients still accept every value; producers that send the wider values fail verification.',
    mirrors: ['details.type-widened'],
  },
  'details.enum-value-added': {
    severity: 'dangerous',
    title: "A details key's enum allows more values",
    why: 'A client that switches over the values meets one it has no case for.',
    mirrors: ['details.enum-value-removed'],
  },
  'details.enum-value-removed': {
    severity: 'dangerous',
    title: "A details key's enum allows fewer values",
    why: 'Clients are unaffected; producers that send the value fail verification.',
    mirrors: ['details.enum-value-added'],
  },
  'template.added': {
    severity: 'safe',
    title: 'A message template was added',
    why: 'The message becomes more specific; clients do not parse messages.',
    mirrors: ['template.removed'],
  },
  'template.removed': {
    severity: 'dangerous',
    title: 'A message template was removed',
    why: 'The message falls back to a generic one, and the values it carried are gone from it.',
    mirrors: ['template.added'],
  },
  'template.placeholder-added': {
    severity: 'dangerous',
    title: 'A placeholder was added to a message template',
    why: 'Producers must supply the value, and localized message catalogs need the placeholder.',
    mirrors: ['template.placeholder-removed'],
  },
  'template.placeholder-removed': {
    severity: 'breaking',
    title: 'A placeholder was removed from a message template',
    why: 'The message no longer carries the value; localized catalogs and clients that extract it from the text break.',
    mirrors: ['template.placeholder-added'],
  },
  'template.text-changed': {
    severity: 'safe',
    title: "A message template's wording changed",
    why: 'Same placeholders; only the words a person reads changed.',
    mirrors: ['template.text-changed'],
  },
  'mapping.status-added': {
    severity: 'dangerous',
    title: 'error_mapping maps one more HTTP status',
    why: 'Responses with that status got the default code; now they get this one.',
    mirrors: ['mapping.status-removed'],
  },
  'mapping.status-removed': {
    severity: 'breaking',
    title: 'error_mapping no longer maps an HTTP status',
    why: 'Responses with that status fall back to the default code; clients that branched on the mapped code miss them.',
    mirrors: ['mapping.status-added'],
  },
  'mapping.status-retargeted': {
    severity: 'breaking',
    title: 'An error_mapping entry now gives another code',
    why: 'The same upstream response carries a different code.',
    mirrors: ['mapping.status-retargeted'],
  },
  'mapping.entry-added': {
    severity: 'dangerous',
    title: 'A conditional error_mapping entry was added',
    why: 'Some responses with that status now get this entry’s code instead of the one they got.',
    mirrors: ['mapping.entry-removed'],
  },
  'mapping.entry-removed': {
    severity: 'breaking',
    title: 'A conditional error_mapping entry was removed',
    why: 'The responses it matched now get another code.',
    mirrors: ['mapping.entry-added'],
  },
  'mapping.condition-changed': {
    severity: 'dangerous',
    title: "An error_mapping entry's condition changed",
    why: 'Which responses get the entry’s code changed.',
    mirrors: ['mapping.condition-changed'],
  },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];
export const severityOf = (id: RuleId): Severity => RULES[id].severity;
export const mirrorsOf = (id: RuleId): readonly RuleId[] => RULES[id].mirrors as readonly RuleId[];
