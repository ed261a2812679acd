import { join } from "node:path";
import type { LatheErrorInfo, LatheEvent } from "@lathe/protocol";
import { openShadowRepository, type ShadowRepository } from "../checkpoint/index.js";
import { secretRedactor } from "../secrets/index.js";
import { SessionStore } from "../store/sessionStore.js";
import { createLogger, type Logger, RunTracer } from "../trace/index.js";
import type { AgentSession } from "./agentSession.js";

export interface PersistenceSettings {
  latheHome: string;
  projectRoot: string;
  /** Every API key the process knows: kept out of the database, traces and logs. */
  secrets: readonly string[];
  checkpoints?: { enabled?: boolean; maxFileBytes?: number; maxTotalBytes?: number };
  telemetry?: { otlpEndpoint: string; otlpHeaders?: Record<string, string> };
  logLevel?: "debug" | "info" | "warn" | "error";
}

/** Everything that outlives a process for one project: the database, checkpoints, traces and logs (SPEC §7). */
export interface Persistence {
  store: SessionStore;
  checkpoints?: ShadowRepository;
  /** Why there are no checkpoints (the project is `/` or the home directory, or git failed). */
  checkpointsOff?: LatheErrorInfo;
  logger: Logger;
  /** Scrubs every known API key from a text; whatever else is written goes through it too. */
  redact: (text: string) => string;
  /** Traces a session's runs to `$LATHE_HOME/traces` and the database; the result stops it. */
  trace(session: AgentSession): () => Promise<void>;
  /** Keeps the checkpoint store under its size cap, then closes the database. */
  close(): Promise<void>;
}

export async function openPersistence(
  settings: PersistenceSettings,
): Promise<{ ok: true; value: Persistence } | { ok: false; error: LatheErrorInfo }> {
  // Opening the checkpoints waits on the file system: started first, that waiting
  // overlaps the database and the log opening on this thread. Nothing is awaited before the
  // database opens, so it still creates $LATHE_HOME (private, 0700) before the shadow's mkdir.
  const shadowOpening =
    settings.checkpoints?.enabled === false
      ? undefined
      : openShadowRepository({
          latheHome: settings.latheHome,
          projectRoot: settings.projectRoot,
          // 0 is no cap set: the defaults apply.
          maxFileBytes: settings.checkpoints?.maxFileBytes || undefined,
          maxTotalBytes: settings.checkpoints?.maxTotalBytes || undefined,
        });
  const redact = secretRedactor(settings.secrets);
  const opened = SessionStore.open(join(settings.latheHome, "lathe.db"), { redact });
  if (!opened.ok) {
    await shadowOpening;
    return opened;
  }
  const store = opened.value;
  const logger = createLogger({ latheHome: settings.latheHome, redact, level: settings.logLevel ?? "info" });
  const shadow = await shadowOpening;
  if (shadow && !shadow.ok)
    logger.warn("checkpoints are off", { code: shadow.error.code, reason: shadow.error.message });
  return {
    ok: true,
    value: {
      store,
      checkpoints: shadow?.ok ? shadow.value : undefined,
      checkpointsOff: shadow && !shadow.ok ? shadow.error : undefined,
      logger,
      redact,
      trace(session) {
        const tracer = new RunTracer({
          latheHome: settings.latheHome,
          sessionId: session.id,
          redact,
          onSpan: (span) => store.addSpan(span),
          // A trace that cannot be written must never break the run it describes.
          onError: (error) =>
            logger.warn("trace export failed", {
              error: error instanceof Error ? error.message : String(error),
            }),
          otlpEndpoint: settings.telemetry?.otlpEndpoint,
          otlpHeaders: settings.telemetry?.otlpHeaders,
        });
        const unsubscribe = session.subscribe((event) => {
          tracer.handle(event);
          logEvent(logger, event);
        });
        return async () => {
          unsubscribe();
          await tracer.shutdown();
        };
      },
      async close() {
        if (shadow?.ok) {
          const pruned = await shadow.value.prune();
          if (!pruned.ok)
            logger.warn("checkpoint pruning failed", {
              code: pruned.error.code,
              reason: pruned.error.message,
            });
        }
        logger.flush();
        store.close();
      },
    },
  };
}

/** The log keeps what someone debugging a run needs; the trace and the database keep the rest. */
function logEvent(logger: Logger, event: LatheEvent): void {
  const ids = { sessionId: event.sessionId, runId: event.runId };
  switch (event.type) {
    case "run_start":
      logger.info("run started", { ...ids, mode: event.mode, model: event.model });
      return;
    case "run_complete":
      logger.info("run ended", {
        ...ids,
        reason: event.reason,
        iterations: event.iterations,
        durationMs: event.durationMs,
        code: event.error?.code,
        error: event.error?.message,
      });
      return;
    case "retry":
      logger.warn("model call retried", {
        ...ids,
        attempt: event.attempt,
        code: event.error.code,
        error: event.error.message,
      });
      return;
    case "tool_failed":
      logger.debug("tool failed", {
        ...ids,
        tool: event.name,
        code: event.error.code,
        error: event.error.message,
      });
      return;
    case "notice":
      logger.warn(event.message, { ...ids, code: event.code });
      return;
    default:
      return;
  }
}
