export {
  type ClusterState,
  privateClusterState,
  readClusterUrl,
  startPrivateCluster,
  stopPrivateCluster,
} from "./cluster/privateCluster.js";
export { type CloudDatabase, connectionError, openCloudDatabase } from "./database/cloudDatabase.js";
export { checkDatabaseUrl, describeUrl } from "./database/databaseUrl.js";
export { cloudSchema, migrate, migrations } from "./database/migrations.js";
export {
  builtinPipelines,
  defaultPipeline,
  quickPipeline,
} from "./pipelines/builtinPipelines.js";
export {
  declaredPipelineName,
  maxPipelineSteps,
  type PipelineFile,
  type PipelineParse,
  parsePipelineFile,
  pipelineNamePattern,
} from "./pipelines/pipelineFiles.js";
export { pipelinesFolder } from "./pipelines/pipelineFolder.js";
export type { StepPlan } from "./pipelines/pipelineGraph.js";
export {
  listPipelines,
  loadPipeline,
  type PipelineListing,
  type PipelineSources,
} from "./pipelines/pipelineLoader.js";
export {
  type AgentSpec,
  agentSpecSchema,
  noUsage,
  type PipelineSpec,
  type PipelineStep,
  pipelineSpecSchema,
  pipelineStepSchema,
  type StepPurpose,
  stepPurposeSchema,
  type TaskBudget,
  taskBudgetSchema,
  type Usage,
  usageSchema,
} from "./pipelines/pipelineSpec.js";
export {
  coderAgent,
  documenterAgent,
  plannerAgent,
  rankingInstructions,
  researcherAgent,
  reviewerAgent,
  roleAgents,
} from "./pipelines/roleAgents.js";
export { loadStepAgents, type StepAgents } from "./pipelines/stepAgents.js";
export {
  maxNotesChars,
  type ParsedRanking,
  type ParsedVerdict,
  parseRanking,
  parseVerdict,
  skipRequests,
} from "./pipelines/stepAnswers.js";
export {
  bossSchema,
  deadStepQueue,
  queueTimings,
  type StepJob,
  startStepQueue,
  stepQueue,
} from "./queue/stepQueue.js";
export {
  type Route,
  type RouteRequest,
  type RouteTarget,
  routeTask,
  sensitiveFilesIn,
} from "./router/taskRouter.js";
export { type DeviceRecord, registerDevice } from "./sync/deviceRegistry.js";
export { followTask } from "./sync/taskFeed.js";
export {
  createRepositoryBundle,
  defaultBundleCapBytes,
  trackedFiles,
  uncommittedChanges,
} from "./tasks/repositoryBundle.js";
export { answerTask, cancelTask, retryTask, runHereQuestion, type StepAnswer } from "./tasks/taskControl.js";
export { appendEvent, eventsAfter, type TaskEvent } from "./tasks/taskEvents.js";
export {
  findTask,
  listTasks,
  type Ranking,
  readSteps,
  readTask,
  type StepRecord,
  type TaskRecord,
  type Verdict,
  type VerifyResult,
} from "./tasks/taskRecords.js";
export { isFinished, type StepStatus, type TaskStatus, taskStatusOf } from "./tasks/taskStatus.js";
export { submitTask, type TaskSubmission } from "./tasks/taskSubmission.js";
export { type RunningWorker, startCloudWorker, type WorkerOptions } from "./worker/cloudWorker.js";
export { taskBranch } from "./worker/stepCheckout.js";
export { claimStep, completeStep, type StepLease, type StepResult } from "./worker/stepClaim.js";
