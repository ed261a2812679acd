import { APICallError } from "@ai-sdk/provider";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { AuthAdvice, KeySource } from "./credentials.js";
import type { ProviderName } from "./modelId.js";

/** Every timeout and delay of the gateway (SPEC §2), in milliseconds. */
export interface RetrySettings {
  /** No response byte within this long → the attempt is abandoned. */
  firstByteTimeoutMs: number;
  firstByteRetries: number;
  firstByteRetryDelayMs: number;
  /** No byte for this long once the response has started → the attempt is abandoned. */
  idleTimeoutMs: number;
  idleRetries: number;
  idleRetryDelayMs: number;
  /** Wait after a 429 that carries no retry-after header. */
  rateLimitDefaultDelayMs: number;
  maxRateLimitRetries: number;
  /** A retry-after longer than this is not waited out: the next fallback model (or the error) comes at once. */
  maxRateLimitDelayMs: number;
  /** One retry per entry, waiting that long, after 5xx responses, network errors and broken streams. */
  serverErrorDelaysMs: number[];
}

export const defaultRetrySettings: Readonly<RetrySettings> = Object.freeze({
  firstByteTimeoutMs: 30_000,
  firstByteRetries: 1,
  firstByteRetryDelayMs: 2_000,
  idleTimeoutMs: 60_000,
  idleRetries: 1,
  idleRetryDelayMs: 0,
  rateLimitDefaultDelayMs: 30_000,
  maxRateLimitRetries: 3,
  maxRateLimitDelayMs: 300_000,
  serverErrorDelaysMs: [1_000, 2_000, 4_000],
});

/** Defaults with the given values laid over them; `undefined` values keep the default. */
export function retrySettingsWith(overrides: Partial<RetrySettings> = {}): RetrySettings {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    ...defaultRetrySettings,
    serverErrorDelaysMs: [...defaultRetrySettings.serverErrorDelaysMs],
    ...defined,
  };
}

export type FailureKind =
  | "first_byte_timeout"
  | "idle_timeout"
  | "rate_limit"
  | "server"
  | "auth"
  | "context_overflow"
  | "fatal";

export interface Failure {
  kind: FailureKind;
  error: LatheErrorInfo;
  /** From retry-after (rate limits only). */
  retryAfterMs?: number;
}

export interface FailureContext {
  modelId: string;
  provider: ProviderName;
  authAdvice: AuthAdvice;
  keySource?: KeySource;
  /** The env var or file the key came from, to name it in an authentication error. */
  keySourceName?: string;
}

/** An `error` part inside an otherwise healthy response stream; `payload` is whatever the provider sent. */
export class StreamErrorPart extends Error {
  readonly payload: unknown;
  constructor(payload: unknown) {
    super(payloadMessage(payload));
    this.name = "StreamErrorPart";
    this.payload = payload;
  }
}

/** The response ended without the provider saying it was finished: the connection broke off. */
export class IncompleteStream extends Error {
  constructor() {
    super("the response ended before the provider finished it");
    this.name = "IncompleteStream";
  }
}

const contextOverflowPattern =
  /context[ _]length|context[ _]window|maximum context|prompt is too long|input is too long|too many tokens|token count .*exceeds|exceeds the (?:maximum|context)|reduce the length of the messages/i;
const rateLimitPattern = /rate[ _-]?limit|too many requests|resource[ _]exhausted|quota/i;

