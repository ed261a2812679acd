import {
  checkWorkspaceTrust,
  type FileScope,
  fileScopes,
  loadRuleLayers,
  projectTrusted,
  readSettingsFile,
  settingsFileFor,
} from "@lathe/core";
import { defaultModelFor } from "../engineSetup.js";
import { redactSettings } from "../settingsSecrets.js";
import { settingsProblems, type UserSettings, userSettingsSchema } from "../userSettings.js";
import { leaves } from "./settingPaths.js";

/** Where a value in effect comes from. */
export type SettingSource = "default" | "env" | FileScope;

export interface SettingEntry {
  key: string;
  /** Secrets read as `[redacted]`. */
  value: unknown;
  source: SettingSource;
  /** The settings file, for a value from one. */
  file?: string;
  /** The environment variable, for a value from one. */
  variable?: string;
  /** Set, but not applied: an allow rule of a project nobody trusted. */
  ignored?: string;
}

export interface EffectiveSettings {
  entries: SettingEntry[];
  files: Record<FileScope, string>;
  /** Files or rules that could not be read; what they would set is missing from the entries. */
  errors: string[];
}

export interface SettingsPlaces {
  latheHome: string;
  projectRoot: string;
  env: Record<string, string | undefined>;
}

/**
 * What a session in this folder uses when no settings file says otherwise (main, engineSetup,
 * the agent session). Objects the user sets only in part get their defaults from the schema.
 */
const sessionDefaults: readonly { key: string; value: unknown }[] = [
  { key: "mode", value: "agent" },
  { key: "approvalMode", value: "ask_first" },
  { key: "maxIterations", value: 25 },
  { key: "sandbox.mode", value: "auto" },
  { key: "sandbox.network", value: false },
  { key: "checkpoints.enabled", value: true },
  { key: "approvalTimeoutSeconds", value: 300 },
  { key: "context.codeIndex", value: true },
];

/**
 * The settings in effect: everything but permissions from `$LATHE_HOME/settings.json` over the
 * defaults, the model from `LATHE_MODEL` or a provider key, and the permission rules of every
 * layer (the only part the project's settings files hold), each with where it comes from.
 */
export function effectiveSettings(places: SettingsPlaces): EffectiveSettings {
  const files = Object.fromEntries(
    fileScopes.map((scope) => [scope, settingsFileFor(scope, places)]),
  ) as Record<FileScope, string>;
  const errors: string[] = [];
  const user = userLayer(files.user, errors);
  const entries: SettingEntry[] = [];
  const fromUser = new Set(leaves(user.raw).map((leaf) => leaf.key));
  for (const leaf of leaves(redactSettings(user.parsed))) {
    if (leaf.key === "permissions" || leaf.key.startsWith("permissions.")) continue;
    entries.push(
      fromUser.has(leaf.key) ? { ...leaf, source: "user", file: files.user } : { ...leaf, source: "default" },
    );
  }
  for (const fallback of sessionDefaults) {
    const covered = entries.some(
      (entry) => entry.key === fallback.key || fallback.key.startsWith(`${entry.key}.`),
    );
    if (!covered) entries.push({ ...fallback, source: "default" });
  }
  entries.push(...modelEntries(user.parsed, places.env, files.user));
  entries.push(...ruleEntries(places, user.parsed, errors));
  entries.sort((a, b) => a.key.localeCompare(b.key));
  return { entries, files, errors };
}

interface UserLayer {
  raw: Record<string, unknown>;
  parsed: UserSettings;
}

function userLayer(file: string, errors: string[]): UserLayer {
  const read = readSettingsFile(file);
  if (!read.ok) {
    errors.push(read.message);
    return { raw: {}, parsed: {} };
  }
  if (!read.exists) return { raw: {}, parsed: {} };
  const parsed = userSettingsSchema.safeParse(read.settings);
  if (!parsed.success) {
    errors.push(`${file} has invalid settings: ${settingsProblems(parsed.error).join("; ")}`);
    return { raw: read.settings, parsed: {} };
  }
  return { raw: read.settings, parsed: parsed.data };
}

/** `LATHE_MODEL` wins over the file; without either, the first provider key chooses. */
function modelEntries(
  settings: UserSettings,
  env: Record<string, string | undefined>,
  file: string,
): SettingEntry[] {
  if (env.LATHE_MODEL) {
    const shadowed =
      settings.model === undefined
        ? []
        : [
            {
              key: "model",
              value: settings.model,
              source: "user" as const,
              file,
              ignored: "LATHE_MODEL is set",
            },
          ];
    return [{ key: "model", value: env.LATHE_MODEL, source: "env", variable: "LATHE_MODEL" }, ...shadowed];
  }
  if (settings.model !== undefined) return [];
  const detected = defaultModelFor(env);
  return detected === undefined ? [] : [{ key: "model", value: detected, source: "default" }];
}

function ruleEntries(places: SettingsPlaces, settings: UserSettings, errors: string[]): SettingEntry[] {
  const trusted = projectTrusted(checkWorkspaceTrust({ ...places, settings }));
  // Read as if trusted, so the allow rules an untrusted project holds can be shown as ignored.
  const layers = loadRuleLayers({ ...places, projectTrusted: true });
  errors.push(...layers.errors.map((error) => error.message));
  return layers.rules.map((rule) => {
    const entry: SettingEntry = {
      key: `permissions.${rule.behavior}`,
      value: rule.text,
      source: rule.source as FileScope,
      file: rule.file,
    };
    const project = rule.source === "project" || rule.source === "project-local";
    return !trusted && project && rule.behavior === "allow"
      ? { ...entry, ignored: "the folder is not trusted (lathe trust)" }
      : entry;
  });
}
