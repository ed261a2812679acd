import type { Mode } from "@lathe/protocol";

/** What each mode tells the model about its limits; the tool set itself is filtered in `toolsForMode`. */
export const modeGuidance: Record<Mode, string> = {
  agent: "Mode: agent. You may read, edit and run commands to complete the task.",
  ask: "Mode: ask. Answer questions about the code. You have read-only tools: do not try to change anything.",
  plan: "Mode: plan. Investigate with read-only tools and produce a step-by-step plan in markdown. Do not change files.",
  debug:
    "Mode: debug. Work by hypotheses: instrument with logging, reproduce, read the logs, make the minimal fix, verify it, then remove the instrumentation.",
};
