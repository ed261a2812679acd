import { readFileSync } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { atomicWriteFile } from "../../fileSystem/atomicWrite.js";
import type { PolicyBehavior, RuleSource } from "../policyTypes.js";

/** Settings files that hold rules; the session scope lives in memory only. */
export type FileScope = "user" | "project" | "project-local";

export interface SettingsLocations {
  /** `$LATHE_HOME`. */
  latheHome: string;
  projectRoot: string;
}

/** Where each scope's `{"permissions":{…}}` lives (SPEC §1). */
export function settingsFileFor(scope: FileScope, locations: SettingsLocations): string {
  switch (scope) {
    case "user":
      return path.join(locations.latheHome, "settings.json");
    case "project":
      return path.join(locations.projectRoot, ".lathe", "settings.json");
    case "project-local":
      return path.join(locations.projectRoot, ".lathe", "settings.local.json");
  }
}

export const fileScopes: readonly FileScope[] = ["user", "project", "project-local"];

export function isFileScope(source: RuleSource | string): source is FileScope {
  return (fileScopes as readonly string[]).includes(source);
}

/** The scopes whose files come with the project, and so are subject to workspace trust. */
export function isProjectScope(scope: FileScope): boolean {
  return scope !== "user";
}

/** The project's settings files, relative to its root, in layer order. */
export const projectSettingsFiles = [".lathe/settings.json", ".lathe/settings.local.json"] as const;

export const behaviors: readonly PolicyBehavior[] = ["allow", "ask", "deny"];

export type SettingsRead =
  | { ok: true; exists: false }
  | { ok: true; exists: true; settings: Record<string, unknown> }
  /** `unreadable`: the file is there but cannot be read; `invalid`: not a JSON object. */
  | { ok: false; problem: "unreadable" | "invalid"; message: string };

/** A settings file as a JSON object; a missing file is an empty layer, anything unreadable an error. */
export function readSettingsFile(file: string): SettingsRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { ok: true, exists: false };
    return { ok: false, problem: "unreadable", message: `${file} cannot be read: ${String(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: "invalid",
      message: `${file} is not valid JSON: ${error instanceof Error ? error.message : error}`,
    };
  }
  if (!isRecord(json)) return { ok: false, problem: "invalid", message: `${file} must hold a JSON object` };
  return { ok: true, exists: true, settings: json };
}

export type RuleLists =
  | { ok: true; lists: Record<PolicyBehavior, unknown[]> }
  | { ok: false; message: string };

/** `permissions.allow|ask|deny`, each absent list empty; a `permissions` that is not an object is an error. */
export function ruleListsOf(settings: Record<string, unknown>, file: string): RuleLists {
  const lists: Record<PolicyBehavior, unknown[]> = { allow: [], ask: [], deny: [] };
  const permissions = settings.permissions;
  if (permissions === undefined) return { ok: true, lists };
  if (!isRecord(permissions)) return { ok: false, message: `${file}: "permissions" must be an object` };
  for (const behavior of behaviors) {
    const list = permissions[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      return { ok: false, message: `${file}: "permissions.${behavior}" must be a list of rule strings` };
    }
    lists[behavior] = list;
  }
  return { ok: true, lists };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/**
 * `.lathe/settings.local.json` is this checkout's own (SPEC §1): when Lathe creates it, a
 * `.lathe/.gitignore` keeps it out of commits, unless the project already has one there.
 */
export async function keepLocalSettingsOutOfGit(file: string): Promise<void> {
  const gitignore = path.join(path.dirname(file), ".gitignore");
  try {
    await access(gitignore);
  } catch {
    await atomicWriteFile(gitignore, `${path.basename(file)}\n`);
  }
}
