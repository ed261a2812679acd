import type { PermissionRule, PolicyBehavior, RuleSource } from "../policyTypes.js";
import { formatRule, parseRule } from "./ruleSyntax.js";
import {
  behaviors,
  type FileScope,
  isProjectScope,
  readSettingsFile,
  ruleListsOf,
  type SettingsLocations,
  settingsFileFor,
} from "./settingsFiles.js";

/** A rule with where it was written, for listing and removing. */
export interface LoadedRule extends PermissionRule {
  /** The rule in its canonical spelling (`Tool(specifier)`). */
  text: string;
  /** The settings file it came from; absent for built-in, CLI and session rules. */
  file?: string;
}

export interface RuleError {
  source: RuleSource;
  file?: string;
  /** The entry as written, when one entry is at fault. */
  rule?: string;
  message: string;
}

export interface RuleLayerInputs extends SettingsLocations {
  /** `--allow`, `--ask`, `--deny` from the command line: the last layer. */
  cli?: Partial<Record<PolicyBehavior, readonly string[]>>;
  /**
   * False: the project's allow rules are left out (workspace trust), while its ask and deny rules
   * still apply, since they only narrow what the user's own settings allow. Absent means the
   * caller has already decided for it.
   */
  projectTrusted?: boolean;
}

export interface RuleLayers {
  /** Every valid rule, layer by layer: built-in, user, project, project-local, CLI. */
  rules: LoadedRule[];
  /** Rules and files that could not be read; the caller decides whether to go on without them. */
  errors: RuleError[];
}

/**
 * Built-in rules: none. What Lathe judges by itself (risk, hard blocks, sensitive paths) lives in
 * the tools' assessments, which every rule layer sits on top of; an allow here could not be taken
 * back by a user, since deny beats allow only within rules.
 */
export const builtinRules: readonly LoadedRule[] = [];

const fileLayers: readonly FileScope[] = ["user", "project", "project-local"];

/**
 * Reads every rule layer (SPEC §5). The layers' order is for display and provenance: between
 * rules, deny beats ask beats allow whatever layer each comes from, so a project cannot allow what
 * the user denies.
 */
export function loadRuleLayers(inputs: RuleLayerInputs): RuleLayers {
  const rules: LoadedRule[] = [...builtinRules];
  const errors: RuleError[] = [];
  for (const scope of fileLayers) {
    const file = settingsFileFor(scope, inputs);
    const read = readSettingsFile(file);
    if (!read.ok) {
      errors.push({ source: scope, file, message: read.message });
      continue;
    }
    if (!read.exists) continue;
    const lists = ruleListsOf(read.settings, file);
    if (!lists.ok) {
      errors.push({ source: scope, file, message: lists.message });
      continue;
    }
    for (const behavior of behaviors) {
      if (behavior === "allow" && inputs.projectTrusted === false && isProjectScope(scope)) continue;
      lists.lists[behavior].forEach((entry, index) => {
        const where = `${file}: permissions.${behavior}[${index}]`;
        if (typeof entry !== "string") {
          errors.push({ source: scope, file, message: `${where} is not a string` });
          return;
        }
        collect(entry, behavior, scope, where, rules, errors, file);
      });
    }
  }
  for (const behavior of behaviors) {
    for (const entry of inputs.cli?.[behavior] ?? []) {
      collect(entry, behavior, "cli", `--${behavior}`, rules, errors);
    }
  }
  return { rules, errors };
}

function collect(
  entry: string,
  behavior: PolicyBehavior,
  source: RuleSource,
  where: string,
  rules: LoadedRule[],
  errors: RuleError[],
  file?: string,
): void {
  const parsed = parseRule(entry, behavior, source);
  if (!parsed.ok) {
    errors.push({ source, file, rule: entry, message: `${where}: ${parsed.message}` });
    return;
  }
  const loaded: LoadedRule = { ...parsed.rule, text: formatRule(parsed.rule) };
  if (file !== undefined) loaded.file = file;
  rules.push(loaded);
}
