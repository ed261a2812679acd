import { largestFitting, numberedLines, splitLines } from "../dynamic/contextText.js";
import { readProjectEntry } from "../dynamic/projectFile.js";
import { resolveFolder } from "./folderMention.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

/**
 * `@file path` and bare `@path`: the file with line numbers, its head when it is over the token
 * limit. A directory named this way is listed as `@folder` would list it.
 */
export async function resolveFile(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  const entry = await readProjectEntry(context.projectRoot, mention.argument, {
    maxBytes: context.limit.maxFileBytes,
  });
  if (!entry.ok) {
    // `@/api/users` or `@types/node` in prose names no file of the project: it stays text.
    const namesNoFile = entry.error.code === "E_FILE_NOT_FOUND" || entry.error.code === "E_PATH_TRAVERSAL";
    if (mention.bare && namesNoFile) return { type: "ignored" };
    return { type: "error", error: entry.error };
  }
  if (entry.kind === "directory") return resolveFolder(mention, context);

  const lines = splitLines(entry.text);
  const render = (count: number) => {
    if (lines.length === 0 && entry.complete) return "(empty file)";
    const parts = count > 0 ? [numberedLines(lines.slice(0, count), 1)] : [];
    if (count < lines.length || !entry.complete) {
      const limit =
        count < lines.length
          ? `the ${context.maxTokens}-token limit of one mention`
          : `the ${context.limit.maxFileBytes}-byte read limit`;
      parts.push(
        `[Cut at ${limit}: lines ${count + 1} and on are not shown; ` +
          `read_file ${entry.relative} with offset=${count + 1} reads them.]`,
      );
    }
    return parts.join("\n");
  };
  const count = Math.max(
    0,
    largestFitting(lines.length, (n) => context.countTokens(render(n)) <= context.maxTokens),
  );
  if (count === lines.length && entry.complete && entry.snapshot !== undefined) {
    context.fileReads?.noteRead(entry.absolute, entry.snapshot);
  }
  return { type: "attachment", title: entry.relative, text: render(count), files: [entry.relative] };
}
