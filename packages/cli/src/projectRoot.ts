import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

/** The project directory named by `--cwd` (or the current one), resolved with realpath. */
export function projectRootFrom(
  cwd: string,
): { ok: true; path: string } | { ok: false; error: LatheErrorInfo } {
  const path = resolve(cwd);
  try {
    if (!statSync(path).isDirectory()) {
      return { ok: false, error: errorInfo("E_FILE_NOT_FOUND", `--cwd ${path} is not a directory`) };
    }
    return { ok: true, path: realpathSync(path) };
  } catch {
    return { ok: false, error: errorInfo("E_FILE_NOT_FOUND", `--cwd ${path} does not exist`) };
  }
}