const networkErrorCodes = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** Sorts a failed attempt into the §11 code and the retry rule that applies to it. */
export function classifyFailure(error: unknown, context: FailureContext): Failure {
  const { modelId } = context;
  if (APICallError.isInstance(error)) return classifyApiCallError(error, context);
  if (error instanceof StreamErrorPart) {
    if (APICallError.isInstance(error.payload)) return classifyApiCallError(error.payload, context);
    const detail = error.message;
    if (contextOverflowPattern.test(detail)) return overflow(modelId, detail);
    if (rateLimitPattern.test(detail)) {
      return {
        kind: "rate_limit",
        error: errorInfo("E_LLM_RATE_LIMIT", `${modelId} is rate limiting requests: ${detail}`),
      };
    }
    return {
      kind: "server",
      error: errorInfo("E_LLM_ERROR", `${modelId} reported an error mid-response: ${detail}`),
    };
  }
  if (error instanceof IncompleteStream) {
    return {
      kind: "server",
      error: errorInfo("E_LLM_ERROR", `The response from ${modelId} broke off: ${error.message}.`),
    };
  }
  if (isNetworkError(error) || isGarbledResponse(error)) {
    return {
      kind: "server",
      error: errorInfo("E_LLM_ERROR", `The connection to ${modelId} failed: ${describe(error)}`),
    };
  }
  return { kind: "fatal", error: errorInfo("E_LLM_ERROR", `Calling ${modelId} failed: ${describe(error)}`) };
}

function classifyApiCallError(error: APICallError, context: FailureContext): Failure {
  const { modelId } = context;
  const status = error.statusCode;
  const detail = error.message;
  const text = `${detail} ${error.responseBody ?? ""}`;
  if (status === 401 || status === 403) {
    const from = context.keySourceName ? ` The key in use came from ${context.keySourceName}.` : "";
    return {
      kind: "auth",
      error: errorInfo(
        "E_LLM_AUTH",
        `${modelId} rejected the credentials (HTTP ${status}): ${detail}.${from} ${context.authAdvice(context.provider, { source: context.keySource ?? "none" })}`,
      ),
    };
  }
  if (status === 429) {
    return {
      kind: "rate_limit",
      retryAfterMs: retryAfterMs(error.responseHeaders),
      error: errorInfo("E_LLM_RATE_LIMIT", `${modelId} is rate limiting requests (HTTP 429): ${detail}`),
    };
  }
  if (status !== undefined && status >= 400 && status < 500 && contextOverflowPattern.test(text)) {
    return overflow(modelId, detail);
  }
  if (status === undefined) {
    // No status: the request never got an answer (connection refused, reset, DNS…).
    const where = error.url ? ` (${error.url})` : "";
    const kind = error.isRetryable || isNetworkError(error) ? "server" : "fatal";
    return { kind, error: errorInfo("E_LLM_ERROR", `Could not reach ${modelId}${where}: ${detail}`) };
  }
  // 2xx here means the body could not be read or parsed: a broken stream, worth another try.
  if (status < 300 || status === 408 || status === 409 || status >= 500) {
    return {
      kind: "server",
      error: errorInfo("E_LLM_ERROR", `${modelId} failed (HTTP ${status}): ${detail}`),
    };
  }
  const advice = status === 404 ? " Check the model name and the base URL." : "";
  return {
    kind: "fatal",
    error: errorInfo("E_LLM_ERROR", `${modelId} refused the request (HTTP ${status}): ${detail}.${advice}`),
  };
}

function overflow(modelId: string, detail: string): Failure {
  return {
    kind: "context_overflow",
    error: errorInfo("E_CONTEXT_OVERFLOW", `The conversation is too long for ${modelId}: ${detail}`),
  };
}

export function timeoutFailure(
  kind: "first_byte_timeout" | "idle_timeout",
  modelId: string,
  settings: RetrySettings,
): Failure {
  const message =
    kind === "first_byte_timeout"
      ? `${modelId} sent nothing within ${seconds(settings.firstByteTimeoutMs)} (firstByteTimeoutMs).`
      : `${modelId} stopped sending for ${seconds(settings.idleTimeoutMs)} mid-response (idleTimeoutMs).`;
  return { kind, error: errorInfo("E_LLM_TIMEOUT", message) };
}

/** `retry-after-ms` (OpenAI's precise form), else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const precise = headers["retry-after-ms"];
  if (
    precise !== undefined &&
    precise.trim() !== "" &&
    Number.isFinite(Number(precise)) &&
    Number(precise) >= 0
  ) {
    return Number(precise);
  }
  const value = headers["retry-after"]?.trim();
  if (!value) return undefined;
  const asSeconds = Number(value);
  if (Number.isFinite(asSeconds) && asSeconds >= 0) return asSeconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Retries already spent on one model, per rule. */
