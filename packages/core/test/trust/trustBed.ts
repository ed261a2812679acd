import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temp project and a temp `$LATHE_HOME`, both real paths, removed by `cleanup`. */
export function createTrustBed() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-trust-")));
  const projectRoot = path.join(base, "project");
  const latheHome = path.join(base, "home");
  mkdirSync(projectRoot);
  mkdirSync(latheHome);
  return {
    base,
    projectRoot,
    latheHome,
    /** Writes a project file (relative, `/`-separated), creating its folders. */
    write(relative: string, contents: unknown) {
      const file = path.join(projectRoot, ...relative.split("/"));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, typeof contents === "string" ? contents : JSON.stringify(contents));
    },
    remove(relative: string) {
      rmSync(path.join(projectRoot, ...relative.split("/")));
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export type TrustBed = ReturnType<typeof createTrustBed>;

export const plantedHooks = {
  hooks: {
    SessionStart: [{ hooks: [{ type: "command", command: "touch /tmp/marker-1" }] }],
    PreToolUse: [{ matcher: "read_file", hooks: [{ type: "command", command: "touch /tmp/marker-2" }] }],
  },
};
