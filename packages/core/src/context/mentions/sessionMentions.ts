import { formatLintProblems } from "../dynamic/lintProblems.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

/** `@lints`: every lint problem the session knows of; the token limit bounds how many are shown. */
export function resolveLints(context: ResolverContext): MentionOutcome {
  const problems = context.lintProblems ?? [];
  const text =
    problems.length === 0
      ? "No lint problems are known. read_lints runs the project's checkers."
      : formatLintProblems(problems, problems.length);
  return { type: "attachment", title: "lint problems", text };
}

/** `@terminal`: the newest terminal output; over the token limit, its end is what is kept. */
export function resolveTerminal(context: ResolverContext): MentionOutcome {
  const output = context.terminalTail ?? "";
  const text = output.trim() === "" ? "No terminal output is available." : output;
  return { type: "attachment", title: "terminal output", text, keep: "tail" };
}

/** `@web query`: web search is not built yet; the model and the user are told so, plainly. */
export function resolveWeb(mention: Mention): MentionOutcome {
  const text =
    `Web search is not configured, so "${mention.argument}" was not searched. ` +
    "To attach a page, mention its address with @url.";
  return { type: "attachment", title: `web search "${mention.argument}"`, text };
}
