import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import pg from "pg";
import { checkDatabaseUrl, describeUrl } from "./databaseUrl.js";
import { migrate } from "./migrations.js";

export interface CloudDatabase {
  url: string;
  pool: pg.Pool;
  close(): Promise<void>;
}

export type OpenedDatabase = { ok: true; database: CloudDatabase } | { ok: false; error: LatheErrorInfo };

export interface OpenDatabaseOptions {
  /** Connections this process may hold (a worker's steps share them). */
  maxConnections?: number;
  connectTimeoutMs?: number;
  /** Brings the schema up to date (every command does; a read-only tool could skip it). */
  migrate?: boolean;
}

/**
 * Opens the task database and checks that it answers, with the schema migrated. A URL that is not
 * PostgreSQL's, a server that does not answer and a server that refuses (no such database, wrong
 * password) are each a coded error, and nothing is written.
 */
export async function openCloudDatabase(
  urlInput: string | undefined,
  options: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  const checked = checkDatabaseUrl(urlInput);
  if (!checked.ok) return checked;
  const pool = new pg.Pool({
    connectionString: checked.url,
    max: options.maxConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    application_name: "lathe",
  });
  // An idle connection the server dropped (a restart) is replaced on the next query; unhandled,
  // the pool's error event would end the process.
  pool.on("error", () => undefined);
  try {
    await pool.query("SELECT 1");
    if (options.migrate !== false) await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    return { ok: false, error: connectionError(error, checked.url) };
  }
  return {
    ok: true,
    database: { url: checked.url, pool, close: () => pool.end().catch(() => undefined) },
  };
}

/** What a failed connection or query at start means for the user. */
export function connectionError(error: unknown, url: string): LatheErrorInfo {
  const where = describeUrl(url);
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  // Refused by the server itself: the address is right, the URL's database, user or password not.
  if (code === "3D000" || code === "28P01" || code === "28000" || code === "42501") {
    return errorInfo("E_CLOUD_URL", `The database at ${where} refused the connection: ${message}.`);
  }
  return errorInfo("E_CLOUD_UNREACHABLE", `No answer from the task database at ${where}: ${message}.`);
}

/** True for the errors a dropped connection gives (a server restart), which a retry can outlast. */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  if (
    ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "57P01", "57P02", "57P03"].includes(
      code,
    )
  )
    return true;
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}
