import { atomicWriteFile, readSettingsFile as readSettingsJson } from "@lathe/core";
import { type ServiceResult, served, serviceError } from "@lathe/server";
import { keepStoredSecrets } from "./settingsSecrets.js";
import { settingsPath, settingsProblems, userSettingsSchema } from "./userSettings.js";

export type StoredSettings = Record<string, unknown>;

/**
 * `settings.json` as written, defaults not filled in, and not checked against the schema: a file
 * made invalid by hand can still be read here and mended through the API.
 */
export async function readSettingsFile(latheHome: string): Promise<ServiceResult<StoredSettings>> {
  const read = readSettingsJson(settingsPath(latheHome));
  if (!read.ok) {
    return read.problem === "unreadable"
      ? serviceError("failed", "E_STORAGE", read.message)
      : serviceError("failed", "E_INVALID_ARGS", read.message);
  }
  return served(read.exists ? read.settings : {});
}

/**
 * Lays `changes` over the stored settings, one top-level field at a time (`null` removes the
 * field), checks the result with the CLI's own schema, and writes it atomically. Invalid
 * settings are refused with every problem named by its field, and nothing is written.
 */
export async function updateSettingsFile(
  latheHome: string,
  changes: Record<string, unknown>,
): Promise<ServiceResult<StoredSettings>> {
  const stored = await readSettingsFile(latheHome);
  if (!stored.ok) return stored;
  const merged: StoredSettings = { ...stored.value };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete merged[field];
    else merged[field] = keepStoredSecrets(value, stored.value[field], [field]);
  }
  const checked = userSettingsSchema.safeParse(merged);
  if (!checked.success) {
    const problems = settingsProblems(checked.error).join("; ");
    return serviceError("invalid", "E_INVALID_ARGS", `Invalid settings: ${problems}`);
  }
  try {
    // What the user wrote is kept, not the parsed copy with the schema's defaults filled in.
    await atomicWriteFile(settingsPath(latheHome), `${JSON.stringify(merged, null, 2)}\n`);
  } catch (error) {
    return serviceError("failed", "E_STORAGE", `Cannot write ${settingsPath(latheHome)}: ${String(error)}`);
  }
  return served(merged);
}
