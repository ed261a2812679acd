import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { type GuardedFetchOptions, guardedFetch } from "../../../policy/networkGuard/index.js";
import { apiErrorMessage } from "../../web/apiErrorMessage.js";

export interface ImageCall {
  fetchOptions: GuardedFetchOptions;
  signal: AbortSignal;
  /** For messages: "The OpenAI images API", "The Stable Diffusion WebUI". */
  providerLabel: string;
}

export type JsonAnswer = { ok: true; json: unknown } | { ok: false; error: LatheErrorInfo };

/** Characters of a provider's refusal kept in the message. */
const refusalChars = 1000;

/**
 * POSTs a JSON request through the network guard. The guard's own errors (blocked address,
 * timeout, cancel) keep their codes; an HTTP error, such as a content-policy refusal, is reported
 * in the provider's own words as E_TOOL_EXECUTION.
 */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  call: ImageCall,
): Promise<JsonAnswer> {
  const fetched = await guardedFetch(
    url,
    {
      method: "POST",
      headers: { ...headers, accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: call.signal,
    },
    call.fetchOptions,
  );
  if (!fetched.ok) return fetched;
  const { status } = fetched.response;
  const text = fetched.response.body.toString("utf8");
  if (status < 200 || status > 299) {
    const reason = apiErrorMessage(text, refusalChars) || "no reason given";
    const message = `${call.providerLabel} refused the request (HTTP ${status}): ${reason}`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    const message = `${call.providerLabel} answered with something other than JSON: ${text.slice(0, 200)}`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
}

/** Image bytes from base64, accepting the `data:image/png;base64,` form some servers send. */
export function decodeBase64Image(encoded: string): Buffer {
  const comma = encoded.startsWith("data:") ? encoded.indexOf(",") : -1;
  return Buffer.from(comma === -1 ? encoded : encoded.slice(comma + 1), "base64");
}
