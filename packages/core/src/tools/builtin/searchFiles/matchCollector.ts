import type { FileHits, HitLine, SearchOutcome } from "./searchTypes.js";

/** A file as an engine hands it over; its lines are built only if it is still kept at the end. */
export interface CollectedFile {
  path: string;
  matchCount: number;
  lines(): HitLine[];
}

/**
 * Keeps the files that can hold the first `limit` matches in (path, line) order and only counts
 * the others. Engines find files in any order (ripgrep searches in parallel), so the set is
 * revised as files arrive; memory stays bounded by the limit, not by the number of matches.
 */
export class MatchCollector {
  private kept: CollectedFile[] = [];
  /** Files at or after this path cannot be shown: those before it already hold `limit` matches. */
  private cutoff: string | undefined;
  private totalMatches = 0;
  private totalFiles = 0;

  constructor(private readonly limit: number) {}

  /** Whether lines of a file at `path` are worth keeping; when not, only its count matters. */
  wants(path: string): boolean {
    return this.cutoff === undefined || path < this.cutoff;
  }

  add(file: CollectedFile): void {
    if (file.matchCount === 0) return;
    this.totalMatches += file.matchCount;
    this.totalFiles++;
    if (!this.wants(file.path)) return;
    this.kept.push(file);
    this.kept.sort((a, b) => comparePaths(a.path, b.path));
    this.trim();
  }

  /** Counts a file whose lines were not kept because `wants` said no. */
  count(matchCount: number): void {
    if (matchCount === 0) return;
    this.totalMatches += matchCount;
    this.totalFiles++;
  }

  outcome(): SearchOutcome {
    const files: FileHits[] = this.kept.map((file) => ({
      path: file.path,
      matchCount: file.matchCount,
      lines: file.lines(),
    }));
    return { files, totalMatches: this.totalMatches, totalFiles: this.totalFiles };
  }

  private trim(): void {
    let matches = 0;
    for (const [index, file] of this.kept.entries()) {
      matches += file.matchCount;
      if (matches >= this.limit) {
        this.kept.length = index + 1;
        this.cutoff = file.path;
        return;
      }
    }
  }
}

/** The one order results are shown in, whichever engine found them. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
