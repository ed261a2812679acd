export { applyEdit } from "./applyEdit.js";
export { resolveDeletionTarget } from "./deletionTarget.js";
export { lineCount, maxEditStringChars, noteWrittenFile } from "./editTarget.js";
export type {
  EditOutcome,
  EditRequest,
  MatchedLines,
  MatchStrategyName,
  StrategyName,
} from "./editTypes.js";
export { matchStrategyNames } from "./editTypes.js";
export { type EndedLine, endingsOfWrittenLines, type LineEnding, usualEnding } from "./lineEndings.js";
export { introducedPlaceholder, placeholderConsequence } from "./omissionPlaceholder.js";
export { binaryNameError, readStrictText } from "./strictTextFile.js";
export { defineTextEditTool } from "./textEditTool.js";
export { unifiedDiff } from "./unifiedDiff.js";
