import { readdir } from "node:fs/promises";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { closestNames } from "./editDistance.js";

const maxSuggestions = 3;

/**
 * The message for a path that does not exist, naming up to three similar entries of its directory
 * so the model can correct a typo without listing the directory first.
 */
export async function missingFileMessage(absPath: string, displayPath: string): Promise<string> {
  const directory = path.dirname(absPath);
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return `File not found: ${displayPath} (its directory ${path.dirname(displayPath)} does not exist either).`;
  }
  const similar = closestNames(path.basename(absPath), entries, maxSuggestions);
  if (similar.length === 0) return `File not found: ${displayPath}.`;
  const displayDirectory = path.dirname(displayPath);
  const suggestions = similar.map((name) =>
    displayDirectory === "." ? name : path.join(displayDirectory, name),
  );
  return `File not found: ${displayPath}. Did you mean: ${suggestions.join(", ")}?`;
}

/** `E_FILE_NOT_FOUND` for a path that does not exist, with its similar neighbours. */
export async function missingFileError(absPath: string, displayPath: string): Promise<LatheErrorInfo> {
  return errorInfo("E_FILE_NOT_FOUND", await missingFileMessage(absPath, displayPath));
}
