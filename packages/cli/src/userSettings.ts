import { isAbsolute, join } from "node:path";
import {
  approvalModeSchema,
  browserSettingsSchema,
  imageGenerationSettingsSchema,
  readSettingsFile,
  webFetchSettingsSchema,
  webSearchSettingsSchema,
} from "@lathe/core";
import { modeSchema } from "@lathe/protocol";
import { z } from "zod";

/** `$LATHE_HOME/settings.json`: defaults that command-line flags override. */
export const userSettingsSchema = z
  .object({
    model: z.string().optional(),
    /** An embedding model for codebase_search (`openai:text-embedding-3-small`, `ollama:nomic-embed-text`); BM25 alone without one. */
    embeddingModel: z.string().optional(),
    /** The model for titles and summaries (SPEC §2 "fast" role); the main model when absent. */
    fastModel: z.string().optional(),
    /** Snapshots of the project before changes (SPEC §7); on by default. */
    checkpoints: z
      .object({
        enabled: z.boolean().default(true),
        maxFileBytes: z.number().int().positive().optional(),
        maxTotalBytes: z.number().int().positive().optional(),
      })
      .optional(),
    /** OpenTelemetry export of run traces, besides the JSONL files under $LATHE_HOME/traces. */
    telemetry: z
      .object({
        otlpEndpoint: z.string().url(),
        otlpHeaders: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
    logLevel: z.enum(["debug", "info", "warn", "error"]).optional(),
    /** web_search: provider order, SearXNG address, keys (env and credentials.json work too). */
    webSearch: webSearchSettingsSchema.optional(),
    webFetch: webFetchSettingsSchema.optional(),
    /** generate_image: an OpenAI-compatible images endpoint or a Stable Diffusion WebUI. */
    imageGeneration: imageGenerationSettingsSchema.optional(),
    /** browser_use: which Chromium, whether localhost may be opened, timeouts. */
    browser: browserSettingsSchema.optional(),
    /** The user's own rules, sent with every request of every project (SPEC §6). */
    rules: z.array(z.string()).optional(),
    /** Context engine: a smaller window than the catalog's, compaction and loop thresholds. */
    context: z
      .object({
        window: z.number().int().positive().optional(),
        compaction: z
          .object({
            threshold: z.number().positive().max(1).optional(),
            keepToolOutputTokens: z.number().int().nonnegative().optional(),
            tailFraction: z.number().positive().max(1).optional(),
          })
          .optional(),
        loop: z
          .object({
            warnIdenticalCalls: z.number().int().nonnegative().optional(),
            stopIdenticalCalls: z.number().int().nonnegative().optional(),
            readsBeforeWrite: z.number().int().nonnegative().optional(),
            readsAfterWrite: z.number().int().nonnegative().optional(),
          })
          .optional(),
        codeIndex: z.boolean().default(true),
      })
      .optional(),
    mode: modeSchema.optional(),
    approvalMode: approvalModeSchema.optional(),
    maxIterations: z.number().int().positive().optional(),
    fallbackModels: z.array(z.string()).optional(),
    /**
     * The model of each pipeline agent by name (`{"reviewer": "anthropic:claude-sonnet-4-5"}`): a
     * cloud task's step of that agent runs on it, with its worker's fallbacks behind it.
     */
    agentModels: z.record(z.string(), z.string()).optional(),
    baseUrls: z.record(z.string(), z.string()).optional(),
    /** Permission rules; read and checked by the rule loader, which reports mistakes by file. */
    permissions: z.unknown().optional(),
    sandbox: z
      .object({
        mode: z.enum(["off", "auto", "required"]).default("off"),
        network: z.boolean().default(false),
      })
      .optional(),
    /** Folders (absolute, with everything beneath them) whose project hooks, MCP servers, allow rules and agents apply without a trust record. */
    trustedFolders: z
      .array(z.string().refine((folder) => isAbsolute(folder), "must be an absolute path"))
      .optional(),
    /** Every folder is trusted: only for CI containers that run nothing but the user's own repositories. */
    trustAllFolders: z.boolean().optional(),
    /**
     * Shell commands run without the variables that hold secrets (provider keys, `*_TOKEN`,
     * `*_SECRET`, `*_PASSWORD`, `*_API_KEY`…); `passEnvironment` names those a command may keep.
     */
    shell: z
      .object({
        passEnvironment: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"))
          .default([]),
      })
      .strict()
      .optional(),
    /** Seconds before an unanswered approval counts as rejected (default 300). */
    approvalTimeoutSeconds: z.number().positive().optional(),
    /** Gateway timeouts and retry delays in milliseconds (SPEC §2 defaults when absent). */
    llm: z
      .object({
        firstByteTimeoutMs: z.number().positive().optional(),
        idleTimeoutMs: z.number().positive().optional(),
        firstByteRetryDelayMs: z.number().nonnegative().optional(),
        rateLimitDefaultDelayMs: z.number().nonnegative().optional(),
        maxRateLimitRetries: z.number().int().nonnegative().optional(),
        serverErrorDelaysMs: z.array(z.number().nonnegative()).optional(),
      })
      .optional(),
  })
  .strict();

export type UserSettings = z.infer<typeof userSettingsSchema>;

export type LoadedSettings = { ok: true; settings: UserSettings } | { ok: false; message: string };

export function settingsPath(latheHome: string): string {
  return join(latheHome, "settings.json");
}

/** Each problem of invalid settings, named by its field (`context.window: Too small…`). */
export function settingsProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
}

export function loadUserSettings(latheHome: string): LoadedSettings {
  const path = settingsPath(latheHome);
  const read = readSettingsFile(path);
  if (!read.ok) return { ok: false, message: read.message };
  if (!read.exists) return { ok: true, settings: {} };
  const parsed = userSettingsSchema.safeParse(read.settings);
  if (!parsed.success) {
    return {
      ok: false,
      message: `${path} has invalid settings:\n  ${settingsProblems(parsed.error).join("\n  ")}`,
    };
  }
  return { ok: true, settings: parsed.data };
}
