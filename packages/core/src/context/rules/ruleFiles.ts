import { parseFrontMatter } from "./frontMatter.js";
import { classifyRule } from "./ruleClassification.js";
import { readRuleFile } from "./ruleFileReader.js";
import type { ProjectRule, RuleLoadError } from "./ruleTypes.js";

export type RuleFileOutcome =
  | { kind: "rule"; rule: ProjectRule }
  | { kind: "absent" }
  | { kind: "error"; error: RuleLoadError };

/** AGENTS.md, CLAUDE.md, GEMINI.md, .cursorrules: the whole file is the rule, always attached. */
export async function readPlainRule(
  realRoot: string,
  source: string,
  maxBytes: number,
): Promise<RuleFileOutcome> {
  const read = await readRuleFile(realRoot, source, maxBytes);
  if (read.kind === "absent") return read;
  if (read.kind === "error") return { kind: "error", error: { file: source, message: read.message } };
  const rule: ProjectRule = { name: source, source, kind: "always", globs: [], content: read.text.trim() };
  return { kind: "rule", rule };
}

/** A file of `.lathe/rules` or `.cursor/rules`: its front matter decides when it applies. */
export async function readRuleWithFrontMatter(
  realRoot: string,
  source: string,
  name: string,
  maxBytes: number,
): Promise<RuleFileOutcome> {
  const read = await readRuleFile(realRoot, source, maxBytes);
  if (read.kind === "absent") return read;
  if (read.kind === "error") return { kind: "error", error: { file: source, message: read.message } };
  const parsed = parseFrontMatter(read.text);
  if (!parsed.ok) return { kind: "error", error: { file: source, message: parsed.message } };
  const classified = classifyRule(parsed.data);
  if (!classified.ok) return { kind: "error", error: { file: source, message: classified.message } };
  const { kind, globs, description } = classified;
  const rule: ProjectRule = { name, source, kind, globs, content: parsed.body.trim() };
  return { kind: "rule", rule: description === undefined ? rule : { ...rule, description } };
}
