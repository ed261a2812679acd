import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { planRunPrompt } from "@lathe/core";
import { type ErrorCode, errorInfo } from "@lathe/protocol";

/** A plan is a page or a few of markdown; anything this large is not one. */
const maxPlanBytes = 1024 * 1024;

/**
 * `--plan FILE`: the saved plan (relative to the directory lathe runs in) as the task of an
 * agent-mode run. A missing, unreadable, empty or oversized file is a usage error with its code.
 */
export function planPromptFrom(
  file: string,
  cwd: string,
): { ok: true; prompt: string } | { ok: false; message: string } {
  const path = resolve(cwd, file);
  const failed = (code: ErrorCode, message: string) => {
    const error = errorInfo(code, message);
    return { ok: false as const, message: `${error.code}: ${error.message}` };
  };
  let text: string;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return failed("E_INVALID_ARGS", `--plan ${file} is not a file.`);
    if (stats.size > maxPlanBytes) {
      return failed(
        "E_FILE_TOO_LARGE",
        `--plan ${file} is ${stats.size} bytes; a plan is at most ${maxPlanBytes}.`,
      );
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR")
      return failed("E_FILE_NOT_FOUND", `--plan ${file}: no such file.`);
    const reason = error instanceof Error ? error.message : String(error);
    return failed("E_TOOL_EXECUTION", `--plan ${file} cannot be read: ${reason}`);
  }
  if (text.trim() === "") return failed("E_INVALID_ARGS", `--plan ${file} is empty.`);
  return { ok: true, prompt: planRunPrompt(text, file) };
}
