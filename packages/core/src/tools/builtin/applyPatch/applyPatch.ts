import type { Stats } from "node:fs";
import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { noteWrittenFile } from "../../editEngine/index.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { withLintNote } from "../../lintNote.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { commitPatch, diskFileSystem, type PatchFileSystem } from "./patchApplier.js";
import { parsePatch } from "./patchParser.js";
import { formatReport, reportChanges } from "./patchReport.js";
import { type PlannedStep, validatePatch } from "./patchValidator.js";

const applyPatchSchema = builtinToolSchema("apply_patch", () =>
  z.object({
    patch: z.string().min(1).max(5_000_000),
  }),
);

type ApplyPatchArgs = z.infer<typeof applyPatchSchema>;

/** The tool over a given file system; tests pass one whose writes can fail. */
export function createApplyPatchTool(fileSystem: PatchFileSystem) {
  return defineTool({
    name: "apply_patch",
    description: toolPrompt(assetUrl("tools/builtin/applyPatch/applyPatch.md")),
    schema: applyPatchSchema,
    kind: "edit",
    risk: () => "medium",
    timeoutMs: 60_000,
    truncation: "head",
    execute: (args: ApplyPatchArgs, ctx: ToolContext) => applyPatch(args, ctx, fileSystem),
  });
}

export const applyPatchTool = createApplyPatchTool(diskFileSystem);

async function applyPatch(
  args: ApplyPatchArgs,
  ctx: ToolContext,
  fileSystem: PatchFileSystem,
): Promise<ToolResult> {
  const parsed = parsePatch(args.patch);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const validated = await validatePatch(parsed.operations, ctx);
  if (!validated.ok) return { ok: false, error: validated.error };
  const { plan } = validated;
  // Cancelled while checking: nothing is written. Once writing starts it runs to the end, all or nothing.
  if (ctx.signal.aborted)
    return { ok: false, error: errorInfo("E_CANCELLED", "apply_patch was cancelled; no file was changed.") };

  const committed = await commitPatch(plan.steps, fileSystem, ctx.projectRoot);
  if (!committed.ok) return { ok: false, error: committed.error };
  noteWrites(plan.steps, committed.written, ctx);

  const reports = reportChanges(plan.changes);
  const written = reports
    .filter((report) => report.action !== "delete")
    .map((report) => path.join(ctx.projectRoot, report.path));
  const result: ToolResult = {
    ok: true,
    output: formatReport(reports),
    metadata: {
      files: reports.map((report) => ({
        path: report.path,
        action: report.action,
        diff: report.diff,
        from: report.from,
        added: report.added,
        removed: report.removed,
      })),
    },
  };
  return withLintNote(result, ctx, written);
}

/** Files the patch wrote are as the model intended them, so it may edit them again without a read. */
function noteWrites(
  steps: readonly PlannedStep[],
  written: ReadonlyMap<string, Stats>,
  ctx: ToolContext,
): void {
  for (const step of steps) {
    const stats = step.kind === "write" ? written.get(step.path) : undefined;
    if (step.kind !== "write" || stats === undefined) continue;
    noteWrittenFile(ctx.fileReads, step.path, stats, step.contents);
  }
}
