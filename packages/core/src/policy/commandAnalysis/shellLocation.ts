import path from "node:path";

/**
 * Where a path points, as far as the analysis can tell without touching the disk. The shell's
 * working directory starts at the project root; `cd` moves it (see `changeDirectory`).
 */
export type ShellLocation =
  /** Normalised absolute path without a trailing slash (except `/` itself). */
  | { base: "absolute"; path: string }
  /** Relative to the home directory; `""` is home itself, a leading `..` leaves it. */
  | { base: "home"; rel: string }
  /** Relative to the project root; `""` is the root itself, a leading `..` leaves it. */
  | { base: "project"; rel: string }
  /** After a `cd` we could not follow, a relative path could be anywhere. */
  | { base: "unknown" };

export const projectRootLocation: ShellLocation = { base: "project", rel: "" };

/** Resolves a static path word against the current directory. A quoted `~` counts as home too. */
export function resolveLocation(value: string, cwd: ShellLocation): ShellLocation {
  if (value.startsWith("/")) return { base: "absolute", path: normaliseAbsolute(value) };
  // `~+` is the current directory and `~-` the previous one, which is not followed.
  if (value === "~+" || value.startsWith("~+/")) return join(cwd, `.${value.slice(2)}`);
  if (value === "~-" || value.startsWith("~-/")) return { base: "unknown" };
  if (value.startsWith("~")) {
    const slash = value.indexOf("/");
    const rest = slash === -1 ? "" : value.slice(slash + 1);
    return { base: "home", rel: normaliseRelative(rest) };
  }
  return join(cwd, value);
}

/** The directory after `cd target` (`cd` alone and `cd ~` go home; `cd -` is unknown). */
export function changeDirectory(cwd: ShellLocation, target: string | undefined): ShellLocation {
  if (target === undefined) return { base: "home", rel: "" };
  if (target === "-") return { base: "unknown" };
  return resolveLocation(target, cwd);
}

function join(cwd: ShellLocation, value: string): ShellLocation {
  switch (cwd.base) {
    case "absolute":
      return { base: "absolute", path: normaliseAbsolute(`${cwd.path}/${value}`) };
    case "home":
      return { base: "home", rel: normaliseRelative(joinRelative(cwd.rel, value)) };
    case "project":
      return { base: "project", rel: normaliseRelative(joinRelative(cwd.rel, value)) };
    case "unknown":
      return cwd;
  }
}

function joinRelative(base: string, value: string): string {
  return base === "" ? value : `${base}/${value}`;
}

function normaliseAbsolute(value: string): string {
  const normal = path.posix.normalize(value);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

/** `""` for the base itself; keeps leading `..` so escapes stay visible. */
function normaliseRelative(value: string): string {
  if (value === "") return "";
  const normal = path.posix.normalize(value);
  const trimmed = normal.endsWith("/") ? normal.slice(0, -1) : normal;
  return trimmed === "." ? "" : trimmed;
}
