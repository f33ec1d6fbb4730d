/** Contract evolution (`diff`; docs/contract-diff.md): two versions of a contract → classified changes. */
export { compareSnapshots, type ContractChange } from './compare';
export { mirrorsOf, RULE_IDS, RULES, SEVERITIES, severityOf, type RuleId, type RuleInfo, type Severity } from './rules';
export { buildSnapshot, type Place, type Snapshot, type SnapshotInput } from './snapshot';
export { changesMarkdown, changesSummary, placeLabel, REPORT_MARKER, tallyChanges } from './report';
