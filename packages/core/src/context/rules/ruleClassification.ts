import { splitCommaList } from "./commaList.js";
import type { FrontMatterValue } from "./frontMatter.js";
import type { RuleKind } from "./ruleTypes.js";

export type RuleClassification =
  | { ok: true; kind: RuleKind; description?: string; globs: string[] }
  | { ok: false; message: string };

/**
 * The kind of a `.lathe/rules` or `.cursor/rules` file from its front matter, with Cursor's
 * precedence: `alwaysApply: true` wins, then globs (auto-attached), then a description
 * (requested by the model); a rule with none of them is attached only when mentioned.
 */
export function classifyRule(data: Readonly<Record<string, FrontMatterValue>>): RuleClassification {
  const { alwaysApply, description, globs } = data;
  if (alwaysApply !== undefined && typeof alwaysApply !== "boolean") {
    return { ok: false, message: `alwaysApply must be true or false, not "${String(alwaysApply)}"` };
  }
  if (description !== undefined && typeof description !== "string") {
    return { ok: false, message: "description must be one line of text, not a list or a boolean" };
  }
  if (typeof globs === "boolean")
    return { ok: false, message: "globs must be a pattern or a list of patterns" };
  // Cursor writes several patterns in one string separated by commas; a list item may do the same.
  const patterns = (typeof globs === "string" ? [globs] : (globs ?? [])).flatMap(splitCommaList);
  const text = description?.trim() || undefined;
  const details = { globs: patterns, description: text };
  if (alwaysApply === true) return { ok: true, kind: "always", ...details };
  if (patterns.length > 0) return { ok: true, kind: "auto", ...details };
  if (text !== undefined) return { ok: true, kind: "requested", ...details };
  return { ok: true, kind: "manual", ...details };
}
