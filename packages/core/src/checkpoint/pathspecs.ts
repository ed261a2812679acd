/** Pathspecs for paths taken from git or the disk: no glob character in a file name may widen them. */
export function literalPathspec(file: string): string {
  return `:(literal)${file}`;
}

/**
 * Leaves a path out of `git add`. A pathspec, unlike a line in info/exclude, cannot be overridden
 * by a `!pattern` in the project's .gitignore, and it can name any file, newlines included.
 */
export function excludePathspec(file: string): string {
  return `:(exclude,literal)${file}`;
}

/** The stdin of a `--pathspec-from-file=- --pathspec-file-nul` command. */
export function pathspecInput(pathspecs: readonly string[]): string {
  return pathspecs.map((pathspec) => `${pathspec}\0`).join("");
}
