import type { ErrorCode, Risk } from "@lathe/protocol";

/** What the policy concludes about one tool call. */
export type PolicyBehavior = "allow" | "ask" | "deny";

/**
 * A tool's own judgement of one call, before rules and the approval mode: how risky it is, and
 * whether it must never run (a hard block holds in every mode).
 */
export interface Assessment {
  risk: Risk;
  reason: string;
  block?: { code: ErrorCode; reason: string };
  /** The call needs the network (package installs, git fetch, curl…), which the sandbox cuts off. */
  needsNetwork?: boolean;
  /**
   * The call runs the project's own code (a script, its tests, a build): low only while a working
   * sandbox contains it, at least medium without one.
   */
  runsProjectCode?: boolean;
}

export interface PolicyDecision {
  decision: PolicyBehavior;
  risk: Risk;
  reason: string;
  /** Present when denied. */
  code?: ErrorCode;
  /** The permission rule that decided, as written (`run_terminal_cmd(npm test *)`), if one did. */
  rule?: string;
  /** From the tool's assessment: the call needs the network, which the sandbox cuts off. */
  needsNetwork?: boolean;
}

/** Where a permission rule comes from; later layers win over earlier ones only through deny > ask > allow. */
export type RuleSource = "builtin" | "user" | "project" | "project-local" | "cli" | "session";

export interface PermissionRule {
  behavior: PolicyBehavior;
  /** Tool name, or an MCP wildcard like `mcp__github__*`. */
  tool: string;
  /** The part in parentheses: a command prefix (`npm test *`), a path glob (`src/**`), `domain:example.com`. */
  specifier?: string;
  source: RuleSource;
}

/** What a call touches, for rules and sensitive-path checks; derived from its arguments. */
export interface CallSubjects {
  /** Paths as given by the model (relative to the project or absolute). */
  paths: string[];
  command?: string;
  url?: string;
}

/** What the policy needs of a tool: its name and its own judgement of a call. */
export interface JudgedTool {
  name: string;
  risk(args: never, ctx: { projectRoot: string }): Risk;
  assess?(args: never, ctx: { projectRoot: string; latheHome: string }): Promise<Assessment>;
}
