import { homedir } from "node:os";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { isWithin } from "../pathGuard.js";
import { realPathOfExistingPrefix } from "../sensitivePaths.js";

/** One way to read a path a call names: absolute, with the project root it is judged against. */
export interface PathForm {
  absolute: string;
  root: string;
}

/**
 * A path as written and with its symlinks followed. Deny and ask rules match when either form
 * matches, allow rules only when both do, so a link cannot carry a file into or out of a rule.
 */
export function pathForms(input: string, projectRoot: string): PathForm[] {
  const root = path.resolve(projectRoot);
  const absolute = path.resolve(root, input);
  const forms = [{ absolute, root }];
  const real = realPathOfExistingPrefix(absolute);
  if (real !== absolute) forms.push({ absolute: real, root: realPathOfExistingPrefix(root) });
  return forms;
}

/** Why a path specifier cannot work, or undefined when it can. */
export function checkPathSpecifier(specifier: string): string | undefined {
  if (specifier.includes("\0")) return "paths cannot contain NUL bytes";
  if (specifier.startsWith("!")) {
    return "negated patterns (!) are not rules; put the exception in another list (an allow beside a deny loses, so use ask or deny)";
  }
  if (isAbsoluteSpecifier(specifier)) return undefined;
  const relative = specifier.startsWith("./") ? specifier.slice(2) : specifier;
  if (relative.split("/").includes("..")) {
    return "a pattern relative to the project cannot go above it with '..'; write an absolute path";
  }
  return undefined;
}

/**
 * Whether a path matches a rule's glob. Relative specifiers are gitignore patterns from the
 * project root (`*.lock` at any depth, `src/**`, `./.env` only at the root, a matching directory
 * covering everything below it); `/…` and `~/…` are absolute globs.
 */
export function pathMatchesSpecifier(specifier: string, form: PathForm, caseInsensitive: boolean): boolean {
  if (isAbsoluteSpecifier(specifier)) {
    const matcher = absoluteMatcher(specifier, caseInsensitive);
    // Like a gitignore pattern, a matching directory covers what is below it.
    for (let current = form.absolute; ; current = path.dirname(current)) {
      if (matcher(current)) return true;
      if (path.dirname(current) === current) return false;
    }
  }
  if (!isWithin(form.root, form.absolute)) return false;
  const relative = path.relative(form.root, form.absolute).split(path.sep).join("/");
  if (relative === "") return false;
  const matcher = relativeMatcher(specifier, caseInsensitive);
  return matcher.ignores(relative) || matcher.ignores(`${relative}/`);
}

function isAbsoluteSpecifier(specifier: string): boolean {
  return specifier.startsWith("/") || specifier === "~" || specifier.startsWith("~/");
}

const relativeMatchers = new Map<string, Ignore>();
const absoluteMatchers = new Map<string, (candidate: string) => boolean>();

function relativeMatcher(specifier: string, caseInsensitive: boolean): Ignore {
  const key = `${caseInsensitive}:${specifier}`;
  let matcher = relativeMatchers.get(key);
  if (matcher === undefined) {
    // `./x` anchors at the root, as `/x` does in a .gitignore; a leading `#` is a name, not a comment.
    const anchored = specifier.startsWith("./") ? `/${specifier.slice(2)}` : specifier;
    const pattern = anchored.startsWith("#") ? `\\${anchored}` : anchored;
    matcher = ignore({ ignorecase: caseInsensitive }).add(pattern);
    relativeMatchers.set(key, matcher);
  }
  return matcher;
}

function absoluteMatcher(specifier: string, caseInsensitive: boolean): (candidate: string) => boolean {
  const key = `${caseInsensitive}:${specifier}`;
  let matcher = absoluteMatchers.get(key);
  if (matcher === undefined) {
    const expanded =
      specifier === "~" || specifier.startsWith("~/") ? homedir() + specifier.slice(1) : specifier;
    matcher = picomatch(path.posix.normalize(expanded), { dot: true, nocase: caseInsensitive });
    absoluteMatchers.set(key, matcher);
  }
  return matcher;
}
