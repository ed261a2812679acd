import { readFileSync } from "node:fs";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { atomicWriteFile } from "../fileSystem/atomicWrite.js";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const trustedFolderSchema = z.strictObject({
  /** sha256 over the gated files' relative paths and contents when trust was given. */
  fingerprint: sha256Hex,
  /** Each gated file's sha256 then, by relative path: what tells an edit from an addition. */
  files: z.record(z.string(), sha256Hex),
  trustedAt: z.iso.datetime(),
});

export const trustRecordSchema = z.strictObject({
  version: z.literal(1),
  /** By the folder's real path. */
  folders: z.record(z.string(), trustedFolderSchema),
});

export type TrustRecord = z.infer<typeof trustRecordSchema>;
export type TrustedFolder = z.infer<typeof trustedFolderSchema>;

export type TrustRecordRead = { ok: true; record: TrustRecord } | { ok: false; error: LatheErrorInfo };

export function trustRecordPath(latheHome: string): string {
  return path.join(latheHome, "trust.json");
}

/**
 * `$LATHE_HOME/trust.json`; a missing file is an empty record. A file that is not a valid record
 * is an error, never read as empty: writing over it would silently drop every trust it held.
 */
export function readTrustRecord(latheHome: string): TrustRecordRead {
  const file = trustRecordPath(latheHome);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, record: emptyRecord() };
    return corrupt(file, `cannot be read (${messageOf(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return corrupt(file, `is not JSON (${messageOf(error)})`);
  }
  const parsed = trustRecordSchema.safeParse(json);
  if (!parsed.success) return corrupt(file, `is not a trust record (${z.prettifyError(parsed.error)})`);
  return { ok: true, record: parsed.data };
}

export type TrustRecordChange = { ok: true; record: TrustRecord } | { ok: false; error: LatheErrorInfo };

/**
 * Reads the record, applies `change` and writes it back atomically, readable by the user alone. A
 * record that cannot be read is left as it is and the error returned.
 */
export async function changeTrustRecord(
  latheHome: string,
  change: (record: TrustRecord) => TrustRecord,
): Promise<TrustRecordChange> {
  const read = readTrustRecord(latheHome);
  if (!read.ok) return read;
  const record = change(read.record);
  try {
    await atomicWriteFile(trustRecordPath(latheHome), `${JSON.stringify(record, null, 2)}\n`, {
      mode: 0o600,
    });
  } catch (error) {
    return {
      ok: false,
      error: errorInfo(
        "E_STORAGE",
        `${trustRecordPath(latheHome)} could not be written: ${messageOf(error)}`,
      ),
    };
  }
  return { ok: true, record };
}

function emptyRecord(): TrustRecord {
  return { version: 1, folders: {} };
}

function corrupt(file: string, problem: string): TrustRecordRead {
  return {
    ok: false,
    error: errorInfo(
      "E_STORAGE",
      `The workspace trust record ${file} ${problem}. Lathe will not overwrite it: fix it, or delete it to forget every trusted folder.`,
    ),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
