import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { terminalAuthAdvice } from "../../src/llm/credentials.js";
import {
  classifyFailure,
  decideRetry,
  defaultRetrySettings,
  type Failure,
  retryAfterMs,
  retrySettingsWith,
} from "../../src/llm/index.js";
import { IncompleteStream, noRetriesYet, StreamErrorPart } from "../../src/llm/retryPolicy.js";

const context = {
  modelId: "openai:gpt-4.1",
  provider: "openai",
  authAdvice: terminalAuthAdvice("/home/u/.lathe"),
} as const;

function apiError(
  statusCode: number | undefined,
  message: string,
  extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {},
) {
  return new APICallError({
    message,
    url: "https://api.example/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    ...extra,
  });
}

describe("the SPEC §2 defaults", () => {
  it("are the documented values", () => {
    expect(defaultRetrySettings).toEqual({
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
  });

  it("keep their value where an override is undefined", () => {
    expect(retrySettingsWith({ idleTimeoutMs: 5, firstByteTimeoutMs: undefined })).toMatchObject({
      idleTimeoutMs: 5,
      firstByteTimeoutMs: 30_000,
    });
  });
});

describe("classifyFailure", () => {
  it.each([
    [401, "auth", "E_LLM_AUTH"],
    [403, "auth", "E_LLM_AUTH"],
    [429, "rate_limit", "E_LLM_RATE_LIMIT"],
    [500, "server", "E_LLM_ERROR"],
    [502, "server", "E_LLM_ERROR"],
    [529, "server", "E_LLM_ERROR"],
    [408, "server", "E_LLM_ERROR"],
    [400, "fatal", "E_LLM_ERROR"],
    [404, "fatal", "E_LLM_ERROR"],
  ] as const)("sorts HTTP %i as %s", (status, kind, code) => {
    const failure = classifyFailure(apiError(status, "provider says no"), context);
    expect(failure.kind).toBe(kind);
    expect(failure.error.code).toBe(code);
  });

  it("tells how to fix a rejected key", () => {
    const failure = classifyFailure(apiError(401, "Incorrect API key provided"), context);
    expect(failure.error.message).toBe(
      'openai:gpt-4.1 rejected the credentials (HTTP 401): Incorrect API key provided. Set OPENAI_API_KEY, or add {"openai": {"apiKey": "…"}} to /home/u/.lathe/credentials.json (chmod 600), or pass --api-key.',
    );
  });

  it("reads retry-after from a 429", () => {
    const failure = classifyFailure(
      apiError(429, "slow down", { responseHeaders: { "retry-after": "7" } }),
      context,
    );
    expect(failure).toMatchObject({ kind: "rate_limit", retryAfterMs: 7_000 });
  });

  it.each([
    "This model's maximum context length is 128000 tokens.",
    "prompt is too long: 210000 tokens > 200000 maximum",
    "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
  ])("recognises a context overflow: %s", (message) => {
    expect(classifyFailure(apiError(400, message), context)).toMatchObject({
      kind: "context_overflow",
      error: { code: "E_CONTEXT_OVERFLOW" },
    });
  });

  it("treats unreachable servers, cut streams and garbled chunks as retryable", () => {
    const refused = apiError(undefined, "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434", {
      isRetryable: true,
    });
    expect(classifyFailure(refused, context)).toMatchObject({ kind: "server" });
    expect(classifyFailure(refused, context).error.message).toContain(
      "(https://api.example/v1/chat/completions)",
    );
    const cut = new TypeError("terminated", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(classifyFailure(cut, context).kind).toBe("server");
    expect(classifyFailure(new IncompleteStream(), context).kind).toBe("server");
    expect(
      classifyFailure(new StreamErrorPart({ type: "overloaded_error", message: "Overloaded" }), context),
    ).toMatchObject({
      kind: "server",
      error: { message: "openai:gpt-4.1 reported an error mid-response: overloaded_error: Overloaded" },
    });
    expect(
      classifyFailure(new StreamErrorPart({ type: "rate_limit_error", message: "slow" }), context).kind,
    ).toBe("rate_limit");
  });

  it("does not retry errors it cannot explain", () => {
    expect(classifyFailure(new Error("unsupported tool schema"), context)).toMatchObject({
      kind: "fatal",
      error: { code: "E_LLM_ERROR", message: "Calling openai:gpt-4.1 failed: unsupported tool schema" },
    });
  });
});

describe("retryAfterMs", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2_000);
    expect(retryAfterMs({ "retry-after": "0.5" })).toBe(500);
    expect(retryAfterMs({ "retry-after-ms": "1234", "retry-after": "2" })).toBe(1_234);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }, now)).toBe(30_000);
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe("decideRetry", () => {
  const settings = defaultRetrySettings;
  const failure = (kind: Failure["kind"], retryAfter?: number): Failure => ({
    kind,
    retryAfterMs: retryAfter,
    error: { code: "E_LLM_ERROR", message: "", retryable: true, hint: "" },
  });
  const sequence = (kind: Failure["kind"], times: number, retryAfter?: number) => {
    const counts = noRetriesYet();
    return Array.from({ length: times }, () => decideRetry(failure(kind, retryAfter), counts, settings));
  };

  it("retries a missing first byte once after 2 s", () => {
    expect(sequence("first_byte_timeout", 2)).toEqual([
      { action: "retry", delayMs: 2_000 },
      { action: "fail" },
    ]);
  });

  it("retries an idle stream once", () => {
    expect(sequence("idle_timeout", 2)).toEqual([{ action: "retry", delayMs: 0 }, { action: "fail" }]);
  });

  it("retries server errors at 1, 2 and 4 s", () => {
    expect(sequence("server", 4)).toEqual([
      { action: "retry", delayMs: 1_000 },
      { action: "retry", delayMs: 2_000 },
      { action: "retry", delayMs: 4_000 },
      { action: "fail" },
    ]);
  });

  it("honours retry-after three times, then asks for the fallback", () => {
    expect(sequence("rate_limit", 4, 5_000)).toEqual([
      { action: "retry", delayMs: 5_000 },
      { action: "retry", delayMs: 5_000 },
      { action: "retry", delayMs: 5_000 },
      { action: "fallback", reason: "still rate limited after 3 retries" },
    ]);
    expect(sequence("rate_limit", 1)).toEqual([{ action: "retry", delayMs: 30_000 }]);
  });

  it("does not wait out a retry-after beyond the limit", () => {
    expect(sequence("rate_limit", 1, 3_600_000)).toEqual([
      {
        action: "fallback",
        reason: "the provider asks to wait 3600 s, longer than maxRateLimitDelayMs (300 s)",
      },
    ]);
  });

  it("never retries auth failures, overflows or unexplained errors", () => {
    for (const kind of ["auth", "context_overflow", "fatal"] as const) {
      expect(sequence(kind, 1)).toEqual([{ action: "fail" }]);
    }
  });

  it("keeps a separate budget per rule", () => {
    const counts = noRetriesYet();
    const decide = (kind: Failure["kind"]) => decideRetry(failure(kind), counts, settings).action;
    expect([
      decide("server"),
      decide("first_byte_timeout"),
      decide("server"),
      decide("idle_timeout"),
    ]).toEqual(["retry", "retry", "retry", "retry"]);
    expect(counts).toEqual({ firstByte: 1, idle: 1, rateLimit: 0, server: 2 });
  });
});
