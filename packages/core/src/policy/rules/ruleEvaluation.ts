import type { CallSubjects, PermissionRule, PolicyBehavior } from "../policyTypes.js";
import { type PatternWord, parseCommandPattern, wordsMatch } from "./commandPattern.js";
import { type CommandForRules, commandForRules, denyForms } from "./commandSegments.js";
import { parseDomainSpecifier, urlMatchesDomain } from "./domainMatching.js";
import { type PathForm, pathForms, pathMatchesSpecifier } from "./pathMatching.js";
import { formatRule } from "./ruleSyntax.js";
import { ruleCoversTool } from "./toolMatching.js";

export interface RuleMatch {
  behavior: PolicyBehavior;
  /** The deciding rule as written; for an allow, every rule it took, joined by ", ". */
  rule: string;
}

/**
 * The rules' verdict on one call, or undefined when no rule speaks to it (SPEC §5). Deny beats ask
 * beats allow, whatever layer each rule comes from. Deny and ask need one matching subject: any
 * segment of a command line, any path. Allow needs every subject covered: each segment of a
 * compound command (`npm test && rm -rf x` is not allowed by `npm test *`), each path.
 */
export function evaluateRules(
  rules: readonly PermissionRule[],
  toolName: string,
  subjects: CallSubjects,
  projectRoot: string,
): RuleMatch | undefined {
  const call = new CallView(subjects, projectRoot);
  for (const behavior of ["deny", "ask"] as const) {
    for (const rule of rules) {
      if (rule.behavior !== behavior || !ruleCoversTool(rule.tool, toolName, behavior)) continue;
      if (matchesSomeSubject(rule, call)) return { behavior, rule: formatRule(rule) };
    }
  }
  const allowRules = rules.filter(
    (rule) => rule.behavior === "allow" && ruleCoversTool(rule.tool, toolName, "allow"),
  );
  const whole = allowRules.find((rule) => rule.specifier === undefined);
  if (whole !== undefined) return { behavior: "allow", rule: formatRule(whole) };
  const used = rulesCoveringEverySubject(allowRules, call);
  return used === undefined ? undefined : { behavior: "allow", rule: used.map(formatRule).join(", ") };
}

/** The call's subjects, read once and only when a rule needs them. */
class CallView {
  private command: CommandForRules | undefined;
  private forms: PathForm[][] | undefined;

  constructor(
    readonly subjects: CallSubjects,
    private readonly projectRoot: string,
  ) {}

  get commandLine(): CommandForRules | undefined {
    if (this.subjects.command === undefined) return undefined;
    this.command ??= commandForRules(this.subjects.command);
    return this.command;
  }

  /** Per path, its forms (as written, symlinks followed). */
  get paths(): PathForm[][] {
    this.forms ??= this.subjects.paths.map((input) => pathForms(input, this.projectRoot));
    return this.forms;
  }
}

function matchesSomeSubject(rule: PermissionRule, call: CallView): boolean {
  const { specifier } = rule;
  if (specifier === undefined) return true;
  if (specifier.startsWith("domain:")) return urlMatches(specifier, call.subjects.url);
  const command = call.commandLine;
  if (command !== undefined) {
    const pattern = commandPattern(specifier);
    if (pattern === undefined) return false;
    return command.segments.some((segment) =>
      denyForms(segment.words.map((word) => word.value)).some((form) => wordsMatch(pattern, form)),
    );
  }
  // Ignoring case here only widens what a deny or ask catches: `.ENV` is refused like `.env`.
  return call.paths.some((forms) => forms.some((form) => pathMatchesSpecifier(specifier, form, true)));
}

function rulesCoveringEverySubject(
  rules: readonly PermissionRule[],
  call: CallView,
): PermissionRule[] | undefined {
  const used = new Set<PermissionRule>();
  const cover = (matches: (rule: PermissionRule & { specifier: string }) => boolean): boolean => {
    for (const rule of rules) {
      if (rule.specifier !== undefined && matches({ ...rule, specifier: rule.specifier })) {
        used.add(rule);
        return true;
      }
    }
    return false;
  };
  const command = call.commandLine;
  if (command !== undefined) {
    if (!command.complete || command.segments.length === 0) return undefined;
    for (const segment of command.segments) {
      if (!segment.allowable) return undefined;
      const words = segment.words.map((word) => word.value);
      const covered = cover((rule) => {
        if (rule.specifier.startsWith("domain:")) return false;
        const pattern = commandPattern(rule.specifier);
        return pattern !== undefined && wordsMatch(pattern, words);
      });
      if (!covered) return undefined;
    }
    return orderedLike(rules, used);
  }
  const { url } = call.subjects;
  if (url === undefined && call.paths.length === 0) return undefined;
  if (url !== undefined && !cover((rule) => urlMatches(rule.specifier, url))) return undefined;
  for (const forms of call.paths) {
    const covered = cover(
      (rule) =>
        !rule.specifier.startsWith("domain:") &&
        forms.every((form) => pathMatchesSpecifier(rule.specifier, form, false)),
    );
    if (!covered) return undefined;
  }
  return orderedLike(rules, used);
}

function orderedLike(rules: readonly PermissionRule[], used: ReadonlySet<PermissionRule>): PermissionRule[] {
  return rules.filter((rule) => used.has(rule));
}

function urlMatches(specifier: string, url: string | undefined): boolean {
  if (url === undefined || !specifier.startsWith("domain:")) return false;
  const domain = parseDomainSpecifier(specifier);
  return domain.ok && urlMatchesDomain(url, domain);
}

const patternCache = new Map<string, PatternWord[] | undefined>();

function commandPattern(specifier: string): PatternWord[] | undefined {
  if (!patternCache.has(specifier)) {
    const parsed = parseCommandPattern(specifier);
    patternCache.set(specifier, parsed.ok ? parsed.words : undefined);
  }
  return patternCache.get(specifier);
}
