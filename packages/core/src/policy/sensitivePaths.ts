import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isWithin } from "./pathGuard.js";

export interface SensitivePathOptions {
  /** Relative inputs are resolved against it, and only the part below it is judged. */
  projectRoot?: string;
  /** `$LATHE_HOME`: its credentials and settings are sensitive wherever it lives. */
  latheHome?: string;
  /** Compare names ignoring case; by default as the platform's usual file system does (macOS, Windows). */
  caseInsensitive?: boolean;
}

/** Directories whose whole contents are secrets. */
const secretDirectories = new Set([".ssh", ".aws", ".gnupg"]);

/** `.env*` files meant to be committed: templates without values. */
const envTemplates = new Set([".env.example", ".env.sample", ".env.template"]);

const privateKeyPrefixes = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"];

const defaultCaseInsensitive = process.platform === "darwin" || process.platform === "win32";

/**
 * Whether a path names a file whose contents are secrets or whose change would alter what later
 * runs or what Lathe permits (SPEC §5): `.lathe/` configuration, `.cursor/mcp.json`, git metadata,
 * shell start-up files. Touching one is critical risk for every tool. Judged by whole path segments, never by
 * substring (`my.environment.ts` is not sensitive), like gitignore patterns: a name matches at any
 * depth, and a matching directory covers everything below it. With a project root, the path is
 * judged both as written and with its symlinks followed, so a link named `notes.txt` that points
 * at `.env` counts as `.env`.
 */
export function isSensitivePath(input: string, options: SensitivePathOptions = {}): boolean {
  return sensitivePathMatch(input, options) !== undefined;
}

/** The sensitive-path pattern `input` matches (`.env*`, `.ssh/`, …), for messages; undefined when none. */
export function sensitivePathMatch(input: string, options: SensitivePathOptions = {}): string | undefined {
  const caseInsensitive = options.caseInsensitive ?? defaultCaseInsensitive;
  for (const form of judgedForms(input, options)) {
    const segments = segmentsOf(form.judged, caseInsensitive);
    const match =
      matchSegments(segments) ??
      gitFileMatch(segments, form.absolute) ??
      latheHomeMatch(form.absolute, options);
    if (match !== undefined) return match;
  }
  return undefined;
}

interface JudgedForm {
  /** Relative to the project when inside it, absolute otherwise: what the patterns see. */
  judged: string;
  /** Absolute, when known: what `$LATHE_HOME` is compared with. */
  absolute?: string;
}

/** Each way of reading the path: as written, and with its symlinks followed. */
function judgedForms(input: string, options: SensitivePathOptions): JudgedForm[] {
  const { projectRoot } = options;
  if (projectRoot === undefined) {
    const normalized = path.normalize(input);
    return [{ judged: normalized, absolute: path.isAbsolute(normalized) ? normalized : undefined }];
  }
  const lexical = path.resolve(projectRoot, input);
  const forms: JudgedForm[] = [
    { judged: relativeWhenWithin(path.resolve(projectRoot), lexical), absolute: lexical },
  ];
  const real = realPathOfExistingPrefix(lexical);
  if (real !== lexical) {
    const realRoot = realPathOfExistingPrefix(path.resolve(projectRoot));
    forms.push({ judged: relativeWhenWithin(realRoot, real), absolute: real });
  }
  return forms;
}

/**
 * Only the part below the project root is judged, so a project that itself lives under, say,
 * `~/.aws/tools/` does not make every file in it sensitive.
 */
function relativeWhenWithin(root: string, absolute: string): string {
  return isWithin(root, absolute) ? path.relative(root, absolute) : absolute;
}

function segmentsOf(form: string, caseInsensitive: boolean): string[] {
  const segments = form.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  return segments.map((segment) => {
    const name = caseInsensitive ? segment.toLowerCase() : segment;
    // Windows ignores trailing dots and spaces, so `.env.` opens `.env` there.
    return process.platform === "win32" ? name.replace(/[. ]+$/, "") : name;
  });
}

/**
 * Names of shell start-up files (and the like) that a shell or readline runs or reads on its next
 * start, outside any sandbox: a line appended there runs as the user later.
 */
export const shellStartupFiles: ReadonlySet<string> = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".inputrc",
  // Every git on the machine reads it: `core.pager`, `core.fsmonitor` and aliases run programs.
  ".gitconfig",
]);

/**
 * Git metadata that makes git run programs or read its repository from elsewhere: config (pager,
 * fsmonitor, filters, hooksPath), hooks, `commondir` (the shared repository, config included),
 * `info/` (attributes pick filters), and the per-worktree and per-submodule git dirs.
 */
const gitMetadata: ReadonlyMap<string, string> = new Map([
  ["config", "config"],
  ["config.worktree", "config.worktree"],
  ["hooks", "hooks/"],
  ["commondir", "commondir"],
  ["info", "info/"],
  ["worktrees", "worktrees/"],
]);

