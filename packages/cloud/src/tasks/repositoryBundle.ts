import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runGit } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export interface BundleRequest {
  projectDir: string;
  /** A branch, a tag or HEAD (the default): a bundle carries refs, not bare commits. */
  ref?: string;
  capBytes: number;
  signal?: AbortSignal;
}

export type BundleOutcome =
  | {
      ok: true;
      bundle: Buffer;
      /** The ref name as given, or HEAD. */
      ref: string;
      /** The full sha the ref named when the bundle was made. */
      commit: string;
    }
  | { ok: false; error: LatheErrorInfo };

/** What a bundle may weigh unless the settings say otherwise: it travels in a database row. */
export const defaultBundleCapBytes = 50 * 1024 * 1024;

/**
 * The project's repository at `ref` as a git bundle, for a fleet that cannot reach it. Only
 * commits travel: the caller warns about `uncommittedChanges`. Git writes the bundle to a file of
 * its own temp folder and the size is checked there, so a repository over the cap is never read
 * into memory; the folder goes whatever happens.
 */
export async function createRepositoryBundle(request: BundleRequest): Promise<BundleOutcome> {
  const { projectDir, signal } = request;
  const ref = request.ref ?? "HEAD";
  const missing = await missingFolder(projectDir);
  if (missing !== undefined) return { ok: false, error: missing };
  const resolved = await resolveRef(projectDir, ref, signal);
  if (!resolved.ok) return resolved;
  return inTempFolder(async (folder) => {
    const file = path.join(folder, "repository.bundle");
    const created = await runGit({ args: ["bundle", "create", file, ref], cwd: projectDir, signal });
    if (!created.ok) return created;
    if (created.value.exitCode !== 0) {
      return unavailable(`git could not bundle ${ref} of ${projectDir}: ${gitMessage(created.value.stderr)}`);
    }
    const { size } = await stat(file);
    if (size > request.capBytes) {
      return {
        ok: false,
        error: errorInfo(
          "E_BUNDLE_TOO_LARGE",
          `The repository bundle of ${ref} is ${megabytes(size)} MB, over the ${megabytes(request.capBytes)} MB cap.`,
        ),
      };
    }
    // The commit was read before git bundled: a commit made meanwhile only adds history after it,
    // so the bundle still holds it; only a rewrite of the ref in that moment would leave it out.
    return { ok: true, bundle: await readFile(file), ref, commit: resolved.commit };
  });
}

/** `work` in a fresh temp folder, removed afterwards; a file system failure becomes an error value. */
async function inTempFolder(work: (folder: string) => Promise<BundleOutcome>): Promise<BundleOutcome> {
  let folder: string | undefined;
  try {
    folder = await mkdtemp(path.join(os.tmpdir(), "lathe-bundle-"));
    return await work(folder);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return unavailable(`The repository bundle could not be written or read: ${reason}`);
  } finally {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  }
}

/** The files git tracks in the project (its index), relative to `projectDir`. */
export async function trackedFiles(
  projectDir: string,
): Promise<{ ok: true; files: string[] } | { ok: false; error: LatheErrorInfo }> {
  const missing = await missingFolder(projectDir);
  if (missing !== undefined) return { ok: false, error: missing };
  const listed = await runGit({ args: ["ls-files", "-z"], cwd: projectDir });
  if (!listed.ok) return listed;
  if (listed.value.exitCode !== 0) {
    return unavailable(`git could not list the files of ${projectDir}: ${gitMessage(listed.value.stderr)}`);
  }
  // A file with a merge conflict is listed once per stage.
  return { ok: true, files: [...new Set(nulSeparated(listed.value.stdout))] };
}

/**
 * Paths with changes a bundle leaves behind (modified, staged, untracked), as `git status`
 * names them; empty when there are none or git cannot tell, since this only feeds a warning.
 */
export async function uncommittedChanges(projectDir: string): Promise<string[]> {
  if ((await missingFolder(projectDir)) !== undefined) return [];
  const status = await runGit({ args: ["status", "--porcelain=v1", "-z"], cwd: projectDir });
  if (!status.ok || status.value.exitCode !== 0) return [];
  const entries = nulSeparated(status.value.stdout);
  const paths: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] ?? "";
    paths.push(entry.slice(3));
    // A rename or copy is followed by the path it came from, which is not a change of its own.
    if (/^[RC]|^.[RC]/.test(entry)) index++;
  }
  return paths;
}

type ResolvedRef = { ok: true; commit: string } | { ok: false; error: LatheErrorInfo };

/**
 * The commit `ref` names, once git is known to be able to bundle it: a ref, not a commit
 * expression (`HEAD~1`, a sha), which `git bundle create` refuses as an empty bundle.
 */
async function resolveRef(
  projectDir: string,
  ref: string,
  signal: AbortSignal | undefined,
): Promise<ResolvedRef> {
  // A leading dash would be read as an option; no branch or tag can start with one.
  if (ref === "" || ref.startsWith("-")) return unavailable(`"${ref}" is not a branch, a tag or HEAD.`);
  const commit = await runGit({
    args: ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`],
    cwd: projectDir,
    signal,
  });
  if (!commit.ok) return commit;
  if (commit.value.exitCode !== 0) return whyUnresolved(projectDir, ref, signal);
  const name = await runGit({ args: ["rev-parse", "--symbolic-full-name", ref], cwd: projectDir, signal });
  if (!name.ok) return name;
  if (name.value.exitCode !== 0 || name.value.stdout.toString("utf8").trim() === "") {
    return unavailable(
      `"${ref}" names a commit, not a branch or tag; a bundle carries refs, so give a branch, a tag or HEAD.`,
    );
  }
  return { ok: true, commit: commit.value.stdout.toString("utf8").trim() };
}

/** Why `ref` did not resolve: no repository, no commit yet, or no such ref. */
async function whyUnresolved(
  projectDir: string,
  ref: string,
  signal: AbortSignal | undefined,
): Promise<ResolvedRef> {
  const repository = await runGit({ args: ["rev-parse", "--git-dir"], cwd: projectDir, signal });
  if (!repository.ok) return repository;
  if (repository.value.exitCode !== 0) return unavailable(`${projectDir} is not a git repository.`);
  const head = await runGit({
    args: ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
    cwd: projectDir,
    signal,
  });
  if (!head.ok) return head;
  const noCommit = head.value.exitCode !== 0;
  if (ref === "HEAD" && noCommit) {
    return unavailable(`The repository at ${projectDir} has no commit yet; commit before sending it.`);
  }
  return unavailable(
    `The repository at ${projectDir} has no branch or tag "${ref}"${noCommit ? " (and no commit yet)" : ""}.`,
  );
}

/** A missing project would reach git as a missing working directory, which reads as git missing. */
async function missingFolder(projectDir: string): Promise<LatheErrorInfo | undefined> {
  const found = await stat(projectDir).catch(() => undefined);
  if (found?.isDirectory()) return undefined;
  return errorInfo("E_REPO_UNAVAILABLE", `${projectDir} is not a folder.`);
}

function unavailable(message: string): { ok: false; error: LatheErrorInfo } {
  return { ok: false, error: errorInfo("E_REPO_UNAVAILABLE", message) };
}

function gitMessage(stderr: string): string {
  return stderr.trim().replace(/^fatal: /, "") || "no reason given";
}

function nulSeparated(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split("\0")
    .filter((entry) => entry !== "");
}

/** One decimal, enough to compare with a cap; two significant digits below a tenth of a MB. */
function megabytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return value >= 0.1 ? value.toFixed(1) : String(Number(value.toPrecision(2)));
}
