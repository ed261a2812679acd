import type { ConfiguredHook } from "../../hooks/hookConfig.js";
import type { ApprovalMode } from "../../policy/approvalMode.js";
import type { PermissionRule } from "../../policy/policyTypes.js";
import { readOnlyKinds } from "../../tools/tool.js";
import { ToolRegistry } from "../../tools/toolRegistry.js";
import type { AgentSessionOptions } from "../sessionOptions.js";
import type { AgentDefinition } from "./agentDefinitions.js";

/**
 * A sub-agent's session options: fresh messages, the agent's tools (read-only ones only for a
 * read-only agent, no `task` at the last level), the parent's policy, approvals, sandbox,
 * checkpoints and tool hooks (session-level hooks belong to the user's session alone).
 */
export function childSessionOptions(
  parent: AgentSessionOptions,
  agent: AgentDefinition,
  child: {
    maxIterations: number;
    depth: number;
    approvalMode: ApprovalMode;
    rules: readonly PermissionRule[];
    hooks: readonly ConfiguredHook[] | undefined;
  },
): AgentSessionOptions {
  const maxDepth = parent.subagents?.maxDepth ?? 2;
  const tools = parent.tools.list().filter((tool) => {
    if (agent.readonly && !readOnlyKinds.has(tool.kind)) return false;
    if (agent.tools && !agent.tools.includes(tool.name)) return false;
    return tool.name !== "task" || child.depth < maxDepth;
  });
  // The parent's MCP notices and prompt commands are its own; the tools it has now are inherited.
  const {
    store: _store,
    history: _history,
    sessionId: _id,
    priorUsage: _usage,
    mcp: _mcp,
    ...inherited
  } = parent;
  return {
    ...inherited,
    model: (agent.model ? parent.modelFor?.(agent.model) : undefined) ?? parent.model,
    tools: new ToolRegistry(tools),
    mode: agent.readonly ? "ask" : "agent",
    approvalMode: child.approvalMode,
    rules: child.rules,
    maxIterations: child.maxIterations,
    subagents: { ...parent.subagents, depth: child.depth },
    hooks: child.hooks,
  };
}
