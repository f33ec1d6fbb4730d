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
  type ProbePlan,
  type ToolInfo,
} from './probeCases';
export { answerProblems, runtimeFindings, type PlacedAnswer, type RuntimeFinding } from './findings';
