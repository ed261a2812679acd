export type { CheckpointDiff } from "./checkpointDiff.js";
export type { CheckpointOutcome } from "./checkpointOutcome.js";
export type { LineHunk } from "./lineHunks.js";
export type { PruneResult } from "./pruning.js";
export type { RejectRequest, ReviewedFile } from "./reviewChanges.js";
export {
  openShadowRepository,
  type PruneOutcome,
  type Recoveries,
  type RejectResult,
  type RestoreResult,
  ShadowRepository,
  type ShadowRepositorySettings,
  type SnapshotResult,
} from "./shadowRepository.js";
