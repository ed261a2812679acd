import { execFile } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathExists } from "./pathKinds.js";
import { sandboxArgv } from "./sandboxArgv.js";
import type { SandboxDetection } from "./sandboxTypes.js";

/** A trivial sandboxed command takes milliseconds; a hung bwrap must not hold up the session. */
const probeTimeoutMs = 10_000;

let cached: Promise<SandboxDetection> | undefined;

/** Whether commands can be sandboxed here; probed once per process. */
export function detectSandbox(): Promise<SandboxDetection> {
  cached ??= probeSandbox();
  return cached;
}

/**
 * Runs a real sandboxed command with the flags every command gets. bwrap being installed is not
 * enough: user namespaces may be off (sysctl, AppArmor) or the machine may be a container that
 * forbids mounts. When it runs, the probe also checks that it isolates: a write in the project
 * must work, one beside it must not reach the host, and the command must hold no capabilities
 * (with them, root could remount `/` read-write). Never throws.
 */
export async function probeSandbox(bwrapPath = findOnPath("bwrap")): Promise<SandboxDetection> {
  if (process.platform !== "linux") {
    return { available: false, reason: "the bubblewrap sandbox exists only on Linux" };
  }
  if (bwrapPath === undefined) return { available: false, reason: "bubblewrap (bwrap) is not installed" };
  let base: string | undefined;
  try {
    base = mkdtempSync(path.join(tmpdir(), "lathe-sandbox-probe-"));
    const projectRoot = path.join(base, "project");
    const tempDir = path.join(base, "tmp");
    mkdirSync(projectRoot);
    mkdirSync(tempDir);
    const outside = path.join(base, "outside");
    const command = probeCommand(path.join(projectRoot, "inside"), outside);
    const argv = sandboxArgv({ bwrapPath, projectRoot, tempDir, network: false, command });
    const failure = await runProbe(bwrapPath, argv.slice(1));
    if (pathExists(outside)) {
      return { available: false, reason: "bubblewrap runs here but does not keep the file system read-only" };
    }
    if (failure !== undefined) {
      return { available: false, reason: `bubblewrap is installed but cannot sandbox here (${failure})` };
    }
    return { available: true, bwrapPath };
  } catch (error) {
    return { available: false, reason: `the sandbox probe failed: ${messageOf(error)}` };
  } finally {
    // Off the main thread: the probe runs while the engine starts, and a synchronous removal
    // held up everything else for ~15 ms.
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  }
}

/**
 * The outside write's own result says nothing: with the probe under the host's /tmp it lands in
 * the private /tmp. What counts is that it never reaches the host, which the caller checks.
 */
function probeCommand(inside: string, outside: string): string {
  return [
    `: > ${shellQuote(inside)} || { echo "${probeMark}could not write in the project" >&2; exit 1; }`,
    `(: > ${shellQuote(outside)}) 2>/dev/null`,
    "caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)",
    `[ "$caps" = 0000000000000000 ] || { echo "${probeMark}commands keep capabilities $caps" >&2; exit 1; }`,
  ].join("\n");
}

const probeMark = "lathe-probe: ";

/** Undefined when the probe succeeded, otherwise what went wrong in a few words. */
function runProbe(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: probeTimeoutMs, encoding: "utf8" }, (error, _stdout, stderr) => {
      if (error === null) return resolve(undefined);
      const lines = stderr.split("\n").map((line) => line.trim());
      const ours = lines.find((line) => line.startsWith(probeMark));
      const first = lines.find((line) => line !== "");
      const status = typeof error.code === "number" ? `exit code ${error.code}` : error.message;
      resolve(ours?.slice(probeMark.length) ?? first ?? status);
    });
  });
}

/** The first executable `name` on PATH, as an absolute path. */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === "" || !path.isAbsolute(directory)) continue;
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here or not executable: try the next directory.
    }
  }
  return undefined;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
