import type { LatheErrorInfo } from "@lathe/protocol";

/** The ways old_string can be found in a file, tried in this order, strictest first (SPEC §4). */
export const matchStrategyNames = [
  "exact",
  "line-trimmed",
  "whitespace-normalized",
  "indentation-flexible",
  "escape-normalized",
  "unicode-normalized",
  "trimmed-boundary",
  "block-anchor",
] as const;

export type MatchStrategyName = (typeof matchStrategyNames)[number];

/** "create" is an empty old_string on an empty or missing file: nothing is matched. */
export type StrategyName = "create" | MatchStrategyName;

export interface EditRequest {
  oldString: string;
  newString: string;
  /** Replace every exact occurrence instead of requiring a single match. */
  replaceAll?: boolean;
}

/** Where a replaced span was, in 1-based lines of the file before the edit. */
export interface MatchedLines {
  startLine: number;
  endLine: number;
}

export type EditOutcome =
  | {
      ok: true;
      content: string;
      strategy: StrategyName;
      matches: MatchedLines[];
      /** Lines replaced, counted as an editor counts them, summed over every match. */
      removedLines: number;
      /** Lines written in their place. */
      addedLines: number;
    }
  | { ok: false; error: LatheErrorInfo };

/** One place to replace, in offsets of the LF-normalised text without BOM. */
export interface Replacement {
  start: number;
  end: number;
  text: string;
}
