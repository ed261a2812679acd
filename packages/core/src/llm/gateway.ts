import { setTimeout as sleep } from "node:timers/promises";
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import { LatheError, type LatheErrorInfo, type Usage } from "@lathe/protocol";
import { AbortRace } from "../cancellation/abortRace.js";
import { catalogWith, costOf, type ModelCatalog, type ModelInfo, shippedCatalog } from "./catalog.js";
import { type AuthAdvice, type KeySource, resolveApiKey, terminalAuthAdvice } from "./credentials.js";
import { type ParsedModelId, type ProviderName, parseModelId } from "./modelId.js";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./modelStream.js";
import { toProviderPrompt, toProviderTools } from "./promptConversion.js";
import { createLanguageModel } from "./providers.js";
import {
  classifyFailure,
  decideRetry,
  type Failure,
  type FailureContext,
  IncompleteStream,
  noRetriesYet,
  type RetrySettings,
  retrySettingsWith,
  StreamErrorPart,
  timeoutFailure,
} from "./retryPolicy.js";
import { nodeHttpFetch } from "./transport/nodeHttpFetch.js";
import { PlainResponse } from "./transport/plainResponse.js";

export interface RetryNotice {
  /** The model whose attempt failed. */
  modelId: string;
  attempt: number;
  delayMs: number;
  error: LatheErrorInfo;
  fallbackModelId?: string;
}

export interface ModelClientSettings {
  /** `provider:model`. */
  modelId: string;
  /** Base URL for the primary model's provider (fallbacks of the same provider use it too). */
  baseUrl?: string;
  /** Base URLs per provider, for providers `baseUrl` does not cover. */
  baseUrls?: Partial<Record<string, string>>;
  /** Key for the primary model's provider; other providers' keys come from env or credentials.json. */
  apiKey?: string;
  env: Record<string, string | undefined>;
  latheHome: string;
  /** How to fix a missing or rejected key, in the face's words; by default a terminal's. */
  authAdvice?: AuthAdvice;
  retry?: Partial<RetrySettings>;
  /** Tried in order once the current model stays rate limited. */
  fallbackModels?: string[];
  /** Extra or corrected catalog entries, keyed `provider:model`. */
  catalog?: Record<string, Partial<ModelInfo>>;
  /** Told about every retry and fallback, e.g. for logs; the stream reports them too. */
  onRetry?: (notice: RetryNotice) => void;
}

export type ModelClientCreation = { ok: true; client: ModelClient } | { ok: false; error: LatheErrorInfo };

interface Target {
  id: ParsedModelId;
  baseUrl?: string;
  apiKey?: string;
  keySource: KeySource;
  keySourceName?: string;
}

/**
 * The provider gateway: one `ModelClient` over the AI SDK providers' `doStream`, with SPEC §2's
 * timeouts, retries and fallbacks. Configuration problems (bad id, missing key) come back as an
 * error value, before any request is made.
 */
export function createModelClient(settings: ModelClientSettings): ModelClientCreation {
  const targets: Target[] = [];
  let primaryProvider: ProviderName | undefined;
  for (const [index, raw] of [settings.modelId, ...(settings.fallbackModels ?? [])].entries()) {
    const parsed = parseModelId(raw);
    if (!parsed.ok) return index === 0 ? parsed : { ok: false, error: asFallbackError(raw, parsed.error) };
    const id = parsed.modelId;
    primaryProvider ??= id.provider;
    const samePrimary = id.provider === primaryProvider;
    const key = resolveApiKey(id.provider, {
      apiKey: samePrimary ? settings.apiKey : undefined,
      env: settings.env,
      latheHome: settings.latheHome,
      authAdvice: settings.authAdvice,
    });
    if (!key.ok) return index === 0 ? key : { ok: false, error: asFallbackError(raw, key.error) };
    targets.push({
      id,
      baseUrl: (samePrimary ? settings.baseUrl : undefined) ?? settings.baseUrls?.[id.provider],
      apiKey: key.apiKey,
      keySource: key.source,
      keySourceName: key.sourceName,
    });
  }
  const catalog = settings.catalog ? catalogWith(settings.catalog) : shippedCatalog();
  const client = new GatewayClient(targets, retrySettingsWith(settings.retry), catalog, settings);
  return { ok: true, client };
}

function asFallbackError(raw: string, error: LatheErrorInfo): LatheErrorInfo {
  return { ...error, message: `Fallback model ${raw}: ${error.message}` };
}

