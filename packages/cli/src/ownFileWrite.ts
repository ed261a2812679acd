import { atomicWriteFile, keepTrustAcrossOwnWrite } from "@lathe/core";

export type OwnFileWrite =
  | { ok: true; file: string }
  | { ok: false; problem: "failed"; code: "E_STORAGE"; message: string };

/**
 * Writes, atomically, a JSON file of settings the user asked Lathe to change (`lathe config`,
 * `lathe mcp add|remove`). A project file is Lathe's own write for workspace trust, as an
 * "always, this project" rule is: the folder keeps the standing it had.
 */
export async function writeOwnJsonFile(
  file: string,
  value: unknown,
  options: {
    projectFile: boolean;
    places: { latheHome: string; projectRoot: string };
    /** Runs first, inside the same trust-keeping write (e.g. a `.gitignore` beside the file). */
    before?: () => Promise<void>;
  },
): Promise<OwnFileWrite> {
  const write = async () => {
    await options.before?.();
    await atomicWriteFile(file, `${JSON.stringify(value, null, 2)}\n`);
  };
  try {
    if (options.projectFile) await keepTrustAcrossOwnWrite(options.places, write);
    else await write();
  } catch (error) {
    return {
      ok: false,
      problem: "failed",
      code: "E_STORAGE",
      message: `cannot write ${file}: ${String(error)}`,
    };
  }
  return { ok: true, file };
}
