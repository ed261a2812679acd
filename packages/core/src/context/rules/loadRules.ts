import { realpath } from "node:fs/promises";
import path from "node:path";
import { isWithin } from "../../policy/pathGuard.js";
import { directoryChain } from "./projectPaths.js";
import { RuleBook } from "./ruleBook.js";
import { type RuleFileOutcome, readPlainRule, readRuleWithFrontMatter } from "./ruleFiles.js";
import { listRuleFiles } from "./ruleFolders.js";
import { defaultRuleLimits, type ProjectRule, type RuleLimits, type RuleLoadError } from "./ruleTypes.js";

export interface LoadRulesOptions {
  projectRoot: string;
  /** Where the session works, absolute or relative to the root (default: the root). */
  cwd?: string;
  /** Rules from the user's settings, one instruction each. */
  userRules?: readonly string[];
  limits?: Partial<RuleLimits>;
}

/** Single files at the project root that other agents read too; each applies always. */
const rootRuleFiles = ["CLAUDE.md", "GEMINI.md", ".cursorrules"];

/** Folders of rules with front matter, and the extension their rule files have. */
const ruleFolders = [
  { folder: ".lathe/rules", extension: ".md" },
  { folder: ".cursor/rules", extension: ".mdc" },
];

/**
 * Finds the project's rules (SPEC §6): AGENTS.md from the root down to `cwd`, the root rule
 * files of other agents, and the rule folders. Files that cannot be used are skipped and listed
 * in `errors`; loading itself never fails.
 */
export async function loadRules(
  options: LoadRulesOptions,
): Promise<{ rules: RuleBook; errors: RuleLoadError[] }> {
  const limits = { ...defaultRuleLimits, ...options.limits };
  const realRoot = await realpath(options.projectRoot).catch(() => path.resolve(options.projectRoot));
  const chain = directoryChain(await workingDirectory(realRoot, options.cwd));
  const rules: ProjectRule[] = [];
  const errors: RuleLoadError[] = [];
  // Rules and errors both keep the order the files are found in.
  const take = (outcomes: readonly RuleFileOutcome[]) => {
    for (const outcome of outcomes) {
      if (outcome.kind === "rule") rules.push(outcome.rule);
      if (outcome.kind === "error") errors.push(outcome.error);
    }
  };

  const plainSources = [
    ...chain.map((directory) => path.posix.join(directory, "AGENTS.md")),
    ...rootRuleFiles,
  ];
  take(await Promise.all(plainSources.map((source) => readPlainRule(realRoot, source, limits.maxFileBytes))));
  for (const { folder, extension } of ruleFolders) {
    const listed = await listRuleFiles(realRoot, folder, extension);
    errors.push(...listed.errors);
    const outcomes = listed.files.map((source) => {
      const name = source.slice(folder.length + 1, -extension.length);
      return readRuleWithFrontMatter(realRoot, source, name, limits.maxFileBytes);
    });
    take(await Promise.all(outcomes));
  }

  const book = new RuleBook({
    realRoot,
    rules: withUniqueNames(rules),
    userRules: options.userRules ?? [],
    checkedDirectories: chain,
    limits,
  });
  return { rules: book, errors };
}

/** The working directory relative to the root; the root itself when it is elsewhere. */
async function workingDirectory(realRoot: string, cwd: string | undefined): Promise<string> {
  if (cwd === undefined) return "";
  const absolute = path.resolve(realRoot, cwd);
  const real = await realpath(absolute).catch(() => absolute);
  if (!isWithin(realRoot, real)) return "";
  return path.relative(realRoot, real).split(path.sep).join("/");
}

/**
 * `.lathe/rules/testing.md` and `.cursor/rules/testing.mdc` would both be "testing": the first
 * found keeps the name and a later one is known by its path, so every name picks one rule.
 */
function withUniqueNames(rules: readonly ProjectRule[]): ProjectRule[] {
  const taken = new Set<string>();
  return rules.map((rule) => {
    const unique = taken.has(rule.name) ? { ...rule, name: rule.source } : rule;
    taken.add(unique.name);
    return unique;
  });
}