/** `.lathe/` entries that are plain output (plan mode's markdown plans), not configuration. */
const latheOutputDirectories = new Set(["plans"]);

function matchSegments(segments: readonly string[]): string | undefined {
  for (const [index, name] of segments.entries()) {
    const next = segments[index + 1];
    if (secretDirectories.has(name)) return `${name}/`;
    const git = name === ".git" ? gitMetadataMatch(segments.slice(index + 1)) : undefined;
    if (git !== undefined) return git;
    // Settings, hooks, MCP servers, agents, commands, rules: all of it decides what runs or what
    // the model is told, and a new file there is as strong as an edited one.
    if (name === ".lathe" && (next === undefined || !latheOutputDirectories.has(next))) return ".lathe/";
    if (name === ".cursor" && (next === undefined || next === "mcp.json" || next === "rules")) {
      return next === "rules" ? ".cursor/rules/" : ".cursor/mcp.json";
    }
    if (name === ".config" && next === "fish") return ".config/fish/";
    if (name === ".config" && next === "git" && segments[index + 2] === "config") return ".config/git/config";
    if (shellStartupFiles.has(name)) return name;
    const pattern = sensitiveName(name);
    if (pattern !== undefined) return pattern;
  }
  return undefined;
}

/**
 * A `.git` that is a file (`gitdir: …`) or not there yet: writing one points git at another
 * repository, config and hooks included. A `.git` directory itself is not sensitive, only its
 * metadata. Unknown without an absolute path, so sensitive then.
 */
function gitFileMatch(segments: readonly string[], absolute: string | undefined): string | undefined {
  if (segments.at(-1) !== ".git") return undefined;
  if (absolute !== undefined && isDirectory(absolute)) return undefined;
  return ".git (a gitdir file)";
}

/** What follows a `.git` segment; submodule git dirs (`.git/modules/<name>/`) carry the same files. */
function gitMetadataMatch(rest: readonly string[]): string | undefined {
  const [first] = rest;
  const direct = first === undefined ? undefined : gitMetadata.get(first);
  if (direct !== undefined) return `.git/${direct}`;
  if (first !== "modules") return undefined;
  // Submodule names may hold slashes, so any metadata name below `modules/` counts.
  const nested = rest.slice(1).find((segment) => gitMetadata.has(segment));
  return nested === undefined ? undefined : `.git/modules/*/${gitMetadata.get(nested)}`;
}

function sensitiveName(name: string): string | undefined {
  if (name.startsWith(".env") && !envTemplates.has(name)) return ".env*";
  if (name.endsWith(".pem")) return "*.pem";
  if (name.endsWith(".key")) return "*.key";
  const keyPrefix = privateKeyPrefixes.find((prefix) => name.startsWith(prefix));
  if (keyPrefix !== undefined) return `${keyPrefix}*`;
  if (name.startsWith("credentials")) return "credentials*";
  return undefined;
}

/** `$LATHE_HOME` holds the API keys and the user's permission rules, under any name it has. */
function latheHomeMatch(form: string | undefined, options: SensitivePathOptions): string | undefined {
  if (options.latheHome === undefined || form === undefined) return undefined;
  for (const home of new Set([
    path.resolve(options.latheHome),
    realPathOfExistingPrefix(options.latheHome),
  ])) {
    if (!isWithin(home, form)) continue;
    const [first] = path.relative(home, form).split(path.sep);
    if (first === "credentials.json") return "$LATHE_HOME/credentials.json";
    if (first !== undefined && /^settings.*\.json$/.test(first)) return "$LATHE_HOME/settings*.json";
  }
  return undefined;
}

/** Symlink hops followed by hand before giving up, as the kernel's own limit. */
const maxSymlinkHops = 40;

/**
 * `realpath` of the longest existing prefix with the missing rest appended, following dangling
 * symlinks by hand (a write through one lands at its target). Synchronous because rules and
 * sensitive paths are judged in one pass while the policy decides; on any error the path is
 * returned as it is, which the path guard refuses on its own. The system's realpath(3)
 * (`.native`), as the path guard uses: one call where the JavaScript one stats every segment,
 * and it resolves a link's `..` the way the kernel will when the file is opened.
 */
export function realPathOfExistingPrefix(absolute: string): string {
  let existing = path.resolve(absolute);
  const missing: string[] = [];
  for (let hops = 0; hops <= maxSymlinkHops; ) {
    try {
      return path.join(realpathSync.native(existing), ...missing);
    } catch {
      const target = danglingTarget(existing);
      if (target !== undefined) {
        hops++;
        existing = path.resolve(path.dirname(existing), target);
        continue;
      }
      const parent = path.dirname(existing);
      if (parent === existing) return path.join(existing, ...missing);
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  return path.resolve(absolute);
}

function danglingTarget(candidate: string): string | undefined {
  try {
    return lstatSync(candidate).isSymbolicLink() ? readlinkSync(candidate) : undefined;
  } catch {
    return undefined;
  }
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
