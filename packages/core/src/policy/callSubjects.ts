import path from "node:path";
import picomatch from "picomatch";
import type { CallSubjects } from "./policyTypes.js";

/** Arguments that name one file or directory, in any tool (MCP tools included). */
const pathArguments = ["path", "file", "filename", "file_path", "target_file", "working_directory", "cwd"];
/** Arguments that name several. */
const pathListArguments = ["paths", "files", "target_directories"];

/**
 * What a call touches, read from its argument names rather than from each tool, so that a new
 * tool or an MCP tool with conventional names is judged without being taught to the policy.
 */
export function callSubjects(toolName: string, args: unknown): CallSubjects {
  const record: Record<string, unknown> = isRecord(args) ? args : {};
  const paths: string[] = [];
  for (const name of pathArguments) {
    const value = record[name];
    if (typeof value === "string" && value !== "") paths.push(value);
  }
  for (const name of pathListArguments) {
    const value = record[name];
    if (!Array.isArray(value)) continue;
    for (const item of value) if (typeof item === "string" && item !== "") paths.push(item);
  }
  if (toolName === "glob_search" && typeof record.pattern === "string") {
    const base = globBase(record.pattern, typeof record.path === "string" ? record.path : undefined);
    if (base !== undefined) paths.push(base);
  }
  if (typeof record.patch === "string") paths.push(...patchPaths(record.patch));

  const subjects: CallSubjects = { paths: [...new Set(paths)] };
  if (typeof record.command === "string") subjects.command = record.command;
  if (typeof record.url === "string") subjects.url = record.url;
  return subjects;
}

/**
 * The directory a glob starts in (`src/lib` for `src/lib/**\/*.ts`), inside the search path when
 * one is given: that is where the crawl reads, so that is what rules and the guard must see.
 */
function globBase(pattern: string, searchPath: string | undefined): string | undefined {
  if (pattern === "" || pattern.includes("\0")) return undefined;
  const scanned = picomatch.scan(pattern, { unescape: true });
  const base = scanned.isGlob ? scanned.base || "." : pattern;
  if (path.isAbsolute(base) || searchPath === undefined) return base;
  return path.join(searchPath, base);
}

/**
 * Every file a patch adds, updates, deletes or moves to, read from its header lines. Scanning the
 * headers never sees fewer files than the tool's parser would touch, and it keeps the policy
 * below the tools in the import graph.
 */
function patchPaths(patch: string): string[] {
  const headers: string[] = [];
  for (const line of patch.split("\n")) {
    const header = /^\s*\*\*\* (?:Add File|Update File|Delete File|Move to):(.*)$/.exec(line);
    const file = header?.[1]?.trim();
    if (file) headers.push(file);
  }
  return headers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
