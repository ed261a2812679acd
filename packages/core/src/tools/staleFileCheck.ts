import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { FileReadLedger } from "./fileReadLedger.js";

/**
 * The read-before-write rule of every tool that changes an existing file: the file must have
 * been read in this session and be unchanged since. Outside a session (`lathe tool`) nothing can
 * have been read, so the ledger does not enforce it.
 */
export async function staleFileError(
  ledger: FileReadLedger,
  absPath: string,
  displayPath: string,
  action: "edit" | "write" | "patch",
): Promise<LatheErrorInfo | undefined> {
  if (!ledger.enforced) return undefined;
  const freshness = await ledger.checkFresh(absPath);
  if (freshness === "fresh") return undefined;
  const why =
    freshness === "never_read"
      ? "you have not read it in this session"
      : "it changed on disk since you last read it";
  return errorInfo(
    "E_STALE_FILE",
    `${displayPath} cannot be ${action === "patch" ? "patched" : `${action === "edit" ? "edited" : "written"}`}: ${why}. Read it with read_file, then try again.`,
  );
}
