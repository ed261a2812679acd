import { loadRules, userRulesName } from "@lathe/core";
import type { RuleList } from "@lathe/protocol";
import { type ServiceResult, served } from "@lathe/server";
import { loadUserSettings, settingsPath } from "./userSettings.js";

type Rule = RuleList["rules"][number];

/**
 * The rule files a session in the project would read (AGENTS.md files, CLAUDE.md and the others,
 * `.lathe/rules`, `.cursor/rules`), and the user's own rules from the settings, shown as one entry
 * at the settings file. Files that cannot be used are left out, as the engine leaves them out.
 */
export async function listRules(latheHome: string, projectRoot: string): Promise<ServiceResult<RuleList>> {
  const loaded = loadUserSettings(latheHome);
  const userRules = loaded.ok ? (loaded.settings.rules ?? []) : [];
  const { rules } = await loadRules({ projectRoot, userRules });
  const listed = rules.all().map(
    (rule): Rule => ({
      name: rule.name,
      path: rule.source,
      activation: rule.kind,
      description: rule.description || undefined,
    }),
  );
  const own = userRules.filter((rule) => rule.trim() !== "");
  if (own.length > 0) {
    listed.push({
      name: userRulesName,
      path: settingsPath(latheHome),
      activation: "always",
      description: `${own.length} rule${own.length === 1 ? "" : "s"} from your settings`,
    });
  }
  return served({ rules: listed });
}