class GatewayClient implements ModelClient {
  readonly modelId: string;

  constructor(
    private readonly targets: Target[],
    private readonly retry: RetrySettings,
    private readonly catalog: ModelCatalog,
    private readonly settings: Pick<ModelClientSettings, "latheHome" | "authAdvice" | "onRetry">,
  ) {
    this.modelId = targets[0]!.id.id;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const caller = request.signal;
    let attempt = 1;
    for (const [index, target] of this.targets.entries()) {
      const counts = noRetriesYet();
      const context: FailureContext = {
        modelId: target.id.id,
        provider: target.id.provider,
        authAdvice: this.settings.authAdvice ?? terminalAuthAdvice(this.settings.latheHome),
        keySource: target.keySource,
        keySourceName: target.keySourceName,
      };
      let attemptsOnTarget = 0;
      while (true) {
        if (caller.aborted) throw cancelled(caller.reason);
        attemptsOnTarget++;
        let failure: Failure;
        try {
          yield* this.attempt(target, request);
          return;
        } catch (error) {
          if (caller.aborted) throw cancelled(error);
          failure =
            error instanceof AttemptTimeout
              ? timeoutFailure(error.kind, target.id.id, this.retry)
              : classifyFailure(error, context);
          failure = withoutKey(failure, target.apiKey);
        }
        const decision = decideRetry(failure, counts, this.retry);
        if (decision.action === "retry") {
          attempt++;
          yield this.notify({
            modelId: target.id.id,
            attempt,
            delayMs: decision.delayMs,
            error: failure.error,
          });
          await pause(decision.delayMs, caller);
          continue;
        }
        const next = this.targets[index + 1];
        if (decision.action === "fallback" && next) {
          attempt++;
          const error = {
            ...failure.error,
            message: `${failure.error.message} (${decision.reason}; falling back to ${next.id.id})`,
          };
          yield this.notify({
            modelId: target.id.id,
            attempt,
            delayMs: 0,
            error,
            fallbackModelId: next.id.id,
          });
          break;
        }
        const why =
          decision.action === "fallback"
            ? ` (${decision.reason})`
            : attemptsOnTarget > 1
              ? ` (gave up after ${attemptsOnTarget} attempts)`
              : "";
        throw new LatheError(failure.error.code, `${failure.error.message}${why}`);
      }
    }
  }

  private notify(notice: RetryNotice): ModelStreamEvent {
    this.settings.onRetry?.(notice);
    const { modelId: _failedModel, ...event } = notice;
    return { type: "retry", ...event };
  }

  /** One request to one model. Throws on any failure; the caller decides about retrying. */
  private async *attempt(
    target: Target,
    request: ModelRequest,
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const watch = new ResponseWatch(this.retry);
    const signal = AbortSignal.any([request.signal, watch.signal]);
    const aborted = new AbortRace(signal);
    const model = await createLanguageModel(target.id, {
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      fetch: watch.fetch,
    });
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    try {
      const tools = toProviderTools(request.tools);
      const result = await aborted.run(
        model.doStream({
          prompt: toProviderPrompt(request.system, request.messages, {
            keepReasoning: target.id.provider === "deepseek",
            imagesInToolResults: target.id.provider === "anthropic" || target.id.provider === "google",
          }),
          tools: tools.length > 0 ? tools : undefined,
          toolChoice: tools.length > 0 ? { type: "auto" } : undefined,
          maxOutputTokens: request.maxOutputTokens,
          abortSignal: signal,
        }),
      );
      reader = result.stream.getReader();
      let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
      while (true) {
        const next = await aborted.run(reader.read());
        if (next.done) break;
        const part = next.value;
        switch (part.type) {
          case "text-delta":
            if (part.delta) yield { type: "text_delta", delta: part.delta };
            break;
          case "reasoning-delta":
            if (part.delta) yield { type: "reasoning_delta", delta: part.delta };
            break;
          case "tool-input-start":
            yield { type: "tool_call_start", providerCallId: part.id, name: part.toolName };
            break;
          case "tool-input-delta":
            if (part.delta) yield { type: "tool_call_delta", providerCallId: part.id, delta: part.delta };
            break;
          case "tool-call":
            if (!part.providerExecuted) {
              yield {
                type: "tool_call",
                providerCallId: part.toolCallId,
                name: part.toolName,
                rawArguments: part.input,
              };
            }
            break;
          case "error":
            throw new StreamErrorPart(part.error);
          case "finish":
            finish = part;
            break;
        }
      }
      // Providers report a finish even when the body was cut short, but without the reason the
      // server would have sent: that is the mark of a truncated response.
      if (!finish || (finish.finishReason.raw === undefined && finish.finishReason.unified === "other")) {
        throw new IncompleteStream();
      }
      yield {
        type: "finish",
        usage: this.usage(target.id.id, finish.usage),
        finishReason: finish.finishReason.unified,
      };
    } catch (error) {
      if (watch.timedOut && !request.signal.aborted) throw new AttemptTimeout(watch.timedOut);
      throw error;
    } finally {
      aborted.dispose();
      watch.close();
      reader?.cancel().catch(() => {});
    }
  }

