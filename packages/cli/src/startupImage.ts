import { fileURLToPath } from "node:url";

/** Whether this process started from the start-up snapshot (scripts/build-snapshot.mjs). */
export function startedFromImage(): boolean {
  return process.execArgv.includes("--snapshot-blob");
}

/**
 * Becomes `lathe` started without the start-up image: the same pid, stdio and arguments. The image
 * cannot load what the terminal UI needs (Ink loads with a top-level await, which only a real
 * module loader runs), so the interactive face starts from the modules themselves. bin/lathe.js
 * reads LATHE_SKIP_IMAGE and removes it, so nothing Lathe starts inherits it.
 */
export function restartWithoutImage(argv: readonly string[]): never {
  const launcher = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));
  const flags = process.execArgv.filter(
    (flag, index, all) =>
      flag !== "--snapshot-blob" && all[index - 1] !== "--snapshot-blob" && flag !== "--no-rehash-snapshot",
  );
  process.execve?.(process.execPath, [process.execPath, ...flags, launcher, ...argv], {
    ...process.env,
    LATHE_SKIP_IMAGE: "1",
  });
  throw new Error("this Node cannot replace its process (process.execve)");
}
