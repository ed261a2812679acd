import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { binaryNameError, readStrictText } from "../../editEngine/index.js";
import { missingFileError } from "../../missingFile.js";

export type TextFile =
  | {
      ok: true;
      /** Decoded UTF-8, a BOM kept as its character. */
      text: string;
      bytes: Buffer;
      /** Permission bits, to restore the file exactly if the patch must be undone. */
      mode: number;
    }
  | { ok: false; error: LatheErrorInfo };

/** Reads a file a patch will change or delete, refusing what is not a text file. */
export async function readTextFile(absPath: string, displayPath: string): Promise<TextFile> {
  const stats = await statIfExists(absPath);
  if (stats === undefined) {
    return {
      ok: false,
      error: await missingFileError(absPath, displayPath),
    };
  }
  if (stats.isDirectory()) {
    return { ok: false, error: errorInfo("E_INVALID_ARGS", `${displayPath} is a directory, not a file.`) };
  }
  const binaryName = binaryNameError(absPath, displayPath, "apply_patch changes");
  if (binaryName !== undefined) return { ok: false, error: binaryName };
  const file = await readStrictText(absPath, displayPath, "apply_patch changes");
  if (!file.ok) return file;
  return { ok: true, text: file.text, bytes: file.bytes, mode: stats.mode & 0o7777 };
}
