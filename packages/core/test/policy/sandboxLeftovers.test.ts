import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { createSandboxTestBed, type SandboxTestBed } from "./sandboxTestBed.js";

// Real bubblewrap, real processes, harmless writes in a temp project.
const detection = await probeSandbox();
const unavailable = !detection.available;
if (unavailable) console.warn(`sandbox tests skipped: ${detection.reason}`);

let bed: SandboxTestBed;
beforeEach(() => {
  bed = createSandboxTestBed();
});
afterEach(() => bed.cleanup());

const at = (relative: string) => path.join(bed.projectRoot, relative);

async function run(command: string, background = false): Promise<{ output: string; exitCode: unknown }> {
  const result: ToolResult = await runTerminalCmdTool.execute(
    { command, is_background: background },
    bed.context({ detection }),
  );
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return { output: result.output, exitCode: result.metadata?.exitCode };
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await delay(20);
  }
}

const removedNote = (names: string) =>
  `[sandbox] Removed ${names} after the command ended: it did not exist before the command, ` +
  "and git run outside the sandbox would follow it to another repository's configuration, " +
  "which can run hooks and fsmonitor programs on the user's machine. Do not create it again.";

describe.skipIf(unavailable)("what the sandbox leaves in the project (real bwrap)", () => {
  it("removes the empty stand-ins for a missing .lathe and .cursor, which held during the command", async () => {
    const result = await run(
      "ls -d .lathe .cursor && " +
        "(echo planted > .lathe/hooks.json) 2>/dev/null; echo lathe=$?; " +
        "(echo planted > .cursor/mcp.json) 2>/dev/null; echo cursor=$?",
    );
    expect(result.output).toBe("Exit code: 0\n--- stdout ---\n.cursor\n.lathe\nlathe=1\ncursor=1");
    expect(existsSync(at(".lathe"))).toBe(false);
    expect(existsSync(at(".cursor"))).toBe(false);
    expect(readdirSync(bed.projectRoot)).toEqual([]);
  });

  it("removes git's stand-ins too, and leaves the directories that were there before", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    mkdirSync(at(".lathe"));
    const before = readdirSync(at(".git")).sort();
    expect(before).not.toContain("worktrees");
    const result = await run("(mkdir -p .git/worktrees/x) 2>/dev/null; echo $?");
    expect(result.output).toBe("Exit code: 0\n--- stdout ---\n1");
    expect(readdirSync(at(".git")).sort()).toEqual(before);
    expect(readdirSync(at(".lathe"))).toEqual([]);
  });

  it("keeps a stand-in while another sandboxed command still has it mounted", async () => {
    // A background command started first: its .lathe is the stand-in. A foreground command that
    // ends meanwhile must not remove it, or the background one's protection would come undone.
    const started = await run(
      "while [ ! -e go ]; do sleep 0.02; done; " +
        "(mkdir -p .lathe && echo planted > .lathe/hooks.json) 2>/dev/null; echo $? > status",
      true,
    );
    expect(started.output).toContain("Started in the background");
    expect((await run("ls -d .lathe")).output).toBe("Exit code: 0\n--- stdout ---\n.lathe");
    expect(existsSync(at(".lathe"))).toBe(true);

    writeFileSync(at("go"), "");
    await waitFor(() => existsSync(at("status")) && !existsSync(at(".lathe")));
    expect(readFileSync(at("status"), "utf8")).toBe("1\n");
    expect(readdirSync(bed.projectRoot).sort()).toEqual(["go", "status"]);
  });

  it("keeps a stand-in that is no longer empty", async () => {
    // Lathe itself writes plans under .lathe outside the sandbox while a command may run.
    await run(
      "while [ ! -e go ]; do sleep 0.02; done; (echo planted > .lathe/plans/x.md) 2>/dev/null; echo $? > status",
      true,
    );
    await waitFor(() => existsSync(at(".lathe")));
    // The host sees the bare mount point and may write into it.
    mkdirSync(at(".lathe/plans"));
    writeFileSync(at(".lathe/plans/plan.md"), "the plan\n");
    writeFileSync(at("go"), "");
    await waitFor(() => existsSync(at("status")));
    await delay(200);
    expect(readFileSync(at("status"), "utf8")).toBe("1\n");
    expect(readdirSync(at(".lathe/plans"))).toEqual(["plan.md"]);
  });

  it("removes a commondir the command planted, and tells the model why", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    const result = await run("echo ../other/.git > .git/commondir && echo planted");
    expect(result.exitCode).toBe(0);
    expect(existsSync(at(".git/commondir"))).toBe(false);
    expect(result.output).toBe(`Exit code: 0\n--- stdout ---\nplanted\n${removedNote(".git/commondir")}`);
    // Git on the host still works in the repository.
    expect(execFileSync("git", ["-C", bed.projectRoot, "status", "--short"], { encoding: "utf8" })).toBe("");
  });

  it("removes a planted config.worktree and a submodule's commondir alike", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    const moduleDir = at(".git/modules/lib");
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(path.join(moduleDir, "HEAD"), "ref: refs/heads/main\n");
    const result = await run(
      "echo '[core]' > .git/config.worktree && echo /elsewhere > .git/modules/lib/commondir",
    );
    expect(result.output).toBe(
      `Exit code: 0\n(no output)\n${removedNote(".git/config.worktree, .git/modules/lib/commondir")}`,
    );
    expect(existsSync(at(".git/config.worktree"))).toBe(false);
    expect(readdirSync(moduleDir)).toEqual(["HEAD"]);
  });

  it("removes a .git file that a command wrote in a project without a repository", async () => {
    const result = await run("echo 'gitdir: /elsewhere/.git' > .git");
    expect(result.output).toBe(`Exit code: 0\n(no output)\n${removedNote(".git")}`);
    expect(existsSync(at(".git"))).toBe(false);
  });

  it("leaves a repository the command created, and files that were there before", async () => {
    const created = await run("git init -q . && echo made");
    expect(created.output).toBe("Exit code: 0\n--- stdout ---\nmade");
    expect(existsSync(at(".git/HEAD"))).toBe(true);

    writeFileSync(at(".git/commondir"), ".\n");
    const untouched = await run("cat .git/commondir");
    expect(untouched.output).toBe("Exit code: 0\n--- stdout ---\n.");
    expect(readFileSync(at(".git/commondir"), "utf8")).toBe(".\n");
  });

  it("tells the model in a background command's output", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    const started = await run("sleep 0.3; echo ../other/.git > .git/commondir", true);
    const id = /as (t\d+)/.exec(started.output)?.[1] ?? "";
    expect(await bed.terminals.waitForEnd(id, 10_000)).toBe(true);
    await waitFor(() => !existsSync(at(".git/commondir")));
    expect(bed.terminals.read(id, { sinceLast: false })?.stderr.text).toBe(
      `\n${removedNote(".git/commondir")}\n`,
    );
  });
});
