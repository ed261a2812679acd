import { spawn } from "node:child_process";
import { errorInfo } from "@lathe/protocol";
import { signalProcessGroup } from "../../../processes/processGroup.js";
import { builtinIgnorePatterns } from "../../projectIgnore/builtinIgnores.js";
import { MatchCollector } from "./matchCollector.js";
import { RipgrepJsonReader } from "./ripgrepJson.js";
import { maxSearchedFileMiB } from "./searchLimits.js";
import type { SearchQuery, SearchResult } from "./searchTypes.js";
import { SearchStop } from "./stopSignal.js";

/** ripgrep's stderr kept for error messages. */
const maxStderrBytes = 16 * 1024;

/**
 * The arguments for one search, as an argv array (never a shell string), chosen so ripgrep finds
 * exactly what the JavaScript engine finds: hidden files searched, .gitignore files and the
 * repository's .git/info/exclude honoured with or without a repository (but not the user's global
 * excludes or .ignore files, which the fallback does not read), the built-in ignores shared with
 * list_directory, symbolic links not followed, large files skipped, and the user's ripgrep
 * configuration left out.
 */
export function ripgrepArguments(query: SearchQuery): string[] {
  const args = [
    "--json",
    "--no-config",
    "--no-messages",
    "--hidden",
    "--no-require-git",
    "--no-ignore-global",
    "--no-ignore-dot",
    // Memory maps would limit binary detection to the start of a file.
    "--no-mmap",
    "--max-filesize",
    `${maxSearchedFileMiB}M`,
  ];
  for (const pattern of builtinIgnorePatterns) args.push("--glob", `!${pattern}`);
  if (query.caseInsensitive) args.push("--ignore-case");
  if (query.contextLines > 0) args.push("--context", String(query.contextLines));
  args.push("--", query.pattern, query.target.relative);
  return args;
}

type Ending = { kind: "exited"; code: number | null } | { kind: "spawn_failed"; message: string };

/**
 * Runs ripgrep in the project root on the query's target and reads its JSON output as it comes.
 * It runs in its own process group, killed on cancel or when the time limit passes.
 */
export async function searchWithRipgrep(query: SearchQuery, ripgrepPath: string): Promise<SearchResult> {
  const collector = new MatchCollector(query.matchLimit);
  const reader = new RipgrepJsonReader(collector, {
    matchLimit: query.matchLimit,
    includeFile: query.target.isFile ? undefined : query.includeFile,
  });
  const stop = new SearchStop(query.signal, query.timeoutMs);
  let stderr = "";
  let ending: Ending;
  try {
    ending = await new Promise<Ending>((resolve) => {
      const child = spawn(ripgrepPath, ripgrepArguments(query), {
        cwd: query.projectRoot,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const kill = () => {
        if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
      };
      if (stop.signal.aborted) kill();
      stop.signal.addEventListener("abort", kill, { once: true });
      child.stdout.on("data", (chunk: Buffer) => reader.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < maxStderrBytes) stderr += chunk.toString("utf8");
      });
      child.on("error", (error) => resolve({ kind: "spawn_failed", message: error.message }));
      child.on("close", (code) => {
        stop.signal.removeEventListener("abort", kill);
        resolve({ kind: "exited", code });
      });
    });
  } finally {
    stop.dispose();
  }

  if (ending.kind === "spawn_failed") {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Could not run ripgrep: ${ending.message}`) };
  }
  if (stop.reason === undefined) reader.finish();
  if (stop.reason === undefined && ending.code === null) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", "ripgrep was killed before it finished.") };
  }
  // Exit 2 is an error; with output it was about some files only (and messages are off).
  if (stop.reason === undefined && ending.code === 2 && !reader.sawOutput) return ripgrepFailure(stderr);
  const outcome = collector.outcome();
  if (stop.reason !== undefined) outcome.stopped = stop.reason;
  return { ok: true, outcome };
}

function ripgrepFailure(stderr: string): SearchResult {
  // ripgrep suggests its own flags (--pcre2, --multiline), which the model cannot pass.
  const paragraphs = stderr.trim().split(/\n\s*\n/);
  const message =
    paragraphs.filter((paragraph) => !/^Consider enabling/.test(paragraph)).join("\n") ||
    "ripgrep exited with status 2 and no message";
  if (/regex|not allowed in a regex/i.test(message)) {
    return { ok: false, error: errorInfo("E_INVALID_ARGS", `Invalid regular expression: ${message}`) };
  }
  return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `ripgrep failed: ${message}`) };
}
