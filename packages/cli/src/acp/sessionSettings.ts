import type * as acp from "@agentclientprotocol/sdk";
import { type AgentSession, type ApprovalMode, approvalModeSchema } from "@lathe/core";
import { type Mode, modeSchema } from "@lathe/protocol";
import { modelChoices } from "../modelChoices.js";

const modeNames: Record<Mode, { name: string; description: string }> = {
  agent: { name: "Agent", description: "Reads, edits and runs commands." },
  ask: { name: "Ask", description: "Answers from the code; changes nothing." },
  plan: { name: "Plan", description: "Reads the code and writes a plan." },
  debug: { name: "Debug", description: "Works by hypotheses and instrumentation." },
};

/** A mode for each of the user's agents: `custom:NAME`, apart from Lathe's own mode names. */
const customPrefix = "custom:";

/** Lathe's modes and the user's agents, and which one the session is in. */
export async function modeState(session: AgentSession): Promise<acp.SessionModeState> {
  const agents = await session.customAgents();
  const acting = session.actingAs;
  return {
    currentModeId: acting === undefined ? session.setup.mode : `${customPrefix}${acting}`,
    availableModes: [
      ...modeSchema.options.map((id) => ({ id, ...modeNames[id] })),
      ...agents.map((agent) => ({
        id: `${customPrefix}${agent.name}`,
        name: agent.name,
        description: agent.description,
      })),
    ],
  };
}

/**
 * Puts the session in the mode an editor chose: one of Lathe's, or one of the user's agents.
 * An error message for a mode there is no such thing as.
 */
export async function applyMode(session: AgentSession, modeId: string): Promise<string | undefined> {
  if (modeId.startsWith(customPrefix)) {
    const acted = await session.actAs(modeId.slice(customPrefix.length));
    return acted.ok ? undefined : acted.error.message;
  }
  const mode = modeSchema.safeParse(modeId);
  if (!mode.success) return `No mode ${modeId}.`;
  session.setMode(mode.data);
  return undefined;
}

const approvalModeNames: Record<ApprovalMode, string> = {
  manual: "Ask about everything",
  ask_first: "Ask from medium risk",
  auto_edit: "Edits without asking",
  auto: "Ask only for critical",
  yolo: "Never ask",
};

/**
 * The session's settings an editor can change: its model — the catalog's models of the session's
 * provider and of every provider with a key — and its approval mode.
 */
export function configOptions(session: AgentSession, keyed: ReadonlySet<string>): acp.SessionConfigOption[] {
  const current = session.modelId;
  const models = modelChoices(current, keyed);
  return [
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: current,
      options: models.map((id) => ({ value: id, name: id })),
    },
    {
      id: "approval_mode",
      name: "Approval mode",
      type: "select",
      currentValue: session.setup.approvalMode,
      options: approvalModeSchema.options.map((mode) => ({ value: mode, name: approvalModeNames[mode] })),
    },
  ];
}
