import { readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { builtinIgnorePatterns } from "./builtinIgnores.js";
import { scopeIgnorePatterns } from "./scopedPatterns.js";

/** Ignore files read in every directory, later ones taking precedence within a directory. */
const ignoreFileNames = [".gitignore", ".latheignore"] as const;

/** Git compares names without case where the file system does. */
const caseInsensitiveFileSystem = process.platform === "darwin" || process.platform === "win32";

/**
 * Answers "is this path ignored?" for one project, as git would with its `.gitignore` files (root
 * and nested), `.git/info/exclude`, plus `.latheignore` files and the built-in names. Built-in names
 * cannot be re-included by a negated pattern. Ignore files are read lazily, once per directory, so
 * one instance should serve a whole tree walk.
 */
export class ProjectIgnore {
  private readonly builtins: Ignore = ignore({ ignorecase: caseInsensitiveFileSystem }).add(
    builtinIgnorePatterns,
  );
  /** The rules of every directory read so far, rewritten relative to the root, shallow before deep. */
  private readonly projectRules: Ignore = ignore({ ignorecase: caseInsensitiveFileSystem });
  private readonly loadedDirectories = new Map<string, Promise<void>>();

  constructor(private readonly projectRoot: string) {}

  /**
   * `relativePath` is relative to the project root with `/` separators ("" or "." for the root,
   * which is never ignored). A path inside an ignored directory is ignored, as in git.
   */
  async isIgnored(relativePath: string, isDirectory: boolean): Promise<boolean> {
    if (relativePath === "" || relativePath === ".") return false;
    const testedPath = isDirectory ? `${relativePath}/` : relativePath;
    if (this.builtins.ignores(testedPath)) return true;

    const segments = relativePath.split("/");
    await this.loadRulesOf("");
    // Rules of a directory are read only once its parent is known not to be ignored, as git does.
    for (let depth = 1; depth < segments.length; depth++) {
      const directory = segments.slice(0, depth).join("/");
      if (this.projectRules.ignores(`${directory}/`)) return true;
      await this.loadRulesOf(directory);
    }
    return this.projectRules.ignores(testedPath);
  }

  private loadRulesOf(directory: string): Promise<void> {
    let loading = this.loadedDirectories.get(directory);
    if (loading === undefined) {
      loading = this.readRulesOf(directory);
      this.loadedDirectories.set(directory, loading);
    }
    return loading;
  }

  private async readRulesOf(directory: string): Promise<void> {
    const absoluteDirectory = path.join(this.projectRoot, ...directory.split("/"));
    // Git ranks the repository's exclude file below every .gitignore.
    if (directory === "") {
      const excludeFile = await readTextIfPresent(path.join(absoluteDirectory, ".git", "info", "exclude"));
      this.projectRules.add(scopeIgnorePatterns(excludeFile, ""));
    }
    for (const fileName of ignoreFileNames) {
      const text = await readTextIfPresent(path.join(absoluteDirectory, fileName));
      this.projectRules.add(scopeIgnorePatterns(text, directory));
    }
  }
}

/** An unreadable ignore file ignores nothing, as with git. */
async function readTextIfPresent(filePath: string): Promise<string> {
  try {
    return await readFile(filePath, "utf8");
  } catch {
    return "";
  }
}
