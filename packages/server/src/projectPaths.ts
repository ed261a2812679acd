import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ProjectIgnore } from "@lathe/core";

export interface ProjectPath {
  /** Relative to the project root, `/` separated. */
  path: string;
  kind: "file" | "folder";
}

/**
 * Completion walks the tree on every keystroke; past this many entries a project is big enough
 * that the nearest levels, which are walked first, are what a completion list can show anyway.
 */
export const maxWalkedPaths = 20_000;

/**
 * The project's files and folders as git would see them (ignore files, `.git`, `node_modules` and
 * the other built-in names left out), level by level from the root. Links are not followed: one
 * could lead out of the project or round in a loop.
 */
async function walkProjectPaths(projectRoot: string, limit = maxWalkedPaths): Promise<ProjectPath[]> {
  const ignore = new ProjectIgnore(projectRoot);
  const found: ProjectPath[] = [];
  let level = [""];
  while (level.length > 0 && found.length < limit) {
    const next: string[] = [];
    for (const directory of level) {
      for (const entry of await readEntries(path.join(projectRoot, directory))) {
        const relative = directory === "" ? entry.name : `${directory}/${entry.name}`;
        const isFolder = entry.isDirectory();
        if (!isFolder && !entry.isFile()) continue;
        if (await ignore.isIgnored(relative, isFolder)) continue;
        found.push({ path: relative, kind: isFolder ? "folder" : "file" });
        if (found.length >= limit) return found;
        if (isFolder) next.push(relative);
      }
    }
    level = next;
  }
  return found;
}

/**
 * Walks kept for a few seconds per project: completion asks again on every pause in typing, and a
 * walk of a large project takes long enough to be felt each time. A file made within the last few
 * seconds may be missing from a completion list; it appears once the walk is renewed.
 */
export class ProjectPathCache {
  private readonly walks = new Map<string, { at: number; paths: Promise<ProjectPath[]> }>();

  constructor(private readonly maxAgeMs = 5_000) {}

  paths(projectRoot: string): Promise<ProjectPath[]> {
    const now = Date.now();
    const kept = this.walks.get(projectRoot);
    if (kept !== undefined && now - kept.at < this.maxAgeMs) return kept.paths;
    const paths = walkProjectPaths(projectRoot);
    this.walks.set(projectRoot, { at: now, paths });
    return paths;
  }
}

async function readEntries(directory: string): Promise<Dirent[]> {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch {
    // An unreadable folder is skipped, as a search would skip it.
    return [];
  }
}
