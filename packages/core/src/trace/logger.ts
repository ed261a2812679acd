import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { pino } from "pino";
import { redactDeep } from "../secrets/secretRedactor.js";
import { rotateIfLarge } from "./logRotation.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LoggerSettings {
  latheHome: string;
  /** The lowest level written; default "info". */
  level?: LogLevel;
  /** Applied to every message and string field before anything reaches the file. */
  redact?: (text: string) => string;
  /** Rotate when the file is larger than this at open; default 10 MiB. */
  maxBytes?: number;
  /** Rotated files kept (lathe.log.1 … lathe.log.<keep>); default 3. */
  keep?: number;
}

export type LogFields = Record<string, unknown>;

/** Lathe's log: callers depend on this, not on pino. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Makes sure everything logged so far is on disk. */
  flush(): void;
}

const defaultMaxBytes = 10 * 1024 * 1024;
const defaultKeep = 3;

export function logFilePath(latheHome: string): string {
  return join(latheHome, "logs", "lathe.log");
}

/**
 * JSON lines (pino) in `$LATHE_HOME/logs/lathe.log`, rotated at open. Writes are synchronous, so
 * a crash loses nothing already logged.
 */
export function createLogger(settings: LoggerSettings): Logger {
  const file = logFilePath(settings.latheHome);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  rotateIfLarge(file, settings.maxBytes ?? defaultMaxBytes, settings.keep ?? defaultKeep);
  const redact = settings.redact ?? ((text: string) => text);
  const destination = pino.destination({ dest: file, sync: true, mode: 0o600 });
  const log = pino(
    {
      level: settings.level ?? "info",
      // pino reads these when it loads; the start-up snapshot loads it once, at build time.
      base: { pid: process.pid, hostname: hostname() },
      // Errors are objects redactDeep leaves whole; these turn them into type, message and stack.
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    },
    // A last pass over each whole line catches what the field pass cannot reach, such as an
    // Error's message.
    { write: (line: string) => destination.write(redact(line)) },
  );
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (fields) log[level](redactDeep(fields, redact), redact(message));
      else log[level](redact(message));
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    flush: () => destination.flushSync(),
  };
}
