import { readFileSync } from "node:fs";
import type { Mode } from "@lathe/protocol";

/** Read once at load: the layers are static text, kept as markdown beside the code (copied to dist). */
function load(file: URL): string {
  return readFileSync(file, "utf8").trim();
}

/** L0: who the agent is, the core rules, and what counts as an instruction. */
export const baseLayer = load(new URL("./base.md", import.meta.url));

/** L1: one policy per mode. */
export const modeLayers: Readonly<Record<Mode, string>> = {
  agent: load(new URL("./mode-agent.md", import.meta.url)),
  ask: load(new URL("./mode-ask.md", import.meta.url)),
  plan: load(new URL("./mode-plan.md", import.meta.url)),
  debug: load(new URL("./mode-debug.md", import.meta.url)),
};

/** L2 variants: the full guide, a short one for small models, one for modes that only read. */
export const toolLayers = {
  full: load(new URL("./tools.md", import.meta.url)),
  compact: load(new URL("./tools-compact.md", import.meta.url)),
  readOnly: load(new URL("./tools-readonly.md", import.meta.url)),
  /** Appended to the guide when apply_patch is offered. */
  applyPatch: load(new URL("./tools-apply-patch.md", import.meta.url)),
} as const;

/** L3: what to do when a call fails. */
export const recoveryLayer = load(new URL("./recovery.md", import.meta.url));
