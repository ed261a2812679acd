import { errorInfo } from "@lathe/protocol";
import { guardedFetch } from "../../policy/networkGuard/guardedFetch.js";
import { htmlToText } from "./htmlToText.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

const accept = "text/html, text/plain;q=0.9, text/markdown;q=0.9, application/json;q=0.8, */*;q=0.1";
const textTypes = /^(?:text\/|application\/(?:json|xml|javascript|x-yaml|yaml|[\w.+-]*\+(?:json|xml)))/;

/**
 * `@url https://…`: the page as text, fetched through the network guard like every URL (SPEC §5):
 * loopback and private addresses only with `allowLocalUrls`, at most urlMaxBytes, within
 * urlTimeoutMs. HTML is reduced to its text; other text types come as they are; anything else
 * (images, PDFs, archives) is refused rather than shown as noise.
 */
export async function resolveUrl(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  // `@url example.com/docs` means the web page, as a browser would read it.
  const url = /^[a-z][a-z0-9+.-]*:/i.test(mention.argument)
    ? mention.argument
    : `https://${mention.argument}`;
  const allowLocal = context.allowLocalUrls === true;
  const fetched = await guardedFetch(
    url,
    { signal: context.signal, headers: { accept, "user-agent": "Lathe (+@url mention)" } },
    {
      maxBytes: context.limit.urlMaxBytes,
      timeoutMs: context.limit.urlTimeoutMs,
      allowLoopback: allowLocal,
      allowPrivate: allowLocal,
    },
  );
  if (!fetched.ok) return { type: "error", error: fetched.error };
  const { response } = fetched;
  if (response.status >= 400) {
    return {
      type: "error",
      error: errorInfo("E_TOOL_EXECUTION", `${response.url} answered HTTP ${response.status}.`),
    };
  }

  const contentType = response.headers["content-type"] ?? "";
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  const body = decode(response.body, charsetOf(contentType));
  const looksLikeHtml = mediaType === "" && /^\s*<(?:!doctype html|html)\b/i.test(body);
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml" || looksLikeHtml) {
    const page = htmlToText(body);
    const title = page.title === undefined ? response.url : `${page.title} (${response.url})`;
    return { type: "attachment", title, text: page.text };
  }
  if (mediaType === "" || textTypes.test(mediaType))
    return { type: "attachment", title: response.url, text: body };
  const message = `${response.url} is ${mediaType}, not a text page; only text can be attached.`;
  return { type: "error", error: errorInfo("E_BINARY_FILE", message) };
}

function charsetOf(contentType: string): string {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? "utf-8";
}

function decode(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the web's default and right far more often than not.
    return new TextDecoder("utf-8").decode(body);
  }
}
