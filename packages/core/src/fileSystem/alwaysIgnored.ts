import ignore from "ignore";
import { parentIgnored } from "./gitignoreChain.js";

/**
 * A test for entries that patterns name whatever the ignore files say (node_modules/, dist/,
 * .git…). Like ripgrep's overrides, only the entry's own path counts: a directory named as the
 * walk's root inside node_modules is still walked.
 */
export function alwaysIgnoredTest(
  patterns: readonly string[],
): (relativePath: string, isDirectory: boolean) => boolean {
  // Case-sensitive, as ripgrep applies the same patterns (its --glob overrides).
  const rules = ignore({ ignorecase: false }).add(patterns);
  return (relativePath, isDirectory) => {
    const verdict = rules.test(isDirectory ? `${relativePath}/` : relativePath);
    return verdict.ignored && !parentIgnored(rules, relativePath);
  };
}