  private usage(modelId: string, usage: LanguageModelV3Usage): Usage {
    const counts = {
      inputTokens: usage.inputTokens.total ?? 0,
      outputTokens: usage.outputTokens.total ?? 0,
      cachedInputTokens: usage.inputTokens.cacheRead ?? 0,
    };
    return {
      ...counts,
      reasoningTokens: usage.outputTokens.reasoning ?? 0,
      costUsd: costOf(modelId, counts, this.catalog),
    };
  }
}

type TimeoutKind = "first_byte_timeout" | "idle_timeout";

class AttemptTimeout extends Error {
  readonly kind: TimeoutKind;
  constructor(kind: TimeoutKind) {
    super(kind);
    this.name = "AttemptTimeout";
    this.kind = kind;
  }
}

/**
 * Times one response at the byte level, below the SDK: some providers read ahead before
 * `doStream` resolves and keep-alive pings never surface as stream parts, so only the bytes
 * themselves tell whether the server is alive. The first-byte clock runs from the request until
 * the response headers (the first bytes the server sends); the idle clock then restarts with
 * every body chunk.
 */
class ResponseWatch {
  timedOut: TimeoutKind | undefined;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** The body was read to its end: the connection is already back in the pool. */
  private bodyRead = false;

  constructor(private readonly settings: RetrySettings) {
    this.arm("first_byte_timeout", settings.firstByteTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await nodeHttpFetch(input, init);
    this.sawBytes();
    if (!response.body) return response;
    const source = response.body.getReader();
    // A pulling stream rather than a TransformStream: a chunk costs one read and one enqueue
    // instead of a pipe's write, transform and backpressure round trip, on every chunk of every
    // response. Errors and cancels pass through as they would through a pipe.
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const next = await source.read();
        if (next.done) {
          // Parts still buffered downstream must stay readable, so the end only stops the clock.
          clearTimeout(this.timer);
          this.bodyRead = true;
          controller.close();
          return;
        }
        this.sawBytes();
        controller.enqueue(next.value);
      },
      cancel: (reason) => source.cancel(reason),
    });
    // Not Node's Response, whose first use loads undici (see transport/plainHeaders.ts).
    const watched = new PlainResponse(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      url: response.url,
    });
    return watched as unknown as Response;
  };

  private sawBytes(): void {
    if (!this.started) {
      this.started = true;
      this.arm("idle_timeout", this.settings.idleTimeoutMs);
    } else {
      this.timer?.refresh();
    }
  }

  private arm(kind: TimeoutKind, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = kind;
      this.controller.abort(new AttemptTimeout(kind));
    }, ms);
  }

  /**
   * Stops the clocks and releases the connection if the response is still open. A response read
   * to its end has nothing to release, and aborting it anyway would build an abort error and
   * run every listener of the request's signals for nothing.
   */
  close(): void {
    clearTimeout(this.timer);
    if (!this.bodyRead && !this.controller.signal.aborted && !this.timedOut) this.controller.abort();
  }
}

function cancelled(cause: unknown): LatheError {
  return new LatheError("E_CANCELLED", "Cancelled by the user.", { cause });
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    throw cancelled(error);
  }
}

/**
 * Providers echo the key they were sent in some errors ("Incorrect API key provided: sk-…");
 * the message goes on to the user, the model, the logs and the database, so the key comes out here.
 */
function withoutKey<F extends { error: { message: string } }>(failure: F, apiKey: string | undefined): F {
  if (!apiKey || apiKey.length < 8 || !failure.error.message.includes(apiKey)) return failure;
  return {
    ...failure,
    error: { ...failure.error, message: failure.error.message.replaceAll(apiKey, "[redacted]") },
  };
}
