import type { LatheErrorInfo } from "@lathe/protocol";

/** One search, as both engines receive it: arguments already checked and paths already guarded. */
export interface SearchQuery {
  /** Real path of the project root; result paths are relative to it. */
  projectRoot: string;
  target: SearchTarget;
  /** Regular expression in ripgrep's (Rust) syntax. */
  pattern: string;
  caseInsensitive: boolean;
  /** Lines shown before and after each matching line. */
  contextLines: number;
  /** Keeps a file found by walking (not an explicitly named one) when it returns true. */
  includeFile?: (relativePath: string) => boolean;
  /** Matching lines kept for display; the rest are only counted. */
  matchLimit: number;
  signal: AbortSignal;
  /** The search stops after this long and reports what it found so far. */
  timeoutMs: number;
}

export interface SearchTarget {
  /** Real absolute path of the file or directory searched. */
  absolute: string;
  /** Relative to the project root, "." for the root itself. */
  relative: string;
  isFile: boolean;
}

export interface HitLine {
  /** 1-based line number. */
  number: number;
  /** The line without its line break. */
  text: string;
  /** False for context lines. */
  match: boolean;
  /** UTF-16 index in `text` where the first match starts (matching lines only). */
  column?: number;
}

export interface FileHits {
  /** Relative to the project root, with "/" separators. */
  path: string;
  /** In line order: at most `matchLimit` + 1 matching lines with their context. */
  lines: HitLine[];
  /** Every matching line of the file, shown or not. */
  matchCount: number;
}

export interface SearchOutcome {
  /** Sorted by path; only the files that can hold the first `matchLimit` matches. */
  files: FileHits[];
  totalMatches: number;
  totalFiles: number;
  /** Set when the search ended early; the counts then cover what was searched. */
  stopped?: "timeout" | "cancelled";
}

export type SearchResult = { ok: true; outcome: SearchOutcome } | { ok: false; error: LatheErrorInfo };
