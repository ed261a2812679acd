import { type Stats, statSync } from "node:fs";

/** Follows symlinks; undefined for a missing or unreadable path, never throws. */
function statOrUndefined(target: string): Stats | undefined {
  try {
    return statSync(target, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function pathExists(target: string): boolean {
  return statOrUndefined(target) !== undefined;
}

export function isDirectory(target: string): boolean {
  return statOrUndefined(target)?.isDirectory() === true;
}

export function isSocket(target: string): boolean {
  return statOrUndefined(target)?.isSocket() === true;
}
