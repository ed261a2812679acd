import type * as acp from "@agentclientprotocol/sdk";
import { type AgentSession, type ApprovalMode, approvalModeSchema, shippedCatalog } from "@lathe/core";
import { type Mode, modeSchema } from "@lathe/protocol";

const modeNames: Record<Mode, { name: string; description: string }> = {
  agent: { name: "Agent", description: "Reads, edits and runs commands." },
  ask: { name: "Ask", description: "Answers from the code; changes nothing." },
  plan: { name: "Plan", description: "Reads the code and writes a plan." },
  debug: { name: "Debug", description: "Works by hypotheses and instrumentation." },
};

/** Lathe's modes, and which one the session is in. */
export function modeState(current: Mode): acp.SessionModeState {
  return {
    currentModeId: current,
    availableModes: modeSchema.options.map((id) => ({ id, ...modeNames[id] })),
  };
}

const approvalModeNames: Record<ApprovalMode, string> = {
  manual: "Ask about everything",
  ask_first: "Ask from medium risk",
  auto_edit: "Edits without asking",
  auto: "Ask only for critical",
  yolo: "Never ask",
};

/** The session's settings an editor can change: its model and its approval mode. */
export function configOptions(session: AgentSession): acp.SessionConfigOption[] {
  const current = session.modelId;
  const provider = current.split(":")[0] ?? "";
  // The catalog's models of the session's provider: one key and base URL serve them all.
  const models = [
    current,
    ...[...shippedCatalog().keys()].filter((id) => id.startsWith(`${provider}:`) && id !== current),
  ];
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
