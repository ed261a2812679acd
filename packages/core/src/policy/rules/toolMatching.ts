import type { PolicyBehavior } from "../policyTypes.js";

/**
 * A rule on `read_file` or `edit_file` speaks for every built-in tool that reads or changes file
 * contents, as Claude Code's Read and Edit rules do: otherwise `deny read_file(./.env)` would be
 * dodged by searching the file, and `deny edit_file(./.env)` by rewriting it with write_file.
 */
const families: Record<string, { all: readonly string[]; denyOnly: readonly string[] }> = {
  read_file: { all: ["list_directory", "glob_search", "search_files", "read_lints"], denyOnly: [] },
  // Deleting is a change too, but an allow on editing should not quietly allow deleting.
  edit_file: { all: ["write_file", "multi_edit", "apply_patch"], denyOnly: ["delete_file"] },
};

/** Whether a rule written for `ruleTool` (a name, a family head, or a wildcard) applies to a call of `toolName`. */
export function ruleCoversTool(ruleTool: string, toolName: string, behavior: PolicyBehavior): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool.includes("*") && wildcardRegExp(ruleTool).test(toolName)) return true;
  const family = families[ruleTool];
  if (family === undefined) return false;
  return family.all.includes(toolName) || (behavior !== "allow" && family.denyOnly.includes(toolName));
}

const wildcardCache = new Map<string, RegExp>();

function wildcardRegExp(pattern: string): RegExp {
  let regExp = wildcardCache.get(pattern);
  if (regExp === undefined) {
    const source = pattern
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"))
      .join(".*");
    regExp = new RegExp(`^${source}$`);
    wildcardCache.set(pattern, regExp);
  }
  return regExp;
}
