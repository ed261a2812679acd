import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

const contextLines = 3;

/**
 * A unified diff between two versions of a file, headed `--- a/<path>` / `+++ b/<path>`, with
 * three lines of context. Line endings do not show as changes: CRLF files diff like LF ones.
 * Identical texts give the two header lines only.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: contextLines,
    stripTrailingCr: true,
    headerOptions: FILE_HEADERS_ONLY,
  });
}
