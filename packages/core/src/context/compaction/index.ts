export {
  type CompactionInput,
  type CompactionReport,
  type CompactionResult,
  compact,
} from "./compact.js";
export {
  type CompactionSettings,
  needsCompaction,
  type ResolvedCompactionSettings,
  resolveCompactionSettings,
} from "./compactionSettings.js";
export { type CompactionState, emptyCompactionState, viewForRequest } from "./viewForRequest.js";
