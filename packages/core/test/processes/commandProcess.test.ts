import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import type { SandboxLaunch } from "../../src/policy/sandbox/sandboxTypes.js";
import { type CommandProcess, spawnCommandProcess } from "../../src/processes/commandProcess.js";
import { createSandboxTestBed, type SandboxTestBed } from "../policy/sandboxTestBed.js";

const detection = await probeSandbox();
const unavailable = !detection.available;
if (unavailable) console.warn(`sandbox tests skipped: ${detection.reason}`);

let bed: SandboxTestBed;
beforeEach(() => {
  bed = createSandboxTestBed();
});
afterEach(() => bed.cleanup());

function launch(): SandboxLaunch {
  return {
    bwrapPath: detection.bwrapPath ?? "",
    projectRoot: bed.projectRoot,
    tempDir: bed.sessionTmp,
    network: false,
  };
}

function finished(child: CommandProcess): Promise<{ code: number | null; stdout: string; note?: string }> {
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.resume();
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, note: child.sandboxNote })),
  );
}

// Words a shell would run; handed over as an argv, they stay words.
const shellLike = ["$(touch injected)", "`touch injected`", "a b; touch injected"];

describe.skipIf(unavailable)("spawnCommandProcess (real bwrap)", () => {
  it("hands the argv to the program inside the sandbox without a shell reading it", async () => {
    const child = spawnCommandProcess(["/bin/echo", ...shellLike], bed.projectRoot, launch(), {
      PATH: "/usr/bin:/bin",
    });
    expect(await finished(child)).toEqual({ code: 0, stdout: `${shellLike.join(" ")}\n`, note: undefined });
    expect(existsSync(path.join(bed.projectRoot, "injected"))).toBe(false);
    // Nothing left behind either: the stand-ins bwrap made for .lathe and .cursor are gone.
    expect(readdirSync(bed.projectRoot)).toEqual([]);
  });

  it("gives the program exactly the environment it is handed, inside the sandbox or not", async () => {
    const environment = { PATH: "/usr/bin:/bin", ONLY_THIS: "yes" };
    for (const sandbox of [launch(), undefined]) {
      const child = spawnCommandProcess(["/usr/bin/env"], bed.projectRoot, sandbox, environment);
      const { stdout } = await finished(child);
      const names = stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.slice(0, line.indexOf("=")));
      // bwrap adds TMPDIR, pointing at the sandbox's private /tmp, and PWD.
      const added = sandbox === undefined ? [] : ["PWD", "TMPDIR"];
      expect(names.sort()).toEqual(["ONLY_THIS", "PATH", ...added]);
    }
  });

  it("cannot write outside the project", async () => {
    const target = path.join(bed.outside, "escaped");
    const child = spawnCommandProcess(["/usr/bin/touch", target], bed.projectRoot, launch(), {
      PATH: "/usr/bin:/bin",
    });
    expect((await finished(child)).code).not.toBe(0);
    expect(existsSync(target)).toBe(false);
  });
});