export interface RetryCounts {
  firstByte: number;
  idle: number;
  rateLimit: number;
  server: number;
}

export function noRetriesYet(): RetryCounts {
  return { firstByte: 0, idle: 0, rateLimit: 0, server: 0 };
}

export type RetryDecision =
  | { action: "retry"; delayMs: number }
  /** Rate limits are exhausted: the next fallback model should take over, if there is one. */
  | { action: "fallback"; reason: string }
  | { action: "fail" };

/** Applies SPEC §2 to a failure; on "retry" the matching count in `counts` is spent. */
export function decideRetry(failure: Failure, counts: RetryCounts, settings: RetrySettings): RetryDecision {
  switch (failure.kind) {
    case "first_byte_timeout":
      if (counts.firstByte >= settings.firstByteRetries) return { action: "fail" };
      counts.firstByte++;
      return { action: "retry", delayMs: settings.firstByteRetryDelayMs };
    case "idle_timeout":
      if (counts.idle >= settings.idleRetries) return { action: "fail" };
      counts.idle++;
      return { action: "retry", delayMs: settings.idleRetryDelayMs };
    case "rate_limit": {
      if (counts.rateLimit >= settings.maxRateLimitRetries) {
        return { action: "fallback", reason: `still rate limited after ${counts.rateLimit} retries` };
      }
      const delayMs = failure.retryAfterMs ?? settings.rateLimitDefaultDelayMs;
      if (delayMs > settings.maxRateLimitDelayMs) {
        return {
          action: "fallback",
          reason: `the provider asks to wait ${seconds(delayMs)}, longer than maxRateLimitDelayMs (${seconds(settings.maxRateLimitDelayMs)})`,
        };
      }
      counts.rateLimit++;
      return { action: "retry", delayMs };
    }
    case "server": {
      const delayMs = settings.serverErrorDelaysMs[counts.server];
      if (delayMs === undefined) return { action: "fail" };
      counts.server++;
      return { action: "retry", delayMs };
    }
    case "auth":
    case "context_overflow":
    case "fatal":
      return { action: "fail" };
  }
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

function errorChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && !chain.includes(current) && chain.length < 10) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function isNetworkError(error: unknown): boolean {
  return errorChain(error).some((link) => {
    if (!(link instanceof Error)) return false;
    const code = (link as Error & { code?: unknown }).code;
    if (typeof code === "string" && networkErrorCodes.has(code)) return true;
    // undici reports a body cut off mid-way as `TypeError: terminated`, a failed connect as `fetch failed`.
    return link instanceof TypeError && /^(terminated|fetch failed|other side closed)$/i.test(link.message);
  });
}

/** The AI SDK's errors for a stream it could not parse: the bytes arrived damaged or cut. */
function isGarbledResponse(error: unknown): boolean {
  return (
    error instanceof Error &&
    [
      "AI_JSONParseError",
      "AI_TypeValidationError",
      "AI_EmptyResponseBodyError",
      "AI_InvalidResponseDataError",
    ].includes(error.name)
  );
}

function describe(error: unknown): string {
  const links = errorChain(error).map((link) => (link instanceof Error ? link.message : String(link)));
  return [...new Set(links.filter((m) => m !== ""))].join(": ") || "unknown error";
}

function payloadMessage(payload: unknown): string {
  if (payload instanceof Error) return payload.message;
  if (typeof payload === "string") return payload;
  if (typeof payload === "object" && payload !== null) {
    const record = payload as Record<string, unknown>;
    const message = typeof record.message === "string" ? record.message : undefined;
    const type =
      typeof record.type === "string"
        ? record.type
        : typeof record.code === "string"
          ? record.code
          : undefined;
    if (message) return type ? `${type}: ${message}` : message;
    return JSON.stringify(payload);
  }
  return String(payload);
}
