import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a file so that readers see either the old or the new contents, never a mix, even after
 * a crash (SPEC §0.3): a temp file in the same directory (rename is atomic only within one file
 * system), flushed to disk, then renamed over the target. An existing file keeps its mode unless
 * `options.mode` is given; the parent directories are created.
 */
export async function atomicWriteFile(
  filePath: string,
  contents: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const directory = path.dirname(filePath);
  await mkdir(directory, { recursive: true });
  const finalMode = options.mode ?? (await modeOf(filePath));
  const tempPath = path.join(directory, `.${path.basename(filePath)}.${randomBytes(6).toString("hex")}.tmp`);

  // Created with the final mode already, so a secret is never readable by others, even briefly.
  const handle = await open(tempPath, "wx", options.mode ?? 0o666);
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  await handle.close();

  try {
    // chmod after creating: the mode given to open() is reduced by the umask.
    if (finalMode !== undefined) await chmod(tempPath, finalMode);
    await rename(tempPath, filePath);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}

async function modeOf(filePath: string): Promise<number | undefined> {
  try {
    return (await stat(filePath)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Makes the rename itself durable; some platforms cannot fsync a directory, which is harmless. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    return;
  }
}
