import type { Mode } from "@lathe/protocol";
import { type AnyTool, readOnlyKinds } from "../tools/tool.js";

/** Ask and plan modes never offer a tool that can change anything. */
export function toolsForMode(mode: Mode, tools: readonly AnyTool[]): AnyTool[] {
  if (mode === "ask" || mode === "plan") return tools.filter((tool) => readOnlyKinds.has(tool.kind));
  return [...tools];
}
