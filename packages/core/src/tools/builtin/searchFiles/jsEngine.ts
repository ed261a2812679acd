import { open } from "node:fs/promises";
import { errorInfo } from "@lathe/protocol";
import { decodeSearchText } from "../../../fileSystem/fileTextDecoding.js";
import { type WalkedFile, walkFiles } from "../../../fileSystem/walkFiles.js";
import { builtinIgnorePatterns } from "../../projectIgnore/builtinIgnores.js";
import { comparePaths, MatchCollector } from "./matchCollector.js";
import { compileRustRegex } from "./rustRegex.js";
import { maxSearchedFileBytes } from "./searchLimits.js";
import type { SearchQuery, SearchResult } from "./searchTypes.js";
import { SearchStop } from "./stopSignal.js";
import { findTextMatches } from "./textMatches.js";

/** Files read at once: reading overlaps with matching, which runs on this one thread. */
const readConcurrency = 8;

/**
 * The search without ripgrep: the same files (walked with the same ignore rules), the same
 * regex dialect (translated to JavaScript), the same lines.
 */
export async function searchWithJs(query: SearchQuery): Promise<SearchResult> {
  const compiled = compileRustRegex(query.pattern, query.caseInsensitive);
  if (!compiled.ok) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `Invalid regular expression: ${compiled.reason}.`),
    };
  }
  const regex = compiled.regex;
  const literal = literalNeedle(query.pattern, query.caseInsensitive);
  const stop = new SearchStop(query.signal, query.timeoutMs);
  try {
    const files = await filesToSearch(query, stop.signal);
    const collector = new MatchCollector(query.matchLimit);
    let next = 0;
    const worker = async () => {
      while (next < files.length && !stop.signal.aborted) {
        const file = files[next++];
        if (file === undefined) return;
        const bytes = await readSearchBytes(file.absolute);
        if (bytes === undefined || stop.signal.aborted || lacksLiteral(bytes, literal)) continue;
        const text = decodeSearchText(bytes);
        // Matching is synchronous, so one regex (and its lastIndex) serves every worker.
        if (text === undefined) continue;
        const keep = collector.wants(file.relative) ? query.matchLimit + 1 : 0;
        const found = findTextMatches(text, regex, keep, query.contextLines);
        if (keep > 0)
          collector.add({ path: file.relative, matchCount: found.matchCount, lines: () => found.lines });
        else collector.count(found.matchCount);
      }
    };
    await Promise.all(Array.from({ length: readConcurrency }, worker));
    const outcome = collector.outcome();
    if (stop.reason !== undefined) outcome.stopped = stop.reason;
    return { ok: true, outcome };
  } finally {
    stop.dispose();
  }
}

async function filesToSearch(query: SearchQuery, signal: AbortSignal): Promise<WalkedFile[]> {
  const { target } = query;
  if (target.isFile) return [{ absolute: target.absolute, relative: target.relative }];
  const walked = await walkFiles(target.absolute, query.projectRoot, builtinIgnorePatterns, signal);
  const included =
    query.includeFile === undefined ? walked : walked.filter((file) => query.includeFile?.(file.relative));
  // In path order, so that once enough matches are kept the remaining files are only counted.
  return included.sort((a, b) => comparePaths(a.relative, b.relative));
}

/**
 * The file's bytes, or undefined when it is too large or unreadable (skipped, like ripgrep). Read
 * in one buffer of the file's size: faster than `readFile`, which reads in pieces.
 */
async function readSearchBytes(absolute: string): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(absolute, "r");
    const { size } = await handle.stat();
    if (size > maxSearchedFileBytes) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/**
 * A pattern without any regex syntax, searched with case, is a byte string: a file whose bytes do
 * not hold it cannot match, and is passed over without being decoded, which is most of the cost.
 */
function literalNeedle(pattern: string, caseInsensitive: boolean): Buffer | undefined {
  if (caseInsensitive || pattern === "" || /[\\^$.|?*+()[\]{}\uFFFD]/u.test(pattern)) return undefined;
  return Buffer.from(pattern, "utf8");
}

function lacksLiteral(bytes: Buffer, literal: Buffer | undefined): boolean {
  if (literal === undefined) return false;
  // UTF-16 text is transcoded before matching; its bytes say nothing.
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return !utf16 && bytes.indexOf(literal) === -1;
}
