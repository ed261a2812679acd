import { readFile } from "node:fs/promises";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { binaryExtensionOf, binarySniffBytes, containsNulByte } from "../../fileSystem/binaryFiles.js";

// `tool` names the tool and what it does with text, e.g. "apply_patch changes", for refusals
// such as `logo.png is a binary file (.png); apply_patch changes text files only.`

/** The refusal of a file whose extension marks it binary, or undefined when it may be text. */
export function binaryNameError(
  absPath: string,
  displayPath: string,
  tool: string,
): LatheErrorInfo | undefined {
  const extension = binaryExtensionOf(absPath);
  if (extension === undefined) return undefined;
  return errorInfo(
    "E_BINARY_FILE",
    `${displayPath} is a binary file (${extension}); ${tool} text files only.`,
  );
}

export type StrictText = { ok: true; text: string; bytes: Buffer } | { ok: false; error: LatheErrorInfo };

/** Decoding invalid UTF-8 leniently would rewrite the bytes around the change too. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads a file to rewrite: its bytes and their text (a BOM kept as its character), or why it is not text. */
export async function readStrictText(
  absPath: string,
  displayPath: string,
  tool: string,
): Promise<StrictText> {
  const bytes = await readFile(absPath);
  if (containsNulByte(bytes.subarray(0, binarySniffBytes))) {
    const message = `${displayPath} is a binary file (it contains NUL bytes); ${tool} text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
  try {
    return { ok: true, text: strictUtf8.decode(bytes), bytes };
  } catch {
    const message = `${displayPath} is not valid UTF-8 text; ${tool} UTF-8 text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
}
