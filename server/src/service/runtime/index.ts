export { adapterOperations } from './adapterOperations';
export { envelopeOf, judgeAnswer, judgeSilence, looksLikeError, type Exchange } from './judgeAnswer';
export {
  EXPECTED_CATEGORIES,
  planProbe,
  schemaProps,
  UNKNOWN_OPERATION,
  UNKNOWN_TOOL,
  type AdapterOperation,
  type AdapterParam,
  type PlannedCall,
  type ProbeCase,
  type ProbeKind,
  type ProbeOptions,
  type ProbePlan,
  type ProbeSkip,
  type ToolInfo,
} from './probeCases';
export { MISSING_NAME, type TargetKind } from './missingTarget';
export { parseScenarios, type Scenario, type ScenarioProblem } from './scenarios';
export { judgeHttp, type HttpExchange } from './judgeHttp';
export { eraOf, REVISIONS, type Era } from './revisions';
export { sessionNote, type SessionInfo } from './sessionNote';
export { answerProblems, httpFindings, runtimeFindings, type PlacedAnswer, type RuntimeFinding } from './findings';
