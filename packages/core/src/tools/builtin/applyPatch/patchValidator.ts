import { readlink } from "node:fs/promises";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { resolveDeletionTarget } from "../../editEngine/index.js";
import { staleFileError } from "../../staleFileCheck.js";
import type { ToolContext } from "../../tool.js";
import { applyHunks } from "./hunkApplication.js";
import type { PatchOperation } from "./patchParser.js";
import { placeholderError } from "./patchPlaceholders.js";
import { readTextFile } from "./textFile.js";
import { joinLines, splitLines } from "./textLines.js";

/** What was on disk before the patch, so a failed patch can put it back. */
export type OriginalEntry =
  | { type: "file"; bytes: Buffer; mode: number }
  | { type: "symlink"; target: string };

export type PlannedStep =
  | {
      kind: "write";
      path: string;
      displayPath: string;
      contents: Buffer;
      original: OriginalEntry | undefined;
    }
  | { kind: "remove"; path: string; displayPath: string; original: OriginalEntry };

export type FileAction = "add" | "update" | "delete" | "move";

export interface PlannedFileChange {
  action: FileAction;
  /** Relative to the project root; for a move, the new path. */
  path: string;
  /** For a move, the old path. */
  from?: string;
  before: string;
  after: string;
}

/** Every write and removal the patch needs, decided before any is made. */
export interface PatchPlan {
  steps: PlannedStep[];
  changes: PlannedFileChange[];
}

export type ValidatedPatch = { ok: true; plan: PatchPlan } | { ok: false; error: LatheErrorInfo };

type PlanContext = Pick<ToolContext, "projectRoot" | "fileReads">;

/**
 * Checks every operation of a parsed patch against the project before anything is written: paths
 * guarded, files to change or delete present and text, files to add absent, updated files read and
 * unchanged since, every hunk found exactly once. The result holds the complete new contents.
 */
export async function validatePatch(
  operations: readonly PatchOperation[],
  ctx: PlanContext,
): Promise<ValidatedPatch> {
  const plan: PatchPlan = { steps: [], changes: [] };
  const claimed = new Map<string, number>();
  // One section per file: a second one would be planned against contents the first already changed.
  const claim = (absPath: string, displayPath: string, patchLine: number): LatheErrorInfo | undefined => {
    const earlier = claimed.get(absPath);
    if (earlier !== undefined) {
      const message = `${displayPath} appears in the patch twice (lines ${earlier} and ${patchLine}); put all its changes in one section.`;
      return errorInfo("E_INVALID_ARGS", message);
    }
    claimed.set(absPath, patchLine);
    return undefined;
  };

  for (const operation of operations) {
    const planned = await planOperation(operation, ctx, claim);
    if (!planned.ok) return { ok: false, error: atPatchLine(planned.error, operation.patchLine) };
    plan.steps.push(...planned.steps);
    plan.changes.push(planned.change);
  }
  return { ok: true, plan };
}

type Claim = (absPath: string, displayPath: string, patchLine: number) => LatheErrorInfo | undefined;

type PlannedOperation =
  | { ok: true; steps: PlannedStep[]; change: PlannedFileChange }
  | { ok: false; error: LatheErrorInfo };

function planOperation(operation: PatchOperation, ctx: PlanContext, claim: Claim): Promise<PlannedOperation> {
  switch (operation.type) {
    case "add":
      return planAdd(operation, ctx, claim);
    case "delete":
      return planDelete(operation, ctx, claim);
    case "update":
      return planUpdate(operation, ctx, claim);
  }
}

