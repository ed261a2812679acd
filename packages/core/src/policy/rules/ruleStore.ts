import { atomicWriteFile } from "../../fileSystem/atomicWrite.js";
import type { PolicyBehavior } from "../policyTypes.js";
import type { LoadedRule } from "./ruleLayers.js";
import { formatRule, parseRule } from "./ruleSyntax.js";
import {
  behaviors,
  type FileScope,
  isRecord,
  keepLocalSettingsOutOfGit,
  readSettingsFile,
  ruleListsOf,
  type SettingsLocations,
  settingsFileFor,
} from "./settingsFiles.js";

/** Where "always allow" keeps a rule: this session only, this checkout only, or every project. */
export type SaveScope = "session" | "project-local" | "user";

export interface RuleStoreOptions extends SettingsLocations {
  /** Which list the rule goes in; "always allow" means allow. */
  behavior?: PolicyBehavior;
}

export type SaveRuleResult =
  | {
      ok: true;
      /** The rule as stored; for the session scope, the one to keep in memory. */
      rule: LoadedRule;
      /** False when the file already held it. */
      added: boolean;
    }
  | { ok: false; message: string };

/**
 * Adds a rule to its scope's settings file (SPEC §5 "always"), atomically, creating the file and
 * keeping every other key; a rule already there is not added twice. A file that is not valid JSON
 * is left alone rather than replaced.
 */
export async function saveRule(
  text: string,
  scope: SaveScope,
  options: RuleStoreOptions,
): Promise<SaveRuleResult> {
  const behavior = options.behavior ?? "allow";
  const parsed = parseRule(text, behavior, scope);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const canonical = formatRule(parsed.rule);
  if (scope === "session") return { ok: true, rule: { ...parsed.rule, text: canonical }, added: true };

  const file = settingsFileFor(scope, options);
  return serialized(file, async () => {
    const read = readSettingsFile(file);
    if (!read.ok) return { ok: false, message: read.message };
    const settings = read.exists ? read.settings : {};
    const lists = ruleListsOf(settings, file);
    if (!lists.ok) return { ok: false, message: lists.message };
    const rule: LoadedRule = { ...parsed.rule, text: canonical, file };
    const list = lists.lists[behavior];
    if (list.some((entry) => sameRule(entry, canonical))) return { ok: true, rule, added: false };

    const permissions = isRecord(settings.permissions) ? settings.permissions : {};
    permissions[behavior] = [...list, canonical];
    settings.permissions = permissions;
    if (scope === "project-local" && !read.exists) await keepLocalSettingsOutOfGit(file);
    await atomicWriteFile(file, `${JSON.stringify(settings, null, 2)}\n`);
    return { ok: true, rule, added: true };
  });
}

export type RemoveRuleResult =
  | { ok: true; file: string; removed: { behavior: PolicyBehavior; rule: string }[] }
  | { ok: false; message: string };

/** Removes a rule, in any spelling of it, from every list of one scope's settings file. */
export async function removeRule(
  text: string,
  scope: FileScope,
  options: SettingsLocations & { behavior?: PolicyBehavior },
): Promise<RemoveRuleResult> {
  const parsed = parseRule(text, options.behavior ?? "allow", scope);
  const canonical = parsed.ok ? formatRule(parsed.rule) : text.trim();
  const file = settingsFileFor(scope, options);
  return serialized(file, async () => {
    const read = readSettingsFile(file);
    if (!read.ok) return { ok: false, message: read.message };
    if (!read.exists) return { ok: false, message: `${file} does not exist, so it holds no rules` };
    const lists = ruleListsOf(read.settings, file);
    if (!lists.ok) return { ok: false, message: lists.message };
    const removed: { behavior: PolicyBehavior; rule: string }[] = [];
    const permissions = isRecord(read.settings.permissions) ? read.settings.permissions : {};
    for (const behavior of behaviors) {
      if (options.behavior !== undefined && options.behavior !== behavior) continue;
      const list = lists.lists[behavior];
      const kept = list.filter((entry) => !sameRule(entry, canonical));
      if (kept.length === list.length) continue;
      for (const entry of list)
        if (sameRule(entry, canonical)) removed.push({ behavior, rule: String(entry) });
      permissions[behavior] = kept;
    }
    if (removed.length === 0) {
      const present = behaviors.flatMap((behavior) =>
        lists.lists[behavior].map((entry) => `${behavior}: ${String(entry)}`),
      );
      const listing = present.length === 0 ? "it holds no rules" : `it holds:\n  ${present.join("\n  ")}`;
      return { ok: false, message: `${canonical} is not in ${file}; ${listing}` };
    }
    await atomicWriteFile(file, `${JSON.stringify(read.settings, null, 2)}\n`);
    return { ok: true, file, removed };
  });
}

/** Two spellings of one rule (`Tool( x )` and `Tool(x)`) are the same rule. */
function sameRule(entry: unknown, canonical: string): boolean {
  if (typeof entry !== "string") return false;
  const parsed = parseRule(entry, "allow", "user");
  return (parsed.ok ? formatRule(parsed.rule) : entry.trim()) === canonical;
}

/** Saves within this process are applied one after another per file, so two approvals cannot lose one. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}
