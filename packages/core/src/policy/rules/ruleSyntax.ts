import type { PermissionRule, PolicyBehavior, RuleSource } from "../policyTypes.js";
import { latheToolName } from "./claudeToolNames.js";
import { parseCommandPattern } from "./commandPattern.js";
import { parseDomainSpecifier } from "./domainMatching.js";
import { checkPathSpecifier } from "./pathMatching.js";

export type ParsedRule = { ok: true; rule: PermissionRule } | { ok: false; message: string };

/** Tool names as tools and MCP servers spell them, with `*` as a wildcard (`mcp__github__*`). */
const toolNamePattern = /^[A-Za-z0-9_.*-]+$/;

/**
 * Parses `Tool` or `Tool(specifier)` (SPEC §5). The specifier is checked now, in the form its
 * tool will read it, so a rule that could never match is reported where it is written rather than
 * silently ignored.
 */
export function parseRule(text: string, behavior: PolicyBehavior, source: RuleSource): ParsedRule {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "the rule is empty" };
  const open = trimmed.indexOf("(");
  const written = (open === -1 ? trimmed : trimmed.slice(0, open)).trim();
  // Claude Code's names (`Bash`, `Read`…) stand for Lathe's tools.
  const tool = latheToolName(written);
  if (tool === "") return { ok: false, message: `"${trimmed}" names no tool before "("` };
  if (!toolNamePattern.test(tool)) {
    return {
      ok: false,
      message: `"${tool}" is not a tool name (letters, digits, "_", "-", "." and the wildcard "*")`,
    };
  }
  if (/^\*+$/.test(tool)) {
    return { ok: false, message: `"${tool}" would match every tool; name the tool or an MCP server prefix` };
  }
  if (open === -1) return { ok: true, rule: { behavior, tool, source } };
  if (!trimmed.endsWith(")")) {
    return {
      ok: false,
      message: `"${trimmed}" opens "(" without closing it at the end: write Tool(specifier)`,
    };
  }
  const specifier = trimmed.slice(open + 1, -1).trim();
  if (specifier === "") {
    return { ok: false, message: `"${trimmed}" has an empty specifier; write "${tool}" for every call` };
  }
  const problem = specifierProblem(tool, specifier);
  if (problem !== undefined) return { ok: false, message: `"${trimmed}": ${problem}` };
  return { ok: true, rule: { behavior, tool, specifier, source } };
}

/** The rule as written in settings, in one canonical spelling: `Tool` or `Tool(specifier)`. */
export function formatRule(rule: Pick<PermissionRule, "tool" | "specifier">): string {
  return rule.specifier === undefined ? rule.tool : `${rule.tool}(${rule.specifier})`;
}

/** Tools whose specifier is a command line; for any other tool it is a path glob or `domain:`. */
export const commandTools: ReadonlySet<string> = new Set(["run_terminal_cmd"]);

function specifierProblem(tool: string, specifier: string): string | undefined {
  if (specifier.startsWith("domain:")) {
    const domain = parseDomainSpecifier(specifier);
    return domain.ok ? undefined : domain.message;
  }
  if (commandTools.has(tool)) {
    const pattern = parseCommandPattern(specifier);
    return pattern.ok ? undefined : pattern.message;
  }
  return checkPathSpecifier(specifier);
}
