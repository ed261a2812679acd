import { secretRedactor } from "../secrets/secretRedactor.js";
import { environmentSecrets } from "../secrets/secretVariables.js";
import type { ToolContext } from "./tool.js";

/**
 * The call's redactor; without one from the engine, the secrets of this process's environment
 * and the key formats, so no caller can run a tool with redaction off.
 */
export function redactorOf(ctx: Pick<ToolContext, "redact">): (text: string) => string {
  return ctx.redact ?? secretRedactor(environmentSecrets(process.env));
}
