/**
 * When a rule reaches the model (SPEC §6): always; auto-attached when a file matching its globs
 * is in context; requested by the model with fetch_rules, chosen by its description; or manual,
 * only when the user mentions it with `@rule name`.
 */
export type RuleKind = "always" | "auto" | "requested" | "manual";

export interface ProjectRule {
  /** "testing" for .lathe/rules/testing.md; "AGENTS.md", "src/AGENTS.md" for those files. */
  name: string;
  /** Path of the file relative to the project root, with forward slashes. */
  source: string;
  kind: RuleKind;
  description?: string;
  globs: string[];
  /** The text without front matter. */
  content: string;
}

/** A rule file that could not be used, and why; shown to the user. */
export interface RuleLoadError {
  /** Relative to the project root. */
  file: string;
  message: string;
}

/** Numbers of SPEC §6, as settings. */
export interface RuleLimits {
  /** Rendered rules text in the system prompt, in bytes; rules beyond it are cut with a note. */
  budgetBytes: number;
  /** A rule file is read up to this many bytes. */
  maxFileBytes: number;
}

export const defaultRuleLimits: RuleLimits = { budgetBytes: 32 * 1024, maxFileBytes: 64 * 1024 };
