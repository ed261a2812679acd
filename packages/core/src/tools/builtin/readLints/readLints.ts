import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { checkerPlacement } from "../../lints/checkerPlacement.js";
import { formatLintRun } from "../../lints/formatDiagnostics.js";
import { type LintScope, runProjectLints } from "../../lints/projectLints.js";
import { missingFileMessage } from "../../missingFile.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

/** A type-check of a large project takes a while; a hung checker must not hold the run. */
const lintTimeoutMs = 120_000;

const readLintsSchema = builtinToolSchema("read_lints", () =>
  z.object({
    paths: z.array(z.string().min(1)).optional(),
  }),
);

type ReadLintsArgs = z.infer<typeof readLintsSchema>;

export const readLintsTool = defineTool({
  name: "read_lints",
  description: toolPrompt(assetUrl("tools/builtin/readLints/readLints.md")),
  schema: readLintsSchema,
  kind: "read",
  risk: () => "safe",
  // Above the checkers' own limit, which kills them and reports which timed out.
  timeoutMs: lintTimeoutMs + 10_000,
  truncation: "head",
  execute: readLints,
});

async function readLints(args: ReadLintsArgs, ctx: ToolContext): Promise<ToolResult> {
  const scope = await resolveScope(args.paths, ctx.projectRoot);
  if (!scope.ok) return { ok: false, error: scope.error };
  const place = checkerPlacement(ctx.sandbox, ctx);
  if (!place.ok) return { ok: false, error: place.error };
  const run = await runProjectLints(ctx.projectRoot, {
    ...scope.scope,
    ...place.placement,
    signal: ctx.signal,
    timeoutMs: lintTimeoutMs,
  });
  // What a full check found becomes the baseline the next edit's check is compared with.
  ctx.lints?.recordRun(run, [...new Set(run.diagnostics.map((diagnostic) => diagnostic.file))]);
  const output = formatLintRun(run, lintTimeoutMs);
  if (run.cancelled)
    return { ok: false, error: errorInfo("E_CANCELLED", "read_lints was cancelled."), output };
  return {
    ok: true,
    output,
    metadata: {
      checkers: run.ran,
      diagnostics: run.diagnostics.length,
      failed: run.failed.map((f) => f.checker),
    },
  };
}

/** Every path through the project guard; files and directories apart, as checkers take them. */
async function resolveScope(
  paths: readonly string[] | undefined,
  projectRoot: string,
): Promise<{ ok: true; scope: LintScope } | { ok: false; error: LatheErrorInfo }> {
  if (paths === undefined || paths.length === 0) return { ok: true, scope: {} };
  const files: string[] = [];
  const directories: string[] = [];
  for (const requested of paths) {
    const guarded = await resolveProjectPath(projectRoot, requested);
    if (!guarded.ok) return guarded;
    const stats = await statIfExists(guarded.path);
    if (stats === undefined) {
      const message = await missingFileMessage(guarded.path, guarded.relative);
      return { ok: false, error: errorInfo("E_FILE_NOT_FOUND", message) };
    }
    const relative = guarded.relative.split("\\").join("/");
    if (stats.isDirectory()) directories.push(relative);
    else files.push(relative);
  }
  return { ok: true, scope: { files, directories } };
}
