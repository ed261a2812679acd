import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export type DatabaseUrlCheck = { ok: true; url: string } | { ok: false; error: LatheErrorInfo };

/**
 * A PostgreSQL connection URL as `pg` reads it, checked before any connection: a scheme other than
 * postgres(ql), no host or a port out of range is a usage error, not a timeout minutes later.
 */
export function checkDatabaseUrl(input: string | undefined): DatabaseUrlCheck {
  if (input === undefined || input.trim() === "") {
    return {
      ok: false,
      error: errorInfo(
        "E_CLOUD_URL",
        "No task database: pass --database URL, set LATHE_DATABASE_URL, or start one with `lathe cloud up`.",
      ),
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { ok: false, error: errorInfo("E_CLOUD_URL", `Not a URL: ${describeUrl(input)}.`) };
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    return {
      ok: false,
      error: errorInfo(
        "E_CLOUD_URL",
        `The task database must be a postgres:// or postgresql:// URL, not ${parsed.protocol}//…`,
      ),
    };
  }
  if (parsed.hostname === "" && !parsed.searchParams.has("host")) {
    return { ok: false, error: errorInfo("E_CLOUD_URL", "The database URL names no host.") };
  }
  if (parsed.port !== "" && (Number(parsed.port) < 1 || Number(parsed.port) > 65535)) {
    return { ok: false, error: errorInfo("E_CLOUD_URL", `Port ${parsed.port} is out of range.`) };
  }
  return { ok: true, url: input.trim() };
}

/** The URL as it may be shown: any password replaced. */
export function describeUrl(input: string): string {
  try {
    const parsed = new URL(input);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return input.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}
