import path from "node:path";
import { isWithin } from "../../policy/pathGuard.js";

/** A path as rules name and match it: relative to the project root, forward slashes, no "./". */
export function toRulePath(realRoot: string, input: string): string | undefined {
  const absolute = path.resolve(realRoot, input);
  if (!isWithin(realRoot, absolute)) return undefined;
  return path.relative(realRoot, absolute).split(path.sep).join("/");
}

/** "", "a", "a/b" for "a/b": each directory from the root down to `directory`, root first. */
export function directoryChain(directory: string): string[] {
  const parts = directory.split("/").filter((part) => part !== "");
  return ["", ...parts.map((_, index) => parts.slice(0, index + 1).join("/"))];
}
