import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { removeProjectFile } from "../../../fileSystem/projectFiles.js";
import { removeProjectTree } from "../../../fileSystem/projectTreeRemoval.js";
import { resolveDeletionTarget } from "../../editEngine/index.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { measureTree, type TreeSize } from "./treeSize.js";

const deleteFileSchema = builtinToolSchema("delete_file", () =>
  z.object({
    path: z.string().min(1),
    recursive: z.boolean().optional().describe("Required for a directory."),
  }),
);

type DeleteFileArgs = z.infer<typeof deleteFileSchema>;

export const deleteFileTool = defineTool({
  name: "delete_file",
  description: toolPrompt(assetUrl("tools/builtin/deleteFile/deleteFile.md")),
  schema: deleteFileSchema,
  kind: "delete",
  risk: () => "high",
  timeoutMs: 60_000,
  truncation: "head",
  execute: deleteFile,
});

async function deleteFile(args: DeleteFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const target = await resolveDeletionTarget(ctx.projectRoot, args.path);
  if (!target.ok) return { ok: false, error: target.error };
  const { path: absPath, relative: displayPath, stats } = target;

  if (stats.isSymbolicLink()) {
    const removed = await removeProjectFile(ctx.projectRoot, absPath);
    if (!removed.ok) return { ok: false, error: removed.error };
    return {
      ok: true,
      output: `Deleted the symbolic link ${displayPath}; what it pointed to was left alone.`,
      metadata: { path: displayPath, kind: "symlink", files: 1, directories: 0, bytes: 0 },
    };
  }
  if (!stats.isDirectory()) {
    const removed = await removeProjectFile(ctx.projectRoot, absPath);
    if (!removed.ok) return { ok: false, error: removed.error };
    return {
      ok: true,
      output: `Deleted ${displayPath} (${formatBytes(stats.size)}).`,
      metadata: { path: displayPath, kind: "file", files: 1, directories: 0, bytes: stats.size },
    };
  }

  let size: TreeSize;
  try {
    size = await measureTree(absPath, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted)
      return { ok: false, error: errorInfo("E_CANCELLED", "delete_file was cancelled.") };
    throw error;
  }
  if (args.recursive !== true) {
    const message = `${displayPath} is a directory (${describeContents(size)}). Pass recursive: true to delete it and everything in it.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const removed = await removeProjectTree(ctx.projectRoot, absPath);
  if (!removed.ok) return { ok: false, error: removed.error };
  return {
    ok: true,
    output: `Deleted the directory ${displayPath} (${describeContents(size)}).`,
    metadata: { path: displayPath, kind: "directory", ...size },
  };
}

function describeContents(size: TreeSize): string {
  if (size.files === 0 && size.directories === 0) return "empty";
  const files = `${size.files.toLocaleString("en-US")} ${size.files === 1 ? "file" : "files"}`;
  const directories =
    size.directories === 0
      ? ""
      : ` in ${size.directories.toLocaleString("en-US")} ${size.directories === 1 ? "subdirectory" : "subdirectories"}`;
  return `${files}${directories}, ${formatBytes(size.bytes)}`;
}

function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString("en-US")} ${bytes === 1 ? "byte" : "bytes"}`;
}
