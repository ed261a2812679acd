import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { chmod, lstat, mkdir, open, rename, stat, unlink } from "node:fs/promises";
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
  await replaceThroughTemp(directory, path.basename(filePath), contents, finalMode);
}

/**
 * The same atomic replacement for an entry of a directory that exists, which never looks through
 * a symbolic link: the mode kept is that of a regular file at the entry, and a link there is
 * replaced by the file, not followed. `entryPath` may name the directory through an open handle
 * (`/proc/self/fd/N/name`), so the write lands in the directory that handle holds.
 */
export async function atomicReplaceEntry(
  entryPath: string,
  contents: string | Uint8Array,
  options: { beforeRename?: () => Promise<void> } = {},
): Promise<void> {
  const existing = await lstatIfExists(entryPath);
  const finalMode = existing?.isFile() === true ? existing.mode & 0o7777 : undefined;
  await replaceThroughTemp(
    path.dirname(entryPath),
    path.basename(entryPath),
    contents,
    finalMode,
    options.beforeRename,
  );
}

async function replaceThroughTemp(
  directory: string,
  name: string,
  contents: string | Uint8Array,
  finalMode: number | undefined,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  const tempPath = path.join(directory, `.${name}.${randomBytes(6).toString("hex")}.tmp`);

  // Created with the final mode already, so a secret is never readable by others, even briefly.
  // "wx" is O_CREAT|O_EXCL, which also refuses a symbolic link planted at the temp name.
  const handle = await open(tempPath, "wx", finalMode ?? 0o666);
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
    await beforeRename?.();
    await rename(tempPath, path.join(directory, name));
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

async function lstatIfExists(entryPath: string): Promise<Stats | undefined> {
  try {
    return await lstat(entryPath);
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
