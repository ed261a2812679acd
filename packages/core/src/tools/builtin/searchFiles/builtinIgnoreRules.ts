import ignore from "ignore";
import { builtinIgnorePatterns } from "../../projectIgnore/builtinIgnores.js";
import { parentIgnored } from "./gitignoreChain.js";

// Case-sensitive, as ripgrep applies the same patterns (its --glob overrides).
const rules = ignore({ ignorecase: false }).add(builtinIgnorePatterns);

/**
 * Whether a built-in pattern (node_modules/, dist/, .git…) names this entry itself. Like
 * ripgrep's overrides, only the entry's own path counts: a directory named as the search root
 * inside node_modules is still searched.
 */
export function isBuiltinIgnored(relativePath: string, isDirectory: boolean): boolean {
  const verdict = rules.test(isDirectory ? `${relativePath}/` : relativePath);
  return verdict.ignored && !parentIgnored(rules, relativePath);
}
