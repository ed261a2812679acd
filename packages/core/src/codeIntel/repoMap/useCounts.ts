import path from "node:path";
import type { Visibility } from "../parsing/grammar.js";

/**
 * How often a name is used where a symbol of a given visibility can be seen: in its file, in its
 * directory (a Go package, a Java package), or anywhere in the project.
 */
export class UseCounts {
  private readonly project = new Map<string, number>();
  private readonly directories = new Map<string, Map<string, number>>();

  constructor(private readonly references: ReadonlyMap<string, Readonly<Record<string, number>>>) {
    for (const counts of references.values()) addCounts(this.project, counts);
  }

  of(name: string, filePath: string, visibility: Visibility): number {
    if (visibility === "project") return this.project.get(name) ?? 0;
    if (visibility === "file") return this.references.get(filePath)?.[name] ?? 0;
    return this.directory(path.posix.dirname(filePath)).get(name) ?? 0;
  }

  /** Uses within these files. */
  within(name: string, filePaths: readonly string[]): number {
    return filePaths.reduce((sum, filePath) => sum + (this.references.get(filePath)?.[name] ?? 0), 0);
  }

  /** Built on first request: only directories holding directory-visible symbols need one. */
  private directory(directory: string): Map<string, number> {
    let counts = this.directories.get(directory);
    if (counts === undefined) {
      counts = new Map();
      for (const [filePath, fileCounts] of this.references) {
        if (path.posix.dirname(filePath) === directory) addCounts(counts, fileCounts);
      }
      this.directories.set(directory, counts);
    }
    return counts;
  }
}

function addCounts(into: Map<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [name, count] of Object.entries(counts)) into.set(name, (into.get(name) ?? 0) + count);
}
