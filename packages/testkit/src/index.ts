export { type CaseScores, scoreCase } from "./evalHarness/caseScores.js";
export { type EvalCase, type EvalCaseSpec, evalCaseSchema, loadEvalCases } from "./evalHarness/evalCase.js";
export {
  type CaseModel,
  type CaseOutcome,
  type CaseToolCall,
  runEvalCase,
  type VerifyContext,
} from "./evalHarness/runEvalCase.js";
export { fakeKeys } from "./fakeKeys.js";
export { requestTokens } from "./fakeLlm/requestSize.js";
export { type FakeScript, type FakeTurn, fakeScriptSchema, fakeTurnSchema } from "./fakeLlm/script.js";
export { type FakeLlm, type FakeLlmOptions, type RecordedRequest, startFakeLlm } from "./fakeLlm/server.js";
export { processAlive, processGoneWithin } from "./processProbe.js";
export {
  type ScriptedSession,
  type ScriptedSessionOptions,
  scriptedBasePaths,
  startScriptedSession,
} from "./scriptedSession.js";
export { postgresBinaries, startThrowawayPostgres, type ThrowawayPostgres } from "./throwawayPostgres.js";
