export type { CheckpointDiff } from "./checkpointDiff.js";
export type { CheckpointOutcome } from "./checkpointOutcome.js";
export type { PruneResult } from "./pruning.js";
export {
  openShadowRepository,
  type RestoreResult,
  ShadowRepository,
  type ShadowRepositorySettings,
  type SnapshotResult,
} from "./shadowRepository.js";
