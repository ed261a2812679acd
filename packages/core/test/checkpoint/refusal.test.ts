import { existsSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openShadowRepository } from "../../src/checkpoint/index.js";
import { type CheckpointTestBed, createCheckpointTestBed } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

describe("refused work trees", () => {
  it("refuses the filesystem root", async () => {
    const opened = await openShadowRepository({
      latheHome: bed.latheHome,
      projectRoot: "/",
      homeDir: bed.homeDir,
    });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error.code).toBe("E_SECURITY_BLOCKED");
    expect(opened.error.message).toMatch(/^Checkpoints are off: .*filesystem root/);
    expect(existsSync(path.join(bed.latheHome, "checkpoints"))).toBe(false);
  });

  it("refuses the home directory, also when reached through a symlink", async () => {
    const link = path.join(bed.projectRoot, "home-link");
    symlinkSync(bed.homeDir, link);
    for (const projectRoot of [bed.homeDir, `${bed.homeDir}/`, link]) {
      const opened = await openShadowRepository({
        latheHome: bed.latheHome,
        projectRoot,
        homeDir: bed.homeDir,
      });
      expect(opened.ok ? undefined : opened.error.code).toBe("E_SECURITY_BLOCKED");
      expect(opened.ok ? "" : opened.error.message).toMatch(/^Checkpoints are off: .*home directory/);
    }
    const belowHome = await openShadowRepository({
      latheHome: bed.latheHome,
      projectRoot: bed.projectRoot,
      homeDir: path.dirname(bed.projectRoot),
    });
    expect(belowHome.ok).toBe(true);
  });

  it("refuses a relative or missing project root as invalid arguments", async () => {
    for (const projectRoot of ["relative/dir", path.join(bed.projectRoot, "missing")]) {
      const opened = await openShadowRepository({
        latheHome: bed.latheHome,
        projectRoot,
        homeDir: bed.homeDir,
      });
      expect(opened.ok ? undefined : opened.error.code).toBe("E_INVALID_ARGS");
    }
  });
});
