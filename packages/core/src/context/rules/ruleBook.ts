import { statSync } from "node:fs";
import path from "node:path";
import type { RuleCatalog } from "../../tools/toolServices.js";
import { globMatcher } from "./globMatcher.js";
import { directoryChain, toRulePath } from "./projectPaths.js";
import { type RenderedRules, renderRules } from "./renderRules.js";
import type { RuleEntry } from "./ruleBlock.js";
import { readPlainRule } from "./ruleFiles.js";
import type { ProjectRule, RuleLimits } from "./ruleTypes.js";

export interface RuleBookOptions {
  /** The project root, already resolved with realpath. */
  realRoot: string;
  /** Found at load, in the order they are rendered. */
  rules: readonly ProjectRule[];
  userRules: readonly string[];
  /** Directories (relative, "" for the root) whose AGENTS.md was already looked for. */
  checkedDirectories: Iterable<string>;
  limits: RuleLimits;
}

/** The name user rules from settings are rendered under. */
export const userRulesName = "user rules";

/**
 * A session's rules: what was found at load, the AGENTS.md files of directories the agent
 * touches, and what the model fetched and the user mentioned so far, which stay attached for
 * the rest of the session.
 */
export class RuleBook implements RuleCatalog {
  private readonly realRoot: string;
  private readonly loaded: readonly ProjectRule[];
  private readonly touched: ProjectRule[] = [];
  private readonly userRules: readonly string[];
  private readonly checked: Set<string>;
  private readonly limits: RuleLimits;
  private readonly matchers: Map<string, (relativePath: string) => boolean>;
  /** Names, in the order they were first fetched or mentioned. */
  private readonly fetched: string[] = [];
  private readonly mentioned: string[] = [];

  constructor(options: RuleBookOptions) {
    this.realRoot = options.realRoot;
    this.loaded = options.rules;
    this.userRules = options.userRules.map((rule) => rule.trim()).filter((rule) => rule !== "");
    this.checked = new Set(options.checkedDirectories);
    this.limits = options.limits;
    const auto = options.rules.filter((rule) => rule.kind === "auto");
    this.matchers = new Map(auto.map((rule) => [rule.name, globMatcher(rule.globs)]));
  }

  all(): readonly ProjectRule[] {
    return [...this.loaded, ...this.touched];
  }

  /**
   * Called with every path (relative to the root) the agent reads or edits; returns the
   * AGENTS.md rules newly found in those directories and the ones between them and the root,
   * each added once. Files that cannot be used (a link leading outside the project) are skipped.
   */
  async touch(paths: Iterable<string>): Promise<ProjectRule[]> {
    const found: ProjectRule[] = [];
    for (const input of paths) {
      const directory = this.directoryOf(input);
      if (directory === undefined) continue;
      for (const candidate of directoryChain(directory)) {
        // Marked before the read, so concurrent touches look at each directory only once.
        if (this.checked.has(candidate)) continue;
        this.checked.add(candidate);
        const source = path.posix.join(candidate, "AGENTS.md");
        const outcome = await readPlainRule(this.realRoot, source, this.limits.maxFileBytes);
        if (outcome.kind !== "rule") continue;
        this.touched.push(outcome.rule);
        found.push(outcome.rule);
      }
    }
    return found;
  }

  /**
   * The rules text for the system prompt, in priority order: always-on rules, user rules,
   * touched AGENTS.md files, auto-attached rules matching `filesInContext`, fetched rules,
   * mentioned rules; within the rules budget.
   */
  render(filesInContext: Iterable<string>): RenderedRules {
    // Only auto-attached rules look at the files, and most projects have none: render runs for every request.
    const inContext =
      this.matchers.size === 0
        ? []
        : [...filesInContext].flatMap((file) => toRulePath(this.realRoot, file) ?? []);
    const chosen = new Map<string, RuleEntry>();
    const add = (rule: ProjectRule | undefined) => {
      if (rule !== undefined && !chosen.has(rule.name)) chosen.set(rule.name, entryOf(rule));
    };
    for (const rule of this.loaded) if (rule.kind === "always") add(rule);
    if (this.userRules.length > 0) {
      const content = this.userRules.map((rule) => `- ${rule.replace(/\n/g, "\n  ")}`).join("\n");
      chosen.set(userRulesName, { name: userRulesName, source: "settings", content });
    }
    for (const rule of this.touched) add(rule);
    for (const rule of this.loaded) {
      const matches = this.matchers.get(rule.name);
      if (matches !== undefined && inContext.some(matches)) add(rule);
    }
    for (const name of this.fetched) add(this.find(name));
    for (const name of this.mentioned) add(this.find(name));
    return renderRules([...chosen.values()], this.limits.budgetBytes);
  }

  /** The agent-requested rules: a name and the description the model chooses by. */
  requestable(): { name: string; description: string }[] {
    return this.loaded.flatMap((rule) =>
      rule.kind === "requested" ? [{ name: rule.name, description: rule.description ?? "" }] : [],
    );
  }

  /**
   * The named rules' text; they stay attached from now on. Any rule the model can know of may
   * be fetched (a cut one, in full); manual rules only once the user has mentioned them.
   */
  fetch(names: readonly string[]): { rules: { name: string; content: string }[]; missing: string[] } {
    const rules: { name: string; content: string }[] = [];
    const missing: string[] = [];
    for (const name of new Set(names)) {
      const rule = this.find(name);
      if (rule === undefined || (rule.kind === "manual" && !this.mentioned.includes(rule.name))) {
        missing.push(name);
        continue;
      }
      if (rules.some((fetched) => fetched.name === rule.name)) continue;
      if (!this.fetched.includes(rule.name)) this.fetched.push(rule.name);
      rules.push({ name: rule.name, content: rule.content });
    }
    return { rules, missing };
  }

  /** `@rule name` in a user message: attaches the rule, whatever its kind, for the session. */
  mention(name: string): ProjectRule | undefined {
    const rule = this.find(name);
    if (rule !== undefined && !this.mentioned.includes(rule.name)) this.mentioned.push(rule.name);
    return rule;
  }

  /** By name, then by source path, then by name ignoring case. */
  private find(name: string): ProjectRule | undefined {
    const wanted = name.trim();
    const rules = this.all();
    return (
      rules.find((rule) => rule.name === wanted) ??
      rules.find((rule) => rule.source === wanted) ??
      rules.find((rule) => rule.name.toLowerCase() === wanted.toLowerCase())
    );
  }

  /**
   * The directory a touched path stands for: itself when it is one, else the one holding it.
   * Asked synchronously: it runs after every call that names a path, and one stat takes
   * microseconds where an asynchronous one waits for a thread-pool round trip.
   */
  private directoryOf(input: string): string | undefined {
    const relative = toRulePath(this.realRoot, input);
    if (relative === undefined) return undefined;
    if (isDirectory(path.join(this.realRoot, relative))) return relative;
    const parent = path.posix.dirname(relative);
    return parent === "." ? "" : parent;
  }
}

/** Anything that cannot be stat'ed (missing, a file on the way, no permission) is not a directory. */
function isDirectory(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

function entryOf(rule: ProjectRule): RuleEntry {
  return { name: rule.name, source: rule.source, content: rule.content };
}
