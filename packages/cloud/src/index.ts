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
export { answerTask, cancelTask, retryTask, type StepAnswer } from "./tasks/taskControl.js";
export { appendEvent, eventsAfter, type TaskEvent } from "./tasks/taskEvents.js";
export {
  findTask,
  listTasks,
  readSteps,
  readTask,
  type StepRecord,
  type TaskRecord,
} from "./tasks/taskRecords.js";
export { isFinished, type TaskStatus, taskStatusOf } from "./tasks/taskStatus.js";
export { type StepPlan, submitTask, type TaskSubmission } from "./tasks/taskSubmission.js";
export { type RunningWorker, startCloudWorker, type WorkerOptions } from "./worker/cloudWorker.js";
export { taskBranch } from "./worker/stepCheckout.js";
export { claimStep, completeStep, type StepLease, type StepResult } from "./worker/stepClaim.js";
