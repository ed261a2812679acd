export type { CheckpointDiff } from "./checkpointDiff.js";
export type { CheckpointOutcome } from "./checkpointOutcome.js";
export type { PruneResult } from "./pruning.js";
export {
  openShadowRepository,
  type PruneOutcome,
  type Recoveries,
  type RestoreResult,
  ShadowRepository,
  type ShadowRepositorySettings,
  type SnapshotResult,
} from "./shadowRepository.js";
