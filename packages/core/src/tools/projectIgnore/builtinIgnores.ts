/**
 * Names hidden in every project whatever its ignore files say: version-control internals,
 * dependencies, build output and caches. They are huge, generated or both, and the model reading
 * them wastes its context. A directory-only name leaves a file of that name visible (a `build`
 * script stays listed while a `build/` directory does not).
 */
const builtinIgnoredNames: readonly { name: string; directoryOnly: boolean }[] = [
  { name: ".git", directoryOnly: false },
  { name: ".hg", directoryOnly: true },
  { name: ".svn", directoryOnly: true },
  { name: "node_modules", directoryOnly: true },
  { name: "dist", directoryOnly: true },
  { name: "build", directoryOnly: true },
  { name: "out", directoryOnly: true },
  { name: "coverage", directoryOnly: true },
  { name: ".next", directoryOnly: true },
  { name: ".nuxt", directoryOnly: true },
  { name: ".svelte-kit", directoryOnly: true },
  { name: ".turbo", directoryOnly: true },
  { name: ".parcel-cache", directoryOnly: true },
  { name: ".cache", directoryOnly: true },
  { name: "__pycache__", directoryOnly: true },
  { name: ".venv", directoryOnly: true },
  { name: ".mypy_cache", directoryOnly: true },
  { name: ".pytest_cache", directoryOnly: true },
  { name: ".ruff_cache", directoryOnly: true },
  { name: ".tox", directoryOnly: true },
  { name: ".gradle", directoryOnly: true },
  { name: "target", directoryOnly: true },
  { name: ".DS_Store", directoryOnly: false },
  { name: "Thumbs.db", directoryOnly: false },
];

/** The built-in names as gitignore patterns. */
export const builtinIgnorePatterns: readonly string[] = builtinIgnoredNames.map(({ name, directoryOnly }) =>
  directoryOnly ? `${name}/` : name,
);

/**
 * The built-in names as globs that stop a crawler from entering those directories at all, so a
 * search never pays for walking `node_modules`.
 */
export const builtinCrawlExclusions: readonly string[] = builtinIgnoredNames.flatMap(
  ({ name, directoryOnly }) => (directoryOnly ? [`**/${name}/**`] : [`**/${name}`, `**/${name}/**`]),
);
