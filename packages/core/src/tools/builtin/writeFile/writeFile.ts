import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";

import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { noteWrittenFile } from "../../editEngine/index.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { withLintNote } from "../../lintNote.js";
import { writeProjectText } from "../../projectTextWrite.js";
import { staleFileError } from "../../staleFileCheck.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const writeFileSchema = builtinToolSchema("write_file", () =>
  z.object({
    path: z.string().min(1),
    contents: z.string(),
  }),
);

type WriteFileArgs = z.infer<typeof writeFileSchema>;

export const writeFileTool = defineTool({
  name: "write_file",
  description: toolPrompt(assetUrl("tools/builtin/writeFile/writeFile.md")),
  schema: writeFileSchema,
  kind: "edit",
  risk: () => "medium",
  timeoutMs: 60_000,
  truncation: "head",
  execute: writeFile,
});

async function writeFile(args: WriteFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const guarded = await resolveProjectPath(ctx.projectRoot, args.path);
  if (!guarded.ok) return { ok: false, error: guarded.error };
  const { path: absPath, relative: displayPath } = guarded;

  const existing = await statIfExists(absPath);
  if (existing?.isDirectory()) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `${displayPath} is a directory; give a file path.`),
    };
  }
  const bytes = Buffer.from(args.contents, "utf8");
  let unchanged = false;
  if (existing !== undefined) {
    const stale = await staleFileError(ctx.fileReads, absPath, displayPath, "write");
    if (stale !== undefined) return { ok: false, error: stale };
    unchanged = (await readFile(absPath)).equals(bytes);
  }

  // Rewriting identical bytes would only wake file watchers and build tools.
  let written: Stats;
  if (unchanged) {
    written = await stat(absPath);
  } else {
    const saved = await writeProjectText(ctx, absPath, args.contents);
    if (!saved.ok) return { ok: false, error: saved.error };
    written = saved.value;
  }
  noteWrittenFile(ctx.fileReads, absPath, written, bytes);

  const lines = countLines(args.contents);
  const lineText = `${lines} ${lines === 1 ? "line" : "lines"}`;
  const action = existing === undefined ? "Created" : "Overwrote";
  const note = unchanged ? "; the contents were already identical" : "";
  const result: ToolResult = {
    ok: true,
    output: `${action} ${displayPath} (${lineText}, ${bytes.length} bytes${note}).`,
    metadata: { path: displayPath, created: existing === undefined, lines, bytes: bytes.length },
  };
  return withLintNote(result, ctx, [absPath]);
}

/** Lines as an editor counts them: a final newline ends the last line rather than adding one. */
function countLines(contents: string): number {
  if (contents === "") return 0;
  const newlines = contents.split("\n").length - 1;
  return contents.endsWith("\n") ? newlines : newlines + 1;
}
