import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { inProjectDirectory } from "../../../fileSystem/projectDirectory.js";
import { isWithin, resolveProjectPath } from "../../../policy/pathGuard.js";
import type { ToolContext, ToolResult } from "../../tool.js";
import type { ActionOf } from "./actionSchema.js";
import { type ActionEnv, describePage, sessionNotes } from "./pageReport.js";

type Target = { ok: true; path: string; display: string } | { ok: false; error: LatheErrorInfo };

/**
 * Saves a PNG of the page and hands its bytes to the engine in metadata, so a vision model can be
 * shown the image. Screenshots never overwrite a file: an existing `logo.png` is not the model's
 * to replace without a checkpoint.
 */
export async function screenshot(args: ActionOf<"screenshot">, env: ActionEnv): Promise<ToolResult> {
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const target = await screenshotTarget(args.path, env.ctx);
  if (!target.ok) return { ok: false, error: target.error };
  const { page } = session;
  const png = await page.screenshot({
    type: "png",
    fullPage: args.full_page === true,
    timeout: env.settings.actionTimeoutMs,
  });
  // Written through the held directories of whichever root holds it, like every file tool's write.
  const toolOutput = path.join(env.ctx.latheHome, "tool-output");
  const root = isWithin(toolOutput, target.path) ? toolOutput : env.ctx.projectRoot;
  if (root === toolOutput) await mkdir(toolOutput, { recursive: true });
  try {
    const saved = await inProjectDirectory(
      root,
      target.path,
      ({ entry }) => writeFile(entry, png, { flag: "wx" }),
      { createParents: true },
    );
    if (!saved.ok) return saved;
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    const message = `${target.display} already exists; screenshots never overwrite files. Choose another path.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }

  const { width, height } = pngSize(png);
  const inline = png.length <= env.settings.inlineScreenshotMaxBytes;
  const lines = [
    `Saved a ${width}×${height} screenshot of ${await describePage(page)} to ${target.display}.`,
  ];
  if (!inline) {
    lines.push(`It is too large (${png.length} bytes) to be shown inline; take one of the viewport instead.`);
  }
  lines.push(...sessionNotes(session));
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: {
      screenshotPath: target.path,
      mediaType: "image/png",
      bytes: png.length,
      width,
      height,
      base64: inline ? png.toString("base64") : undefined,
    },
  };
}

/** A `.png` path inside the project or Lathe's tool output, or a fresh file in the tool output. */
async function screenshotTarget(requested: string | undefined, ctx: ToolContext): Promise<Target> {
  const toolOutput = path.join(ctx.latheHome, "tool-output");
  if (requested === undefined) {
    const file = path.join(toolOutput, `screenshot-${randomUUID()}.png`);
    return { ok: true, path: file, display: file };
  }
  if (path.extname(requested).toLowerCase() !== ".png") {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `Screenshots are PNG files: ${requested} must end in .png.`),
    };
  }
  const guarded = await resolveProjectPath(ctx.projectRoot, requested, { extraRoots: [toolOutput] });
  if (!guarded.ok) return guarded;
  return { ok: true, path: guarded.path, display: guarded.relative };
}

/** Width and height from the IHDR chunk, which a PNG always has first (bytes 16–23, big-endian). */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
