import type { LatheErrorInfo } from "@lathe/protocol";
import { utf8Head, utf8Tail } from "../fileSystem/utf8Slice.js";

/** Longest error message a model or a face is given; messages quoting absurd input are cut. */
export const maxErrorMessageBytes = 4096;

/**
 * Errors are capped like output: a message that quotes its input (a 10 MB path, say) must not
 * carry that input to the model. The head and the end of the message are kept.
 */
export function boundErrorMessage(error: LatheErrorInfo): LatheErrorInfo {
  const size = Buffer.byteLength(error.message, "utf8");
  if (size <= maxErrorMessageBytes) return error;
  const head = utf8Head(error.message, maxErrorMessageBytes - 1024);
  const tail = utf8Tail(error.message, 512);
  return { ...error, message: `${head} … [${size - maxErrorMessageBytes + 512} bytes cut] … ${tail}` };
}
