import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import { createSandboxTestBed, type SandboxTestBed } from "./sandboxTestBed.js";

// Real bubblewrap, real processes, harmless writes (`echo text > file`) in a temp project.
const detection = await probeSandbox();
const unavailable = !detection.available;
if (unavailable) console.warn(`sandbox tests skipped: ${detection.reason}`);

let bed: SandboxTestBed;
let home: string;
const realHome = process.env.HOME;
beforeAll(() => {
  // The commands inherit this environment: a throwaway HOME, so nothing could reach the real one.
  home = mkdtempSync(path.join(tmpdir(), "lathe-sandbox-home-"));
  process.env.HOME = home;
});
afterAll(() => {
  process.env.HOME = realHome;
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  bed = createSandboxTestBed();
});
afterEach(() => bed.cleanup());

async function exitCodeOf(command: string): Promise<unknown> {
  const result = await runTerminalCmdTool.execute({ command }, bed.context({ detection }));
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.metadata?.exitCode;
}

/** Runs each attempt in its own sandboxed command and expects every one to fail. */
async function expectAllFail(attempts: readonly string[]): Promise<void> {
  for (const attempt of attempts) expect(await exitCodeOf(attempt), attempt).not.toBe(0);
}

const at = (relative: string) => path.join(bed.projectRoot, relative);
const read = (relative: string) => readFileSync(at(relative), "utf8");

describe.skipIf(unavailable)("protected project files in the sandbox (real bwrap)", () => {
  it("cannot change .lathe when it exists, nor add hooks, MCP servers or agents beside its files", async () => {
    mkdirSync(at(".lathe"));
    writeFileSync(at(".lathe/settings.json"), '{"permissions":{"allow":[]}}\n');
    await expectAllFail([
      "echo changed > .lathe/settings.json",
      "echo planted > .lathe/settings.local.json",
      "echo planted > .lathe/hooks.json",
      "echo planted > .lathe/mcp.json",
      "mkdir -p .lathe/agents && echo planted > .lathe/agents/a.md",
      "rm -f .lathe/settings.json",
      "mv .lathe .lathe-old",
      "rm -rf .lathe",
    ]);
    expect(read(".lathe/settings.json")).toBe('{"permissions":{"allow":[]}}\n');
    expect(readdirSync(at(".lathe"))).toEqual(["settings.json"]);
    expect(existsSync(at(".lathe-old"))).toBe(false);
  });

  it("cannot create .lathe/hooks.json in a project without .lathe", async () => {
    await expectAllFail([
      "mkdir -p .lathe && echo planted > .lathe/hooks.json",
      "echo planted > .lathe/hooks.json",
      "rmdir .lathe; mkdir .lathe && echo planted > .lathe/hooks.json",
      "mkdir -p staged && echo planted > staged/hooks.json && mv staged .lathe",
    ]);
    // Nothing got into the stand-in, and the empty directory bwrap made for it is gone again.
    expect(existsSync(at(".lathe"))).toBe(false);
  });

  it("cannot change .git/config or hooks, plant a commondir or info, or rewrite a .git file", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    writeFileSync(at(".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const config = read(".git/config");
    await expectAllFail([
      "echo planted >> .git/config",
      "echo planted > .git/hooks/pre-commit",
      "echo planted > .git/info/attributes",
      "mkdir -p .git/worktrees/x && echo planted > .git/worktrees/x/commondir",
    ]);
    expect(read(".git/config")).toBe(config);
    expect(read(".git/hooks/pre-commit")).toBe("#!/bin/sh\nexit 0\n");
    expect(existsSync(at(".git/info/attributes"))).toBe(false);
    expect(existsSync(at(".git/worktrees"))).toBe(false);

    // An existing commondir stays as it was.
    writeFileSync(at(".git/commondir"), ".\n");
    await expectAllFail(["echo ../other > .git/commondir"]);
    expect(read(".git/commondir")).toBe(".\n");

    // Ordinary git work still runs.
    rmSync(at(".git/commondir"));
    expect(await exitCodeOf("echo hi > a.txt && git add a.txt && git status --short")).toBe(0);
  });

  it("cannot rewrite a .git file that says where the repository is", async () => {
    writeFileSync(at(".git"), "gitdir: ../elsewhere\n");
    await expectAllFail(["echo 'gitdir: /tmp/hostile' > .git", "rm -f .git"]);
    expect(read(".git")).toBe("gitdir: ../elsewhere\n");
  });

  it("cannot write .cursor/mcp.json, whether .cursor exists or not", async () => {
    await expectAllFail(["mkdir -p .cursor && echo planted > .cursor/mcp.json"]);
    expect(existsSync(at(".cursor"))).toBe(false);
    mkdirSync(at(".cursor/rules"), { recursive: true });
    writeFileSync(at(".cursor/mcp.json"), '{"mcpServers":{}}\n');
    await expectAllFail(["echo planted > .cursor/mcp.json", "echo planted > .cursor/rules/a.mdc"]);
    expect(read(".cursor/mcp.json")).toBe('{"mcpServers":{}}\n');
    expect(readdirSync(at(".cursor/rules"))).toEqual([]);
  });

  it("still writes the rest of the project", async () => {
    expect(await exitCodeOf("mkdir -p src && echo made > src/a.txt && echo made > .latherc")).toBe(0);
    expect(read("src/a.txt")).toBe("made\n");
    expect(read(".latherc")).toBe("made\n");
  });
});
