import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { LatheError } from "@lathe/protocol";

export interface CappedBody {
  body: Buffer;
  /** Response headers as one string each; the encoding headers are dropped when the body was decoded. */
  headers: Record<string, string>;
}

/**
 * Reads a response body, decoding gzip/deflate/br, and stops as soon as more than `maxBytes`
 * arrive. The cap applies to the decoded bytes, because a few kilobytes of gzip can expand to
 * gigabytes. Going over is an error rather than a silent truncation, so the caller can tell the
 * model which limit was hit.
 */
export async function readCappedBody(
  message: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  url: string,
): Promise<CappedBody> {
  const decoder = decoderFor(message.headers["content-encoding"]);
  const declared = Number(message.headers["content-length"]);
  if (decoder === undefined && Number.isFinite(declared) && declared > maxBytes) {
    message.destroy();
    throw tooLarge(url, maxBytes, `it declares ${declared} bytes`);
  }

  const chunks: Buffer[] = [];
  let total = 0;
  const collect = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(url, maxBytes, `more than ${maxBytes} bytes arrived`);
      chunks.push(chunk);
    }
  };
  if (decoder === undefined) await pipeline(message, collect, { signal });
  else await pipeline(message, decoder, collect, { signal });

  const headers = flattenHeaders(message.headers);
  if (decoder !== undefined) {
    // The body handed back is decoded, so these would describe bytes the caller never sees.
    delete headers["content-encoding"];
    delete headers["content-length"];
  }
  return { body: Buffer.concat(chunks), headers };
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      // Identity, or a coding this reader does not know: the bytes are passed on as they came.
      return undefined;
  }
}

function tooLarge(url: string, maxBytes: number, detail: string): LatheError {
  return new LatheError(
    "E_TOOL_EXECUTION",
    `The response from ${url} is larger than the ${maxBytes}-byte limit (maxBytes): ${detail}. ` +
      "Fetch a smaller resource or raise maxBytes.",
  );
}
