import type { z } from "zod";
import { type GuardedFetchOptions, guardedFetch } from "../../../policy/networkGuard/index.js";
import { apiErrorMessage } from "../../web/apiErrorMessage.js";

/** How every provider call is made: through the network guard, with the keys it must never echo. */
export interface ProviderCall {
  fetchOptions: GuardedFetchOptions;
  signal: AbortSignal;
  /** Keys sent in this call; blanked out of every reason, since a URL can carry one (Google). */
  secrets: readonly string[];
}

export interface ProviderRequestInit {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export type ProviderBody = { ok: true; text: string } | { ok: false; reason: string };

/** Characters of an error answer kept in the reason. */
const reasonExcerptChars = 200;

/** One request to a provider; any failure becomes a one-line reason for the fall-through list. */
export async function providerRequest(
  url: string,
  init: ProviderRequestInit,
  call: ProviderCall,
): Promise<ProviderBody> {
  const fetched = await guardedFetch(url, { ...init, signal: call.signal }, call.fetchOptions);
  if (!fetched.ok)
    return { ok: false, reason: redact(`${fetched.error.code}: ${fetched.error.message}`, call) };
  const { status, body } = fetched.response;
  const text = body.toString("utf8");
  if (status < 200 || status > 299) {
    const excerpt = apiErrorMessage(text, reasonExcerptChars);
    return { ok: false, reason: redact(`HTTP ${status}${excerpt === "" ? "" : `: ${excerpt}`}`, call) };
  }
  return { ok: true, text };
}

/** Parses a provider's JSON answer against the part of its shape that is used. */
export function parseAnswer<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
): { ok: true; value: z.infer<Schema> } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `the answer is not JSON: ${oneLine(text).slice(0, reasonExcerptChars)}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    return { ok: false, reason: `unexpected answer${where}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, value: parsed.data };
}

function redact(text: string, call: ProviderCall): string {
  let redacted = text;
  for (const secret of call.secrets) {
    if (secret === "") continue;
    redacted = redacted.split(secret).join("***").split(encodeURIComponent(secret)).join("***");
  }
  return redacted;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
