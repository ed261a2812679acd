export { applyEdit } from "./applyEdit.js";
export type {
  EditOutcome,
  EditRequest,
  MatchedLines,
  MatchStrategyName,
  StrategyName,
} from "./editTypes.js";
export { matchStrategyNames } from "./editTypes.js";
export { unifiedDiff } from "./unifiedDiff.js";
