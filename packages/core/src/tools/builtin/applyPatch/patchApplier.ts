import { chmod, lstat, rmdir, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { atomicWriteFile } from "../../../fileSystem/atomicWrite.js";
import type { PlannedStep } from "./patchValidator.js";

/** The two file operations a patch makes; a parameter so tests can make one fail. */
export interface PatchFileSystem {
  writeFile(filePath: string, contents: Uint8Array): Promise<void>;
  removeFile(filePath: string): Promise<void>;
}

export const diskFileSystem: PatchFileSystem = { writeFile: atomicWriteFile, removeFile: unlink };

export type CommitResult = { ok: true } | { ok: false; error: LatheErrorInfo };

interface CompletedStep {
  step: PlannedStep;
  /** Directories the step's write created, deepest first. */
  createdDirectories: string[];
}

/**
 * Makes a validated patch's writes and removals, all or nothing. Writes go first, so a moved file
 * exists at its new path before the old one goes. Each write is atomic; if one fails, every step
 * already made is undone from the original bytes kept in the plan, newest first.
 */
export async function commitPatch(
  steps: readonly PlannedStep[],
  fileSystem: PatchFileSystem,
): Promise<CommitResult> {
  const ordered = [
    ...steps.filter((step) => step.kind === "write"),
    ...steps.filter((step) => step.kind === "remove"),
  ];
  const completed: CompletedStep[] = [];
  for (const step of ordered) {
    const createdDirectories = step.kind === "write" ? await missingDirectoriesOf(step.path) : [];
    try {
      if (step.kind === "write") await fileSystem.writeFile(step.path, step.contents);
      else await fileSystem.removeFile(step.path);
    } catch (error) {
      await removeEmptyDirectories(createdDirectories);
      const failures = await rollBack(completed, fileSystem);
      return { ok: false, error: commitFailure(step, error, completed.length, failures) };
    }
    completed.push({ step, createdDirectories });
  }
  return { ok: true };
}

/** Undoes completed steps, newest first; returns what could not be restored. */
async function rollBack(completed: readonly CompletedStep[], fileSystem: PatchFileSystem): Promise<string[]> {
  const failures: string[] = [];
  for (const { step, createdDirectories } of [...completed].reverse()) {
    try {
      await restore(step, fileSystem);
    } catch (error) {
      failures.push(`${step.displayPath} (${reasonOf(error)})`);
    }
    await removeEmptyDirectories(createdDirectories);
  }
  return failures;
}

async function restore(step: PlannedStep, fileSystem: PatchFileSystem): Promise<void> {
  const { original } = step;
  if (original === undefined) {
    await fileSystem.removeFile(step.path);
    return;
  }
  if (original.type === "symlink") {
    await symlink(original.target, step.path);
    return;
  }
  await fileSystem.writeFile(step.path, original.bytes);
  await chmod(step.path, original.mode);
}

/** The directories a write to `filePath` would create, deepest first. */
async function missingDirectoriesOf(filePath: string): Promise<string[]> {
  const missing: string[] = [];
  for (let directory = path.dirname(filePath); ; directory = path.dirname(directory)) {
    if (await exists(directory)) return missing;
    missing.push(directory);
    if (path.dirname(directory) === directory) return missing;
  }
}

async function exists(entryPath: string): Promise<boolean> {
  try {
    await lstat(entryPath);
    return true;
  } catch {
    return false;
  }
}

/** Best effort: a directory that is not empty holds something that is not ours. */
async function removeEmptyDirectories(deepestFirst: readonly string[]): Promise<void> {
  for (const directory of deepestFirst) {
    try {
      await rmdir(directory);
    } catch {
      return;
    }
  }
}

function commitFailure(
  step: PlannedStep,
  error: unknown,
  undone: number,
  failures: readonly string[],
): LatheErrorInfo {
  const verb = step.kind === "write" ? "Writing" : "Deleting";
  return errorInfo(
    "E_TOOL_EXECUTION",
    `${verb} ${step.displayPath} failed: ${reasonOf(error)}. ${rollBackOutcome(undone, failures)}`,
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
