import { STATUS_CODES } from "node:http";
import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { type GuardedResponse, guardedFetch } from "../../../policy/networkGuard/index.js";
import type { Assessment } from "../../../policy/policyTypes.js";
import { urlBlock } from "../../../policy/urlPrecheck.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import {
  type ResolvedWebFetchSettings,
  resolveWebFetchSettings,
  type WebFetchSettings,
} from "../../web/webFetchSettings.js";
import { decodeText } from "./decodeText.js";
import { pageKindOf, parseContentType } from "./mediaType.js";
import { pageResult } from "./pageOutput.js";
import { pageText } from "./pageText.js";

/** Beyond the download itself: converting a large page to markdown takes a few seconds. */
const conversionGraceMs = 30_000;
/** Characters of an error page quoted to the model. */
const errorExcerptChars = 500;

const requestHeaders = {
  accept:
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
  "user-agent": "Mozilla/5.0 (compatible; Lathe; +web_fetch)",
};

const webFetchSchema = builtinToolSchema("web_fetch", () =>
  z.object({
    url: z.string().min(1).max(8192),
    prompt: z.string().max(2000).optional().describe("What you look for, shown above the page."),
    max_length: z.number().int().min(200).max(200_000).optional(),
    format: z.enum(["markdown", "text", "html"]).optional(),
  }),
);

type WebFetchArgs = z.infer<typeof webFetchSchema>;

/**
 * `web_fetch` with its settings read at each call, so a settings change applies to the next call.
 * The integrator registers `createWebFetchTool(() => webFetchSettingsFrom(settings.webFetch))`.
 */
export function createWebFetchTool(settings: () => WebFetchSettings) {
  return defineTool({
    name: "web_fetch",
    description: toolPrompt(assetUrl("tools/builtin/webFetch/webFetch.md")),
    schema: webFetchSchema,
    kind: "fetch",
    // Whether the address may be reached is the network guard's decision, made on every hop.
    risk: () => "low",
    assess: (args) => assessFetch(args.url, resolveWebFetchSettings(settings())),
    get timeoutMs() {
      return resolveWebFetchSettings(settings()).timeoutMs + conversionGraceMs;
    },
    truncation: "head",
    execute: (args, ctx) => webFetch(args, ctx, resolveWebFetchSettings(settings())),
  });
}

/**
 * The URL judged before anything is sent: what the network guard would refuse is blocked with
 * its code, so `policy check` and the session say no where the fetch would. A page that may be
 * read is low risk; `web_fetch(domain:…)` rules decide per site.
 */
async function assessFetch(url: string, settings: ResolvedWebFetchSettings): Promise<Assessment> {
  const block = await urlBlock(url, settings.network);
  if (block) return { risk: "critical", reason: block.reason, block };
  return { risk: "low", reason: `web_fetch reads ${hostOf(url)}` };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

async function webFetch(
  args: WebFetchArgs,
  ctx: ToolContext,
  settings: ResolvedWebFetchSettings,
): Promise<ToolResult> {
  const fetched = await guardedFetch(
    args.url,
    { headers: requestHeaders, signal: ctx.signal },
    {
      ...settings.network,
      maxBytes: settings.maxBytes,
      timeoutMs: settings.timeoutMs,
      maxRedirects: settings.maxRedirects,
    },
  );
  if (!fetched.ok) return { ok: false, error: fetched.error };
  const response = fetched.response;
  if (response.status < 200 || response.status > 299) return httpError(response);

  const contentType = parseContentType(response.headers["content-type"]);
  const kind = pageKindOf(contentType, response.body);
  const mediaType = contentType?.mediaType ?? "no declared type";
  if (kind === "binary") {
    const message =
      `${response.url} is ${mediaType} (${response.body.length.toLocaleString("en-US")} bytes), not a text page; ` +
      "web_fetch reads HTML, text, JSON and XML.";
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }
  const source = decodeText(response.body, contentType?.charset, kind === "html");
  const page = await pageText(kind, source, response.url, args.format ?? "markdown");
  return pageResult(
    // The guard accepted the URL, so it parses; normalised, it compares equal to an unredirected answer.
    { url: response.url, requestedUrl: new URL(args.url).href, mediaType, ...page },
    args.prompt,
    args.max_length ?? settings.maxChars,
    ctx,
  );
}

/** A non-2xx answer, with the start of its body: API errors explain themselves there. */
async function httpError(response: GuardedResponse): Promise<ToolResult> {
  const reason = STATUS_CODES[response.status] ?? "";
  const contentType = parseContentType(response.headers["content-type"]);
  const kind = pageKindOf(contentType, response.body);
  let excerpt = "";
  if (kind !== "binary" && response.body.length > 0) {
    const source = decodeText(response.body, contentType?.charset, kind === "html");
    const text = (await pageText(kind, source, response.url, "text")).text.replace(/\s+/g, " ").trim();
    if (text !== "") excerpt = ` The response says: ${text.slice(0, errorExcerptChars)}`;
  }
  const message = `${response.url} answered HTTP ${response.status} ${reason}.${excerpt}`;
  return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
}
