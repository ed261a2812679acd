import type { Mode } from "@lathe/protocol";
import { parseModelId } from "../llm/modelId.js";
import { type AnyTool, readOnlyKinds } from "../tools/tool.js";

/** Tools of a reading kind that can still act on the world: the browser clicks and submits forms. */
const actsDespiteKind: ReadonlySet<string> = new Set(["browser_use"]);

/** Ask and plan modes never offer a tool that can change anything. */
export function toolsForMode(mode: Mode, tools: readonly AnyTool[]): AnyTool[] {
  if (mode === "ask" || mode === "plan") {
    return tools.filter((tool) => readOnlyKinds.has(tool.kind) && !actsDespiteKind.has(tool.name));
  }
  return [...tools];
}

/** OpenAI's model families are trained on the `*** Begin Patch` format; others edit with edit_file. */
export function prefersApplyPatch(modelId: string): boolean {
  const parsed = parseModelId(modelId);
  if (!parsed.ok) return false;
  const { provider, model } = parsed.modelId;
  return provider === "openai" || /(^|[/:-])(gpt|codex|o\d)/i.test(model);
}

/** The tools one request offers: the mode's set, with apply_patch only for the families that use it. */
export function toolsForRequest(mode: Mode, modelId: string, tools: readonly AnyTool[]): AnyTool[] {
  const patch = prefersApplyPatch(modelId);
  return toolsForMode(mode, tools).filter((tool) => tool.name !== "apply_patch" || patch);
}
