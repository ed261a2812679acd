import path from "node:path";
import { resolveLocation, type ShellLocation } from "./shellLocation.js";

/** What the analysis knows about the places a command can touch. */
export interface PathContext {
  cwd: ShellLocation;
  projectRoot?: string | undefined;
  homeDir?: string | undefined;
  /** `$LATHE_HOME`, whose credentials and settings are sensitive wherever it lives. */
  latheHome?: string | undefined;
}

/**
 * Where a deletion (or recursive chmod/chown) target lies, worst first:
 * - `root`: `/` itself; `rootGlob`: a glob in the first component (`/*`, `/e*`);
 * - `systemDir`: a top-level system directory or everything in it (`/etc`, `/usr/*`);
 * - `home`: the home directory or everything in it (`~`, `$HOME/*`);
 * - `ancestor`: the project root's parent or above (`..`, `../..`, `../*`): deleting it deletes the
 *   project and everything beside it. Without a project root, a relative path made only of `..`
 *   (and a final glob) is an ancestor; `../sibling` is `outside`;
 * - `projectRoot`: the whole project (`.`, `*`, `./*`);
 * - `system`, `homePath`, `temp`, `outside`, `project`: somewhere under those places;
 * - `unknown`: a relative path after a `cd` we could not follow.
 */
export type TargetClass =
  | "root"
  | "rootGlob"
  | "systemDir"
  | "home"
  | "ancestor"
  | "projectRoot"
  | "system"
  | "homePath"
  | "temp"
  | "outside"
  | "project"
  | "unknown";

/** Top-level directories of Linux and macOS systems whose loss breaks the machine. */
const systemTopLevel = new Set([
  "bin",
  "boot",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "media",
  "mnt",
  "opt",
  "proc",
  "root",
  "run",
  "sbin",
  "snap",
  "srv",
  "sys",
  "usr",
  "var",
  "Applications",
  "Library",
  "System",
  "Users",
  "Volumes",
  "private",
]);

export function classifyTarget(value: string, ctx: PathContext): TargetClass {
  const location = resolveLocation(value, ctx.cwd);
  switch (location.base) {
    case "unknown":
      return "unknown";
    case "home":
      if (ctx.homeDir !== undefined) {
        return classifyAbsolute(path.posix.join(ctx.homeDir, location.rel || "."), ctx);
      }
      return classifyHomeRelative(location.rel);
    case "project":
      if (ctx.projectRoot !== undefined) {
        return classifyAbsolute(path.posix.join(ctx.projectRoot, location.rel || "."), ctx);
      }
      return classifyProjectRelative(location.rel);
    case "absolute":
      return classifyAbsolute(location.path, ctx);
  }
}

function classifyHomeRelative(rel: string): TargetClass {
  if (rel === "" || isPureGlob(rel)) return "home";
  return rel === ".." || rel.startsWith("../") ? "ancestor" : "homePath";
}

function classifyProjectRelative(rel: string): TargetClass {
  if (rel === "" || isPureGlob(rel)) return "projectRoot";
  const parts = rel.split("/");
  if (parts[0] !== "..") return "project";
  const rest = parts.filter((part) => part !== "..");
  const last = rest[0];
  if (rest.length === 0 || (rest.length === 1 && last !== undefined && isPureGlob(last))) return "ancestor";
  return "outside";
}

function classifyAbsolute(absolute: string, ctx: PathContext): TargetClass {
  const p = trimSlash(path.posix.normalize(absolute));
  if (p === "/") return "root";
  const parts = p.slice(1).split("/");
  const top = parts[0] ?? "";
  if (hasGlob(top)) return "rootGlob";
  const last = parts[parts.length - 1] ?? "";
  const parent = path.posix.dirname(p);
  const root = ctx.projectRoot === undefined ? undefined : trimSlash(ctx.projectRoot);
  if (root !== undefined) {
    if (p === root || (isPureGlob(last) && parent === root)) return "projectRoot";
    if (p.startsWith(`${root}/`)) return "project";
    if (isAncestorOrSelf(p, root) || (isPureGlob(last) && isAncestorOrSelf(parent, root))) return "ancestor";
  }
  const home = ctx.homeDir === undefined ? undefined : trimSlash(ctx.homeDir);
  if (home !== undefined) {
    if (p === home || (isPureGlob(last) && parent === home)) return "home";
    if (p.startsWith(`${home}/`)) return "homePath";
  }
  if (parts.length >= 2 && (top === "tmp" || (top === "var" && parts[1] === "tmp"))) {
    return parts.length >= (top === "tmp" ? 2 : 3) ? "temp" : "system";
  }
  if (systemTopLevel.has(top)) {
    const second = parts[1];
    if (parts.length === 1 || (parts.length === 2 && second !== undefined && isPureGlob(second))) {
      return "systemDir";
    }
    return "system";
  }
  return "outside";
}

/**
 * Where a write (redirect, `tee`, `cp` destination…) lands: `discard` for `/dev/null` and the
 * standard streams, `disk` for raw block devices (hard-blocked), `device` for other devices,
 * `system` and `home` (high: configuration and start-up files live there), `elsewhere` and
 * `project` (medium: the sandbox and path guard decide about writes outside the project).
 */
export type WriteTargetClass = "discard" | "disk" | "device" | "system" | "home" | "elsewhere" | "project";

const discardDevices = new Set(["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** Raw disks and partitions of Linux and macOS. */
const diskDevice =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper\/|loop\d|nbd\d|sr\d)/;

export function isDiskDevice(absolute: string): boolean {
  return diskDevice.test(absolute);
}

export function classifyWriteTarget(value: string, ctx: PathContext): WriteTargetClass {
  const location = resolveLocation(value, ctx.cwd);
  if (location.base === "absolute") {
    const p = location.path;
    if (discardDevices.has(p) || /^\/dev\/fd\/\d+$/.test(p)) return "discard";
    if (isDiskDevice(p)) return "disk";
    if (p.startsWith("/dev/")) return "device";
  }
  switch (classifyTarget(value, ctx)) {
    case "root":
    case "rootGlob":
    case "systemDir":
    case "system":
      return "system";
    case "home":
    case "homePath":
      return "home";
    case "ancestor":
    case "outside":
    case "temp":
      return "elsewhere";
    case "projectRoot":
    case "project":
    case "unknown":
      return "project";
  }
}

function isAncestorOrSelf(candidate: string, of: string): boolean {
  return candidate === of || candidate === "/" || of.startsWith(`${candidate}/`);
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

function hasGlob(part: string): boolean {
  return /[*?[]/.test(part);
}

/** A component that matches (nearly) anything: `*`, `.*`, `*.*`, `.??*`, `[!.]*`. */
export function isPureGlob(part: string): boolean {
  return hasGlob(part) && /^[*?.[\]!^-]+$/.test(part);
}
