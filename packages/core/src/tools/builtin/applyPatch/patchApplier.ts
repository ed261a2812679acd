import { constants, type Stats } from "node:fs";
import { lstat, open, symlink, unlink } from "node:fs/promises";
import { type ErrorCode, errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { atomicReplaceEntry } from "../../../fileSystem/atomicWrite.js";
import {
  type InProject,
  inProjectDirectory,
  removeEmptyProjectDirectory,
} from "../../../fileSystem/projectDirectory.js";
import type { PlannedStep } from "./patchValidator.js";

/**
 * The two file operations a patch makes, each on an entry of a directory held open inside the
 * project (a `/proc/self/fd/N/name` path on Linux); a parameter so tests can make one fail.
 */
export interface PatchFileSystem {
  writeFile(entryPath: string, contents: Uint8Array): Promise<void>;
  removeFile(entryPath: string): Promise<void>;
}

export const diskFileSystem: PatchFileSystem = { writeFile: atomicReplaceEntry, removeFile: unlink };

export type CommitResult =
  | {
      ok: true;
      /** Each written file as it lies on disk, by its planned path. */
      written: Map<string, Stats>;
    }
  | { ok: false; error: LatheErrorInfo };

interface CompletedStep {
  step: PlannedStep;
  /** Directories the step's write created, deepest first. */
  createdDirectories: string[];
}

/**
 * Makes a validated patch's writes and removals, all or nothing. Writes go first, so a moved file
 * exists at its new path before the old one goes. Each write is atomic and goes through its
 * directory opened from the project root (see `inProjectDirectory`), so a directory swapped for
 * a link since the patch was checked cannot take it outside the project; if a step fails, every
 * step already made is undone from the original bytes kept in the plan, newest first.
 */
export async function commitPatch(
  steps: readonly PlannedStep[],
  fileSystem: PatchFileSystem,
  projectRoot: string,
): Promise<CommitResult> {
  const ordered = [
    ...steps.filter((step) => step.kind === "write"),
    ...steps.filter((step) => step.kind === "remove"),
  ];
  const completed: CompletedStep[] = [];
  const written = new Map<string, Stats>();
  for (const step of ordered) {
    let made: InProject<Stats | undefined>;
    try {
      made = await makeStep(step, fileSystem, projectRoot);
    } catch (error) {
      const failures = await rollBack(completed, fileSystem, projectRoot);
      return {
        ok: false,
        error: commitFailure(step, "E_TOOL_EXECUTION", reasonOf(error), completed.length, failures),
      };
    }
    if (!made.ok) {
      const failures = await rollBack(completed, fileSystem, projectRoot);
      return {
        ok: false,
        error: commitFailure(step, made.error.code, made.error.message, completed.length, failures),
      };
    }
    if (made.value !== undefined) written.set(step.path, made.value);
    completed.push({ step, createdDirectories: made.createdDirectories });
  }
  return { ok: true, written };
}

function makeStep(
  step: PlannedStep,
  fileSystem: PatchFileSystem,
  projectRoot: string,
): Promise<InProject<Stats | undefined>> {
  if (step.kind === "remove") {
    return inProjectDirectory(projectRoot, step.path, async ({ entry }) => {
      await fileSystem.removeFile(entry);
      return undefined;
    });
  }
  return inProjectDirectory(
    projectRoot,
    step.path,
    async ({ entry }) => {
      await fileSystem.writeFile(entry, step.contents);
      return lstat(entry);
    },
    { createParents: true },
  );
}

/** Undoes completed steps, newest first; returns what could not be restored. */
async function rollBack(
  completed: readonly CompletedStep[],
  fileSystem: PatchFileSystem,
  projectRoot: string,
): Promise<string[]> {
  const failures: string[] = [];
  for (const { step, createdDirectories } of [...completed].reverse()) {
    try {
      const restored = await restore(step, fileSystem, projectRoot);
      if (!restored.ok) failures.push(`${step.displayPath} (${restored.error.message})`);
    } catch (error) {
      failures.push(`${step.displayPath} (${reasonOf(error)})`);
    }
    for (const directory of createdDirectories) {
      if (!(await removeEmptyProjectDirectory(projectRoot, directory))) break;
    }
  }
  return failures;
}

function restore(
  step: PlannedStep,
  fileSystem: PatchFileSystem,
  projectRoot: string,
): Promise<InProject<void>> {
  const { original } = step;
  return inProjectDirectory(projectRoot, step.path, async ({ entry }) => {
    if (original === undefined) {
      await fileSystem.removeFile(entry);
      return;
    }
    if (original.type === "symlink") {
      await symlink(original.target, entry);
      return;
    }
    await fileSystem.writeFile(entry, original.bytes);
    await setModeOfFile(entry, original.mode);
  });
}

/** chmod of the file itself: a link put at the entry since is refused (ELOOP), never followed. */
async function setModeOfFile(entryPath: string, mode: number): Promise<void> {
  const handle = await open(entryPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

function commitFailure(
  step: PlannedStep,
  code: ErrorCode,
  reason: string,
  undone: number,
  failures: readonly string[],
): LatheErrorInfo {
  const verb = step.kind === "write" ? "Writing" : "Deleting";
  return errorInfo(
    code,
    `${verb} ${step.displayPath} failed: ${reason}. ${rollBackOutcome(undone, failures)}`,
  );
}

function rollBackOutcome(undone: number, failures: readonly string[]): string {
  if (failures.length > 0) {
    return `Some changes already made could not be undone; check these files: ${failures.join(", ")}.`;
  }
  if (undone === 0) return "Nothing was changed.";
  const changes = undone === 1 ? "change already made was" : `${undone} changes already made were`;
  return `The ${changes} undone; no file was changed.`;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
