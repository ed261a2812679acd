import { errorInfo } from "@lathe/protocol";
import { keepWithinTokens } from "../dynamic/contextText.js";
import { resolveChat } from "./chatMention.js";
import { resolveFile } from "./fileMention.js";
import { resolveFolder } from "./folderMention.js";
import { resolveGit } from "./gitMention.js";
import { resolveMcpResource } from "./mcpMention.js";
import type { Mention } from "./mention.js";
import {
  type MentionOutcome,
  type MentionSources,
  mentionLimitDefaults,
  type ResolvedMentions,
  type ResolverContext,
} from "./mentionSources.js";
import { resolveLints, resolveTerminal, resolveWeb } from "./sessionMentions.js";
import { resolveSymbol } from "./symbolMention.js";
import { resolveUrl } from "./urlMention.js";

const defaultMaxTokensPerMention = 8000;

/**
 * Turns the mentions of a message into attachments (each within maxTokensPerMention), rule names
 * for the rules module, and errors. A bad mention (a missing file, a path outside the project, a
 * blocked URL) becomes an error for the model and the user to see; this never throws. A mention
 * repeated in the message is resolved and attached once.
 */
export async function resolveMentions(
  mentions: readonly Mention[],
  sources: MentionSources,
): Promise<ResolvedMentions> {
  const context: ResolverContext = {
    ...sources,
    maxTokens: sources.maxTokensPerMention ?? defaultMaxTokensPerMention,
    limit: { ...mentionLimitDefaults, ...sources.limits },
  };
  const result: ResolvedMentions = { attachments: [], rules: [], errors: [], files: [] };
  const unique = mentions.filter(
    (mention, index) =>
      mentions.findIndex((other) => other.kind === mention.kind && other.argument === mention.argument) ===
      index,
  );
  const accepted = unique.slice(0, context.limit.maxMentions);
  for (const mention of unique.slice(accepted.length)) {
    const message = `Only the first ${context.limit.maxMentions} mentions of a message are resolved; ${mention.raw} was not.`;
    if (!mention.bare) result.errors.push({ mention, error: errorInfo("E_INVALID_ARGS", message) });
  }

  const outcomes = await Promise.all(accepted.map((mention) => resolveSafely(mention, context)));
  for (const [index, outcome] of outcomes.entries()) {
    const mention = accepted[index]!;
    if (outcome.type === "error") result.errors.push({ mention, error: outcome.error });
    if (outcome.type === "rule" && !result.rules.includes(outcome.name)) result.rules.push(outcome.name);
    if (outcome.type !== "attachment") continue;
    const text = withinLimit(outcome.text, outcome.keep ?? "head", context);
    result.attachments.push({ mention, title: outcome.title, text, tokens: context.countTokens(text) });
    for (const file of outcome.files ?? []) if (!result.files.includes(file)) result.files.push(file);
  }
  return result;
}

async function resolveSafely(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  const cancelled = (): MentionOutcome => ({
    type: "error",
    error: errorInfo("E_CANCELLED", `${mention.raw} was not resolved: cancelled.`),
  });
  if (context.signal.aborted) return cancelled();
  try {
    const outcome = await resolveOne(mention, context);
    // A resolver cut short by the signal may report what it found so far as "nothing found".
    return context.signal.aborted ? cancelled() : outcome;
  } catch (error) {
    if (context.signal.aborted) return cancelled();
    const reason = error instanceof Error ? error.message : String(error);
    return {
      type: "error",
      error: errorInfo("E_TOOL_EXECUTION", `${mention.raw} could not be resolved: ${reason}`),
    };
  }
}

function resolveOne(mention: Mention, context: ResolverContext): Promise<MentionOutcome> | MentionOutcome {
  switch (mention.kind) {
    case "file":
      return resolveFile(mention, context);
    case "folder":
      return resolveFolder(mention, context);
    case "symbol":
      return resolveSymbol(mention, context);
    case "rule":
      return { type: "rule", name: mention.argument };
    case "url":
      return resolveUrl(mention, context);
    case "web":
      return resolveWeb(mention);
    case "git":
      return resolveGit(mention, context);
    case "chat":
      return resolveChat(mention, context);
    case "lints":
      return resolveLints(context);
    case "terminal":
      return resolveTerminal(context);
    case "mcp":
      return resolveMcpResource(mention, context);
  }
}

/** Cuts an attachment to the per-mention limit, saying so inside the limit. */
function withinLimit(text: string, keep: "head" | "tail", context: ResolverContext): string {
  if (context.countTokens(text) <= context.maxTokens) return text;
  const note = `[Cut at the ${context.maxTokens}-token limit of one mention${keep === "tail" ? "; the end is shown" : ""}.]`;
  const room = Math.max(0, context.maxTokens - context.countTokens(`${note}\n`));
  const kept = keepWithinTokens(text, room, context.countTokens, keep).text;
  return keep === "head" ? `${kept}\n${note}` : `${note}\n${kept}`;
}
