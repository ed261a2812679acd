import {
  behaviors,
  type FileScope,
  keepLocalSettingsOutOfGit,
  parseRule,
  readSettingsFile,
  settingsFileFor,
} from "@lathe/core";
import { writeOwnJsonFile } from "../ownFileWrite.js";
import { settingsProblems, userSettingsSchema } from "../userSettings.js";
import { valueAt, withoutValueAt, withValueAt } from "./settingPaths.js";

export type SettingsChange =
  | { kind: "set"; segments: string[]; value: unknown }
  | { kind: "unset"; segments: string[] };

/** `invalid`: the change is refused (exit 2); `failed`: the file could not be read or written (exit 1). */
export type SettingsWrite =
  | { ok: true; file: string }
  | { ok: false; problem: "invalid" | "failed"; code: "E_INVALID_ARGS" | "E_STORAGE"; message: string };

/**
 * Applies one change to one scope's settings file, atomically, after checking the whole result:
 * the user's file against the CLI's settings schema, permission rules in any file by the rule
 * syntax. A refused change writes nothing. A project file is Lathe's own write for workspace trust,
 * as an "always, this project" rule is: the folder keeps the standing it had.
 */
export async function changeSettings(
  scope: FileScope,
  change: SettingsChange,
  places: { latheHome: string; projectRoot: string },
): Promise<SettingsWrite> {
  const file = settingsFileFor(scope, places);
  const read = readSettingsFile(file);
  if (!read.ok) {
    return read.problem === "unreadable"
      ? { ok: false, problem: "failed", code: "E_STORAGE", message: read.message }
      : {
          ok: false,
          problem: "failed",
          code: "E_INVALID_ARGS",
          message: `${read.message}; mend it by hand first`,
        };
  }
  const current = read.exists ? read.settings : {};
  const key = change.segments.join(".");
  if (change.kind === "unset" && valueAt(current, change.segments) === undefined) {
    return { ok: false, problem: "failed", code: "E_INVALID_ARGS", message: `${key} is not set in ${file}` };
  }
  const next =
    change.kind === "set"
      ? withValueAt(current, change.segments, change.value)
      : withoutValueAt(current, change.segments);
  const problems = scope === "user" ? userProblems(next) : permissionProblems(next);
  if (problems.length > 0) {
    return {
      ok: false,
      problem: "invalid",
      code: "E_INVALID_ARGS",
      message: `invalid value for ${key}: ${problems.join("; ")}`,
    };
  }
  return writeOwnJsonFile(file, next, {
    projectFile: scope !== "user",
    places,
    before: scope === "project-local" && !read.exists ? () => keepLocalSettingsOutOfGit(file) : undefined,
  });
}

function userProblems(settings: Record<string, unknown>): string[] {
  const parsed = userSettingsSchema.safeParse(settings);
  return [...(parsed.success ? [] : settingsProblems(parsed.error)), ...permissionProblems(settings)];
}

/** The rule lists as the rule loader reads them: each a list of rules it can parse. */
function permissionProblems(settings: Record<string, unknown>): string[] {
  const permissions = settings.permissions;
  if (permissions === undefined) return [];
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    return ["permissions: must be an object"];
  }
  const problems: string[] = [];
  for (const behavior of behaviors) {
    const list = (permissions as Record<string, unknown>)[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push(`permissions.${behavior}: must be a list of rule strings`);
      continue;
    }
    list.forEach((entry, index) => {
      const where = `permissions.${behavior}[${index}]`;
      if (typeof entry !== "string") {
        problems.push(`${where}: must be a string`);
        return;
      }
      const parsed = parseRule(entry, behavior, "user");
      if (!parsed.ok) problems.push(`${where}: ${parsed.message}`);
    });
  }
  return problems;
}
