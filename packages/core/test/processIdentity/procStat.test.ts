import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProcStat } from "../../src/processIdentity/procStat.js";

describe.skipIf(process.platform !== "linux")("readProcStat", () => {
  it("reads a process whose command name holds spaces and parentheses, then nothing once it is gone", async () => {
    // A copy of sleep named so that the command name field, "(x) y (z)", looks like several fields.
    const sleep = join(mkdtempSync(join(tmpdir(), "lathe-procstat-")), "x) y (z");
    copyFileSync("/bin/sleep", sleep);
    chmodSync(sleep, 0o755);
    const child = spawn(sleep, ["30"], { detached: true, stdio: "ignore" });
    const pid = child.pid as number;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const own = readProcStat(process.pid);
    const stat = readProcStat(pid);
    expect(stat).toMatchObject({ state: "S", ppid: process.pid, pgid: pid });
    expect(stat?.startTicks).toBeGreaterThanOrEqual(own?.startTicks ?? Number.POSITIVE_INFINITY);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readProcStat(pid)).toBeUndefined();
  });
});