async function planAdd(
  operation: Extract<PatchOperation, { type: "add" }>,
  ctx: PlanContext,
  claim: Claim,
): Promise<PlannedOperation> {
  const target = await resolveProjectPath(ctx.projectRoot, operation.path);
  if (!target.ok) return target;
  if ((await statIfExists(target.path)) !== undefined) {
    const message = `${target.relative} already exists. Use '*** Update File: ${operation.path}' to change it.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const claimError = claim(target.path, target.relative, operation.patchLine);
  if (claimError !== undefined) return { ok: false, error: claimError };
  const contents = operation.lines.length === 0 ? "" : `${operation.lines.join("\n")}\n`;
  return {
    ok: true,
    steps: [
      {
        kind: "write",
        path: target.path,
        displayPath: target.relative,
        contents: Buffer.from(contents, "utf8"),
        original: undefined,
      },
    ],
    change: { action: "add", path: target.relative, before: "", after: contents },
  };
}

async function planDelete(
  operation: Extract<PatchOperation, { type: "delete" }>,
  ctx: PlanContext,
  claim: Claim,
): Promise<PlannedOperation> {
  const removal = await planRemoval(operation.path, ctx);
  if (!removal.ok) return removal;
  const claimError = claim(removal.step.path, removal.step.displayPath, operation.patchLine);
  if (claimError !== undefined) return { ok: false, error: claimError };
  return {
    ok: true,
    steps: [removal.step],
    change: { action: "delete", path: removal.step.displayPath, before: removal.text, after: "" },
  };
}

async function planUpdate(
  operation: Extract<PatchOperation, { type: "update" }>,
  ctx: PlanContext,
  claim: Claim,
): Promise<PlannedOperation> {
  const source = await resolveProjectPath(ctx.projectRoot, operation.path);
  if (!source.ok) return source;
  const file = await readTextFile(source.path, source.relative);
  if (!file.ok) return file;
  // A pure rename carries the bytes over as they are, so only a patch that edits needs a fresh read.
  if (operation.hunks.length > 0) {
    const stale = await staleFileError(ctx.fileReads, source.path, source.relative, "patch");
    if (stale !== undefined) return { ok: false, error: stale };
  }

  const placeholder = placeholderError(file.text, operation.hunks, source.relative);
  if (placeholder !== undefined) return { ok: false, error: placeholder };
  const document = splitLines(file.text);
  const applied = applyHunks(document.lines, operation.hunks, source.relative);
  if (!applied.ok) return applied;
  const after = joinLines({ ...document, lines: applied.lines });
  const contents = Buffer.from(after, "utf8");

  const destination =
    operation.moveTo === undefined ? undefined : await resolveProjectPath(ctx.projectRoot, operation.moveTo);
  if (destination !== undefined && !destination.ok) return destination;
  if (destination === undefined || destination.path === source.path) {
    const claimError = claim(source.path, source.relative, operation.patchLine);
    if (claimError !== undefined) return { ok: false, error: claimError };
    // Rewriting identical bytes would only wake file watchers and build tools.
    const steps: PlannedStep[] = contents.equals(file.bytes)
      ? []
      : [
          {
            kind: "write",
            path: source.path,
            displayPath: source.relative,
            contents,
            original: { type: "file", bytes: file.bytes, mode: file.mode },
          },
        ];
    return { ok: true, steps, change: { action: "update", path: source.relative, before: file.text, after } };
  }

  if ((await statIfExists(destination.path)) !== undefined) {
    const message = `Cannot move ${source.relative} to ${destination.relative}: ${destination.relative} already exists.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const removal = await planRemoval(operation.path, ctx);
  if (!removal.ok) return removal;
  const claimError =
    claim(removal.step.path, removal.step.displayPath, operation.patchLine) ??
    claim(destination.path, destination.relative, operation.patchLine);
  if (claimError !== undefined) return { ok: false, error: claimError };
  return {
    ok: true,
    steps: [
      {
        kind: "write",
        path: destination.path,
        displayPath: destination.relative,
        contents,
        original: undefined,
      },
      removal.step,
    ],
    change: { action: "move", path: destination.relative, from: source.relative, before: file.text, after },
  };
}

type PlannedRemoval =
  | { ok: true; step: Extract<PlannedStep, { kind: "remove" }>; text: string }
  | { ok: false; error: LatheErrorInfo };

/** Removing a symbolic link removes the link; a file must be text, like any file a patch touches. */
async function planRemoval(input: string, ctx: PlanContext): Promise<PlannedRemoval> {
  const target = await resolveDeletionTarget(ctx.projectRoot, input);
  if (!target.ok) return target;
  const { path, relative: displayPath, stats } = target;
  if (stats.isSymbolicLink()) {
    const original: OriginalEntry = { type: "symlink", target: await readlink(path) };
    return { ok: true, step: { kind: "remove", path, displayPath, original }, text: "" };
  }
  if (stats.isDirectory()) {
    const message = `${displayPath} is a directory; apply_patch deletes files only. Use delete_file with recursive to delete a directory.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const file = await readTextFile(path, displayPath);
  if (!file.ok) return file;
  const original: OriginalEntry = { type: "file", bytes: file.bytes, mode: file.mode };
  return { ok: true, step: { kind: "remove", path, displayPath, original }, text: file.text };
}

function atPatchLine(error: LatheErrorInfo, patchLine: number): LatheErrorInfo {
  return { ...error, message: `Patch line ${patchLine}: ${error.message}` };
}
