import { readFileSync } from "node:fs";
import type { Mode } from "@lathe/protocol";
import { assetUrl } from "../../assetPath.js";

/** Read once at load: the layers are static text, kept as markdown beside the code (copied to dist). */
function load(file: URL): string {
  return readFileSync(file, "utf8").trim();
}

/** L0: who the agent is, the core rules, and what counts as an instruction. */
export const baseLayer = load(assetUrl("context/prompt/base.md"));

/** L1: one policy per mode. */
export const modeLayers: Readonly<Record<Mode, string>> = {
  agent: load(assetUrl("context/prompt/mode-agent.md")),
  ask: load(assetUrl("context/prompt/mode-ask.md")),
  plan: load(assetUrl("context/prompt/mode-plan.md")),
  debug: load(assetUrl("context/prompt/mode-debug.md")),
};

/** L2 variants: the full guide, a short one for small models, one for modes that only read. */
export const toolLayers = {
  full: load(assetUrl("context/prompt/tools.md")),
  compact: load(assetUrl("context/prompt/tools-compact.md")),
  readOnly: load(assetUrl("context/prompt/tools-readonly.md")),
  /** Appended to the guide when apply_patch is offered. */
  applyPatch: load(assetUrl("context/prompt/tools-apply-patch.md")),
} as const;

/** L3: what to do when a call fails. */
export const recoveryLayer = load(assetUrl("context/prompt/recovery.md"));
