import { lstatSync, readlinkSync, realpathSync } from "node:fs";
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
 * Whether a path names a file whose contents are secrets or whose change would alter Lathe's own
 * permissions (SPEC §5); touching one is critical risk. Judged by whole path segments, never by
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
    const match =
      matchSegments(segmentsOf(form.judged, caseInsensitive)) ?? latheHomeMatch(form.absolute, options);
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

function matchSegments(segments: readonly string[]): string | undefined {
  for (const [index, name] of segments.entries()) {
    const next = segments[index + 1];
    if (secretDirectories.has(name)) return `${name}/`;
    if (name === ".git" && next === "config") return ".git/config";
    if (name === ".git" && next === "hooks") return ".git/hooks/";
    if (name === ".lathe" && next !== undefined && /^settings.*\.json$/.test(next)) {
      return ".lathe/settings*.json";
    }
    const pattern = sensitiveName(name);
    if (pattern !== undefined) return pattern;
  }
  return undefined;
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
 * returned as it is, which the path guard refuses on its own.
 */
export function realPathOfExistingPrefix(absolute: string): string {
  let existing = path.resolve(absolute);
  const missing: string[] = [];
  for (let hops = 0; hops <= maxSymlinkHops; ) {
    try {
      return path.join(realpathSync(existing), ...missing);
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
