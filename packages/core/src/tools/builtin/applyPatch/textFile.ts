import { readFile } from "node:fs/promises";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { binaryExtensionOf, binarySniffBytes, containsNulByte } from "../../../fileSystem/binaryFiles.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
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

/** Only valid UTF-8 is edited: decoding anything else and writing it back would corrupt it. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
  const binaryExtension = binaryExtensionOf(absPath);
  if (binaryExtension !== undefined) {
    const message = `${displayPath} is a binary file (${binaryExtension}); apply_patch changes text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
  const bytes = await readFile(absPath);
  if (containsNulByte(bytes.subarray(0, binarySniffBytes))) {
    const message = `${displayPath} is a binary file (it contains NUL bytes); apply_patch changes text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    const message = `${displayPath} is not valid UTF-8 text; apply_patch changes UTF-8 text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
  return { ok: true, text, bytes, mode: stats.mode & 0o7777 };
}
