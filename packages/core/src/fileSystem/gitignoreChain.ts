import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** The rules of one ignore file, which apply to paths below its directory. */
export interface IgnoreLevel {
  directory: string;
  rules: Ignore;
}

/**
 * The ignore files that apply to a path, as ripgrep collects them: the .gitignore of every
 * directory from the path up to the nearest one holding a `.git` entry (a repository root; an
 * ignore file above it belongs to another project), or up to the filesystem root when there is
 * none, since a project may carry a .gitignore without being a repository; and that repository's
 * `.git/info/exclude`, which ranks below every .gitignore. Shallowest first.
 */
export interface IgnoreChain {
  gitignores: readonly IgnoreLevel[];
  excludes: readonly IgnoreLevel[];
}

/** What one directory adds to the chain. */
export interface DirectoryIgnores {
  gitignore: IgnoreLevel | undefined;
  exclude: IgnoreLevel | undefined;
  holdsGit: boolean;
}

/** Reads a directory's own ignore files; `holdsGit` from its listing when the caller has one. */
export async function readDirectoryIgnores(directory: string, holdsGit?: boolean): Promise<DirectoryIgnores> {
  const isRepository = holdsGit ?? (await hasGitEntry(directory));
  return {
    gitignore: await readIgnoreFile(directory, path.join(directory, ".gitignore")),
    exclude: isRepository
      ? await readIgnoreFile(directory, path.join(directory, ".git", "info", "exclude"))
      : undefined,
    holdsGit: isRepository,
  };
}

/** The chain inherited by `root` from the directories above it (root's own files not included). */
export async function ancestorChain(root: string): Promise<IgnoreChain> {
  const empty: IgnoreChain = { gitignores: [], excludes: [] };
  if (await hasGitEntry(root)) return empty;
  const levels: DirectoryIgnores[] = [];
  let directory = root;
  for (;;) {
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
    const own = await readDirectoryIgnores(directory);
    levels.unshift(own);
    if (own.holdsGit) break;
  }
  return levels.reduce((chain, own) => childChain(chain, own), empty);
}

/** The chain for entries of a directory, given the chain of its parent and the directory's own files. */
export function childChain(parent: IgnoreChain, own: DirectoryIgnores): IgnoreChain {
  const gitignore = own.gitignore === undefined ? [] : [own.gitignore];
  const exclude = own.exclude === undefined ? [] : [own.exclude];
  if (own.holdsGit) return { gitignores: gitignore, excludes: exclude };
  return { gitignores: [...parent.gitignores, ...gitignore], excludes: [...parent.excludes, ...exclude] };
}

/**
 * Whether the chain ignores an entry. The deepest file with a rule for the path decides, and a
 * negated rule (`!keep.log`) decides too; exclude files only when no .gitignore has a say.
 */
export function chainIgnores(chain: IgnoreChain, absolutePath: string, isDirectory: boolean): boolean {
  return (
    levelsVerdict(chain.gitignores, absolutePath, isDirectory) ??
    levelsVerdict(chain.excludes, absolutePath, isDirectory) ??
    false
  );
}

/**
 * The `ignore` package also counts a rule that ignores a parent directory, but the walker only
 * descends into directories that were not ignored (or that were named as the search root), so
 * such an inherited verdict is skipped, as ripgrep skips it.
 */
function levelsVerdict(
  levels: readonly IgnoreLevel[],
  absolutePath: string,
  isDirectory: boolean,
): boolean | undefined {
  for (let index = levels.length - 1; index >= 0; index--) {
    const level = levels[index];
    if (level === undefined) continue;
    const relative = toPosix(path.relative(level.directory, absolutePath));
    const verdict = level.rules.test(isDirectory ? `${relative}/` : relative);
    if (verdict.unignored) return false;
    if (verdict.ignored && !parentIgnored(level.rules, relative)) return true;
  }
  return undefined;
}

async function readIgnoreFile(directory: string, file: string): Promise<IgnoreLevel | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  // gitignore matching is case-sensitive, as in git and ripgrep; the package defaults otherwise.
  return { directory, rules: ignore({ ignorecase: false }).add(text) };
}

/** Whether a rule of `rules` ignores a directory above `relative` (a verdict `test` passes down). */
export function parentIgnored(rules: Ignore, relative: string): boolean {
  const slash = relative.lastIndexOf("/");
  return slash !== -1 && rules.test(relative.slice(0, slash + 1)).ignored;
}

async function hasGitEntry(directory: string): Promise<boolean> {
  try {
    await stat(path.join(directory, ".git"));
    return true;
  } catch {
    return false;
  }
}

export function toPosix(relative: string): string {
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
