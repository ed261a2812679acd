/**
 * Claude Code flags that Lathe accepts so that a program written for `claude` can start `lathe`
 * (the Claude Agent SDK passes several of them on its own), without acting on them: Lathe has no
 * such feature, or has it under its own settings. A run reports them once as ignored.
 */
const ignoredWithValue = new Set([
  "--add-dir",
  "--agent",
  "--agents",
  "--betas",
  "--channels",
  "--debug-file",
  "--effort",
  "--fallback-model",
  "--initialize-fields",
  "--json-schema",
  "--managed-settings",
  "--max-budget-usd",
  "--max-thinking-tokens",
  "--mcp-config",
  "--plugin-dir",
  "--project-config-root",
  "--resume-session-at",
  "--sdk-url",
  "--session-id",
  "--setting-sources",
  "--settings",
  "--system-prompt",
  "--task-budget",
  "--thinking-display",
]);

const ignoredSwitches = new Set([
  "--allow-dangerously-skip-permissions",
  "--await-initialize",
  "--dangerously-skip-permissions",
  "--debug",
  "--debug-to-stderr",
  "--fork-session",
  "--hard-fail",
  "--include-hook-events",
  "--managed-settings-in-initialize",
  "--no-optional-locks",
  "--no-session-persistence",
  "--permission-prompts",
  "--plugin-dir-no-mcp",
  "--porcelain",
  "--resume-drops-turn",
  "--session-mirror",
  "--strict-mcp-config",
]);

/** Takes the ignored Claude Code flags (and their values) out of `argv`, and names them. */
export function takeIgnoredClaudeFlags(argv: readonly string[]): { rest: string[]; ignored: string[] } {
  const rest: string[] = [];
  const ignored: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const [name, inline] = splitFlag(arg);
    if (ignoredSwitches.has(name) && inline === undefined) {
      ignored.push(name);
      continue;
    }
    if (ignoredWithValue.has(name)) {
      ignored.push(name);
      // `--flag value` (the SDK writes `--flag=value`); a value never starts with "--".
      if (inline === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) i++;
      continue;
    }
    rest.push(arg);
  }
  return { rest, ignored: [...new Set(ignored)] };
}

function splitFlag(arg: string): [string, string | undefined] {
  const at = arg.indexOf("=");
  return at > 2 && arg.startsWith("--") ? [arg.slice(0, at), arg.slice(at + 1)] : [arg, undefined];
}

/**
 * Claude Code's `--allowedTools` / `--disallowedTools` list: rules separated by commas or spaces,
 * none of them inside a rule's parentheses (`Bash(git log:*),Read`).
 */
export function splitToolList(list: string): string[] {
  const rules: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of list) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current.trim() !== "") rules.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  if (current.trim() !== "") rules.push(current.trim());
  return rules;
}
